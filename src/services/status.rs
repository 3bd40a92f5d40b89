//! Is the pipeline alive? The facts behind `ctxlake status` and the dashboard's health
//! section: cache age, spool backlog, last sync and maint, snapshot id, the store's last
//! probe, and whether a sync daemon holds this host's lock.

use serde::Serialize;

use crate::cache::{self, Pipeline};
use crate::ctx::Ctx;

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
    /// Hook records drained from the spool and held for this host's next history write
    /// (made when the oldest is a minute old, a session ends, or at a one-shot `sync`).
    pub history_held_records: usize,
    pub last_sync: Option<String>,
    pub last_maint: Option<String>,
    pub snapshot_id: Option<String>,
    pub sync_daemon_running: bool,
    /// The store's last capability probe: `passed` or why it failed (`None`: never probed).
    pub store_probe: Option<String>,
    /// Requests the last sync sent to a remote store (0 for a local lake).
    pub last_sync_requests: Option<u64>,
}

/// The pipeline's health for `ctx`'s fleet, given the roster's age or why it has none (the
/// dashboard shows the same facts, with the roster it already read).
pub fn gather(
    ctx: &Ctx,
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
    let store = ctx.config.store_url(&ctx.paths);
    let health = crate::services::health::read(&ctx.paths).filter(|h| h.store == store);
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
        history_held_records: super::drain::history::held(&ctx.paths).records,
        last_sync: pipe.last_sync,
        last_maint: pipe.last_maint,
        snapshot_id: pipe.snapshot_id,
        sync_daemon_running: daemon,
    }
}
