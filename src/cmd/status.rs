//! `ctxlake status`: is the pipeline alive? Cache age, spool backlog, last sync and
//! maint, snapshot id, and whether a sync daemon holds this host's lock.

use super::{GlobalArgs, context, printed};
use crate::cache::{self, Roster};
use crate::error::Result;
use crate::services::status::{StatusOutput, gather};
use clap::Args;

/// Show whether sync and maint are keeping this host's view fresh
///
/// Example:
///   ctxlake status
///   ctxlake status --json | jq .spool_backlog_bytes
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct StatusArgs {}

pub fn run(_args: StatusArgs, g: &GlobalArgs) -> Result<()> {
    let ctx = context(g)?;
    let roster: cache::Read<Roster> = cache::read(&ctx.paths, &ctx.scope.fleet, cache::ROSTER);
    let age = roster
        .data
        .and_then(|r| cache::age_secs(&r.generated_at, ctx.now_ms()));
    printed(g.output().emit(&gather(&ctx, age, roster.problem), render))
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
        "fleet:        {}\nagent:        {}\nstore:        {} (probe: {probe}{requests})\nmemory:       {}\ncache:        {age}\nspool:        {} in {} file(s) waiting\nhistory:      {} hook record(s) held for this host's next history write\nlast sync:    {}\nlast maint:   {}\nsnapshot:     {}\nsync daemon:  {}\n",
        o.fleet,
        o.agent,
        o.store,
        o.memory_mode,
        crate::spool::human_bytes(o.spool_backlog_bytes),
        o.spool_backlog_files,
        o.history_held_records,
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
    if (o.spool_backlog_bytes > 0 || o.history_held_records > 0) && !o.sync_daemon_running {
        p.push("writes are waiting and no sync daemon runs");
    }
    p
}
