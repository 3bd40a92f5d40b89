//! `maint` for one fleet: fold claim events, run the gate, and publish a snapshot by
//! creating the next numbered manifest. Idempotent by content: an unchanged state
//! publishes nothing, and two hosts racing publish one manifest per sequence number.

pub mod checkpoint;
mod idle;
mod publish;
mod reader;
mod save;

use crate::config::Config;
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::lake::manifest::{self, Manifest};
use crate::lake::store::Store;
use crate::paths::Paths;
use crate::spelled::spelled;
use checkpoint::{MIN_UNSAVED, Published};

/// What one fleet's `maint` did with its snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MaintOutcome {
    /// A new manifest names this state.
    Published,
    /// The latest manifest already names this state (ours or another host's).
    #[default]
    Unchanged,
    /// Memory mode is off: nothing is published.
    Off,
}

spelled!(MaintOutcome {
    Published => "published",
    Unchanged => "unchanged",
    Off => "off",
});

#[derive(Debug, Default, serde::Serialize)]
pub struct MaintReport {
    pub fleet: String,
    pub events: usize,
    pub claims: usize,
    pub promoted: usize,
    pub contested: usize,
    pub outcome: MaintOutcome,
    pub snapshot_id: Option<String>,
    pub seq: Option<u64>,
    /// Why the configured embedder's vectors are missing (model unusable), if they are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Digest of the folded state (the snapshot id before the embedder's part).
    #[serde(skip)]
    pub state_digest: Option<String>,
    /// Lines of event batch objects skipped as torn, foreign or malformed.
    #[serde(skip_serializing_if = "crate::lake::is_zero")]
    pub bad_lines: usize,
    /// The feed entries this run created to name its manifest: its own feed watermark
    /// skips them, so the next run with nothing new stays idle.
    #[serde(skip)]
    pub named: Vec<String>,
}

/// What `ctxlake maint` did: one report per fleet.
#[derive(Debug, serde::Serialize)]
pub struct MaintOutput {
    pub store: String,
    pub fleets: Vec<MaintReport>,
}

/// `maint` for `only` that fleet, else every fleet the lake holds that this host serves
/// (`services::serving`), after probing the store and checking its format. A fleet's failure names the fleet and stops the run.
/// `progress(done, total)` is called as each fleet's event objects are read.
pub fn run_observed(
    ctx: &Ctx,
    store: &dyn Store,
    only: Option<String>,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<MaintOutput> {
    super::trace::configure(ctx.trace);
    super::health::probe(&ctx.paths, store)?;
    crate::lake::format::ensure(store)?;
    let fleets = match only {
        Some(f) => {
            crate::scope::validate_id("fleet", &f)?;
            vec![f]
        }
        // Only the fleets this host serves: a marker planted in the lake is no reason
        // to fold (or even list) a fleet's events.
        None => {
            let serves = crate::services::serving::fleets(ctx);
            let mut in_lake = crate::lake::fleets(store)?;
            in_lake.retain(|f| serves.contains(f));
            in_lake
        }
    };
    let writer = format!("{}-{}", ctx.scope.agent, crate::ulid::new());
    let mut out = MaintOutput {
        store: store.url(),
        fleets: Vec::new(),
    };
    for f in fleets {
        let r =
            observed(&ctx.paths, &ctx.config, store, &f, &writer, progress).map_err(|e| Error {
                message: format!("fleet `{f}`: {}", e.message),
                ..e
            })?;
        out.fleets.push(r);
    }
    Ok(out)
}

#[cfg(test)]
pub fn maint(
    paths: &Paths,
    config: &Config,
    store: &dyn Store,
    fleet: &str,
    writer: &str,
) -> Result<MaintReport> {
    observed(paths, config, store, fleet, writer, &mut |_, _| {})
}

fn observed(
    paths: &Paths,
    config: &Config,
    store: &dyn Store,
    fleet: &str,
    writer: &str,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<MaintReport> {
    super::trace::start();
    let _lock = lock(paths, fleet, config.lock_wait())?;
    publish::name_pending(paths, store, fleet, true)?;
    if let Some(idle) = idle::check(paths, store, fleet)? {
        let mut latest = Latest::new(store, fleet);
        if let Some(r) = unchanged(
            paths,
            config,
            fleet,
            Some(&idle.published),
            idle.events,
            &mut latest,
        )? {
            return Ok(r);
        }
    }
    let mut loaded = checkpoint::load(paths, store, fleet, progress)?;
    let mut latest = Latest::new(store, fleet);
    let published = loaded
        .checkpoint
        .published
        .as_ref()
        .filter(|_| loaded.fresh == 0);
    let events = loaded.checkpoint.fold.events();
    let (mut report, built) = match unchanged(paths, config, fleet, published, events, &mut latest)?
    {
        Some(r) => (r, false),
        None => publish::publish(
            paths,
            config,
            store,
            fleet,
            writer,
            &mut loaded.checkpoint.fold,
            &mut latest,
        )?,
    };
    report.bad_lines = loaded.bad_lines;
    let seen = &mut loaded.checkpoint.feed_mark.seen;
    seen.extend(std::mem::take(&mut report.named));
    loaded.checkpoint.published = report.state_digest.as_ref().map(|d| Published {
        state_digest: d.clone(),
        mode: config.memory_mode,
        claims: report.claims,
        promoted: report.promoted,
        contested: report.contested,
    });
    save::save(paths, store, fleet, &mut loaded, MIN_UNSAVED, built)?;
    // Freeing 100k claims' state takes ~0.08 s that nobody needs to wait for: a thread
    // frees it, and a process that exits first leaves it to the OS. (Should the thread
    // not start, its closure, and the state with it, is dropped here.)
    let freeing = std::thread::Builder::new().name("maint-free".into());
    let _ = freeing.spawn(move || drop(loaded));
    super::trace::mark("drop");
    Ok(report)
}

/// One `maint` per fleet at a time on this host: the folded state and the snapshot it
/// patches are this host's own files, read, changed and written back by each run.
fn lock(paths: &Paths, fleet: &str, wait: std::time::Duration) -> Result<std::fs::File> {
    let dir = paths.maint_dir();
    std::fs::create_dir_all(&dir).map_err(|e| Error::io("cannot create", &dir, e))?;
    let p = dir.join(format!("{fleet}.lock"));
    let f = crate::fsutil::open_lock(&p)?;
    match crate::spool::lock::lock_within(&f, wait.max(std::time::Duration::from_secs(30))) {
        Ok(true) => Ok(f),
        Ok(false) => Err(Error::storage(
            "maint_busy",
            format!("another `maint` of fleet {fleet} is still running on this host"),
        )
        .hint("wait for it to finish, or find it with `ps` and stop it")),
        Err(e) => Err(Error::io("cannot lock", &p, e)),
    }
}

/// The latest manifest, read from the store at most once per run: the idle check and
/// the publish both need it.
struct Latest<'a> {
    store: &'a dyn Store,
    fleet: &'a str,
    read: Option<Option<Manifest>>,
}

impl<'a> Latest<'a> {
    fn new(store: &'a dyn Store, fleet: &'a str) -> Self {
        Latest {
            store,
            fleet,
            read: None,
        }
    }

    fn get(&mut self) -> Result<Option<&Manifest>> {
        if self.read.is_none() {
            self.read = Some(manifest::latest_manifest(self.store, self.fleet)?);
        }
        Ok(self.read.as_ref().and_then(Option::as_ref))
    }
}

/// The report of an idle run, without folding: no event is new since the state of
/// `events` events that `published` records the snapshot of (`None`: new events, or
/// nothing published), under this memory mode, and the latest manifest still names that
/// snapshot. `None`: fold and publish.
fn unchanged(
    paths: &Paths,
    config: &Config,
    fleet: &str,
    published: Option<&Published>,
    events: usize,
    latest: &mut Latest,
) -> Result<Option<MaintReport>> {
    let Some(p) = published.filter(|p| p.mode == config.memory_mode) else {
        return Ok(None);
    };
    if p.state_digest.len() != 64 {
        return Ok(None); // not a digest: fold
    }
    // The snapshot id also names the embedder: a new model (or a lost one) republishes.
    let vectors = crate::snapshot::vectors::Vectors::plan(paths, config, fleet);
    let snapshot_id = vectors.snapshot_id(&p.state_digest);
    let Some(latest) = latest
        .get()?
        .filter(|m| m.snapshot_id == snapshot_id && m.mode == p.mode)
    else {
        return Ok(None);
    };
    super::trace::mark("unchanged: latest manifest");
    Ok(Some(MaintReport {
        fleet: fleet.into(),
        events,
        claims: p.claims,
        promoted: p.promoted,
        contested: p.contested,
        outcome: MaintOutcome::Unchanged,
        snapshot_id: Some(snapshot_id),
        seq: Some(latest.seq),
        note: vectors.note,
        state_digest: Some(p.state_digest.clone()),
        bad_lines: 0, // set by the caller, from the load
        named: Vec::new(),
    }))
}

#[cfg(test)]
mod tests;
