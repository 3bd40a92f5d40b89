//! What the last `sync`/`maint` learnt about the store, kept in `state/store.json` for
//! `ctxlake status`: which store, whether its capability probe passed (and why not), and
//! how many requests the last sync sent. Best effort: losing it loses nothing else.

use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::lake::store::Store;
use crate::paths::Paths;

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct StoreHealth {
    pub store: String,
    pub probed_at: Option<String>,
    /// `passed`, or the probe's error in one line.
    pub probe: Option<String>,
    pub last_sync_requests: Option<u64>,
}

fn file(paths: &Paths) -> std::path::PathBuf {
    paths.state().join("store.json")
}

pub fn read(paths: &Paths) -> Option<StoreHealth> {
    let bytes = std::fs::read(file(paths)).ok()?;
    serde_json::from_slice(&bytes).ok()
}

fn write(paths: &Paths, h: &StoreHealth) {
    if let Ok(b) = serde_json::to_vec_pretty(h) {
        let _ = std::fs::create_dir_all(paths.state());
        let _ = crate::fsutil::write_atomic(&file(paths), &b, 0o600);
    }
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
    write(paths, &h);
    r
}

/// Remember how many requests a finished sync sent.
pub fn sync_finished(paths: &Paths, store: &dyn Store, requests: u64) {
    let mut h = read(paths)
        .filter(|h| h.store == store.url())
        .unwrap_or_default();
    h.store = store.url();
    h.last_sync_requests = Some(requests);
    write(paths, &h);
}
