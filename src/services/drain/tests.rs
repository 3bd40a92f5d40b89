//! The drain: block by block, hostile ids, redo after a crash, and what a daemon's drains
//! carry from one to the next.

use super::*;
use crate::lake::store::LocalStore;
use crate::lake::{batch, keys};
use crate::spool::Record;
use serde_json::json;

/// A spool file many blocks long, with a line longer than a block and a torn tail,
/// drains every intact record exactly once.
#[test]
fn a_file_is_drained_block_by_block() {
    let (_d, paths, store, dir) = home();
    let mut body = Vec::new();
    for i in 0..60 {
        let summary = if i == 7 {
            "x".repeat(3 * BLOCK)
        } else {
            format!("note {i}")
        };
        body.extend(spool::encode(&handoff_rec(i, summary)).unwrap());
    }
    body.extend(b"{\"v\":1,\"crc\":\"0000");
    fs::write(dir.join("f.ndjson"), &body).unwrap();
    let r = drain_once(&paths, &store);
    assert_eq!((r.records, r.applied, r.torn_tails), (60, 60, 1), "{r:?}");
    assert_eq!(handoff_ids(&store, "f").len(), 60);
    assert!(spool::list_files(&paths.spool).is_empty());
}

/// A record whose id could not name a lake key is counted bad, never sent: the
/// records after it still land.
#[test]
fn a_record_with_a_hostile_id_is_counted_bad() {
    let (_d, paths, store, dir) = home();
    let mut hostile = handoff_rec(0, "x".into());
    hostile.id = "../../etc".into();
    let mut body = spool::encode(&hostile).unwrap();
    body.extend(spool::encode(&handoff_rec(1, "ok".into())).unwrap());
    fs::write(dir.join("f.ndjson"), &body).unwrap();
    let r = drain_once(&paths, &store);
    // Counted once, as bad: never also as "already applied".
    assert_eq!(
        (r.bad_lines, r.applied, r.already_applied),
        (1, 1, 0),
        "{r:?}"
    );
    assert_eq!(handoff_ids(&store, "f").len(), 1);
}

/// A claim by `session` in fleet `f`, queued in the MCP spool.
fn queue_claim(dir: &Path, n: u64, session: &str) {
    let payload = json!({"repo": "r", "paths": [format!("src/{n}")], "reason": "x",
        "ttl_secs": 600});
    let mut rec = batch::test_record(n, "f", "fleet_claim", payload);
    rec.session = session.into();
    fs::write(dir.join("f.ndjson"), spool::encode(&rec).unwrap()).unwrap();
}

fn roster_sessions(store: &dyn Store, paths: &Paths) -> Vec<String> {
    let host = roster::host_id(paths).unwrap();
    let (b, _) = store.get(&keys::roster("f", &host)).unwrap().unwrap();
    let r: roster::RosterObj = serde_json::from_slice(&b).unwrap();
    r.sessions.into_iter().map(|p| p.session).collect()
}

/// A daemon's next drain neither creates the fleet's marker again nor reads its
/// roster back; but once another process of the home (a one-shot `ctxlake sync`)
/// flushed the roster in between, it reads the lake's again, and keeps that
/// process's session.
#[test]
fn a_carried_roster_is_reused_until_another_process_flushed() {
    let d = tempfile::tempdir().unwrap();
    let paths = Paths::with_overrides(d.path().join("home"), None, None);
    let store = crate::lake::logged::Logged::open(&d.path().join("lake"));
    let dir = paths.spool.join("mcp");
    fs::create_dir_all(&dir).unwrap();
    let wait = Duration::from_millis(50);
    let mut daemon = Carry::default();
    let drain_as = |carry: &mut Carry, n: u64, session: &str| {
        queue_claim(&dir, n, session);
        store.take();
        let r = drain(&paths, &store, wait, carry, &mut |_, _| {}).unwrap();
        assert_eq!(r.applied, 1, "{r:?}");
        store.take()
    };
    let first = drain_as(&mut daemon, 1, "s1");
    assert_eq!(
        daemon.fleets(),
        ["f"],
        "a marker it created counts as listed"
    );
    let host = roster::host_id(&paths).unwrap();
    let roster_key = keys::roster("f", &host);
    assert!(first.contains(&format!("create {}", keys::fleet_marker("f"))));
    assert!(first.contains(&format!("get {roster_key}")));
    let second = drain_as(&mut daemon, 2, "s1");
    assert_eq!(
        second,
        ["round put 1".to_string(), format!("put {roster_key}")],
        "only the roster's PUT"
    );
    let one_shot = drain_as(&mut Carry::default(), 3, "s2");
    assert!(one_shot.contains(&format!("get {roster_key}")));
    let third = drain_as(&mut daemon, 4, "s3");
    assert!(
        third.contains(&format!("get {roster_key}")),
        "the kept copy changed: read again ({third:?})"
    );
    let mut sessions = roster_sessions(&store, &paths);
    sessions.sort();
    assert_eq!(sessions, ["s1", "s2", "s3"]);
}

/// A one-shot sync's drain.
fn drain_once(paths: &Paths, store: &dyn Store) -> DrainReport {
    let wait = Duration::from_millis(50);
    drain(paths, store, wait, &mut Carry::default(), &mut |_, _| {}).unwrap()
}

/// A temporary home and local lake, and the home's (created) MCP spool directory.
fn home() -> (tempfile::TempDir, Paths, LocalStore, PathBuf) {
    let d = tempfile::tempdir().unwrap();
    let paths = Paths::with_overrides(d.path().join("home"), None, None);
    let store = LocalStore::open(&d.path().join("lake")).unwrap();
    let dir = paths.spool.join("mcp");
    fs::create_dir_all(&dir).unwrap();
    (d, paths, store, dir)
}

fn handoff_rec(i: u64, summary: String) -> Record {
    let payload = json!({"summary": summary, "status": "done"});
    batch::test_record(i, "f", "fleet_handoff", payload)
}

/// A redo after a crash finds objects an earlier run created, cut differently (a
/// smaller bound, an older build): the open watermark makes it read them first and
/// write only the rest, so every record ends up in the lake exactly once.
#[test]
fn a_redo_settles_against_what_an_earlier_run_created() {
    let (_d, paths, store, _) = home();
    let recs: Vec<Record> = (0..24)
        .map(|i| handoff_rec(i, format!("note {i}")))
        .collect();
    // The earlier run landed records 0-1 under 0's key and 9-11 under 9's key.
    for range in [0..2, 9..12] {
        let first = &recs[range.start].id;
        let body: Vec<u8> = spool::encode_all(&recs[range]).unwrap();
        store
            .create(&keys::handoff_batch("f", first), &body)
            .unwrap();
    }
    let dir = paths.spool.join("mcp");
    fs::create_dir_all(&dir).unwrap();
    let body: Vec<u8> = spool::encode_all(&recs).unwrap();
    let sealed = dir.join(format!("f.{}.ndjson", crate::ulid::new()));
    fs::write(&sealed, &body).unwrap();
    // The crashed run had marked its flush of the file's first block open.
    write_mark(&watermark(&paths, &sealed), 0, true).unwrap();
    let r = drain_once(&paths, &store);
    let mut ids = handoff_ids(&store, "f");
    ids.sort();
    let want: Vec<String> = recs.iter().map(|r| r.id.clone()).collect();
    assert_eq!(ids, want, "each record exactly once");
    assert_eq!((r.applied, r.already_applied), (19, 5), "{r:?}");
}

/// Every handoff id in the lake of `fleet`, once per copy, from its batch objects.
fn handoff_ids(store: &LocalStore, fleet: &str) -> Vec<String> {
    let mut ids = Vec::new();
    for o in store.list(&keys::handoffs(fleet)).unwrap() {
        let bytes = store.get(&o.key).unwrap().unwrap().0;
        let (notes, bad) = batch::notes(&bytes, fleet);
        assert_eq!(bad, 0, "{}", o.key);
        ids.extend(notes.into_iter().map(|n| n.id));
    }
    ids
}

/// A home that took a new host id (a clone was noticed, or `state/host-id` was lost)
/// writes under the new key at its next drain, not under the carried roster's.
#[test]
fn a_carried_roster_is_dropped_when_the_host_id_changed() {
    let (_d, paths, store, dir) = home();
    let mut daemon = Carry::default();
    let wait = Duration::from_millis(50);
    queue_claim(&dir, 1, "s1");
    drain(&paths, &store, wait, &mut daemon, &mut |_, _| {}).unwrap();
    let old = roster::host_id(&paths).unwrap();
    let new = roster::mint_host_id(&paths).unwrap();
    assert_ne!(old, new);
    queue_claim(&dir, 2, "s2");
    drain(&paths, &store, wait, &mut daemon, &mut |_, _| {}).unwrap();
    let host_of = |h: &str| store.get(&keys::roster("f", h)).unwrap().map(|(b, _)| b);
    let written: roster::RosterObj = serde_json::from_slice(&host_of(&new).unwrap()).unwrap();
    assert_eq!(written.host, new);
    let old_roster: roster::RosterObj = serde_json::from_slice(&host_of(&old).unwrap()).unwrap();
    assert_eq!(
        old_roster.sessions.len(),
        1,
        "the old key was not written again"
    );
}
