//! The lake on a real S3 server (moto, see `s3/moto.rs`): several `CTXLAKE_HOME`s share
//! one bucket through the real binary; a fault proxy in front of moto proves that
//! `sync` and `maint` take effect exactly once, and that a store ignoring conditional
//! writes is refused.

#[path = "s3/keys.rs"]
mod keys;
#[path = "s3/moto.rs"]
pub(crate) mod moto;
#[path = "s3/proxy.rs"]
pub(crate) mod proxy;
#[path = "s3/rewrite.rs"]
mod rewrite;

use serde_json::{Value, json};

use crate::common::Env;

pub(crate) fn leases(v: &Value, agent: &str) -> Vec<Value> {
    v["agents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["agent"] == agent)
        .flat_map(|a| a["leases"].as_array().unwrap().clone())
        .collect()
}

pub(crate) fn run(env: &Env, args: &[&str]) {
    env.cmd().args(args).assert().success();
}

pub(crate) fn propose(env: &Env, text: &str) {
    let ev = json!([{"session_id": env.session, "message_id": "m1"}]).to_string();
    run(
        env,
        &[
            "memory",
            "propose",
            text,
            "--type",
            "convention",
            "--subject",
            "tests",
            "--evidence-json",
            &ev,
        ],
    );
}

#[test]
#[ignore = "needs moto: run .ci/run"]
fn init_probes_the_bucket_before_writing_the_config() {
    let m = moto::start();
    m.create_bucket("lake");
    let env = m.host(&m.endpoint(), "s3://lake/team");
    let config = env.ctxlake_home().join("config.toml");
    let out = env
        .cmd()
        .args([
            "init",
            "--yes",
            "--config-only",
            "--store",
            "s3://no-such-bucket/team",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success(), "a missing bucket is refused");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the bucket of `s3://no-such-bucket/team` does not exist"),
        "{err}"
    );
    assert!(
        !config.exists(),
        "nothing is written before the probe passed"
    );
    run(
        &env,
        &[
            "init",
            "--yes",
            "--config-only",
            "--store",
            "s3://lake/team",
        ],
    );
    let text = std::fs::read_to_string(&config).unwrap();
    assert!(text.contains("store = \"s3://lake/team\""), "{text}");
    assert!(
        !text.contains("test"),
        "no credential reaches the config: {text}"
    );
    assert_eq!(m.keys("lake"), Vec::<String>::new(), "the probe cleans up");
}

#[test]
#[ignore = "needs moto: run .ci/run"]
fn hosts_sharing_a_bucket_see_each_others_leases_handoffs_and_memory() {
    let m = moto::start();
    m.create_bucket("fleet");
    let (mut a, b, c) = (
        m.host(&m.endpoint(), "s3://fleet/lake"),
        m.host(&m.endpoint(), "s3://fleet/lake"),
        m.host(&m.endpoint(), "s3://fleet/lake"),
    );
    a.as_agent("a1", "s1");
    run(
        &a,
        &["fleet", "claim", "src/auth", "--reason", "token refresh"],
    );
    run(
        &a,
        &[
            "fleet",
            "handoff",
            "auth half done",
            "--status",
            "in-progress",
            "--next",
            "fix expiry test",
        ],
    );
    propose(&a, "Integration tests need the postgres service running");
    a.as_agent("a2", "s2");
    propose(&a, "Integration tests need the postgres service running");
    let synced = a.json(&["sync"]);
    assert_eq!(synced["store"], "s3://fleet/lake");
    assert!(synced["requests"].as_u64().unwrap() > 0, "{synced}");

    let st = a.json(&["status"]);
    assert_eq!(st["store"], "s3://fleet/lake");
    assert_eq!(st["store_probe"], "passed");
    assert_eq!(st["last_sync_requests"], synced["requests"]);

    run(&b, &["sync"]);
    let held = leases(&b.json(&["fleet", "status"]), "a1");
    assert_eq!(held.len(), 1, "host B sees host A's lease");
    assert_eq!(held[0]["path"], "src/auth");
    let h = b.json(&["fleet", "history"]);
    assert_eq!(h["handoffs"][0]["summary"], "auth half done");
    run(&b, &["maint"]);

    run(&c, &["sync"]);
    let v = c.json(&["memory", "search", "postgres integration"]);
    assert_eq!(v["results"][0]["independent_sessions"], 2, "{v}");
    assert!(
        m.keys("fleet").iter().all(|k| k.starts_with("lake/")),
        "everything lives under the store's prefix"
    );
}

/// Host A runs an hour slow and host B an hour fast; both claim with a ten-minute TTL.
/// On host C (true clock) both leases must expire ten minutes from now: granted on the
/// lake's clock, not either host's.
#[test]
#[ignore = "needs moto: run .ci/run"]
fn leases_follow_the_lake_clock_on_hosts_an_hour_off() {
    let m = moto::start();
    m.create_bucket("clock");
    let store = "s3://clock/lake";
    let mut a = m.host(&m.endpoint(), store);
    let mut b = m.host(&m.endpoint(), store);
    let c = m.host(&m.endpoint(), store);
    a.extra
        .push(("CTXLAKE_TEST_CLOCK_SKEW_MS".into(), "-3600000".into()));
    b.extra
        .push(("CTXLAKE_TEST_CLOCK_SKEW_MS".into(), "3600000".into()));
    run(
        a.as_agent("slow", "s1"),
        &["fleet", "claim", "src/a", "--reason", "r", "--ttl", "600"],
    );
    run(
        b.as_agent("fast", "s2"),
        &["fleet", "claim", "src/b", "--reason", "r", "--ttl", "600"],
    );
    run(&a, &["sync"]);
    run(&b, &["sync"]);
    run(&c, &["sync"]);
    let v = c.json(&["fleet", "status"]);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    for agent in ["slow", "fast"] {
        let l = leases(&v, agent);
        assert_eq!(l.len(), 1, "{agent}'s lease is live on C: {v}");
        let exp = l[0]["expires_at"].as_str().unwrap();
        let exp = time_secs(exp);
        assert!(
            (exp - (now + 600)).abs() < 120,
            "{agent}: expires {exp}, expected about {}",
            now + 600
        );
    }
}

fn time_secs(rfc3339: &str) -> i64 {
    // `2026-11-30T19:56:01.123Z` → seconds, by the civil-from-days algorithm.
    let p = |r: std::ops::Range<usize>| rfc3339[r].parse::<i64>().unwrap();
    let (y, mo, d) = (p(0..4), p(5..7), p(8..10));
    let (y, mo) = if mo <= 2 {
        (y - 1, mo + 9)
    } else {
        (y, mo - 3)
    };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * mo + 2) / 5 + d - 1;
    let days = era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468;
    days * 86_400 + p(11..13) * 3600 + p(14..16) * 60 + p(17..19)
}

#[path = "s3/faults.rs"]
mod faults;

/// The hot paths never open the store: with an S3 store configured, `hook`, `mcp` and
/// the tool subcommands run without one connection to its endpoint (and so without
/// the S3 client's runtime or TLS), even when the endpoint is unreachable.
#[test]
fn hook_mcp_and_tools_never_contact_the_store() {
    // An endpoint that counts connections and answers each with a 500.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let endpoint = format!("http://{}", listener.local_addr().unwrap());
    let hits = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let seen = hits.clone();
    std::thread::spawn(move || {
        for mut c in listener.incoming().flatten() {
            seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let _ = std::io::Write::write_all(
                &mut c,
                b"HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            );
        }
    });
    let hits = move || hits.load(std::sync::atomic::Ordering::SeqCst);
    let mut env = crate::common::Env::new();
    for (k, v) in [
        ("AWS_ACCESS_KEY_ID", "test"),
        ("AWS_SECRET_ACCESS_KEY", "test"),
        ("AWS_REGION", "us-east-1"),
        ("AWS_EC2_METADATA_DISABLED", "true"),
        ("AWS_ENDPOINT_URL", endpoint.as_str()),
        ("AWS_ALLOW_HTTP", "true"),
        ("CTXLAKE_STORE", "s3://lake/team"),
    ] {
        env.extra.push((k.into(), v.into()));
    }
    run(&env, &["fleet", "claim", "src/x", "--reason", "r"]);
    run(&env, &["fleet", "status"]);
    run(&env, &["memory", "search", "anything"]);
    let start = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/hooks/claude-code/session-start.json"
    ))
    .unwrap();
    env.cmd()
        .args(["hook", "claude-code"])
        .write_stdin(start)
        .assert()
        .success();
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "fleet_status", "arguments": {}}});
    env.cmd()
        .arg("mcp")
        .write_stdin(format!("{init}\n{call}\n"))
        .assert()
        .success();
    assert_eq!(hits(), 0, "a hot path connected to the store's endpoint");
    let out = env.cmd().arg("sync").output().unwrap();
    assert!(
        !out.status.success(),
        "sync does use the store: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(hits() > 0, "and sync reached the endpoint");
}

#[test]
#[ignore = "needs moto: run .ci/run"]
fn lake_copy_moves_a_local_lake_into_a_bucket_idempotently() {
    let m = moto::start();
    m.create_bucket("moved");
    let mut local = m.host(&m.endpoint(), "unused");
    local.extra.retain(|(k, _)| k != "CTXLAKE_STORE");
    local.as_agent("a1", "s1");
    run(
        &local,
        &["fleet", "claim", "src/db", "--reason", "migration"],
    );
    run(
        &local,
        &[
            "fleet",
            "handoff",
            "schema drafted",
            "--status",
            "in-progress",
        ],
    );
    run(&local, &["sync"]);
    let from = format!("file://{}", local.ctxlake_home().join("lake").display());
    let first = local.json(&["lake", "copy", &from, "s3://moved/lake"]);
    assert!(first["copied"].as_u64().unwrap() >= 3, "{first}");
    assert_eq!(first["copied"], first["objects"], "{first}");
    let again = local.json(&["lake", "copy", &from, "s3://moved/lake"]);
    assert_eq!(again["copied"], 0, "{again}");
    assert_eq!(again["already_present"], first["objects"], "{again}");

    let b = m.host(&m.endpoint(), "s3://moved/lake");
    run(&b, &["sync"]);
    assert_eq!(leases(&b.json(&["fleet", "status"]), "a1").len(), 1);
    assert_eq!(
        b.json(&["fleet", "history"])["handoffs"][0]["summary"],
        "schema drafted"
    );
}

/// Write `n` handoffs straight into a local lake (fleet `default`), one batch each, ids
/// from `from`.
fn seed_handoffs(lake: &std::path::Path, from: usize, n: usize) {
    let dir = lake.join("handoffs/default");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::create_dir_all(lake.join("fleets")).unwrap();
    std::fs::write(lake.join("fleets/default"), b"").unwrap();
    for i in from..from + n {
        let id = format!("01KDV{i:021}");
        let rec: ctxlake::spool::Record = serde_json::from_value(json!({"id": id,
            "ts": "2026-11-29T00:00:00.000Z", "fleet": "default", "agent": "a", "session": "s",
            "kind": "fleet_handoff", "payload": {"summary": format!("note {i}"), "status": "done"}}))
        .unwrap();
        std::fs::write(
            dir.join(format!("{id}.ndjson")),
            ctxlake::spool::encode(&rec).unwrap(),
        )
        .unwrap();
    }
}

/// An idle `sync --json`: (requests, GETs).
fn idle_sync(env: &Env) -> (u64, u64) {
    let v = env.json(&["sync"]);
    (
        v["requests"].as_u64().unwrap(),
        v["gets"].as_u64().unwrap_or(0),
    )
}

#[test]
#[ignore = "needs moto: run .ci/run"]
fn an_idle_sync_costs_the_same_few_requests_however_long_the_history() {
    let m = moto::start();
    m.create_bucket("idle");
    let mut local = m.host(&m.endpoint(), "unused");
    local.extra.retain(|(k, _)| k != "CTXLAKE_STORE");
    let lake = local.ctxlake_home().join("lake");
    let from = format!("file://{}", lake.display());
    let b = m.host(&m.endpoint(), "s3://idle/lake");
    let mut costs = Vec::new();
    for (start, n) in [(0, 40), (40, 40)] {
        seed_handoffs(&lake, start, n);
        run(&local, &["lake", "copy", &from, "s3://idle/lake"]);
        run(&b, &["sync"]); // fetches what is new
        costs.push(idle_sync(&b));
    }
    let history = b.json(&["fleet", "history"]);
    assert_eq!(history["handoffs"][0]["summary"], "note 79", "{history}");
    let (requests, gets) = costs[1];
    // The GETs are the probe reading back its own refused second create and the format
    // marker, read once per process.
    assert!(
        gets <= 2,
        "an idle sync reads no other lake object: {costs:?}"
    );
    assert!(requests <= 13, "{costs:?}");
    assert_eq!(costs[0], costs[1], "the cost must not grow with history");
}
