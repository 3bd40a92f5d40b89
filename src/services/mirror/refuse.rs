//! What a pass refuses of the lake: a fetched snapshot is checked as a reader will open
//! it before it replaces the mirror, and everything skipped is counted for `sync --json`.

use std::path::Path;

use crate::error::{Error, Result};

/// Objects of the lake a pass refused to use, counted, so `sync --json` and `doctor`
/// can say that a peer writes what this build will not read.
#[derive(Debug, Default, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Skipped {
    /// Objects over their kind's size cap (`rules::cap_bytes`), never read.
    #[serde(default, skip_serializing_if = "crate::lake::is_zero")]
    pub oversize: usize,
    /// Manifests ignored: numbered implausibly past what this host holds
    /// (`manifest::newest_plausible`), or naming a key other than their fleet's snapshot.
    #[serde(default, skip_serializing_if = "crate::lake::is_zero")]
    pub manifests: usize,
    /// Roster entries refused: a roster speaking for a session another roster carried
    /// first (`fetch::rosters`).
    #[serde(default, skip_serializing_if = "crate::lake::is_zero")]
    pub sessions: usize,
    /// Which, for the last one refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_note: Option<String>,
    /// Keys a feed entry named that are no key of this fleet a mirror reads
    /// (`keys::fed`: another fleet's or kind's, or a refused name): never read.
    #[serde(default, skip_serializing_if = "crate::lake::is_zero")]
    pub bad_keys: usize,
    /// Which, for the last one refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_note: Option<String>,
    /// Snapshots refused by the guard (schema, defences): the previous mirror stays.
    #[serde(default, skip_serializing_if = "crate::lake::is_zero")]
    pub snapshots: usize,
    /// Why the last snapshot was refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapshot_note: Option<String>,
}

impl Skipped {
    pub fn is_empty(&self) -> bool {
        *self == Skipped::default()
    }
}

/// Check a fetched snapshot as a reader will open it (`Snapshot::open`), and only then
/// replace `bin` with it: `Some(why)` when refused, and `bin` is left as it was.
pub(super) fn install(bin: &Path, bytes: &[u8]) -> Result<Option<String>> {
    let check = bin.with_extension("check");
    crate::fsutil::write_atomic(&check, bytes, 0o600)?;
    if let Err(e) = crate::snapshot::Snapshot::open(&check) {
        let _ = std::fs::remove_file(&check);
        return Ok(Some(e.one_line()));
    }
    std::fs::rename(&check, bin).map_err(|e| Error::io("cannot publish", bin, e))?;
    crate::fsutil::sync_dir(bin.parent().unwrap_or(Path::new(".")))?;
    Ok(None)
}
