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

/// The claim events in a claim-event batch of `fleet`, and how many lines were skipped.
pub(crate) fn events(bytes: &[u8], fleet: &str) -> (Vec<Event>, usize) {
    let (recs, bad) = crate::lake::batch::decode(bytes, fleet, crate::lake::batch::Area::Events);
    let events = recs
        .into_iter()
        .map(|r| Event {
            id: r.id,
            at: r.ts,
            kind: r.kind,
            agent: r.agent,
            session: r.session,
            payload: r.payload,
        })
        .collect();
    (events, bad)
}

/// Every event by a full listing: the reference `maint`'s checkpointed fold is tested against.
#[cfg(test)]
pub fn load_events(
    store: &dyn crate::lake::store::Store,
    fleet: &str,
) -> crate::error::Result<Vec<Event>> {
    let mut out = Vec::new();
    for o in store.list(&crate::lake::keys::claim_events(fleet))? {
        if crate::lake::batch::is_batch(&o.key)
            && let Some((b, _)) = store.get(&o.key)?
        {
            out.extend(events(&b, fleet).0);
        }
    }
    out.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(out)
}
