//! What `ctxlake import` already replayed, per runtime (`state/import/<runtime>.json`):
//! each transcript file's size and mtime (an unchanged file is not read again), and each
//! session's count of events replayed (a session that grew gets only its new events).
//! Losing this file costs nothing but time: record ids are derived from the runtime's
//! own ids, so a replay writes the same records and readers drop them by id.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::paths::Paths;

#[derive(Debug, Default, Serialize, Deserialize)]
pub(super) struct Ledger {
    /// Transcript file → `<size>:<mtime ns>` when it was last read whole.
    #[serde(default)]
    pub files: BTreeMap<String, String>,
    /// Session id → events replayed.
    #[serde(default)]
    pub sessions: BTreeMap<String, usize>,
}

fn file(paths: &Paths, runtime: &str) -> PathBuf {
    paths.import_ledger(runtime)
}

impl Ledger {
    /// The runtime's ledger; empty when missing or unreadable (a replay is harmless).
    pub fn load(paths: &Paths, runtime: &str) -> Ledger {
        std::fs::read(file(paths, runtime))
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    pub fn save(&self, paths: &Paths, runtime: &str) -> Result<()> {
        let f = file(paths, runtime);
        if let Some(d) = f.parent() {
            std::fs::create_dir_all(d)
                .map_err(|e| crate::error::Error::io("cannot create", d, e))?;
        }
        let bytes = crate::error::Error::json(self)?;
        crate::fsutil::write_atomic(&f, &bytes, 0o600)
    }
}

/// A file's size and mtime, to tell whether it changed since it was read.
pub(super) fn stamp(path: &Path) -> String {
    let m = std::fs::metadata(path);
    let size = m.as_ref().map_or(0, |m| m.len());
    let mtime = m
        .ok()
        .and_then(|m| m.modified().ok())
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    format!("{size}:{mtime}")
}
