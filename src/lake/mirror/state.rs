//! What the mirror already holds of one fleet (`state/mirror/<fleet>.json`, written
//! atomically after the cache files): listing watermarks, presences with the size and
//! time they were listed at, the newest handoffs, each session's digest, and the
//! manifest. A pass GETs only what is new or changed, and rebuilds the cache from this.
//! Each session's records are kept beside it (`state/mirror/<fleet>/<agent>/<session>.ndjson`)
//! so a session with a new segment is refolded without reading the lake again.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::cache::{HandoffNote, SessionDigest};
use crate::error::{Error, Result};
use crate::lake::manifest::Manifest;
use crate::lake::presence::PresenceObj;
use crate::lake::watermark::Mark;
use crate::paths::Paths;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct Listed {
    pub size: u64,
    pub mtime_ms: i64,
    pub obj: PresenceObj,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct Session {
    /// Newest segment time seen (the presence's time is added at rebuild).
    pub seen_ms: i64,
    pub digest: SessionDigest,
}

#[derive(Debug, Default, Serialize, Deserialize)]
pub(super) struct State {
    pub store: String,
    pub handoffs_mark: Mark,
    pub feed_mark: Mark,
    pub presences: BTreeMap<String, Listed>,
    /// Newest first, at most `KEEP`.
    pub notes: Vec<HandoffNote>,
    /// By `<agent>/<session>`.
    pub sessions: BTreeMap<String, Session>,
    pub manifest: Option<Manifest>,
}

pub(super) fn dir(paths: &Paths, fleet: &str) -> PathBuf {
    paths.state().join("mirror").join(fleet)
}

fn file(paths: &Paths, fleet: &str) -> PathBuf {
    paths.state().join("mirror").join(format!("{fleet}.json"))
}

/// The state for `store`, or `None` (first pass, another store, or unreadable: rebuild).
pub(super) fn read(paths: &Paths, fleet: &str, store: &str) -> Option<State> {
    let bytes = std::fs::read(file(paths, fleet)).ok()?;
    serde_json::from_slice::<State>(&bytes)
        .ok()
        .filter(|s| s.store == store)
}

pub(super) fn write(paths: &Paths, fleet: &str, s: &State) -> Result<()> {
    let f = file(paths, fleet);
    if let Some(d) = f.parent() {
        std::fs::create_dir_all(d).map_err(|e| Error::io("cannot create", d, e))?;
    }
    let bytes = serde_json::to_vec(s).unwrap_or_default();
    crate::fsutil::write_atomic(&f, &bytes, 0o600)
}

/// Forget every session's local records (a rebuild starts from the lake).
pub(super) fn reset(paths: &Paths, fleet: &str) {
    let _ = std::fs::remove_dir_all(dir(paths, fleet));
}

/// Append a segment's bytes to its session's local records.
pub(super) fn append(paths: &Paths, fleet: &str, session: &str, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let p = dir(paths, fleet).join(format!("{session}.ndjson"));
    if let Some(d) = p.parent() {
        std::fs::create_dir_all(d).map_err(|e| Error::io("cannot create", d, e))?;
    }
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&p)
        .and_then(|mut f| f.write_all(bytes))
        .map_err(|e| Error::io("cannot write", &p, e))
}

/// A session's records, in id order, each once.
pub(super) fn records(paths: &Paths, fleet: &str, session: &str) -> Vec<crate::spool::Record> {
    let p = dir(paths, fleet).join(format!("{session}.ndjson"));
    let mut recs = crate::spool::read_file(&p, 0)
        .map(|s| s.records)
        .unwrap_or_default();
    recs.sort_by(|a, b| a.id.cmp(&b.id));
    recs.dedup_by(|a, b| a.id == b.id);
    recs
}
