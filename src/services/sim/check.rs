//! The invariants, checked against what the agents actually did (never against the
//! code's own bookkeeping): every spooled record is in the lake exactly once or still in
//! its host's spool (a hook event: or in its host's pending history), and once quiescent
//! every host's mirror holds every hook event of every session, none foreign; manifests are numbered without gaps, never rewritten, and point at
//! an intact snapshot; the gate promotes nothing short of its independent sessions; and
//! once quiescent, every host's roster shows the same leases, the ones the agents hold.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use sha2::{Digest, Sha256};

use super::world::{FLEETS, World};
use crate::cache::{self, Roster};
use crate::lake::batch::{self, Area};
use crate::lake::keys;
use crate::lake::manifest::Manifest;
use crate::memory::gate::claim_id;
use crate::spool;
use crate::spool::RecordKind;

type Check = std::result::Result<(), String>;

/// What earlier steps saw, so "never overwritten" and the gate are checked once per manifest.
#[derive(Default)]
pub(super) struct Seen {
    manifests: BTreeMap<String, Vec<u8>>,
}

pub(super) fn after_step(w: &World, seen: &mut Seen) -> Check {
    if let Some(v) = w.store.violations().first() {
        return Err(format!("store: {v}"));
    }
    exactly_once(w, false)?;
    for f in FLEETS {
        manifests(w, f, seen)?;
        super::renewals::wait_safely(w, f)?;
    }
    Ok(())
}

/// After `settle`: nothing pending anywhere, and every host sees the same leases.
pub(super) fn quiescent(w: &World) -> Check {
    exactly_once(w, true)?;
    for f in FLEETS {
        let want = expected_leases(w, f);
        for (h, host) in w.hosts.iter().enumerate() {
            let roster: Option<Roster> = cache::read(&host.paths, f, cache::ROSTER).data;
            let got: BTreeMap<String, BTreeSet<String>> = roster
                .map(|r| r.agents)
                .unwrap_or_default()
                .into_iter()
                .filter(|a| !a.leases.is_empty())
                .map(|a| (a.session, a.leases.into_iter().map(|l| l.path).collect()))
                .collect();
            if got != want {
                return Err(format!(
                    "fleet {f}: host{h}'s leases {got:?} are not the agents' {want:?}"
                ));
            }
        }
        every_handoff_mirrored(w, f)?;
        every_hook_event_mirrored(w, f)?;
        super::named::every_host_mirrors_the_newest_named_manifest(w, f)?;
        super::chains::as_a_full_fold(w, f)?;
    }
    Ok(())
}

/// Every host's handoff cache holds every handoff in the lake: the mirror's watermark
/// listing and the feed missed none, however late or out of order they landed.
fn every_handoff_mirrored(w: &World, f: &str) -> Check {
    let want: BTreeSet<String> = lake_ids(w, f, Area::Handoffs).into_iter().collect();
    for (h, host) in w.hosts.iter().enumerate() {
        let got: BTreeSet<String> = cache::read::<cache::Handoffs>(&host.paths, f, cache::HANDOFFS)
            .data
            .map(|c| c.handoffs.into_iter().map(|n| n.id).collect())
            .unwrap_or_default();
        if let Some(missed) = want.difference(&got).next() {
            return Err(format!(
                "fleet {f}: host{h}'s mirror missed handoff {missed}"
            ));
        }
    }
    Ok(())
}

/// Every host's local copy of each session's history holds exactly the hook events its
/// agent spooled (read back as the mirror reads it: by id), whichever host wrote them,
/// the reading host's own included.
fn every_hook_event_mirrored(w: &World, f: &str) -> Check {
    let mut want: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for r in w.written.iter().map(|x| &x.rec) {
        if r.fleet == f && r.kind.is_hook() {
            let s = format!("{}/{}", r.agent, r.session);
            want.entry(s).or_default().insert(r.id.clone());
        }
    }
    for (h, host) in w.hosts.iter().enumerate() {
        for (s, ids) in &want {
            let file = host.paths.mirror_dir().join(f).join(format!("{s}.ndjson"));
            let got: BTreeSet<String> = spool::read_file(&file, 0)
                .map(|x| x.records.into_iter().map(|r| r.id).collect())
                .unwrap_or_default();
            if let Some(missed) = ids.difference(&got).next() {
                return Err(format!(
                    "fleet {f}: host{h}'s history of {s} missed {missed}"
                ));
            }
            if let Some(foreign) = got.difference(ids).next() {
                return Err(format!(
                    "fleet {f}: host{h}'s history of {s} holds {foreign}"
                ));
            }
        }
    }
    Ok(())
}

/// The hook event ids the lake's history objects of `fleet` hold, once per copy.
fn history_ids(w: &World, fleet: &str) -> Vec<String> {
    let mut ids = Vec::new();
    for k in w.store.peek_keys(&keys::sessions(fleet)) {
        let bytes = w.store.peek(&k).unwrap_or_default();
        ids.extend(spool::scan(&bytes, 0).records.into_iter().map(|r| r.id));
    }
    ids
}

/// The record ids the lake holds in `area` of `fleet`, once per copy (inside batch
/// objects: nothing else is written there).
fn lake_ids(w: &World, fleet: &str, area: Area) -> Vec<String> {
    let mut ids = Vec::new();
    for k in w.store.peek_keys(&area.prefix(fleet)) {
        let bytes = w.store.peek(&k).unwrap_or_default();
        ids.extend(
            batch::decode(&bytes, fleet, area)
                .0
                .into_iter()
                .map(|r| r.id),
        );
    }
    ids
}

/// The leases each session holds, replaying its claims and releases in order.
fn expected_leases(w: &World, fleet: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut held: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for r in w
        .written
        .iter()
        .map(|x| &x.rec)
        .filter(|r| r.fleet == fleet)
    {
        let paths = r.payload["paths"].as_array().into_iter().flatten();
        let paths = paths.filter_map(|p| p.as_str().map(String::from));
        let set = held.entry(r.session.clone()).or_default();
        match r.kind.as_str() {
            "fleet_claim" => set.extend(paths),
            "fleet_release" if r.payload["all"] == true => set.clear(),
            "fleet_release" => paths.for_each(|p| {
                set.remove(&p);
            }),
            _ => {}
        }
    }
    held.retain(|_, s| !s.is_empty());
    held
}

/// Each record: in the lake once (by its key, or applied by exactly one landed write of
/// its host's roster), or still in a spool file of the host that wrote it. `settled`:
/// the spool must be empty.
pub(super) fn exactly_once(w: &World, settled: bool) -> Check {
    let mut pending: Vec<BTreeSet<String>> = Vec::new();
    let mut history: Vec<BTreeSet<String>> = Vec::new();
    for host in &w.hosts {
        let files = spool::list_files(&host.paths.spool);
        let recs = files.iter().filter_map(|f| spool::read_file(f, 0).ok());
        pending.push(recs.flat_map(|s| s.records).map(|r| r.id).collect());
        // Pending (`<fleet>.ndjson`) or being sent (`<fleet>.sending`).
        let dir = std::fs::read_dir(host.paths.history_pending_dir());
        let files = dir.into_iter().flatten().flatten().map(|e| e.path());
        let recs = files.filter_map(|f| spool::read_file(&f, 0).ok());
        history.push(recs.flat_map(|s| s.records).map(|r| r.id).collect());
    }
    let mut waiting: Vec<BTreeSet<String>> = Vec::new();
    for h in 0..w.hosts.len() {
        waiting.push(
            FLEETS
                .iter()
                .flat_map(|f| super::renewals::waiting_ids(w, h, f))
                .collect(),
        );
    }
    let mut created: HashMap<(String, String), usize> = HashMap::new();
    for fleet in FLEETS {
        for area in [Area::Handoffs, Area::Events] {
            for id in lake_ids(w, fleet, area) {
                *created.entry((fleet.to_string(), id)).or_default() += 1;
            }
        }
        for id in history_ids(w, fleet) {
            *created.entry((fleet.to_string(), id)).or_default() += 1;
        }
    }
    for x in &w.written {
        let r = &x.rec;
        // A hook event's presence only moves liveness (a roster may never carry its id):
        // what must land exactly once is its history.
        let copies = match Area::of(&r.kind) {
            Some(_) => created
                .get(&(r.fleet.clone(), r.id.clone()))
                .copied()
                .unwrap_or(0),
            None if r.kind.is_hook() => created
                .get(&(r.fleet.clone(), r.id.clone()))
                .copied()
                .unwrap_or(0),
            // A deferred renewal took hold in its host's kept copy, not yet in the lake.
            None => w.store.roster_applied(&r.id) + usize::from(waiting[x.host].contains(&r.id)),
        };
        let queued = pending[x.host].contains(&r.id)
            || (r.kind.is_hook() && history[x.host].contains(&r.id));
        match (copies, queued) {
            (0, false) => return Err(format!("record {} ({}) was lost", r.id, r.kind.as_str())),
            (n, _) if n > 1 => {
                return Err(format!(
                    "record {} ({}) was applied {n} times",
                    r.id,
                    r.kind.as_str()
                ));
            }
            (_, true) if settled => {
                return Err(format!(
                    "record {} ({}) is still spooled",
                    r.id,
                    r.kind.as_str()
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// Manifests 1..=n, each unchanged since first seen, each naming an intact snapshot
/// whose promotions the agents' sessions justify.
fn manifests(w: &World, fleet: &str, seen: &mut Seen) -> Check {
    let keys = w.store.peek_keys(&keys::manifests(fleet));
    for (i, key) in keys.iter().enumerate() {
        if keys::manifest_seq(key) != Some(i as u64 + 1) {
            return Err(format!(
                "fleet {fleet}: manifest #{} is `{key}` (a gap)",
                i + 1
            ));
        }
        let bytes = w.store.peek(key).unwrap_or_default();
        if let Some(before) = seen.manifests.get(key) {
            if *before != bytes {
                return Err(format!("manifest `{key}` was overwritten"));
            }
            continue;
        }
        let m: Manifest = serde_json::from_slice(&bytes)
            .map_err(|e| format!("manifest `{key}` does not parse: {e}"))?;
        let snap = w.store.peek(&m.key).ok_or(format!(
            "manifest `{key}` names `{}`, which is not in the lake",
            m.key
        ))?;
        if crate::digest::hex(&Sha256::digest(&snap)) != m.sha256 {
            return Err(format!("manifest `{key}`: the snapshot's digest differs"));
        }
        gate(w, fleet, key, &snap)?;
        seen.manifests.insert(key.clone(), bytes);
    }
    Ok(())
}

/// Every promoted claim of a snapshot has its type's number of independent sessions
/// among the agents' proposals (a session that was shown the claim first does not count).
fn gate(w: &World, fleet: &str, key: &str, snap: &[u8]) -> Check {
    let path = w.dir.path().join("snapshot.sqlite");
    std::fs::write(&path, snap).map_err(|e| e.to_string())?;
    let conn = rusqlite::Connection::open(&path).map_err(|e| e.to_string())?;
    let promoted: Vec<(String, String)> = conn
        .prepare("SELECT id, type FROM claims WHERE status = 'promoted'")
        .and_then(|mut s| {
            s.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<rusqlite::Result<_>>()
        })
        .map_err(|e| format!("snapshot of `{key}` is unreadable: {e}"))?;
    for (id, ty) in promoted {
        if super::chains::by_person(w, fleet, "promote", &id, None) {
            continue; // a person's word is final
        }
        let needed = match ty.as_str() {
            "environment" | "outcome" => 1,
            "convention" => 2,
            _ => usize::MAX, // preference: only a person; hypothesis: never
        };
        let have = independent_sessions(w, fleet, &id);
        if have < needed {
            return Err(format!(
                "`{key}` promotes {ty} claim {id} with {have} independent session(s)"
            ));
        }
    }
    super::chains::superseded_justified(w, fleet, key, &conn)
}

pub(super) fn independent_sessions(w: &World, fleet: &str, id: &str) -> usize {
    independent_naming(w, fleet, id, |_| true)
}

/// The sessions that proposed claim `id` without having been shown it first, counting
/// only proposals `names` accepts (their payload).
pub(super) fn independent_naming(
    w: &World,
    fleet: &str,
    id: &str,
    names: impl Fn(&serde_json::Value) -> bool,
) -> usize {
    let recs: Vec<_> = w
        .written
        .iter()
        .map(|x| &x.rec)
        .filter(|r| r.fleet == fleet)
        .collect();
    let about = |r: &spool::Record| match r.kind.as_str() {
        "memory_propose" => {
            let p = &r.payload;
            claim_id(
                p["subject"].as_str().unwrap_or_default(),
                p["claim"].as_str().unwrap_or_default(),
            ) == id
        }
        "memory_shown" => r.payload["claim_ids"]
            .as_array()
            .is_some_and(|a| a.iter().any(|v| v == id)),
        _ => false,
    };
    let first_shown = |s: &str| {
        recs.iter()
            .filter(|r| r.kind == RecordKind::MemoryShown && r.session == s && about(r))
            .map(|r| r.ts.clone())
            .min()
    };
    recs.iter()
        .filter(|r| r.kind == RecordKind::MemoryPropose && about(r) && names(&r.payload))
        .filter(|r| first_shown(&r.session).is_none_or(|t| r.ts < t))
        .map(|r| r.session.as_str())
        .collect::<BTreeSet<_>>()
        .len()
}
