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
