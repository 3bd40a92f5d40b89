//! `maint`'s folded state and where it stands in the lake. Each host keeps its own copy
//! (`state/maint/<fleet>.fold`): the incremental gate state (`memory::fold`) and the event
//! and feed watermarks, so a run lists, reads and folds only the events that landed since
//! its last run, whatever the history. Every so often (`due`) a run also creates that
//! state in the lake as a checkpoint, under a lake-time ULID key (create-if-absent: two
//! hosts racing write two valid checkpoints), so a host with no local copy (a new one, or
//! one whose copy was lost or belongs to another lake) starts from the newest checkpoint
//! plus the events after it instead of from every event. Only the newest few are kept; a
//! checkpoint that cannot be read or parsed, or of another version, falls back to an
//! older one, and without any to a full listing.

use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::lake::store::Store;
use crate::lake::watermark::{self, Mark};
use crate::lake::{batch, keys};
use crate::memory::fold::State;
use crate::paths::Paths;

/// The state's format and meaning: bump it whenever what the state stores per claim (its
/// gate group, gate result or hash) would come out differently (a change to the gate,
/// the contradiction test, evidence rules or claim ids), so every host refolds.
pub(crate) const VERSION: u32 = 3;
/// Checkpoints kept per fleet: a few, so a host that listed one a moment before a prune
/// still finds it or a newer one.
pub(super) const KEEP: usize = 3;
/// A run writes a checkpoint once the events folded since the last one reach a sixteenth
/// of the total and at least this many: a host starting from the newest checkpoint then
/// reads at most that many events more, and a run that adds a few events to a large
/// history writes nothing but its local copy.
pub(crate) const MIN_UNSAVED: usize = 256;

#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct Checkpoint {
    pub version: u32,
    pub events_mark: Mark,
    pub feed_mark: Mark,
    pub fold: State,
    /// The snapshot `maint` published (or found published) from exactly this state: an
    /// idle `maint` whose latest manifest still names it skips the fold.
    #[serde(default)]
    pub published: Option<Published>,
    /// Events folded since the newest checkpoint this copy was written to or read from.
    /// Kept in this host's head (`idle`), never in the JSON: a checkpoint's bytes are
    /// this host's `.fold` as they are, and a save writes them once.
    #[serde(skip)]
    pub unsaved: usize,
    /// The lake this host's copy describes (from its head; a checkpoint's is empty).
    #[serde(skip)]
    pub store: String,
}

/// What the fold of a checkpoint's events published, and its report's counts.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub(crate) struct Published {
    /// The fold's digest: the snapshot id is derived from it and the embedder.
    pub state_digest: String,
    pub mode: crate::config::MemoryMode,
    pub claims: usize,
    pub promoted: usize,
    pub contested: usize,
}

/// The folded state of a fleet, brought up to date with the lake.
pub(crate) struct Loaded {
    pub checkpoint: Checkpoint,
    /// Events not folded before this run.
    pub fresh: usize,
    /// Where this run's state came from: this host's copy, a checkpoint's key, or nothing.
    pub base: Base,
    /// `checkpoint.published` as loaded: a changed one is worth saving.
    pub base_published: Option<Published>,
    /// Lines of event batch objects skipped as torn, foreign or malformed.
    pub bad_lines: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Base {
    Local,
    Checkpoint(String),
    Nothing,
}

pub(super) fn maint_dir(paths: &Paths) -> std::path::PathBuf {
    paths.maint_dir()
}

pub(super) fn hint_file(paths: &Paths, fleet: &str) -> std::path::PathBuf {
    maint_dir(paths).join(format!("{fleet}.checkpoint"))
}

pub(super) fn local_file(paths: &Paths, fleet: &str) -> std::path::PathBuf {
    maint_dir(paths).join(format!("{fleet}.fold"))
}

/// This host's copy, if it is readable and its head says it describes this lake.
fn local(paths: &Paths, store: &dyn Store, fleet: &str) -> Option<Checkpoint> {
    let file = local_file(paths, fleet);
    let (lake, unsaved) = super::idle::saved(paths, fleet, &file)?;
    if lake != store.url() {
        return None;
    }
    let bytes = std::fs::read(&file).ok()?;
    crate::services::trace::mark("state file read");
    let mut cp: Checkpoint = serde_json::from_slice(&bytes).ok()?;
    crate::services::trace::mark("state parse");
    (cp.version == VERSION).then(|| {
        cp.fold.reindex();
        crate::services::trace::mark("state reindex");
        (cp.unsaved, cp.store) = (unsaved, lake);
        cp
    })
}

/// The newest checkpoint this host knows of: the one it last used or wrote, or a newer one.
fn latest(paths: &Paths, store: &dyn Store, fleet: &str) -> Result<Option<String>> {
    let hint = std::fs::read_to_string(hint_file(paths, fleet))
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|k| k.starts_with(&keys::checkpoints(fleet)));
    let prefix = keys::checkpoints(fleet);
    let newer = match &hint {
        Some(h) => store.list_after(&prefix, h)?,
        None => store.list(&prefix)?,
    };
    Ok(newer.into_iter().next_back().map(|o| o.key).or(hint))
}

/// A checkpoint of this build's version, as a state to start from.
fn read(store: &dyn Store, key: &str) -> Option<Checkpoint> {
    let (bytes, _) = store.get(key).ok()??;
    #[derive(Deserialize)]
    struct Version {
        version: u32,
    }
    if serde_json::from_slice::<Version>(&bytes).ok()?.version != VERSION {
        return None;
    }
    let mut cp = serde_json::from_slice::<Checkpoint>(&bytes).ok()?;
    // Lake text: a state that is not whole (a claim twice, a detail that does not parse,
    // claims out of order) is not used; an older checkpoint or a full listing is.
    cp.fold.reindex();
    if !cp.fold.is_whole() {
        return None;
    }
    // Another host's build history says nothing about this host's snapshot files.
    cp.fold.forget_builds();
    cp.published = None;
    cp.unsaved = 0;
    Some(cp)
}

/// The newest readable checkpoint of `fleet` by a fresh listing.
fn older(store: &dyn Store, fleet: &str) -> Result<Option<(String, Checkpoint)>> {
    let listed = store.list(&keys::checkpoints(fleet))?;
    Ok(listed
        .into_iter()
        .rev()
        .take(KEEP)
        .find_map(|o| read(store, &o.key).map(|cp| (o.key, cp))))
}

/// The state to fold new events into: this host's copy, else the newest checkpoint,
/// else an empty state that lists every event.
fn start(paths: &Paths, store: &dyn Store, fleet: &str, now: i64) -> Result<(Base, Checkpoint)> {
    if let Some(cp) = local(paths, store, fleet) {
        return Ok((Base::Local, cp));
    }
    let key = latest(paths, store, fleet)?;
    crate::services::trace::mark("checkpoint list");
    let found = match key.as_deref().and_then(|k| read(store, k)) {
        Some(cp) => key.map(|k| (k, cp)),
        // Pruned by another host since it was listed, or damaged: an older one will do.
        None if key.is_some() => older(store, fleet)?,
        None => None,
    };
    Ok(match found {
        Some((k, cp)) => (Base::Checkpoint(k), cp),
        None => (
            Base::Nothing,
            Checkpoint {
                version: VERSION,
                feed_mark: Mark::starting_at(now),
                ..Checkpoint::default()
            },
        ),
    })
}

/// Events folded per round (`State::apply_in_rounds`): bounds a first fold's parsed
/// claims, and so its memory, at a few MB.
const FOLD_ROUND: usize = 8192;

/// The folded state of `fleet`: where this host left it plus the events after it.
/// `progress(done, total)` counts the event objects read: a first fold (no state, no
/// checkpoint) reads every one the fleet ever wrote.
pub(crate) fn load(
    paths: &Paths,
    store: &dyn Store,
    fleet: &str,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Loaded> {
    let now = store.now_ms()?;
    let (base, mut cp) = start(paths, store, fleet, now)?;
    crate::services::trace::mark("state read+parse");
    let events_prefix = keys::claim_events(fleet);
    let feed_prefix = keys::feed(fleet);
    let listed = cp.events_mark.scan(store, &events_prefix)?;
    let feed = cp.feed_mark.scan(store, &feed_prefix)?;
    let fed = watermark::feed_keys(store, &feed)?;
    // Advanced before the fold, in this copy only: a run whose reads fail drops it unsaved.
    cp.events_mark
        .advance(&events_prefix, now, listed.iter().map(String::as_str));
    cp.feed_mark
        .advance(&feed_prefix, now, feed.iter().map(String::as_str));
    let mut keys = listed;
    // A feed entry is untrusted input naming keys: only a key in exactly this fleet's
    // event-batch shape is read (`..` or another fleet's key would fail the run at its GET,
    // on every host). The mirror reads the same entry and counts what it refuses.
    keys.extend(
        fed.into_iter()
            .filter(|k| keys::fed(fleet, k) == Some(keys::Fed::Events)),
    );
    crate::services::trace::mark("event+feed list");
    // A batch is named by its first event's id, and batches are create-only: one whose
    // name was folded was read whole before. Any other key there is not a batch's.
    keys.retain(|k| batch::is_batch(k) && !cp.fold.has(keys::stem(k)));
    keys.sort();
    keys.dedup();
    // Events are read as the fold takes them (`Reader`): only a chunk's payloads are held
    // at a time. A failed read ends them early; this run's state is then dropped unsaved.
    let mut reader = super::reader::Reader::new(store, fleet, &keys, progress);
    let fresh = reader.fold_into(&mut cp.fold, FOLD_ROUND);
    if let Some(e) = reader.error {
        return Err(e);
    }
    let bad_lines = reader.bad_lines;
    if fresh > 0 {
        cp.published = None; // it described the fold of fewer events
    }
    cp.unsaved += fresh;
    crate::services::trace::mark("event reads+fold");
    Ok(Loaded {
        base_published: cp.published.clone(),
        checkpoint: cp,
        fresh,
        base,
        bad_lines,
    })
}

/// A checkpoint is due once the events it would add are many enough: `min` (in `maint`,
/// `MIN_UNSAVED`) and a sixteenth of the total. `min` 0: whenever any are (tests).
pub(super) fn due(cp: &Checkpoint, min: usize) -> bool {
    due_counts(cp.unsaved, cp.fold.events(), min)
}

/// `due` from the counts alone (the idle check has no state loaded).
pub(crate) fn due_counts(unsaved: usize, events: usize, min: usize) -> bool {
    unsaved > 0 && (min == 0 || (unsaved >= min && unsaved >= events / 16))
}

#[cfg(test)]
#[path = "checkpoint_tests.rs"]
pub(super) mod tests;
