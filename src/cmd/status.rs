//! `ctxlake status`: is the pipeline alive? Cache age, spool backlog, last sync and
//! maint, snapshot id, and whether a sync daemon holds this host's lock.

use clap::Args;
use serde::Serialize;

use super::{GlobalArgs, context, printed};
use crate::cache::{self, Pipeline, Roster};
use crate::error::Result;

/// Show whether sync and maint are keeping this host's view fresh
///
/// Example:
///   ctxlake status
///   ctxlake status --json | jq .spool_backlog_bytes
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct StatusArgs {}

#[derive(Debug, Serialize)]
pub struct StatusOutput {
    pub fleet: String,
    pub agent: String,
    pub home: String,
    pub store: String,
    pub memory_mode: String,
    pub cache_age_secs: Option<i64>,
    /// Why the roster gave no data, for the human line (JSON readers have `cache_age_secs`).
    #[serde(skip)]
    pub cache_problem: Option<cache::Problem>,
    pub spool_backlog_bytes: u64,
    pub spool_backlog_files: usize,
    pub last_sync: Option<String>,
    pub last_maint: Option<String>,
    pub snapshot_id: Option<String>,
    pub sync_daemon_running: bool,
    /// The store's last capability probe: `passed` or why it failed (`None`: never probed).
    pub store_probe: Option<String>,
    /// Requests the last sync sent to a remote store (0 for a local lake).
    pub last_sync_requests: Option<u64>,
}

pub fn run(_args: StatusArgs, g: &GlobalArgs) -> Result<()> {
    let ctx = context(g)?;
    let roster: cache::Read<Roster> = cache::read(&ctx.paths, &ctx.scope.fleet, cache::ROSTER);
    let age = roster
        .data
        .and_then(|r| cache::age_secs(&r.generated_at, ctx.now_ms()));
    printed(g.output().emit(&gather(&ctx, age, roster.problem), render))
}

/// The pipeline's health for `ctx`'s fleet, given the roster's age or why it has none (the
/// dashboard shows the same facts, with the roster it already read).
pub(crate) fn gather(
    ctx: &crate::tools::Ctx,
    cache_age_secs: Option<i64>,
    cache_problem: Option<cache::Problem>,
) -> StatusOutput {
    let fleet = ctx.scope.fleet.clone();
    let pipe: cache::Read<Pipeline> = cache::read(&ctx.paths, &fleet, cache::PIPELINE);
    let pipe = pipe.data.unwrap_or_default();
    let files = crate::spool::list_files(&ctx.paths.spool);
    let backlog: u64 = files
        .iter()
        .filter_map(|f| std::fs::metadata(f).ok())
        .map(|m| m.len())
        .sum();
    let daemon = super::sync::watch_running(&ctx.paths);
    let store = crate::lake::store_url(&ctx.paths, &ctx.config);
    let health = crate::lake::health::read(&ctx.paths).filter(|h| h.store == store);
    StatusOutput {
        store_probe: health.as_ref().and_then(|h| h.probe.clone()),
        last_sync_requests: health.and_then(|h| h.last_sync_requests),
        store,
        fleet,
        agent: ctx.scope.agent.clone(),
        home: ctx.paths.home.display().to_string(),
        memory_mode: ctx.config.memory_mode.as_str().into(),
        cache_problem,
        cache_age_secs,
        spool_backlog_bytes: backlog,
        spool_backlog_files: files
            .iter()
            .filter(|f| std::fs::metadata(f).is_ok_and(|m| m.len() > 0))
            .count(),
        last_sync: pipe.last_sync,
        last_maint: pipe.last_maint,
        snapshot_id: pipe.snapshot_id,
        sync_daemon_running: daemon,
    }
}

fn render(o: &StatusOutput) -> String {
    let or = |v: &Option<String>| v.clone().unwrap_or_else(|| "never".into());
    let age = match (o.cache_age_secs, o.cache_problem) {
        (Some(s), _) => format!("{s}s old"),
        (None, Some(p)) => p.headline().into(),
        (None, None) => "age unknown".into(),
    };
    let probe = o.store_probe.as_deref().unwrap_or("not probed yet");
    let requests = o.last_sync_requests.map_or(String::new(), |n| {
        format!(", last sync sent {n} request(s)")
    });
    let problems = problems(o);
    let doctor = if problems.is_empty() {
        String::new()
    } else {
        format!(
            "problem:      {}: `ctxlake doctor` checks every link and prints the fix\n",
            problems.join("; ")
        )
    };
    let text = format!(
        "fleet:        {}\nagent:        {}\nstore:        {} (probe: {probe}{requests})\nmemory:       {}\ncache:        {age}\nspool:        {} in {} file(s) waiting\nlast sync:    {}\nlast maint:   {}\nsnapshot:     {}\nsync daemon:  {}\n",
        o.fleet,
        o.agent,
        o.store,
        o.memory_mode,
        crate::spool::human_bytes(o.spool_backlog_bytes),
        o.spool_backlog_files,
        or(&o.last_sync),
        or(&o.last_maint),
        o.snapshot_id.clone().unwrap_or_else(|| "none".into()),
        if o.sync_daemon_running {
            "running"
        } else {
            "not running (start: `ctxlake service install`)"
        },
    );
    text + &doctor
}

/// What the quick view can see is wrong; any of it sends the reader to `ctxlake doctor`.
fn problems(o: &StatusOutput) -> Vec<&'static str> {
    let mut p = Vec::new();
    if o.store_probe.as_deref().is_some_and(|s| s != "passed") {
        p.push("the store's last probe failed");
    }
    if o.cache_problem
        .is_some_and(|c| c != cache::Problem::Missing)
    {
        p.push("the cache is unreadable");
    }
    if o.spool_backlog_bytes > 0 && !o.sync_daemon_running {
        p.push("writes are waiting and no sync daemon runs");
    }
    p
}
