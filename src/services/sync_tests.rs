//! What a sync pass costs in store requests, counted with `lake::logged::Logged`: a
//! first pass of a host new to the lake, an idle pass after it, and a pass over a lake
//! flooded with fleet markers.

use std::path::Path;

use serde_json::json;

use super::*;
use crate::cache;
use crate::lake::batch::test_record;
use crate::lake::logged::Logged;

struct Quiet;
impl Observer for Quiet {}

fn ctx(dir: &Path, agent: &str) -> Ctx {
    let mut c = Ctx::fallback(Paths::with_overrides(dir.to_path_buf(), None, None));
    c.scope.fleet = "f".into();
    c.scope.agent = agent.into();
    c
}

fn pass(ctx: &Ctx, store: &Logged) -> Vec<String> {
    store.take();
    once(ctx, store, true, &mut Carry::one_shot(), &mut Quiet).unwrap();
    store.take()
}

/// Queue `recs` (kind, payload) of fleet `fleet` in the MCP spool (or the hook spool).
fn queue_in(ctx: &Ctx, fleet: &str, hook: bool, recs: &[(&str, serde_json::Value)]) {
    let mut body = Vec::new();
    for (i, (kind, payload)) in recs.iter().enumerate() {
        let mut rec = test_record(i as u64, fleet, kind, payload.clone());
        rec.id = crate::ulid::new();
        rec.session = "s1".into();
        body.extend(crate::spool::encode(&rec).unwrap());
    }
    let (dir, name) = match hook {
        true => (
            ctx.paths.spool.join("hooks/claude-code"),
            "s1.ndjson".to_string(),
        ),
        false => (ctx.paths.spool.join("mcp"), format!("{fleet}.ndjson")),
    };
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), body).unwrap();
}

fn writes(ctx: &Ctx, store: &Logged, round: u64) {
    let claim =
        json!({"repo": "r", "paths": [format!("src/{round}")], "reason": "x", "ttl_secs": 600});
    let note = json!({"summary": format!("done {round}"), "status": "done"});
    let ev = json!([{"session_id": "s1", "message_id": "m1"}]);
    let propose = json!({"claim": format!("CI runs on Debian {round}"), "type": "environment",
        "subject": "ci", "scope": "agent", "evidence": ev});
    let prompt = json!({"runtime": "claude-code", "prompt": format!("step {round}")});
    queue_in(
        ctx,
        "f",
        false,
        &[
            ("fleet_claim", claim.clone()),
            ("fleet_handoff", note.clone()),
            ("memory_propose", propose),
        ],
    );
    queue_in(ctx, "f", true, &[("hook_prompt", prompt)]);
    pass(ctx, store);
    queue_in(
        ctx,
        "g",
        false,
        &[("fleet_claim", claim), ("fleet_handoff", note)],
    );
    pass(ctx, store);
    crate::services::maint::run_observed(ctx, store, None, &mut |_, _| {}).unwrap();
}

/// (requests, rounds): a round is a batch, or a request sent on its own.
fn cost(log: &[String]) -> (usize, usize) {
    let mut requests = 0;
    let mut rounds = 0;
    let mut in_round = 0usize;
    for l in log {
        if let Some(n) = l.strip_prefix("round ").and_then(|r| r.split(' ').nth(1)) {
            rounds += 1;
            in_round = n.parse().unwrap();
            continue;
        }
        requests += 1;
        if in_round > 0 {
            in_round -= 1;
        } else {
            rounds += 1;
        }
    }
    (requests, rounds)
}

/// The requests of a one-shot sync that found nothing new: the probe, the format
/// marker, the fleets, one round of listings.
fn idle_requests(fleets: &[&str]) -> Vec<String> {
    let mut want = vec![
        "create probe/",
        "create probe/",
        "delete probe/",
        "get lake.json",
        "list fleets/",
    ];
    want.push("round list");
    for _ in fleets {
        want.extend(["list live/", "list feed/"]);
    }
    want.into_iter().map(String::from).collect()
}

/// A request log with ids and counts cut, to compare with `idle_requests`.
fn shapes(log: &[String]) -> Vec<String> {
    log.iter()
        .map(|l| {
            let mut words = l.split(' ');
            let verb = words.next().unwrap_or_default();
            let mut key = words.next().unwrap_or_default().to_string();
            if verb == "round" {
                return format!("round {key}");
            }
            if let Some(i) = key.find('/') {
                key.truncate(i + 1);
            }
            format!("{verb} {key}")
        })
        .collect()
}

/// Two fleets with rosters, handoffs, a history object and a snapshot: a reader's first
/// pass, an idle pass, a pass after news in both fleets, and a daemon's later idle pass
/// (its store open: no probe, no marker), in requests and rounds. Before the format
/// marker and the explicit plan (a store decorator prefetching two rounds), the same
/// passes cost (24, 9), (12, 5) and (20, 8); in lake format 2, which listed handoffs and
/// manifests at every pass, (25, 8), (13, 6) and (21, 8). A new manifest the feed names
/// is read in a round of its own, before its snapshot.
#[test]
fn a_pass_costs_a_handful_of_requests_in_few_rounds() {
    let d = tempfile::tempdir().unwrap();
    let store = Logged::open(&d.path().join("lake"));
    let (writer, reader) = (ctx(&d.path().join("w"), "a"), ctx(&d.path().join("r"), "b"));
    // The reader serves `g` too (its agents used it), so it mirrors both fleets.
    let g = std::collections::BTreeSet::from(["g".to_string()]);
    crate::fleet::used::record(&reader.paths, &g).unwrap();
    writes(&writer, &store, 1);
    let first = pass(&reader, &store);
    let idle = pass(&reader, &store);
    writes(&writer, &store, 2);
    let news = pass(&reader, &store);
    assert_eq!(cost(&first), (29, 8), "first pass: {first:#?}");
    assert_eq!(cost(&idle), (9, 6), "idle pass: {idle:#?}");
    assert_eq!(shapes(&idle), idle_requests(&["f", "g"]));
    assert_eq!(cost(&news), (20, 9), "after news: {news:#?}");
    let mut daemon = Carry::default();
    once(&reader, &store, true, &mut daemon, &mut Quiet).unwrap();
    store.take();
    once(&reader, &store, false, &mut daemon, &mut Quiet).unwrap();
    let later = store.take();
    assert_eq!(
        shapes(&later),
        idle_requests(&["f", "g"])[4..],
        "{later:#?}"
    );
}

/// A daemon lists `fleets/` on its first pass and then every `FLEETS_EVERY_MS`, not at
/// every pass; a one-shot sync lists it at every run.
#[test]
fn a_daemon_lists_the_fleets_now_and_then() {
    let d = tempfile::tempdir().unwrap();
    let store = Logged::open(&d.path().join("lake"));
    let host = ctx(&d.path().join("h"), "f");
    writes_one(&host);
    let lists = |carry: &mut Carry, probe: bool| {
        store.take();
        once(&host, &store, probe, carry, &mut Quiet).unwrap();
        shapes(&store.take()).contains(&"list fleets/".to_string())
    };
    let t0 = crate::time::now_ms();
    crate::time::set_sim_now(Some(t0));
    let mut daemon = Carry::deferring(0);
    assert!(lists(&mut daemon, true), "the first pass lists");
    crate::time::set_sim_now(Some(t0 + crate::services::drain::FLEETS_EVERY_MS - 1));
    assert!(!lists(&mut daemon, false), "a later pass does not");
    assert!(lists(&mut Carry::default(), true), "a one-shot sync does");
    crate::time::set_sim_now(Some(t0 + crate::services::drain::FLEETS_EVERY_MS));
    assert!(lists(&mut daemon, false), "every few minutes it does again");
    // A served fleet with no marker yet: every pass looks for it.
    let g = std::collections::BTreeSet::from(["g".to_string()]);
    crate::fleet::used::record(&host.paths, &g).unwrap();
    assert!(
        lists(&mut daemon, false),
        "while a served fleet has no marker"
    );
    assert!(lists(&mut daemon, false), "at every pass");
    crate::time::set_sim_now(None);
}

/// The first sync of a lake writes its format marker; a lake of another format is
/// refused before anything else is sent, and nothing is written.
#[test]
fn a_sync_writes_the_format_marker_and_refuses_another() {
    let d = tempfile::tempdir().unwrap();
    let store = Logged::open(&d.path().join("lake"));
    let writer = ctx(&d.path().join("w"), "a");
    let marker = crate::lake::keys::FORMAT_MARKER;
    pass(&writer, &store);
    assert_eq!(store.get(marker).unwrap().unwrap().0, br#"{"format":3}"#);
    store.put(marker, br#"{"format":2}"#).unwrap();
    writes_one(&writer);
    store.take();
    let e = once(&writer, &store, true, &mut Carry::default(), &mut Quiet).unwrap_err();
    assert_eq!(e.code, "lake_format_unknown");
    let sent = shapes(&store.take());
    assert_eq!(
        sent,
        [
            "create probe/",
            "create probe/",
            "delete probe/",
            "get lake.json"
        ]
    );
    let queued = crate::spool::list_files(&writer.paths.spool);
    assert_eq!(queued.len(), 1, "the spool is kept");
}

/// A claim queued in `ctx`'s MCP spool.
fn writes_one(ctx: &Ctx) {
    let claim = json!({"repo": "r", "paths": ["src"], "reason": "x", "ttl_secs": 600});
    queue_in(ctx, "f", false, &[("fleet_claim", claim)]);
}

/// Fake fleets planted as bare markers (anyone who can write the lake can make them).
const FLOOD: usize = 300;

/// A lake with `FLOOD` fake fleet markers: a host's sync costs exactly what it costs
/// without them (the one listing of `fleets/` stays one request: a page holds 1000
/// keys), names them as unserved, and still converges on the fleet it serves; `maint`
/// touches no fake fleet. Mirroring every marker cost 4 listings each: 1,213 requests.
#[test]
fn a_flood_of_fleet_markers_costs_no_request_and_no_fold() {
    let d = tempfile::tempdir().unwrap();
    let store = Logged::open(&d.path().join("lake"));
    let (writer, reader) = (ctx(&d.path().join("w"), "a"), ctx(&d.path().join("r"), "b"));
    writes_one(&writer);
    pass(&writer, &store);
    pass(&reader, &store);
    // Something new, then nothing new: a pass of each, before the flood and after it.
    writes_one(&writer);
    pass(&writer, &store);
    let clean = (pass(&reader, &store), pass(&reader, &store));
    for i in 0..FLOOD {
        store
            .create(
                &crate::lake::keys::fleet_marker(&format!("fake{i:03}")),
                b"",
            )
            .unwrap();
    }
    writes_one(&writer);
    pass(&writer, &store);
    store.take();
    let out = once(&reader, &store, true, &mut Carry::default(), &mut Quiet).unwrap();
    let flooded = store.take();
    let idle = pass(&reader, &store);
    assert_eq!(cost(&flooded).0, cost(&clean.0).0, "{flooded:#?}");
    assert_eq!(shapes(&idle), shapes(&clean.1), "{idle:#?}");
    assert_eq!(out.unserved_fleets.count, FLOOD);
    assert_eq!(
        out.unserved_fleets.sample.len(),
        crate::services::serving::SAMPLE
    );
    let mirrored: Vec<&str> = out.fleets.iter().map(|f| f.fleet.as_str()).collect();
    assert_eq!(mirrored, ["f"]);
    let roster: crate::cache::Read<crate::cache::Roster> =
        crate::cache::read(&reader.paths, "f", crate::cache::ROSTER);
    assert_eq!(
        roster.data.unwrap().agents.len(),
        1,
        "the served fleet converged"
    );
    assert!(flooded.iter().all(|l| !l.contains("fake")), "{flooded:#?}");
    store.take();
    let m = crate::services::maint::run_observed(&reader, &store, None, &mut |_, _| {}).unwrap();
    let folded: Vec<&str> = m.fleets.iter().map(|f| f.fleet.as_str()).collect();
    assert_eq!(folded, ["f"]);
    let sent = store.take();
    assert!(sent.iter().all(|l| !l.contains("fake")), "{sent:#?}");
}

/// A fleet this host's agents wrote to (here only a handoff: no roster) is served from
/// then on, though no configuration names it.
#[test]
fn a_fleet_this_hosts_agents_wrote_to_is_served() {
    let d = tempfile::tempdir().unwrap();
    let store = Logged::open(&d.path().join("lake"));
    let host = ctx(&d.path().join("h"), "a");
    let note = json!({"summary": "done", "status": "done"});
    queue_in(&host, "side", false, &[("fleet_handoff", note)]);
    pass(&host, &store);
    store
        .create(&crate::lake::keys::fleet_marker("other"), b"")
        .unwrap();
    let out = once(&host, &store, true, &mut Carry::default(), &mut Quiet).unwrap();
    let mirrored: Vec<&str> = out.fleets.iter().map(|f| f.fleet.as_str()).collect();
    assert_eq!(mirrored, ["f", "side"]);
    assert_eq!(out.unserved_fleets.sample, ["other"]);
}

#[path = "sync_history_tests.rs"]
mod history;
