//! The home's kept roster copy: two homes sharing a host id (a cloned image) end up
//! with a roster each, a damaged lake roster keeps its replay windows, and a PUT whose
//! answer was lost (or that landed late) is never taken for another home's write.

use std::cell::Cell;
use std::path::PathBuf;

use serde_json::{Value, json};

use super::Own;
use crate::error::Result;
use crate::lake::keys;
use crate::lake::store::{Created, LocalStore, Object, Store};
use crate::paths::Paths;
use crate::spool::Record;

fn claim(id: &str, session: &str, path: &str) -> Record {
    let p = json!({"repo": "r", "paths": [path], "reason": "x", "ttl_secs": 600});
    super::own_tests::rec(id, session, "fleet_claim", p)
}

/// A home whose `state/host-id` is `h` and whose spool holds `mcp/a.ndjson`.
struct Home {
    paths: Paths,
    spool: PathBuf,
}

fn home(dir: &std::path::Path, name: &str) -> Home {
    let paths = Paths::with_overrides(dir.join(name), None, None);
    std::fs::create_dir_all(paths.state()).unwrap();
    std::fs::write(paths.state().join("host-id"), "h").unwrap();
    let spool = dir.join(name).join("spool");
    std::fs::create_dir_all(spool.join("mcp")).unwrap();
    std::fs::write(spool.join("mcp/a.ndjson"), b"").unwrap();
    Home { paths, spool }
}

fn host_of(h: &Home) -> String {
    std::fs::read_to_string(h.paths.state().join("host-id")).unwrap()
}

/// What a third host sees: every roster's sessions, as (session, leases held).
fn third_view(store: &dyn Store) -> Vec<(String, usize)> {
    let mut seen: Vec<(String, usize)> = store
        .list(&keys::rosters("f"))
        .unwrap()
        .iter()
        .flat_map(|o| {
            let (b, _) = store.get(&o.key).unwrap().unwrap();
            super::read_sessions(&b, "f").unwrap()
        })
        .map(|p| (p.session, p.leases.len()))
        .collect();
    seen.sort();
    seen
}

/// Both homes drain at once (each loads before the other writes), so the second PUT
/// overwrites the first home's lease. The first home's next load finds a write it never
/// made: it takes a new host id, warns once, and puts its sessions back under that id.
#[test]
fn two_homes_sharing_a_host_id_both_stay_visible() {
    let d = tempfile::tempdir().unwrap();
    let store = LocalStore::open(&d.path().join("lake")).unwrap();
    let (a, b) = (home(d.path(), "a"), home(d.path(), "b"));
    let mut own_a = Own::load(&store, &a.paths, "f").unwrap();
    let mut own_b = Own::load(&store, &b.paths, "f").unwrap();
    own_a.apply(&claim("r1", "sa", "src/a"), "mcp/a.ndjson", 1_000);
    own_b.apply(&claim("r2", "sb", "src/b"), "mcp/a.ndjson", 1_000);
    own_a.flush(&store, &a.spool, 1_000).unwrap();
    own_b.flush(&store, &b.spool, 1_000).unwrap();

    for round in 0..2 {
        for (h, id) in [(&a, format!("r3{round}")), (&b, format!("r4{round}"))] {
            let mut own = Own::load(&store, &h.paths, "f").unwrap();
            let warning = own.take_warning();
            if round == 0 && std::ptr::eq(h, &a) {
                let w = warning.expect("the clone is reported");
                let new = host_of(&a);
                assert!(
                    matches!(&w, super::Warning::HostIdShared { old, new: n, .. } if old == "h" && *n == new),
                    "{w:?}"
                );
            } else {
                assert_eq!(warning, None, "round {round}: reported once, by one home");
            }
            let s = if std::ptr::eq(h, &a) { "sa" } else { "sb" };
            let prompt = super::own_tests::rec(&id, s, "hook_prompt", json!({"prompt": "go"}));
            own.apply(&prompt, "mcp/a.ndjson", 2_000);
            own.flush(&store, &h.spool, 2_000).unwrap();
        }
    }
    let want = vec![("sa".to_string(), 1), ("sb".to_string(), 1)];
    assert_eq!(third_view(&store), want, "both homes' sessions and leases");
    assert_ne!(
        host_of(&a),
        "h",
        "the home that found the clone took a new id"
    );
    assert_eq!(host_of(&b), "h");
}

/// A lake roster that no longer parses is rebuilt from the kept copy, windows included:
/// a replayed block stays a no-op.
#[test]
fn a_damaged_own_roster_keeps_its_replay_windows() {
    let d = tempfile::tempdir().unwrap();
    let store = LocalStore::open(&d.path().join("lake")).unwrap();
    let a = home(d.path(), "a");
    let mut own = Own::load(&store, &a.paths, "f").unwrap();
    assert!(own.apply(&claim("r1", "s1", "src/x"), "mcp/a.ndjson", 1_000));
    own.flush(&store, &a.spool, 1_000).unwrap();
    let key = keys::roster("f", "h");
    for bad in [&b"{\"fleet\": \"f\", \"sess"[..], br#"{"fleet": "other"}"#] {
        store.put(&key, bad).unwrap();
        let mut own = Own::load(&store, &a.paths, "f").unwrap();
        let w = own.take_warning().expect("the damage is reported");
        assert!(
            matches!(&w, super::Warning::RosterRebuilt { key: k, .. } if *k == key),
            "{w:?}"
        );
        let replay = own.apply(&claim("r1", "s1", "src/x"), "mcp/a.ndjson", 2_000);
        assert!(!replay, "the replayed record is skipped");
        own.flush(&store, &a.spool, 2_000).unwrap();
        assert_eq!(third_view(&store), [("s1".to_string(), 1)], "rewritten");
    }
    assert_eq!(host_of(&a), "h", "damage is not a clone");

    // With no kept copy the windows are gone: refuse rather than apply twice.
    std::fs::remove_file(super::kept::path(&a.paths, "f")).unwrap();
    store.put(&key, b"not json").unwrap();
    let err = Own::load(&store, &a.paths, "f").err().expect("refused");
    assert_eq!(err.code, "roster_damaged");
    assert!(
        err.hint.as_deref().is_some_and(|h| h.contains(&key)),
        "{err:?}"
    );
}

/// A local store whose next PUT fails: after writing (`landed`) or before.
struct Flaky {
    inner: LocalStore,
    fail: Cell<Option<bool>>,
}

impl Store for Flaky {
    fn url(&self) -> String {
        self.inner.url()
    }
    fn get(&self, key: &str) -> Result<Option<(Vec<u8>, i64)>> {
        self.inner.get(key)
    }
    fn put(&self, key: &str, bytes: &[u8]) -> Result<i64> {
        match self.fail.take() {
            None => self.inner.put(key, bytes),
            Some(landed) => {
                if landed {
                    self.inner.put(key, bytes)?;
                }
                Err(crate::error::Error::storage("timeout", "answer lost"))
            }
        }
    }
    fn create(&self, key: &str, bytes: &[u8]) -> Result<Created> {
        self.inner.create(key, bytes)
    }
    fn list(&self, prefix: &str) -> Result<Vec<Object>> {
        self.inner.list(prefix)
    }
    fn delete(&self, key: &str) -> Result<()> {
        self.inner.delete(key)
    }
    fn now_ms(&self) -> Result<i64> {
        self.inner.now_ms()
    }
}

/// Every roster the lake may hold after this home's own writes is taken as its own: one
/// whose kept copy was lost, a PUT whose answer was lost (landed or not), and an earlier
/// PUT landing after a later one.
#[test]
fn this_homes_own_lost_or_late_writes_are_not_a_clone() {
    let d = tempfile::tempdir().unwrap();
    let store = Flaky {
        inner: LocalStore::open(&d.path().join("lake")).unwrap(),
        fail: Cell::new(None),
    };
    let a = home(d.path(), "a");
    let key = keys::roster("f", "h");
    // This home's roster, whose kept copy was lost: taken as ours.
    let lost: Value =
        json!({"host": "h", "fleet": "f", "sessions": [], "write": "01KDV000000000000000000000"});
    store
        .put(&key, &serde_json::to_vec(&lost).unwrap())
        .unwrap();
    let mut early = None;
    for (i, fail) in [Some(false), None, Some(true), Some(false), None]
        .into_iter()
        .enumerate()
    {
        let mut own = Own::load(&store, &a.paths, "f").unwrap();
        assert_eq!(own.take_warning(), None, "step {i}");
        let rec = claim(&format!("r{i}"), "s1", &format!("src/{i}"));
        own.apply(&rec, "mcp/a.ndjson", 1_000);
        store.fail.set(fail);
        assert_eq!(own.flush(&store, &a.spool, 1_000).is_ok(), fail.is_none());
        if i == 1 {
            early = store.get(&key).unwrap();
        }
    }
    let (bytes, _) = early.unwrap();
    store.put(&key, &bytes).unwrap(); // the PUT of step 1, landing late
    let mut own = Own::load(&store, &a.paths, "f").unwrap();
    assert_eq!(own.take_warning(), None, "a late landing");
    assert_eq!(host_of(&a), "h");
}
