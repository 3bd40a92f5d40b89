//! A pass's mirror: every fleet's roster reaches the cache first, a fleet the lake does
//! not have costs no request, and the rounds of requests a pass sends.

use std::path::Path;
use std::time::Duration;

use serde_json::json;

use super::*;
use crate::lake::batch;
use crate::lake::logged::Logged;
use crate::lake::store::{Created, Object};
use crate::paths::Paths;
use crate::services::drain;

fn home(d: &Path, name: &str) -> Paths {
    Paths::with_overrides(d.join(name), None, None)
}

/// `paths` drains a claim by a session of `fleet` into `store`.
fn claim(paths: &Paths, store: &dyn Store, fleet: &str, n: u64) {
    let payload = json!({"repo": "r", "paths": ["src"], "reason": "x", "ttl_secs": 600});
    let mut rec = batch::test_record(n, fleet, "fleet_claim", payload);
    rec.id = crate::ulid::new();
    let dir = paths.spool.join("mcp");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join(format!("{fleet}.ndjson")),
        crate::spool::encode(&rec).unwrap(),
    )
    .unwrap();
    let wait = Duration::from_millis(50);
    drain::drain(paths, store, wait, &mut Default::default(), &mut |_, _| {}).unwrap();
}

fn agents(paths: &Paths, fleet: &str) -> Option<usize> {
    let r: cache::Read<Roster> = cache::read(paths, fleet, cache::ROSTER);
    r.data.map(|r| r.agents.len())
}

/// When the first fleet's handoffs, sessions and snapshot are being mirrored, every
/// fleet's roster is already in the cache.
#[test]
fn every_roster_is_written_before_any_fleet_finishes() {
    let d = tempfile::tempdir().unwrap();
    let store = Logged::open(&d.path().join("lake"));
    let (writer, reader) = (home(d.path(), "w"), home(d.path(), "r"));
    let fleets = ["f".to_string(), "g".to_string()];
    for (n, f) in fleets.iter().enumerate() {
        claim(&writer, &store, f, n as u64);
    }
    let config = crate::config::Config::default();
    let mut seen = Vec::new();
    mirror_all(&reader, &config, &store, &Plan::of(&fleets), |f| {
        seen.push((f.to_string(), agents(&reader, "f"), agents(&reader, "g")));
        Ok(())
    })
    .unwrap();
    assert_eq!(
        seen,
        [
            ("f".into(), Some(1), Some(1)),
            ("g".into(), Some(1), Some(1))
        ]
    );
}

/// A host's own fleet with no marker in the lake gets its cache files without a request
/// naming it; once another host's drain created the marker, the next pass mirrors it.
#[test]
fn a_fleet_missing_from_the_lake_costs_no_request() {
    let d = tempfile::tempdir().unwrap();
    let store = Logged::open(&d.path().join("lake"));
    let (writer, reader) = (home(d.path(), "w"), home(d.path(), "r"));
    claim(&writer, &store, "f", 0);
    let config = crate::config::Config::default();
    let pass = |store: &Logged| {
        let serves = BTreeSet::from(["f".to_string(), "mine".to_string()]);
        let plan = Plan::new(
            &reader,
            store,
            &crate::lake::fleets(store).unwrap(),
            &serves,
        );
        store.take();
        mirror_all(&reader, &config, store, &plan, |_| Ok(())).unwrap();
        (plan.empty, store.take())
    };
    let (empty, sent) = pass(&store);
    assert_eq!(empty, ["mine"]);
    assert!(!sent.is_empty(), "fleet f was mirrored");
    assert!(
        sent.iter()
            .all(|r| !r.contains("/mine/") && !r.ends_with("/mine")),
        "{sent:?}"
    );
    assert_eq!(agents(&reader, "mine"), Some(0));
    let pipeline: cache::Read<Pipeline> = cache::read(&reader, "mine", cache::PIPELINE);
    assert!(pipeline.data.and_then(|p| p.last_sync).is_some());

    claim(&writer, &store, "mine", 1);
    let (empty, sent) = pass(&store);
    assert!(empty.is_empty());
    assert!(sent.iter().any(|r| r.contains("/mine/")), "{sent:?}");
    assert_eq!(agents(&reader, "mine"), Some(1));
}

/// The plan: the served fleets the lake has a marker for, and the served ones it lacks;
/// one the lake lacks costs nothing only while this host never mirrored it from this
/// lake. A fleet only the lake has is not in the plan.
#[test]
fn the_plan_keeps_to_served_fleets_and_lists_a_missing_one_only_if_mirrored_before() {
    let d = tempfile::tempdir().unwrap();
    let store = Logged::open(&d.path().join("lake"));
    let paths = home(d.path(), "r");
    let lake = ["f".to_string(), "theirs".to_string()];
    let serves = |fs: &[&str]| fs.iter().map(|f| f.to_string()).collect::<BTreeSet<_>>();
    let plan = Plan::new(&paths, &store, &lake, &serves(&["f"]));
    assert_eq!(plan.fleets, ["f"]);
    assert!(plan.empty.is_empty());
    let plan = Plan::new(&paths, &store, &lake, &serves(&["f", "mine"]));
    assert_eq!(plan.fleets, ["f", "mine"]);
    assert_eq!(plan.empty, ["mine"]);
    // Mirrored from this lake before (its marker since gone): listed as usual.
    let config = crate::config::Config::default();
    mirror(&paths, &config, &store, "mine").unwrap();
    let plan = Plan::new(&paths, &store, &lake, &serves(&["f", "mine"]));
    assert!(plan.empty.is_empty(), "{plan:?}");
    assert_eq!(plan.fleets, ["f", "mine"]);
}

/// `paths` drains a handoff of `fleet` into `store`.
fn handoff(paths: &Paths, store: &dyn Store, fleet: &str) {
    let payload = json!({"summary": "done", "status": "done"});
    let mut rec = batch::test_record(0, fleet, "fleet_handoff", payload);
    rec.id = crate::ulid::new();
    let dir = paths.spool.join("mcp");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join(format!("{fleet}.ndjson")),
        crate::spool::encode(&rec).unwrap(),
    )
    .unwrap();
    let wait = Duration::from_millis(50);
    drain::drain(paths, store, wait, &mut Default::default(), &mut |_, _| {}).unwrap();
}

/// The verbs of a request log, one per request or round (`round list 8`, `get`, …).
fn verbs(log: &[String]) -> Vec<String> {
    log.iter()
        .map(|l| match l.strip_prefix("round ") {
            Some(r) => format!("round {r}"),
            None => l.split(' ').next().unwrap_or_default().to_string(),
        })
        .collect()
}

/// Every request a pass of two fleets sends, in its rounds: listings first, then the
/// GETs they call for, then what those named. An idle pass lists and reads nothing more;
/// a pass after one new handoff and one new lease reads exactly those.
#[test]
fn a_pass_sends_its_requests_in_planned_rounds() {
    let d = tempfile::tempdir().unwrap();
    let store = Logged::open(&d.path().join("lake"));
    let (writer, reader) = (home(d.path(), "w"), home(d.path(), "r"));
    let fleets = ["f".to_string(), "g".to_string()];
    for (n, f) in fleets.iter().enumerate() {
        claim(&writer, &store, f, n as u64);
        handoff(&writer, &store, f);
    }
    let config = crate::config::Config::default();
    let pass = || {
        store.take();
        mirror_all(&reader, &config, &store, &Plan::of(&fleets), |_| Ok(())).unwrap();
        verbs(&store.take())
    };
    let first = pass();
    // Rosters, feed, handoffs, manifests and sessions (a first pass lists them whole),
    // for each fleet; then each fleet's roster, the feed entry naming its handoff batch,
    // and the batch (listed). Nothing for round three: no hook record (no history), no
    // manifest, and the batch the feed names was read from the listing.
    let mut want = vec!["round list 10".to_string()];
    want.extend(vec!["list".to_string(); 10]);
    want.push("round get 6".into());
    want.extend(vec!["get".to_string(); 6]);
    assert_eq!(first, want, "first pass");
    let idle = pass();
    // After the first pass: host rosters and the feed, 2 listings per fleet.
    let mut want = vec!["round list 4".to_string()];
    want.extend(vec!["list".to_string(); 4]);
    assert_eq!(idle, want, "idle pass");
    claim(&writer, &store, "f", 7);
    handoff(&writer, &store, "g");
    store.take();
    mirror_all(&reader, &config, &store, &Plan::of(&fleets), |_| Ok(())).unwrap();
    let log = store.take();
    let listed: Vec<&str> = log.iter().filter_map(|l| l.strip_prefix("list ")).collect();
    assert_eq!(
        listed,
        ["live/f/hosts/", "feed/f/", "live/g/hosts/", "feed/g/"]
    );
    let mut want = vec!["round list 4".to_string()];
    want.extend(vec!["list".to_string(); 4]);
    // f's roster and g's new feed entry; then the handoff batch it names.
    want.push("round get 2".into());
    want.extend(vec!["get".to_string(); 2]);
    want.push("round get 1".into());
    want.push("get".into());
    assert_eq!(verbs(&log), want, "a pass after news");
    assert_eq!(agents(&reader, "f"), Some(1));
    let notes: cache::Read<Handoffs> = cache::read(&reader, "g", cache::HANDOFFS);
    assert_eq!(notes.data.map(|h| h.handoffs.len()), Some(2));
}

/// A feed entry is untrusted input naming keys: one naming another fleet's batch,
/// another kind's object, a refused name or an oversize batch costs that key alone
/// (counted, never read), and the pass goes on to read what the entry names rightly.
#[test]
fn a_feed_entry_naming_a_wrong_or_oversize_key_costs_only_that_key() {
    let d = tempfile::tempdir().unwrap();
    let store = Logged::open(&d.path().join("lake"));
    let (writer, reader) = (home(d.path(), "w"), home(d.path(), "r"));
    let config = crate::config::Config::default();
    handoff(&writer, &store, "f");
    mirror(&reader, &config, &store, "f").unwrap();
    handoff(&writer, &store, "f");
    handoff(&writer, &store, "g");
    let big = crate::lake::keys::handoff_batch("f", &crate::ulid::new());
    let huge = vec![b'x'; crate::rules::cap::BATCH as usize + 1];
    store.create(&big, &huge).unwrap();
    let theirs = store.list("handoffs/g/").unwrap().remove(0).key;
    let named = vec![
        theirs,
        "live/f/hosts/h.json".to_string(),
        "handoffs/f/../../g/x.ndjson".to_string(),
        "snapshot/f/manifest/7.json".to_string(),
        big,
    ];
    crate::lake::watermark::publish_feed(&store, "f", named).unwrap();
    let before = store.skipped();
    store.take();
    let r = mirror(&reader, &config, &store, "f").unwrap();
    assert_eq!(r.skipped.bad_keys, 4, "{:?}", r.skipped);
    assert!(r.skipped.key_note.is_some());
    assert_eq!(
        store.skipped().since(before).oversize,
        1,
        "counted, not read"
    );
    assert_eq!(r.handoffs, 2, "the rightly named batch was read");
    let log = store.take();
    assert!(
        !log.iter()
            .any(|l| l.contains("handoffs/g/") || l.contains("live/f/hosts/h")),
        "{log:?}"
    );
}

/// A lake that lists store times to the hour. S3 lists them to the second; a coarse grain
/// makes a rewrite within one grain certain, not a race against the clock.
struct Coarse(crate::lake::store::LocalStore);

impl Store for Coarse {
    fn url(&self) -> String {
        self.0.url()
    }
    fn get(&self, key: &str) -> crate::error::Result<Option<(Vec<u8>, i64)>> {
        self.0.get(key)
    }
    fn put(&self, key: &str, bytes: &[u8]) -> crate::error::Result<i64> {
        self.0.put(key, bytes)
    }
    fn create(&self, key: &str, bytes: &[u8]) -> crate::error::Result<Created> {
        self.0.create(key, bytes)
    }
    fn list(&self, prefix: &str) -> crate::error::Result<Vec<Object>> {
        let mut listed = self.0.list(prefix)?;
        listed
            .iter_mut()
            .for_each(|o| o.mtime_ms -= o.mtime_ms % 3_600_000);
        Ok(listed)
    }
    fn delete(&self, key: &str) -> crate::error::Result<()> {
        self.0.delete(key)
    }
    fn now_ms(&self) -> crate::error::Result<i64> {
        self.0.now_ms()
    }
}

fn lease_paths(paths: &Paths, fleet: &str) -> Vec<String> {
    let r: cache::Read<Roster> = cache::read(paths, fleet, cache::ROSTER);
    let agents = r.data.map(|r| r.agents).unwrap_or_default();
    agents
        .into_iter()
        .flat_map(|a| a.leases.into_iter().map(|l| l.path))
        .collect()
}

/// A roster rewritten at the same size within its listed time grain is read again: the
/// listing's tag tells the two versions apart. Host B of the three-host run once kept a
/// released lease, and missed a new one, until the writer's liveness moved a minute on.
#[test]
fn a_roster_rewritten_at_one_size_within_its_listed_second_is_read_again() {
    let d = tempfile::tempdir().unwrap();
    let store = Coarse(crate::lake::store::LocalStore::open(&d.path().join("lake")).unwrap());
    let (writer, reader) = (home(d.path(), "w"), home(d.path(), "r"));
    let config = crate::config::Config::default();
    claim(&writer, &store, "f", 0);
    mirror(&reader, &config, &store, "f").unwrap();
    assert_eq!(lease_paths(&reader, "f"), ["src"]);
    let before = store.list("live/f/hosts/").unwrap().remove(0);
    let (bytes, _) = store.get(&before.key).unwrap().unwrap();
    let text = String::from_utf8(bytes).unwrap();
    assert_eq!(text.matches("\"path\":\"src\"").count(), 1, "{text}");
    let moved = text.replace("\"path\":\"src\"", "\"path\":\"lib\"");
    store.put(&before.key, moved.as_bytes()).unwrap();
    let after = store.list("live/f/hosts/").unwrap().remove(0);
    assert_eq!((after.size, after.mtime_ms), (before.size, before.mtime_ms));
    mirror(&reader, &config, &store, "f").unwrap();
    assert_eq!(lease_paths(&reader, "f"), ["lib"]);
}
