//! The memory-ages invariants, checked against what the agents and people actually did:
//! no claim is superseded unless a person said so or two independent sessions proposed its
//! replacement naming it (or its key); and once quiescent, a host's `maint` publishes the
//! statuses and chains a full fold of every event in the lake gives, however its snapshot
//! was built (patched in place or whole).

use serde_json::Value;

use super::check::independent_naming;
use super::world::World;
use crate::lake::keys;
use crate::lake::manifest::Manifest;
use crate::spool::RecordKind;

type Check = std::result::Result<(), String>;

/// Whether a person queued `action` on claim `id` (with `by`, when given) in `fleet`.
pub(super) fn by_person(w: &World, fleet: &str, action: &str, id: &str, by: Option<&str>) -> bool {
    w.written.iter().map(|x| &x.rec).any(|r| {
        r.fleet == fleet
            && r.kind == RecordKind::MemoryOperator
            && r.payload["action"] == action
            && r.payload["claim_id"] == id
            && by.is_none_or(|b| r.payload["by"] == b)
    })
}

/// The key a proposal of claim `id` named, if any did.
fn key_of(w: &World, fleet: &str, id: &str) -> Option<String> {
    w.written.iter().map(|x| &x.rec).find_map(|r| {
        let p = &r.payload;
        let about = r.fleet == fleet
            && r.kind == RecordKind::MemoryPropose
            && crate::memory::gate::claim_id(
                p["subject"].as_str().unwrap_or_default(),
                p["claim"].as_str().unwrap_or_default(),
            ) == id;
        about
            .then(|| p["key"].as_str().map(str::to_string))
            .flatten()
    })
}

/// Every superseded claim of a snapshot was replaced by a person, or by a claim two
/// independent sessions proposed naming it (or its key).
pub(super) fn superseded_justified(
    w: &World,
    fleet: &str,
    key: &str,
    conn: &rusqlite::Connection,
) -> Check {
    let rows: Vec<(String, String)> = conn
        .prepare("SELECT id, superseded_by FROM claims WHERE status = 'superseded'")
        .and_then(|mut s| {
            s.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<rusqlite::Result<_>>()
        })
        .map_err(|e| format!("snapshot of `{key}` is unreadable: {e}"))?;
    for (id, by) in rows {
        if by_person(w, fleet, "supersede", &id, Some(&by)) {
            continue;
        }
        let old_key = key_of(w, fleet, &id);
        let names = |p: &Value| {
            let named = p["supersedes"]
                .as_array()
                .is_some_and(|a| a.iter().any(|v| v == &id));
            let keyed = old_key.is_some() && p["key"].as_str() == old_key.as_deref();
            named || keyed
        };
        let have = independent_naming(w, fleet, &by, names);
        if have < 2 {
            return Err(format!(
                "`{key}` supersedes {id} by {by}, named by {have} independent session(s)"
            ));
        }
    }
    Ok(())
}

/// (id, status, superseded_by, outdated_by, pending_by) of every claim, sorted by id.
type Rows = Vec<(
    String,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
)>;

/// Once quiescent, host 0's `maint` publishes what the full fold of every lake event gives.
pub(super) fn as_a_full_fold(w: &World, fleet: &str) -> Check {
    w.host_clock(0);
    let r =
        crate::services::maint::maint(&w.hosts[0].paths, &w.config, &w.store, fleet, "host0-final")
            .map_err(|e| format!("fleet {fleet}: the final maint failed: {}", e.message))?;
    let Some(seq) = r.seq else {
        return Ok(());
    };
    let m: Manifest = w
        .store
        .peek(&keys::manifest(fleet, seq))
        .and_then(|b| serde_json::from_slice(&b).ok())
        .ok_or(format!("fleet {fleet}: manifest {seq} is unreadable"))?;
    let snap = w
        .store
        .peek(&m.key)
        .ok_or(format!("fleet {fleet}: {} is missing", m.key))?;
    let path = w.dir.path().join("final.sqlite");
    std::fs::write(&path, snap).map_err(|e| e.to_string())?;
    let conn = rusqlite::Connection::open(&path).map_err(|e| e.to_string())?;
    let mut got: Rows = conn
        .prepare("SELECT id, status, superseded_by, outdated_by, pending_by FROM claims")
        .and_then(|mut s| {
            s.query_map([], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
            })?
            .collect::<rusqlite::Result<_>>()
        })
        .map_err(|e| format!("fleet {fleet}: the final snapshot is unreadable: {e}"))?;
    let events = crate::memory::event::load_events(&w.store, fleet).map_err(|e| e.message)?;
    let mut want: Rows = crate::memory::gate::fold(&events)
        .claims
        .into_iter()
        .map(|c| {
            (
                c.id,
                c.status.to_string(),
                c.superseded_by,
                c.outdated_by,
                c.pending_by,
            )
        })
        .collect();
    got.sort();
    want.sort();
    if got != want {
        return Err(format!(
            "fleet {fleet}: the published statuses and chains {got:?} are not the full fold's {want:?}"
        ));
    }
    Ok(())
}
