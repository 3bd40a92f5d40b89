//! Snapshot manifests: `snapshot/<fleet>/manifest/<20-digit seq>.json`, created with
//! create-if-absent by `maint`; readers take the highest number.

use serde::{Deserialize, Serialize};

use super::keys;
use super::store::Store;
use crate::error::Result;

/// A published snapshot's manifest.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
pub struct Manifest {
    pub seq: u64,
    /// Digest of the folded state: equal ids mean equal content.
    pub snapshot_id: String,
    pub key: String,
    pub sha256: String,
    pub writer: String,
    pub built_at: String,
    pub mode: String,
    pub claims: usize,
}

pub fn latest_manifest(store: &dyn Store, fleet: &str) -> Result<Option<Manifest>> {
    let Some(last) = store
        .list(&keys::manifests(fleet))?
        .into_iter()
        .rfind(|o| keys::manifest_seq(&o.key).is_some())
    else {
        return Ok(None);
    };
    Ok(store
        .get(&last.key)?
        .and_then(|(b, _)| serde_json::from_slice(&b).ok()))
}
