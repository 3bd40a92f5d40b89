//! `maint` with nothing new: a listing and a comparison, not a state load. Beside the
//! fold state (`<fleet>.fold`, ~50 MB at 100k claims) each host keeps its head
//! (`<fleet>.head`, a few KB): the event and feed watermarks, the snapshot that state
//! published and the report's counts, what the `.fold` (a checkpoint's bytes) does not
//! hold (its lake, its events no checkpoint holds), and the identity (size, mtime, inode)
//! of the `.fold` file it describes: a `.fold` no head describes is not loaded either. A
//! run whose watermark listings find no new batch and no feed entry, and whose head still
//! describes the `.fold` on disk, is the run that would have loaded the state and found
//! nothing fresh: it answers from the head. Anything else (no head, a
//! head of another version or lake, a `.fold` written since, a checkpoint due) loads.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::checkpoint::{self, Checkpoint, Published};
use crate::error::{Error, Result};
use crate::lake::store::Store;
use crate::lake::watermark::Mark;
use crate::lake::{batch, keys};
use crate::paths::Paths;

/// What the head keeps of a saved state: enough for the idle check and its report.
#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct Head {
    version: u32,
    store: String,
    events_mark: Mark,
    feed_mark: Mark,
    published: Option<Published>,
    events: usize,
    unsaved: usize,
    fold: FileId,
}

/// A file as `stat` names it: a `.fold` written since (always by rename) differs.
#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct FileId {
    len: u64,
    mtime_ns: i128,
    inode: u64,
}

impl FileId {
    fn of(path: &Path) -> Option<FileId> {
        use std::os::unix::fs::MetadataExt;
        let m = std::fs::metadata(path).ok()?;
        Some(FileId {
            len: m.len(),
            mtime_ns: i128::from(m.mtime()) * 1_000_000_000 + i128::from(m.mtime_nsec()),
            inode: m.ino(),
        })
    }
}

/// An idle run's answer: the published state and how many events it folded.
pub(crate) struct Idle {
    pub published: Published,
    pub events: usize,
}

fn head_file(paths: &Paths, fleet: &str) -> PathBuf {
    paths.maint_dir().join(format!("{fleet}.head"))
}

/// Drop the head before the `.fold` it describes is replaced: a run stopped between the
/// two writes leaves no head, and the next run starts from the newest checkpoint.
pub(crate) fn forget(paths: &Paths, fleet: &str) -> Result<()> {
    crate::fsutil::remove_if_present(&head_file(paths, fleet))
}

/// Whether `fleet`'s head describes the `.fold` at `fold` (a state saved before heads
/// were kept has none; one replaced by another build has a stale one).
pub(crate) fn describes(paths: &Paths, fleet: &str, fold: &Path) -> bool {
    head_of(paths, fleet, fold).is_some()
}

/// What `fleet`'s head says of the `.fold` at `fold`, which holds neither: the lake it
/// describes and how many of its events no checkpoint holds. `None` when no head of this
/// version describes it (then it is not used).
pub(crate) fn saved(paths: &Paths, fleet: &str, fold: &Path) -> Option<(String, usize)> {
    let head = head_of(paths, fleet, fold).filter(|h| h.version == checkpoint::VERSION)?;
    Some((head.store, head.unsaved))
}

/// `fleet`'s head, if it describes the `.fold` at `fold`.
fn head_of(paths: &Paths, fleet: &str, fold: &Path) -> Option<Head> {
    let head = read(paths, fleet)?;
    (FileId::of(fold).as_ref() == Some(&head.fold)).then_some(head)
}

fn read(paths: &Paths, fleet: &str) -> Option<Head> {
    let bytes = std::fs::read(head_file(paths, fleet)).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// Write the head of `cp`, just saved in `fold` (its `store` already set).
pub(crate) fn write(paths: &Paths, fleet: &str, fold: &Path, cp: &Checkpoint) -> Result<()> {
    let Some(id) = FileId::of(fold) else {
        return Ok(()); // no state file: no head, the next run loads
    };
    let head = Head {
        version: checkpoint::VERSION,
        store: cp.store.clone(),
        events_mark: cp.events_mark.clone(),
        feed_mark: cp.feed_mark.clone(),
        published: cp.published.clone(),
        events: cp.fold.events(),
        unsaved: cp.unsaved,
        fold: id,
    };
    crate::fsutil::write_atomic(&head_file(paths, fleet), &Error::json(&head)?, 0o600)
}

/// The idle answer for `fleet`, if nothing landed since the saved state and that state
/// published a snapshot; `None`: load the state.
pub(crate) fn check(paths: &Paths, store: &dyn Store, fleet: &str) -> Result<Option<Idle>> {
    let Some(head) = read(paths, fleet) else {
        return Ok(None);
    };
    let fold = paths.maint_dir().join(format!("{fleet}.fold"));
    let current = head.version == checkpoint::VERSION
        && head.store == store.url()
        && FileId::of(&fold).as_ref() == Some(&head.fold)
        && !checkpoint::due_counts(head.unsaved, head.events, super::MIN_UNSAVED);
    let Some(published) = head.published.filter(|_| current) else {
        return Ok(None);
    };
    // What `checkpoint::load` would read: batches past the events watermark (other keys
    // there are skipped by the load too), and any feed entry past the feed's.
    let events_prefix = keys::claim_events(fleet);
    let new_batch = head
        .events_mark
        .scan(store, &events_prefix)?
        .iter()
        .any(|k| batch::is_batch(k));
    if new_batch || !head.feed_mark.scan(store, &keys::feed(fleet))?.is_empty() {
        return Ok(None);
    }
    crate::services::trace::mark("idle check");
    Ok(Some(Idle {
        published,
        events: head.events,
    }))
}
