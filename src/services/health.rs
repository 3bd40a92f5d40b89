//! What the last `sync`/`maint` learnt about the store, kept in `state/store.json` for
//! `ctxlake status`: which store, whether its capability probe passed (and why not), and
//! how many requests the last sync sent, what lake content it skipped and which of the
//! lake's fleets it does not serve. Best effort: losing it loses nothing else.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::lake::store::Store;
use crate::paths::Paths;
use crate::services::serving::Unserved;

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct StoreHealth {
    pub store: String,
    pub probed_at: Option<String>,
    /// `passed`, or the probe's error in one line.
    pub probe: Option<String>,
    pub last_sync_requests: Option<u64>,
    /// What the last sync skipped as hostile or unusable lake content (absent: nothing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_sync_skipped: Option<Skipped>,
    /// Fleets in the lake the last sync did not serve (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unserved_fleets: Option<Unserved>,
}

/// Lake objects a sync pass would not use, in total over its fleets: each means some
/// host writes what this build refuses to read.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Skipped {
    #[serde(default, skip_serializing_if = "is_zero")]
    pub oversize: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub not_regular: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub bad_keys: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub snapshots_refused: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub manifests_ignored: u64,
    /// Roster entries speaking for another roster's session.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub sessions_refused: u64,
    /// Why the last snapshot or roster entry was refused, when one was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Skipped {
    pub fn is_empty(&self) -> bool {
        *self == Skipped::default()
    }
}

fn file(paths: &Paths) -> std::path::PathBuf {
    paths.store_health()
}

pub fn read(paths: &Paths) -> Option<StoreHealth> {
    let bytes = std::fs::read(file(paths)).ok()?;
    serde_json::from_slice(&bytes).ok()
}

fn write(paths: &Paths, h: &StoreHealth) -> Result<()> {
    persist(&file(paths), h)
}

/// Serialize `value` (an error is an error, as at every persist site), then write it
/// best effort: a state directory that cannot be written only loses the record.
fn persist<T: Serialize>(to: &std::path::Path, value: &T) -> Result<()> {
    let b = Error::json_pretty(value)?;
    if let Some(dir) = to.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let _ = crate::fsutil::write_atomic(to, &b, 0o600);
    Ok(())
}

/// Run the capability probe and remember its outcome.
pub fn probe(paths: &Paths, store: &dyn Store) -> Result<()> {
    let r = crate::lake::store::probe(store);
    let mut h = read(paths)
        .filter(|h| h.store == store.url())
        .unwrap_or_default();
    h.store = store.url();
    h.probed_at = Some(crate::time::now_rfc3339());
    h.probe = Some(match &r {
        Ok(()) => "passed".into(),
        Err(e) => e.one_line(),
    });
    write(paths, &h)?;
    r
}

/// Remember how many requests a finished sync sent, what it skipped and which fleets it
/// did not serve.
pub fn sync_finished(
    paths: &Paths,
    store: &dyn Store,
    requests: u64,
    skipped: &Skipped,
    unserved: &Unserved,
) -> Result<()> {
    let mut h = read(paths)
        .filter(|h| h.store == store.url())
        .unwrap_or_default();
    h.store = store.url();
    h.last_sync_requests = Some(requests);
    h.last_sync_skipped = (!skipped.is_empty()).then(|| skipped.clone());
    h.unserved_fleets = (!unserved.is_empty()).then(|| unserved.clone());
    write(paths, &h)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value that cannot be serialized is an error, and nothing is written in its place.
    #[test]
    fn a_serialization_error_is_not_swallowed() {
        let dir = tempfile::tempdir().unwrap();
        let to = dir.path().join("state").join("store.json");
        // serde_json refuses a map whose keys are not strings.
        let bad: std::collections::BTreeMap<(u8, u8), u8> = [((1, 2), 3)].into();
        let e = persist(&to, &bad).unwrap_err();
        assert_eq!(e.code, "serialize", "{e:?}");
        assert!(!to.exists());
        persist(&to, &StoreHealth::default()).unwrap();
        assert!(read_at(&to).is_some());
    }

    fn read_at(p: &std::path::Path) -> Option<StoreHealth> {
        serde_json::from_slice(&std::fs::read(p).ok()?).ok()
    }
}
