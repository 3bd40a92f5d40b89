//! A sync pass: probe the store and check its format (when asked), list the lake's
//! fleets, drain the spool, mirror every fleet this host serves (rosters first; see
//! `serving`) and write each one's briefing, then record the store's health. Also the drain-only step a
//! `sync --watch` daemon runs between passes. Holds the host's sync lock throughout.

use std::fs::File;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::lake::{self, Store};
use crate::paths::Paths;
use crate::services::drain::{self, Carry, DrainReport};
use crate::services::mirror::{self, MirrorReport};
use crate::services::serving::{self, Unserved};
use crate::services::{health, trace};

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
    /// Lake content this pass would not use, over every fleet (omitted when none).
    #[serde(skip_serializing_if = "health::Skipped::is_empty")]
    pub skipped: health::Skipped,
    /// Fleets in the lake this host does not serve, so did not mirror (omitted when none).
    #[serde(skip_serializing_if = "Unserved::is_empty")]
    pub unserved_fleets: Unserved,
}

/// What a pass tells whoever runs it while it works (the command line shows it on a
/// terminal; a daemon or a test ignores it).
pub trait Observer {
    /// Another sync of this host holds the lock; this one waits for it.
    fn waiting_for_lock(&mut self) {}
    /// The drain moved `done` of `total` spool bytes into the lake.
    fn drained(&mut self, _done: u64, _total: u64) {}
    /// The mirror finished `done` of `total` fleets (a first sync reads each one whole).
    fn mirrored(&mut self, _done: u64, _total: u64) {}
}

/// Whether a `sync --watch` daemon runs on this host: it holds [`Paths::sync_watch_lock`].
pub(crate) fn watch_running(paths: &Paths) -> bool {
    File::open(paths.sync_watch_lock()).is_ok_and(|f| f.try_lock_shared().is_err())
}

/// Become this host's one `sync --watch` daemon: the lock, held until the file drops.
pub fn watch_lock(ctx: &Ctx) -> Result<File> {
    std::fs::create_dir_all(ctx.paths.state())
        .map_err(|e| Error::io("cannot create", &ctx.paths.state(), e))?;
    let lock = crate::fsutil::open_lock(&ctx.paths.sync_watch_lock())?;
    lock.try_lock().map_err(|_| {
        Error::refused(
            "sync_running",
            "another `ctxlake sync --watch` is already running on this host",
        )
        .hint("one daemon per host is enough; see `ctxlake status`")
    })?;
    Ok(lock)
}

/// One pass: probe and check the format (when `probe`), drain, mirror every fleet served. `carry`: what earlier
/// drains of this process learnt (see `Carry`).
pub fn once(
    ctx: &Ctx,
    store: &dyn Store,
    probe: bool,
    carry: &mut Carry,
    seen: &mut dyn Observer,
) -> Result<SyncOutput> {
    trace::configure(ctx.trace);
    let start = Instant::now();
    let (sent_before, gets_before) = (store.requests(), store.gets());
    let skips_before = store.skipped();
    let _lock = host_lock(ctx, seen)?;
    let trace = |phase: &str| trace::sync(phase, store.requests());
    trace("pass start");
    crate::fsutil::sweep_temp_files(&ctx.paths.state(), Duration::from_secs(3600));
    if probe {
        opened(ctx, store)?;
    }
    // Listed before the drain, so the drain knows which fleet markers exist; a daemon
    // only now and then (see `Carry::fleets_due`).
    if carry.fleets_due(&serving::fleets(ctx), crate::time::now_ms()) {
        carry.listed(&lake::fleets(store)?);
        trace("fleets listed");
    }
    let drained = drain(ctx, store, carry, seen)?;
    trace("drained");
    let in_lake = carry.fleets();
    let serves = serving::fleets(ctx);
    let unserved_fleets = Unserved::of(&in_lake, &serves);
    let plan = mirror::Plan::new(&ctx.paths, store, &in_lake, &serves);
    let (total, mut done) = (plan.fleets.len() as u64, 0);
    let fleets = mirror::mirror_all(&ctx.paths, &ctx.config, store, &plan, |f| {
        trace(&format!("mirrored {f}"));
        done += 1;
        seen.mirrored(done, total);
        // The hook's session-start briefing, pre-rendered so the hook stays within budget.
        let mut fleet_ctx = ctx.clone();
        fleet_ctx.scope.fleet = f.to_string();
        crate::fleet::briefing::write(&fleet_ctx)
    })?;
    let requests = store.requests() - sent_before;
    let skipped = skipped(store.skipped().since(skips_before), &fleets);
    health::sync_finished(&ctx.paths, store, requests, &skipped, &unserved_fleets)?;
    Ok(SyncOutput {
        store: store.url(),
        drained,
        fleets,
        elapsed_ms: start.elapsed().as_millis(),
        requests,
        gets: store.gets() - gets_before,
        skipped,
        unserved_fleets,
    })
}

/// A drain with no mirror: what `sync --watch` runs between its passes when agents of this
/// host queued new writes, so they reach the lake without waiting for the next pass. It
/// is not a sync for `status` (the cache did not move).
pub(crate) fn drain_only(
    ctx: &Ctx,
    store: &dyn Store,
    probe: bool,
    carry: &mut Carry,
    seen: &mut dyn Observer,
) -> Result<SyncOutput> {
    trace::configure(ctx.trace);
    let start = Instant::now();
    let (sent_before, gets_before) = (store.requests(), store.gets());
    let _lock = host_lock(ctx, seen)?;
    trace::sync("drain start", store.requests());
    if probe {
        opened(ctx, store)?;
    }
    let drained = drain(ctx, store, carry, seen)?;
    trace::sync("drain end", store.requests());
    Ok(SyncOutput {
        store: store.url(),
        drained,
        fleets: Vec::new(),
        elapsed_ms: start.elapsed().as_millis(),
        requests: store.requests() - sent_before,
        gets: store.gets() - gets_before,
        skipped: health::Skipped::default(),
        unserved_fleets: Unserved::default(),
    })
}

/// What the store skipped this pass, with what the mirror skipped in each fleet.
fn skipped(store: crate::lake::store::Skips, fleets: &[MirrorReport]) -> health::Skipped {
    let mut out = health::Skipped {
        oversize: store.oversize,
        not_regular: store.not_regular,
        bad_keys: store.bad_keys,
        ..health::Skipped::default()
    };
    for f in fleets {
        out.oversize += f.skipped.oversize as u64;
        out.snapshots_refused += f.skipped.snapshots as u64;
        out.manifests_ignored += f.skipped.manifests as u64;
        out.sessions_refused += f.skipped.sessions as u64;
        out.bad_keys += f.skipped.bad_keys as u64;
        if let Some(n) = &f.skipped.key_note {
            out.note = Some(format!("fleet `{}`: {n}", f.fleet));
        }
        if let Some(n) = &f.skipped.session_note {
            out.note = Some(format!("fleet `{}`: {n}", f.fleet));
        }
        if let Some(n) = &f.skipped.snapshot_note {
            out.note = Some(format!("fleet `{}`: {n}", f.fleet));
        }
    }
    out
}

/// What a store just opened must pass before a pass or drain uses it: the capability
/// probe, and a format marker this build reads (created if the lake has none). A
/// one-shot sync checks both every run; a daemon when it (re)opens the store.
fn opened(ctx: &Ctx, store: &dyn Store) -> Result<()> {
    health::probe(&ctx.paths, store)?;
    lake::format::ensure(store)
}

/// The host's sync lock (one drain or pass at a time), held until the file is dropped.
fn host_lock(ctx: &Ctx, seen: &mut dyn Observer) -> Result<File> {
    std::fs::create_dir_all(ctx.paths.state())
        .map_err(|e| Error::io("cannot create", &ctx.paths.state(), e))?;
    let lock = crate::fsutil::open_lock(&ctx.paths.sync_lock())?;
    if lock.try_lock().is_err() {
        seen.waiting_for_lock();
        lock.lock()
            .map_err(|e| Error::io("cannot lock", &ctx.paths.state(), e))?;
    }
    Ok(lock)
}

fn drain(
    ctx: &Ctx,
    store: &dyn Store,
    carry: &mut Carry,
    seen: &mut dyn Observer,
) -> Result<DrainReport> {
    let mut progress = |done: usize, total: usize| seen.drained(done as u64, total as u64);
    drain::drain(
        &ctx.paths,
        store,
        ctx.config.lock_wait(),
        carry,
        &mut progress,
    )
}

#[cfg(test)]
#[path = "sync_tests.rs"]
mod tests;
