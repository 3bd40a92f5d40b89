//! The drain's roster: replay windows across spool files and crashes, expired sessions
//! pruned.

use serde_json::{Value, json};

use super::{Own, PRUNE_ENDED_MS, RosterObj};
use crate::lake::keys;
use crate::lake::store::{LocalStore, Store};
use crate::spool::Record;

pub(super) fn rec(id: &str, session: &str, kind: &str, payload: Value) -> Record {
    Record {
        id: id.into(),
        ts: "2026-11-29T00:00:00.000Z".into(),
        fleet: "f".into(),
        agent: "a".into(),
        session: session.into(),
        kind: kind.into(),
        payload,
    }
}

fn claim(id: &str, session: &str) -> Record {
    let p = json!({"repo": "r", "paths": [format!("src/{id}")], "reason": "x", "ttl_secs": 600});
    rec(id, session, "fleet_claim", p)
}

struct Lake {
    _dir: tempfile::TempDir,
    store: LocalStore,
    spool: std::path::PathBuf,
    paths: crate::paths::Paths,
}

fn lake() -> Lake {
    let dir = tempfile::tempdir().unwrap();
    let store = LocalStore::open(&dir.path().join("lake")).unwrap();
    let spool = dir.path().join("spool");
    std::fs::create_dir_all(spool.join("mcp")).unwrap();
    for f in ["a", "b"] {
        std::fs::write(spool.join(format!("mcp/{f}.ndjson")), b"").unwrap();
    }
    let paths = crate::paths::Paths::with_overrides(dir.path().join("home"), None, None);
    std::fs::create_dir_all(paths.state()).unwrap();
    std::fs::write(paths.state().join("host-id"), "h").unwrap();
    Lake {
        _dir: dir,
        store,
        spool,
        paths,
    }
}

fn stored(l: &Lake) -> RosterObj {
    let (b, _) = l.store.get(&keys::roster("f", "h")).unwrap().unwrap();
    serde_json::from_slice(&b).unwrap()
}

/// A crash after file a's block was flushed, then file b drained first on restart (its
/// flush rewrites the roster), then a's block replayed: a's window survived b's flush,
/// so the replay is a no-op. Once a is gone from the spool its window goes too.
#[test]
fn a_replayed_block_is_skipped_after_another_file_flushed() {
    let l = lake();
    let mut own = Own::load(&l.store, &l.paths, "f").unwrap();
    assert!(own.apply(&claim("r1", "s1"), "mcp/a.ndjson", 1_000));
    own.flush(&l.store, &l.spool, 1_000).unwrap();

    let mut own = Own::load(&l.store, &l.paths, "f").unwrap();
    assert!(own.apply(&claim("r2", "s2"), "mcp/b.ndjson", 2_000));
    own.flush(&l.store, &l.spool, 2_000).unwrap();

    let mut own = Own::load(&l.store, &l.paths, "f").unwrap();
    let again = own.apply(&claim("r1", "s1"), "mcp/a.ndjson", 3_000);
    assert!(!again, "a replayed record is skipped");
    std::fs::remove_file(l.spool.join("mcp/a.ndjson")).unwrap();
    assert!(own.apply(&claim("r3", "s2"), "mcp/b.ndjson", 3_000));
    own.flush(&l.store, &l.spool, 3_000).unwrap();
    let r = stored(&l);
    let files: Vec<&str> = r.windows.iter().map(|w| w.file.as_str()).collect();
    assert_eq!(
        files,
        ["mcp/b.ndjson"],
        "a drained file's window is dropped"
    );
    let s1 = r.sessions.iter().find(|p| p.session == "s1").unwrap();
    assert_eq!(s1.last_seen_ms, 1_000, "a skipped replay is not a sighting");
}

/// An ended session leaves the roster once it has been over for a while.
#[test]
fn an_ended_session_is_pruned_after_a_while() {
    let l = lake();
    let mut own = Own::load(&l.store, &l.paths, "f").unwrap();
    own.apply(&claim("r1", "s1"), "mcp/a.ndjson", 1_000);
    let end = rec("r2", "s1", "hook_session_end", json!({}));
    own.apply(&end, "mcp/a.ndjson", 1_000);
    own.flush(&l.store, &l.spool, 1_000).unwrap();
    assert_eq!(stored(&l).sessions.len(), 1, "kept while recently ended");
    let later = 1_000 + PRUNE_ENDED_MS + 1;
    own.apply(&claim("r3", "s2"), "mcp/a.ndjson", later);
    own.flush(&l.store, &l.spool, later).unwrap();
    let names: Vec<String> = stored(&l).sessions.into_iter().map(|p| p.session).collect();
    assert_eq!(names, ["s2"]);
}

/// Hook events that change nothing but liveness cost no PUT until the written sighting is
/// a grain old; a state change (a new task) and every lease operation are written at once,
/// and the deferred ids ride along in the next write's window.
#[test]
fn liveness_alone_is_written_at_a_coarse_grain() {
    use super::LIVENESS_GRAIN_MS as GRAIN;
    let l = lake();
    let hook = |id: &str| rec(id, "s1", "hook_pre_tool", json!({"runtime": "claude-code"}));
    let puts = |l: &Lake| stored(l).write;
    let mut own = Own::load(&l.store, &l.paths, "f").unwrap();
    own.apply(&hook("h1"), "mcp/a.ndjson", 1_000);
    own.flush(&l.store, &l.spool, 1_000).unwrap();
    let first = puts(&l);
    own.apply(&hook("h2"), "mcp/a.ndjson", 1_000 + GRAIN - 1);
    own.flush(&l.store, &l.spool, 1_000 + GRAIN - 1).unwrap();
    assert_eq!(puts(&l), first, "liveness within the grain: no write");
    assert!(own.still_current(), "the value stays reusable");
    assert_eq!(stored(&l).sessions[0].last_seen_ms, 1_000);

    own.apply(&hook("h3"), "mcp/a.ndjson", 1_000 + GRAIN);
    own.flush(&l.store, &l.spool, 1_000 + GRAIN).unwrap();
    let r = stored(&l);
    assert_ne!(r.write, first, "a grain old: written");
    assert_eq!(r.sessions[0].last_seen_ms, 1_000 + GRAIN);
    assert_eq!(
        r.windows[0].applied,
        ["h2", "h3"],
        "the deferred id rides along"
    );

    let t = 1_000 + GRAIN + 5;
    let prompt = rec(
        "h4",
        "s1",
        "hook_prompt",
        json!({"prompt": "fix the build"}),
    );
    own.apply(&prompt, "mcp/a.ndjson", t);
    own.flush(&l.store, &l.spool, t).unwrap();
    assert_eq!(
        stored(&l).sessions[0].task.as_deref(),
        Some("fix the build")
    );
    let w = puts(&l);
    own.apply(&claim("c1", "s1"), "mcp/a.ndjson", t + 1);
    own.flush(&l.store, &l.spool, t + 1).unwrap();
    assert_ne!(puts(&l), w, "a lease operation is written at once");
    let w = puts(&l);
    own.apply(&hook("h5"), "mcp/a.ndjson", t + 2);
    own.apply(&hook("h6"), "mcp/a.ndjson", t + 2);
    own.flush(&l.store, &l.spool, t + 2).unwrap();
    assert_eq!(puts(&l), w);
    let new_session = rec("h7", "s2", "hook_pre_tool", json!({}));
    own.apply(&new_session, "mcp/a.ndjson", t + 3);
    own.flush(&l.store, &l.spool, t + 3).unwrap();
    assert_eq!(
        stored(&l).sessions.len(),
        2,
        "a new session is written at once"
    );
}

/// A renewal that only moves an expiry the lake carries far ahead waits: no PUT, kept in
/// this home's copy (a reload, even by another process, has it), and written when due or
/// by a process that does not defer. A new reason is written at once.
#[test]
fn a_renewal_waits_until_due_and_survives_a_reload() {
    let l = lake();
    let renew = |id: &str, reason: &str| {
        let p = json!({"repo": "r", "paths": ["src"], "reason": reason, "ttl_secs": 1800});
        rec(id, "s1", "fleet_claim", p)
    };
    let expiry = |r: &RosterObj| r.sessions[0].leases[0].expires_at_ms;
    let mut own = Own::load(&l.store, &l.paths, "f").unwrap();
    own.defer_renewals(0);
    own.apply(&renew("c1", "x"), "mcp/a.ndjson", 0);
    own.flush(&l.store, &l.spool, 0).unwrap();
    let first = stored(&l);
    own.apply(&renew("c2", "x"), "mcp/a.ndjson", 30_000);
    own.flush(&l.store, &l.spool, 30_000).unwrap();
    assert_eq!(stored(&l).write, first.write, "the renewal waits");
    assert_eq!(
        own.due(),
        Some(900_000),
        "due with half the TTL left on the lake's copy"
    );
    assert!(own.still_current());

    let mut one_shot = Own::load(&l.store, &l.paths, "f").unwrap();
    assert_eq!(one_shot.due(), Some(900_000), "a reload keeps it");
    one_shot.flush(&l.store, &l.spool, 40_000).unwrap();
    assert_eq!(
        expiry(&stored(&l)),
        30_000 + 1_800_000,
        "a process that does not defer writes it"
    );

    let mut own = Own::load(&l.store, &l.paths, "f").unwrap();
    own.defer_renewals(0);
    own.apply(&renew("c3", "x"), "mcp/a.ndjson", 50_000);
    own.flush(&l.store, &l.spool, 50_000).unwrap();
    let mut again = Own::load(&l.store, &l.paths, "f").unwrap();
    again.defer_renewals(0);
    assert_eq!(again.due(), Some(930_000));
    again.flush(&l.store, &l.spool, 929_999).unwrap();
    assert_eq!(expiry(&stored(&l)), 1_830_000);
    again.flush(&l.store, &l.spool, 930_000).unwrap();
    let r = stored(&l);
    assert_eq!(expiry(&r), 50_000 + 1_800_000, "written when due");
    assert!(r.windows[0].applied.contains(&"c3".to_string()));

    let w = stored(&l).write;
    let mut own = Own::load(&l.store, &l.paths, "f").unwrap();
    own.defer_renewals(0);
    own.apply(&renew("c4", "y"), "mcp/a.ndjson", 950_000);
    own.flush(&l.store, &l.spool, 950_000).unwrap();
    assert_ne!(stored(&l).write, w, "a new reason is written at once");
}
