//! The lake's one storage interface: get, put, create-if-absent and list, each with
//! the store's own timestamps. No compare-and-swap: every shared decision is a
//! create-if-absent. `LocalStore` (`local`) is a directory; an object store implements
//! the same trait without touching anything above it.

mod beneath;
mod local;
mod regular;
mod stage;

pub use local::LocalStore;

use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Error, Result};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Object {
    pub key: String,
    pub size: u64,
    /// The store's modification time, in ms since the epoch (the lake clock).
    pub mtime_ms: i64,
    /// What tells two versions under one key apart when size and time cannot: S3 lists
    /// time to the whole second, and a roster rewritten within its second at the same size
    /// would look unchanged. A hash of the entity tag an object store lists, or of a local
    /// file's inode and nanosecond time; 0 when the store gives none.
    pub tag: u64,
}

/// An object's bytes and its store timestamp (ms), as `get` answers.
pub type Got = (Vec<u8>, i64);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Created {
    /// We created it; the store's timestamp.
    Yes(i64),
    /// Something already holds this key (ours from an earlier try, or another writer's).
    Exists,
}

/// Objects a store would not hand over, counted since it was opened (a pass reports
/// the difference): each cost at most its listing entry, or one answer's headers.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Skips {
    /// Larger than their kind's cap (`keys::cap`): skipped before the body is read.
    #[serde(skip_serializing_if = "is_zero")]
    pub oversize: u64,
    /// Locally, not a regular file (a symlink, FIFO, socket or device): never followed
    /// nor read.
    #[serde(skip_serializing_if = "is_zero")]
    pub not_regular: u64,
    /// Listed under a name no key may have (`keys::validate`): left out of the listing.
    #[serde(skip_serializing_if = "is_zero")]
    pub bad_keys: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Skips {
    /// What was skipped since `before` was taken.
    pub fn since(self, before: Skips) -> Skips {
        Skips {
            oversize: self.oversize.saturating_sub(before.oversize),
            not_regular: self.not_regular.saturating_sub(before.not_regular),
            bad_keys: self.bad_keys.saturating_sub(before.bad_keys),
        }
    }
}

/// The counters behind `Store::skipped`, shared by the backends.
#[derive(Debug, Default)]
pub(crate) struct SkipCounter {
    oversize: AtomicU64,
    not_regular: AtomicU64,
    bad_keys: AtomicU64,
}

/// What a store skipped, for [`SkipCounter::add`].
#[derive(Debug, Clone, Copy)]
pub(crate) enum Skip {
    Oversize,
    NotRegular,
    BadKey,
}

impl SkipCounter {
    pub(crate) fn add(&self, what: Skip) {
        let c = match what {
            Skip::Oversize => &self.oversize,
            Skip::NotRegular => &self.not_regular,
            Skip::BadKey => &self.bad_keys,
        };
        c.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn get(&self) -> Skips {
        Skips {
            oversize: self.oversize.load(Ordering::Relaxed),
            not_regular: self.not_regular.load(Ordering::Relaxed),
            bad_keys: self.bad_keys.load(Ordering::Relaxed),
        }
    }
}

pub trait Store {
    /// A human-readable location, e.g. `file:///home/u/.ctxlake/lake`.
    fn url(&self) -> String;
    /// The object's bytes and store time, or `None` when absent — or when it is over its
    /// kind's cap (`keys::cap`) or, locally, not a regular file (counted in `skipped`).
    fn get(&self, key: &str) -> Result<Option<(Vec<u8>, i64)>>;
    /// Overwrite (only for single-writer keys); returns the store's timestamp.
    fn put(&self, key: &str, bytes: &[u8]) -> Result<i64>;
    /// Create `key` only if absent, atomically.
    fn create(&self, key: &str, bytes: &[u8]) -> Result<Created>;
    /// `create` with the bytes of the local file `path` (a snapshot is tens of MB): a
    /// local lake copies the file without holding it in memory; a remote store reads it.
    fn create_file(&self, key: &str, path: &std::path::Path) -> Result<Created> {
        let bytes = std::fs::read(path).map_err(|e| Error::io("cannot read", path, e))?;
        self.create(key, &bytes)
    }
    /// Objects whose key starts with `prefix` (a `/`-terminated folder or a key prefix), sorted.
    fn list(&self, prefix: &str) -> Result<Vec<Object>>;
    /// Like `list`, but only keys sorting after `after` (S3 `start-after`): a watermark
    /// listing costs one request per 1,000 new keys, not per key in history.
    fn list_after(&self, prefix: &str, after: &str) -> Result<Vec<Object>> {
        let mut all = self.list(prefix)?;
        all.retain(|o| o.key.as_str() > after);
        Ok(all)
    }
    /// The keys `list` (or, with an `after`, `list_after`) would answer, without what
    /// else it says of each object: a local lake lists them without a stat per file
    /// (a first fold lists 100k event keys and reads nothing else of the listing).
    fn list_keys(&self, prefix: &str, after: Option<&str>) -> Result<Vec<String>> {
        let listed = match after {
            Some(a) => self.list_after(prefix, a)?,
            None => self.list(prefix)?,
        };
        Ok(listed.into_iter().map(|o| o.key).collect())
    }
    /// `list` (or, with an `after`, `list_after`) for each item, answers in order; a
    /// remote store keeps several in flight.
    fn list_many(&self, lists: &[(String, Option<String>)]) -> Result<Vec<Vec<Object>>> {
        lists
            .iter()
            .map(|(p, a)| match a {
                Some(a) => self.list_after(p, a),
                None => self.list(p),
            })
            .collect()
    }
    /// `create` for each item, answers in order; a remote store keeps several in flight.
    /// An error fails the batch (some items may have landed: creates are safe to resend).
    fn create_many(&self, items: &[(String, Vec<u8>)]) -> Result<Vec<Created>> {
        items.iter().map(|(k, b)| self.create(k, b)).collect()
    }
    /// `put` for each item; a remote store keeps several in flight. An error fails the
    /// batch (some items may have landed: overwrites are safe to resend).
    fn put_many(&self, items: &[(String, Vec<u8>)]) -> Result<()> {
        items.iter().try_for_each(|(k, b)| self.put(k, b).map(drop))
    }
    /// `get` for each key, answers in order; a remote store keeps several in flight.
    fn get_many(&self, keys: &[String]) -> Result<Vec<Option<Got>>> {
        keys.iter().map(|k| self.get(k)).collect()
    }
    fn delete(&self, key: &str) -> Result<()>;
    /// The store's clock now, in ms.
    fn now_ms(&self) -> Result<i64>;
    /// Make every earlier write durable (a barrier before advancing a watermark).
    fn flush(&self) -> Result<()> {
        Ok(())
    }
    /// Requests sent to a remote store so far (0 for a local directory).
    fn requests(&self) -> u64 {
        0
    }
    /// Of `requests`, object reads (GETs).
    fn gets(&self) -> u64 {
        0
    }
    /// Objects skipped so far as hostile or unusable (`get` answers such an object as
    /// absent; `list` leaves out what no key may name).
    fn skipped(&self) -> Skips {
        Skips::default()
    }
}

/// The capability probe every `sync` starts with: create a fresh key twice; the second
/// must be refused. A store that ignores the condition cannot serve several writers.
pub fn probe(store: &dyn Store) -> Result<()> {
    let key = format!("probe/{}", crate::ulid::new());
    let first = store.create(&key, b"probe")?;
    let second = store.create(&key, b"probe-again")?;
    let _ = store.delete(&key);
    match (first, second) {
        (Created::Yes(_), Created::Exists) => Ok(()),
        _ => Err(Error::storage(
            "store_unsafe",
            format!(
                "the store `{}` does not honour create-if-absent: a second create of the same key succeeded, so hosts would overwrite each other's leases and manifests",
                store.url()
            ),
        )
        .hint("point `store` (config.toml) or `CTXLAKE_STORE` at a store that honours conditional writes (`If-None-Match: *`): AWS S3, Cloudflare R2, a current MinIO, or a local directory; Garage and some older servers ignore them")),
    }
}
