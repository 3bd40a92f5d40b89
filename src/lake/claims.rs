//! Claim events as the lake holds them (`claims/<fleet>/events/`, create-only batches, see
//! `lake::batch`), read back in id order for the gate (`memory::gate`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::spool::RecordKind;

/// A claim event as `sync` wrote it into the lake.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct Event {
    pub id: String,
    pub at: String,
    /// `memory_propose`, `memory_shown` or `memory_operator` (anything else is kept verbatim).
    pub kind: RecordKind,
    pub agent: String,
    pub session: String,
    pub payload: Value,
}

/// Every event by a full listing: the reference `maint`'s checkpointed fold is tested against.
#[cfg(test)]
pub fn load_events(
    store: &dyn super::store::Store,
    fleet: &str,
) -> crate::error::Result<Vec<Event>> {
    let mut out = Vec::new();
    for o in store.list(&super::keys::claim_events(fleet))? {
        if let Some((b, _)) = store.get(&o.key)? {
            out.extend(super::batch::events(&o.key, &b, fleet).0);
        }
    }
    out.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(out)
}
