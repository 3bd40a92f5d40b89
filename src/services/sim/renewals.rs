//! The simulation's checks of deferred lease renewals (`fleet::roster::defer`): which
//! records a host keeps back from the lake in its kept roster, that only renewals and liveness-only hook events are,
//! that each waits safely far from the lake's expiry, and that none is left once due.

use std::collections::BTreeSet;

use super::world::{FLEETS, World};
use crate::fleet::presence::PresenceObj;
use crate::fleet::roster::{self, RosterObj};
use crate::lake::keys;
use crate::spool::RecordKind;

type Check = std::result::Result<(), String>;

/// The lake's copy of host `h`'s roster of `fleet`: (sessions, applied ids, write id).
fn lake_roster(
    w: &World,
    h: usize,
    fleet: &str,
) -> Option<(Vec<PresenceObj>, BTreeSet<String>, String)> {
    let key = keys::roster(fleet, &format!("host{h}"));
    let bytes = w.store.peek(&key)?;
    let r: RosterObj = serde_json::from_slice(&bytes).ok()?;
    let ids = r.windows.into_iter().flat_map(|w| w.applied).collect();
    Some((r.sessions, ids, r.write))
}

/// The record ids host `h` applied and keeps for the lake without having written them
/// yet: deferred lease renewals (see `fleet::roster::defer`), which its kept copy holds.
pub(super) fn waiting_ids(w: &World, h: usize, fleet: &str) -> BTreeSet<String> {
    let Some((_, kept)) = roster::waiting(&w.hosts[h].paths, fleet) else {
        return BTreeSet::new();
    };
    let in_lake = lake_roster(w, h, fleet)
        .map(|(_, ids, _)| ids)
        .unwrap_or_default();
    kept.windows
        .into_iter()
        .flat_map(|w| w.applied)
        .filter(|id| !in_lake.contains(id) && w.store.roster_applied(id) == 0)
        .collect()
}

/// The invariant of deferred renewals: a host whose kept copy holds renewals the lake
/// lacks has the lake carry each of those leases at least the shortest margin past the
/// deadline it keeps, so other hosts see it live until the renewal is written; and only
/// lease renewals (and hook events within the liveness grain) wait.
pub(super) fn wait_safely(w: &World, fleet: &str) -> Check {
    let horizon = crate::services::watch::renewal_horizon(std::time::Duration::from_millis(
        super::world::EVERY_MS as u64,
    ));
    for h in 0..w.hosts.len() {
        let Some((due, kept)) = roster::waiting(&w.hosts[h].paths, fleet) else {
            continue;
        };
        for id in waiting_ids(w, h, fleet) {
            let kind = w
                .written
                .iter()
                .find(|x| x.rec.id == id)
                .map(|x| x.rec.kind.clone());
            // A renewal waits for its deadline; a hook event that only moved liveness
            // waits for the liveness grain (its history goes its own way). A session's
            // end, and every other record, is written at once.
            let may_wait = match &kind {
                Some(RecordKind::FleetClaim) => true,
                Some(k) => k.is_hook() && *k != RecordKind::HookSessionEnd,
                None => false,
            };
            if !may_wait {
                return Err(format!(
                    "host{h} keeps record {id} ({kind:?}) back from the lake"
                ));
            }
        }
        let Some((sessions, _, write)) = lake_roster(w, h, fleet) else {
            continue;
        };
        if write != kept.write {
            continue; // a write carrying them is on its way (or failed and will be redone)
        }
        for p in &sessions {
            for l in &p.leases {
                let mine = kept.sessions.iter().find(|k| k.session == p.session);
                let mine = mine.and_then(|k| k.leases.iter().find(|m| m.path == l.path));
                let Some(mine) = mine else {
                    return Err(format!(
                        "host{h}'s kept roster of {fleet} lost lease {}",
                        l.path
                    ));
                };
                if mine.expires_at_ms != l.expires_at_ms && due > l.expires_at_ms - horizon {
                    return Err(format!(
                        "host{h} keeps a renewal of {} due at {due}, within {horizon} ms of the lake's expiry {}",
                        l.path, l.expires_at_ms
                    ));
                }
                if mine.expires_at_ms < l.expires_at_ms {
                    return Err(format!("host{h}'s kept expiry of {} went back", l.path));
                }
            }
        }
    }
    Ok(())
}

/// After the renewals came due: nothing waits anywhere, the lake's copy of every roster
/// is the kept one.
pub(super) fn nothing_waits(w: &World) -> Check {
    for f in FLEETS {
        for h in 0..w.hosts.len() {
            let ids = waiting_ids(w, h, f);
            if let Some(id) = ids.first() {
                return Err(format!("host{h} still keeps renewal {id} of {f} back"));
            }
            let Some((_, kept)) = roster::waiting(&w.hosts[h].paths, f) else {
                continue;
            };
            let lake = lake_roster(w, h, f).map(|(s, _, _)| s);
            if lake.as_ref() != Some(&kept.sessions) {
                return Err(format!(
                    "host{h}'s roster of {f} in the lake is not its kept copy"
                ));
            }
        }
    }
    Ok(())
}
