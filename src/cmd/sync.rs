//! `ctxlake sync [--watch]`: drain the spool into the lake, then mirror the lake into
//! the cache. `--watch` is the per-host daemon (one per host, enforced by a lock).

use std::fs::File;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

use clap::Args;
use serde::Serialize;

use super::{GlobalArgs, printed};
use crate::error::{Error, Result};
use crate::lake::{
    self,
    drain::{Carry, DrainReport},
    mirror::MirrorReport,
};
use crate::tools::Ctx;

/// Move queued writes into the lake and refresh the local cache
///
/// Drains `spool/` at least once (records carry ids, so a re-run after a crash is a
/// no-op), advancing its watermark only after the lake confirmed, then rebuilds
/// `cache/<fleet>/` atomically and mirrors the published memory snapshot.
/// `--watch` starts a pass every `--interval` seconds (only one daemon runs per host), and
/// between passes drains what agents queue within about a quarter interval.
///
/// Example:
///   ctxlake sync
///   ctxlake sync --watch --interval 10
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct SyncArgs {
    /// Keep running: sync every `--interval` seconds, drain new writes in between.
    #[arg(long)]
    pub watch: bool,
    /// Seconds between syncs with `--watch` (default: `[sync] interval_secs`, 15).
    #[arg(long, value_name = "SECS")]
    pub interval: Option<u64>,
}

#[derive(Debug, Serialize)]
pub struct SyncOutput {
    pub store: String,
    pub drained: DrainReport,
    pub fleets: Vec<MirrorReport>,
    pub elapsed_ms: u128,
    /// Requests this pass sent to a remote store (0 for a local lake).
    pub requests: u64,
    /// Of those, object reads.
    pub gets: u64,
}

/// Held exclusively by the one `sync --watch` daemon of a host (in the state dir).
const WATCH_LOCK: &str = "sync-watch.lock";

/// Whether a `sync --watch` daemon runs on this host: it holds [`WATCH_LOCK`].
pub(crate) fn watch_running(paths: &crate::paths::Paths) -> bool {
    std::fs::File::open(paths.state().join(WATCH_LOCK)).is_ok_and(|f| f.try_lock_shared().is_err())
}

pub fn run(args: SyncArgs, g: &GlobalArgs) -> Result<()> {
    let ctx = Ctx::load(&g.scope_flags())?;
    std::fs::create_dir_all(ctx.paths.state())
        .map_err(|e| Error::io("cannot create", &ctx.paths.state(), e))?;
    if args.watch {
        let lock = lock_file(&ctx, WATCH_LOCK)?;
        lock.try_lock().map_err(|_| {
            Error::refused(
                "sync_running",
                "another `ctxlake sync --watch` is already running on this host",
            )
            .hint("one daemon per host is enough; see `ctxlake status`")
        })?;
        let every = Duration::from_secs(
            args.interval
                .unwrap_or(ctx.config.sync_interval_secs)
                .max(1),
        );
        g.output().note(&format!(
            "syncing every {}s; stop with Ctrl-C",
            every.as_secs()
        ));
        return super::sync_watch::run(&ctx, g, every);
    }
    let store = lake::open(&ctx.paths, &ctx.config)?;
    let out = once(&ctx, g, store.as_ref(), true, &mut Carry::default())?;
    printed(g.output().emit(&out, render))
}

fn lock_file(ctx: &Ctx, name: &str) -> Result<File> {
    crate::fsutil::open_lock(&ctx.paths.state().join(name))
}

/// One pass: probe (when `probe`), drain, mirror every fleet. Holds the host's sync lock
/// throughout. `carry`: what earlier drains of this process learnt (see `Carry`).
pub fn once(
    ctx: &Ctx,
    g: &GlobalArgs,
    store: &dyn lake::Store,
    probe: bool,
    carry: &mut Carry,
) -> Result<SyncOutput> {
    let start = Instant::now();
    let (sent_before, gets_before) = (store.requests(), store.gets());
    let _lock = host_lock(ctx, g)?;
    let trace = |phase: &str| lake::trace::sync(phase, store.requests());
    trace("pass start");
    crate::fsutil::sweep_temp_files(&ctx.paths.state(), Duration::from_secs(3600));
    if probe {
        lake::health::probe(&ctx.paths, store)?;
    }
    // Listed before the drain, so the drain knows which fleet markers exist.
    carry.listed(&lake::fleets(store)?);
    trace("fleets listed");
    let drained = drain(ctx, g, store, carry)?;
    trace("drained");
    let plan = lake::mirror::Plan::new(&ctx.paths, store, &carry.fleets(), &ctx.scope.fleet);
    let listed = lake::mirror::prefetch(&ctx.paths, store, &plan.to_list())?;
    trace("prefetched");
    let fleets = lake::mirror::mirror_all(
        &ctx.paths,
        &ctx.config,
        &listed,
        &plan.fleets,
        &plan.empty,
        |f| {
            trace(&format!("mirrored {f}"));
            // The hook's session-start briefing, pre-rendered so the hook stays within budget.
            let mut fleet_ctx = ctx.clone();
            fleet_ctx.scope.fleet = f.to_string();
            crate::fleet::briefing::write(&fleet_ctx)
        },
    )?;
    let requests = store.requests() - sent_before;
    lake::health::sync_finished(&ctx.paths, store, requests);
    Ok(SyncOutput {
        store: store.url(),
        drained,
        fleets,
        elapsed_ms: start.elapsed().as_millis(),
        requests,
        gets: store.gets() - gets_before,
    })
}

/// A drain with no mirror: what `sync --watch` runs between its passes when agents of this
/// host queued new writes, so they reach the lake without waiting for the next pass. It
/// is not a sync for `status` (the cache did not move).
pub(crate) fn drain_only(
    ctx: &Ctx,
    g: &GlobalArgs,
    store: &dyn lake::Store,
    probe: bool,
    carry: &mut Carry,
) -> Result<SyncOutput> {
    let start = Instant::now();
    let (sent_before, gets_before) = (store.requests(), store.gets());
    let _lock = host_lock(ctx, g)?;
    lake::trace::sync("drain start", store.requests());
    if probe {
        lake::health::probe(&ctx.paths, store)?;
    }
    let drained = drain(ctx, g, store, carry)?;
    lake::trace::sync("drain end", store.requests());
    Ok(SyncOutput {
        store: store.url(),
        drained,
        fleets: Vec::new(),
        elapsed_ms: start.elapsed().as_millis(),
        requests: store.requests() - sent_before,
        gets: store.gets() - gets_before,
    })
}

/// The host's sync lock (one drain or pass at a time), held until the file is dropped.
fn host_lock(ctx: &Ctx, g: &GlobalArgs) -> Result<File> {
    let lock = lock_file(ctx, "sync.lock")?;
    if lock.try_lock().is_err() {
        g.output()
            .note("waiting for the sync already running on this host…");
        lock.lock()
            .map_err(|e| Error::io("cannot lock", &ctx.paths.state(), e))?;
    }
    Ok(lock)
}

/// Drain the spool, showing progress on a terminal.
fn drain(
    ctx: &Ctx,
    g: &GlobalArgs,
    store: &dyn lake::Store,
    carry: &mut Carry,
) -> Result<DrainReport> {
    let show = std::io::stderr().is_terminal() && !g.quiet;
    let mut last = Instant::now();
    let mut progress = |done: usize, total: usize| {
        if show && last.elapsed() > Duration::from_millis(500) {
            last = Instant::now();
            crate::output::stderr(&format!(
                "\rdraining spool: {} of {}",
                crate::spool::human_bytes(done as u64),
                crate::spool::human_bytes(total as u64)
            ));
        }
    };
    let drained = lake::drain::drain(
        &ctx.paths,
        store,
        ctx.config.lock_wait(),
        carry,
        &mut progress,
    )?;
    drained
        .warnings
        .iter()
        .for_each(|w| crate::output::stderr(w));
    Ok(drained)
}

pub(crate) fn render(o: &SyncOutput) -> String {
    let d = &o.drained;
    let requests = match o.requests {
        0 => String::new(),
        n => format!(", {n} store request(s)"),
    };
    let mut s = format!(
        "synced {} records ({} new, {} already applied) from {} spool file(s) into {} in {} ms{requests}\n",
        d.records, d.applied, d.already_applied, d.files, o.store, o.elapsed_ms
    );
    if d.bad_lines + d.torn_tails > 0 {
        s.push_str(&format!(
            "skipped {} torn/corrupt line(s), {} bytes; resynced {}\n",
            d.bad_lines + d.torn_tails,
            d.skipped_bytes,
            d.resynced
        ));
    }
    for b in &d.busy {
        s.push_str(&format!("left for the next sync: {b}\n"));
    }
    for f in &o.fleets {
        s.push_str(&format!(
            "fleet {}: {} agent(s), {} session(s), {} handoff(s), snapshot {}\n",
            f.fleet,
            f.agents,
            f.sessions,
            f.handoffs,
            f.snapshot_id.as_deref().unwrap_or("none")
        ));
    }
    s
}
