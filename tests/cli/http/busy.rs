//! Issue 23: over HTTP, slow `memory_search` calls must not take every worker. A crafted
//! snapshot (a view over an endless recursive CTE) in the mirror, then a valid snapshot
//! large enough that a search runs into its progress deadline: while a dozen searches
//! are in flight, `initialize` and the dashboard still answer within a second.

use std::time::{Duration, Instant};

use serde_json::json;

use super::V;
use super::client::Server;
use crate::common::Env;

/// What `initialize` and the dashboard must answer within while searches are in flight.
const BOUND: Duration = Duration::from_secs(1);
/// Concurrent searches: more than the server's workers (8).
const SEARCHES: usize = 12;

/// The valid snapshot with `n` more matching claims: this build's schema, so it is read,
/// and every search scores them all.
fn inflated(bin: &std::path::Path, n: u32) {
    let c = rusqlite::Connection::open(bin).unwrap();
    c.execute_batch(&format!(
        "WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < {n})
         INSERT INTO claims(id, text, type, subject, scope, status, visible,
           independent_sessions, confidence, created_at, promoted_at, agent, session,
           embedding, key, superseded_by, superseded_at, outdated_by, pending_by,
           last_evidence_at)
         SELECT 'c-x' || i, text || ' variant ' || i, type, subject, scope, status, visible,
           independent_sessions, confidence, created_at, promoted_at, agent, session,
           embedding, NULL, superseded_by, superseded_at, outdated_by, pending_by,
           last_evidence_at
         FROM claims, k WHERE claims.rowid = (SELECT min(rowid) FROM claims);
         INSERT INTO claims_fts(rowid, text, subject)
           SELECT rowid, text, subject FROM claims WHERE id LIKE 'c-x%';"
    ))
    .unwrap();
}

/// One `memory_search` over HTTP: how long it took to be answered.
fn search(s: &Server) -> Duration {
    let t = Instant::now();
    let args = json!({"query": "widgets port"});
    let r = s.stateless_call("/mcp", &[], "memory_search", args, None);
    assert_eq!(r.status, 200, "{}", r.body);
    t.elapsed()
}

/// Fire `SEARCHES` searches, and `after` that time `initialize` and the dashboard a few
/// times each; returns (the slowest control answer, the searches' durations).
fn under_load(s: &Server, after: Duration) -> (Duration, Vec<Duration>) {
    std::thread::scope(|scope| {
        let searches: Vec<_> = (0..SEARCHES)
            .map(|_| scope.spawn(move || search(s)))
            .collect();
        std::thread::sleep(after);
        let mut slowest = Duration::ZERO;
        for _ in 0..3 {
            let t = Instant::now();
            s.initialize("/mcp", V, &[]);
            slowest = slowest.max(t.elapsed());
            let t = Instant::now();
            assert_eq!(s.request("GET", "/", &[], b"").status, 200);
            slowest = slowest.max(t.elapsed());
        }
        let took = searches.into_iter().map(|h| h.join().unwrap()).collect();
        (slowest, took)
    })
}

#[test]
fn initialize_and_the_dashboard_answer_while_searches_hold_the_workers() {
    let env = Env::new();
    let bin = crate::hostile::published(&env);
    let good = std::fs::read(&bin).unwrap();

    // The snapshot: `claims` a view over an endless recursive CTE.
    std::fs::write(&bin, crate::hostile::crafted_snapshot()).unwrap();
    let s = Server::start(&env, &[]);
    let (slowest, took) = under_load(&s, Duration::from_millis(300));
    eprintln!("crafted snapshot: control {slowest:?}, searches {took:?}");
    assert!(slowest < BOUND, "a control request took {slowest:?}");
    let token = s.token.clone();
    drop(s);

    std::fs::write(&bin, &good).unwrap();
    inflated(&bin, 200_000);
    let mut s = Server::bare(&env, &[]);
    s.token = token.clone();
    let (slowest, took) = under_load(&s, Duration::from_millis(300));
    eprintln!("slow valid snapshot: control {slowest:?}, searches {took:?}");
    let longest = took.iter().max().copied().unwrap_or_default();
    assert!(
        longest > BOUND * 2,
        "the searches held their workers past the bound: {took:?}"
    );
    assert!(slowest < BOUND, "a control request took {slowest:?}");

    drop(s);

    // Answered at its deadline, a search still holds its worker until it ends: a second
    // wave sent after the first was answered must not take the workers kept for control.
    env.write("config.toml", "[mcp]\ncall_timeout_secs = 1\n");
    let mut s = Server::bare(&env, &[]);
    s.token = token;
    let (slowest, took) = std::thread::scope(|scope| {
        let first: Vec<_> = (0..SEARCHES).map(|_| scope.spawn(|| search(&s))).collect();
        std::thread::sleep(Duration::from_millis(1200));
        let second = under_load(&s, Duration::from_millis(200));
        let first: Vec<Duration> = first.into_iter().map(|h| h.join().unwrap()).collect();
        assert!(
            first.iter().all(|t| *t < BOUND * 2),
            "answered at the deadline: {first:?}"
        );
        second
    });
    eprintln!("past the call deadline: control {slowest:?}, searches {took:?}");
    assert!(slowest < BOUND, "a control request took {slowest:?}");
}
