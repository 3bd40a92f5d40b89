//! `maint` checkpoints: the gate's inputs folded so far (every claim event, in id
//! order) and where the event and feed listings stood, created under a lake-time ULID
//! key (create-if-absent: two hosts racing write two valid checkpoints). The next
//! `maint` reads the newest checkpoint it knows plus only the events after it, so its
//! requests follow new events, not history. The gate then runs over the whole set, so
//! the result is the full refold's by construction, whatever order events land in.
//! Only the newest few are kept. A checkpoint that cannot be read or parsed falls back to
//! an older one, and without any to a full listing.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::claims::Event;
use super::keys;
use super::store::Store;
use super::watermark::{self, Mark};
use crate::error::Result;
use crate::paths::Paths;

const VERSION: u32 = 1;
/// Checkpoints kept per fleet: a few, so a host that listed one a moment before a prune
/// still finds it or a newer one (each is about 30 MB at 100k events).
const KEEP: usize = 3;

#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct Checkpoint {
    pub version: u32,
    pub events_mark: Mark,
    pub feed_mark: Mark,
    pub events: Vec<Event>,
    /// The snapshot `maint` published (or found published) from exactly `events`: an
    /// idle `maint` whose latest manifest still names it skips the fold.
    #[serde(default)]
    pub published: Option<Published>,
}

/// What the fold of a checkpoint's events published, and its report's counts.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub(crate) struct Published {
    /// The fold's digest: the snapshot id is derived from it and the embedder.
    pub state_digest: String,
    pub mode: String,
    pub claims: usize,
    pub promoted: usize,
    pub contested: usize,
}

/// The events of a fleet, from a checkpoint and the lake after it.
pub(crate) struct Loaded {
    pub checkpoint: Checkpoint,
    /// Events not in the checkpoint this run started from.
    pub fresh: usize,
    /// The checkpoint key this run started from, if any.
    pub base: Option<String>,
    /// `checkpoint.published` as loaded: a changed one is worth a new checkpoint.
    pub base_published: Option<Published>,
    /// Lines of event batch objects skipped as torn, foreign or malformed.
    pub bad_lines: usize,
}

fn hint_file(paths: &Paths, fleet: &str) -> std::path::PathBuf {
    paths
        .state()
        .join("maint")
        .join(format!("{fleet}.checkpoint"))
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

fn read(store: &dyn Store, key: &str) -> Option<Checkpoint> {
    let (bytes, _) = store.get(key).ok()??;
    serde_json::from_slice::<Checkpoint>(&bytes)
        .ok()
        .filter(|c| c.version == VERSION)
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

/// Delete all but the newest `KEEP` checkpoints. Best effort: a checkpoint left behind
/// costs only space, and a reader that loses its checkpoint to this falls back to `older`.
fn prune(store: &dyn Store, fleet: &str) {
    let Ok(listed) = store.list(&keys::checkpoints(fleet)) else {
        return;
    };
    for o in listed.iter().rev().skip(KEEP) {
        let _ = store.delete(&o.key);
    }
}

/// Every claim event of `fleet`, in id order: the checkpoint's plus the new ones.
pub(crate) fn load(paths: &Paths, store: &dyn Store, fleet: &str) -> Result<Loaded> {
    let now = store.now_ms()?;
    let base = latest(paths, store, fleet)?;
    super::trace::mark("checkpoint list");
    let found = match base.as_deref().and_then(|k| read(store, k)) {
        Some(cp) => base.map(|k| (k, cp)),
        // Pruned by another host since it was listed, or damaged: an older one will do.
        None if base.is_some() => older(store, fleet)?,
        None => None,
    };
    let (base, mut cp) = match found {
        Some((k, cp)) => (Some(k), cp),
        // No checkpoint, or an unreadable one: list every event; the feed from now on.
        None => (
            None,
            Checkpoint {
                version: VERSION,
                feed_mark: Mark::starting_at(now),
                ..Checkpoint::default()
            },
        ),
    };
    let events_prefix = keys::claim_events(fleet);
    let feed_prefix = keys::feed(fleet);
    super::trace::mark("checkpoint read+parse");
    let listed = cp.events_mark.scan(store, &events_prefix)?;
    let feed = cp.feed_mark.scan(store, &feed_prefix)?;
    let mut keys: Vec<String> = listed.iter().map(|o| o.key.clone()).collect();
    let fed = watermark::feed_keys(store, &feed)?;
    keys.extend(fed.into_iter().filter(|k| k.starts_with(&events_prefix)));
    super::trace::mark("event+feed list");
    let mut by_id: BTreeMap<String, Event> = std::mem::take(&mut cp.events)
        .into_iter()
        .map(|e| (e.id.clone(), e))
        .collect();
    let before = by_id.len();
    keys.retain(|k| !by_id.contains_key(keys::stem(k)));
    keys.sort();
    keys.dedup();
    let mut bad_lines = 0;
    for (k, found) in keys.iter().zip(store.get_many(&keys)?) {
        let Some((b, _)) = found else { continue };
        let (events, bad) = super::batch::events(k, &b, fleet);
        by_id.extend(events.into_iter().map(|e| (e.id.clone(), e)));
        bad_lines += bad;
    }
    let fresh = by_id.len() - before;
    if fresh > 0 {
        cp.published = None; // it described the fold of fewer events
    }
    super::trace::mark("event reads+merge");
    cp.events = by_id.into_values().collect();
    cp.events_mark
        .advance(&events_prefix, now, listed.iter().map(|o| o.key.as_str()));
    cp.feed_mark
        .advance(&feed_prefix, now, feed.iter().map(|o| o.key.as_str()));
    Ok(Loaded {
        base_published: cp.published.clone(),
        checkpoint: cp,
        fresh,
        base,
        bad_lines,
    })
}

/// Write a new checkpoint when this run folded events its base did not hold.
pub(crate) fn save(paths: &Paths, store: &dyn Store, fleet: &str, l: &Loaded) -> Result<()> {
    let key = match (&l.base, l.fresh) {
        (Some(base), 0) if l.checkpoint.published == l.base_published => base.clone(),
        _ => {
            let body = serde_json::to_vec(&l.checkpoint).unwrap_or_default();
            let key = keys::checkpoint(fleet, &watermark::lake_ulid(store.now_ms()?, &body));
            store.create(&key, &body)?;
            store.flush()?;
            prune(store, fleet);
            super::trace::mark("checkpoint write");
            key
        }
    };
    let f = hint_file(paths, fleet);
    if let Some(dir) = f.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| crate::error::Error::io("cannot create", dir, e))?;
    }
    crate::fsutil::write_atomic(&f, key.as_bytes(), 0o600)
}

#[cfg(test)]
#[path = "checkpoint_tests.rs"]
mod tests;
