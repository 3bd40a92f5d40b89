//! Fleets an agent can discover: `ctxlake fleet list` names the fleets this host is
//! configured for, mirrors (of those it serves), or served over MCP, with live agents and last activity; open-
//! mode `fleet_status` without `fleet` carries the same list, a pinned server never does.

use serde_json::{Value, json};

use crate::common::Env;
use crate::mcp::{call, init, session};

fn populate(env: &Env) {
    let live = ctxlake::time::parse_rfc3339("2999-01-01T00:00:00.000Z").unwrap();
    let old = ctxlake::time::parse_rfc3339("2020-01-01T00:00:00.000Z").unwrap();
    env.write(
        "cache/payments/roster.json",
        &json!({"generated_at": "2026-01-01T00:00:00.000Z", "lake_clock_offset_ms": 0, "agents": [
            {"agent": "agent-b", "session": "s-b", "last_seen_ms": live, "leases": []},
            {"agent": "agent-c", "session": "s-c", "last_seen_ms": old, "leases": []}
        ]})
        .to_string(),
    );
    // This host's agents wrote to `payments`, so its sync mirrors it.
    env.write(
        "state/fleets-used.json",
        &json!({"fleets": ["payments"]}).to_string(),
    );
    // Today's log (a server prunes old ones when it starts).
    let (older, newer) = (ops_call(120_000), ops_call(60_000));
    env.write(
        &format!(
            "logs/mcp-{}.jsonl",
            ctxlake::time::date_of(ctxlake::time::now_ms())
        ),
        &format!("{older}\n{newer}\n"),
    );
}

/// A call-log line for fleet `ops`, `ago_ms` ago.
fn ops_call(ago_ms: i64) -> Value {
    let ts = ctxlake::time::format_ms(ctxlake::time::now_ms() - ago_ms);
    json!({"ts": ts, "fleet": "ops", "tool": "fleet_status", "args_hash": "0", "latency_ms": 1, "ok": true})
}

fn by_name(list: &Value) -> Vec<(String, bool, bool, bool, u64)> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["fleet"].as_str().unwrap().to_string(),
                f["configured"].as_bool().unwrap(),
                f["mirrored"].as_bool().unwrap(),
                f["served"].as_bool().unwrap(),
                f["agents"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn fleet_list_names_configured_mirrored_and_served_fleets() {
    let env = Env::new();
    populate(&env);
    // A cache this host no longer serves (an older build mirrored every fleet in the
    // lake) is not listed as mirrored.
    env.write(
        "cache/stale/roster.json",
        r#"{"generated_at": "2026-01-01T00:00:00.000Z", "lake_clock_offset_ms": 0, "agents": []}"#,
    );
    let v = env.json(&["fleet", "list"]);
    let rows = by_name(&v["fleets"]);
    assert!(rows.iter().all(|r| r.0 != "stale"), "{v}");
    assert_eq!(
        rows[0],
        ("default".into(), true, false, false, 0),
        "configured first: {v}"
    );
    assert!(
        rows.contains(&("payments".into(), false, true, false, 1)),
        "{v}"
    );
    assert!(rows.contains(&("ops".into(), false, false, true, 0)), "{v}");
    let ops = v["fleets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["fleet"] == "ops")
        .unwrap();
    let newest = ctxlake::time::parse_rfc3339(ops["last_activity"].as_str().unwrap()).unwrap();
    assert!(
        ctxlake::time::now_ms() - newest < 100_000,
        "the newer call: {ops}"
    );
}

#[test]
fn open_fleet_status_lists_fleets_and_a_pinned_one_does_not() {
    let env = Env::new();
    populate(&env);
    let lines = [init("2025-06-18"), call(1, "fleet_status", json!({}))];
    let out = session(&env, &[], &lines);
    let v: Value = serde_json::from_str(out.last().unwrap()).unwrap();
    let sc = &v["result"]["structuredContent"];
    let rows = by_name(&sc["fleets"]);
    assert!(
        rows.iter().any(|r| r.0 == "payments") && rows.iter().any(|r| r.0 == "ops"),
        "{sc}"
    );
    // Asked about one fleet: no list.
    let lines = [
        init("2025-06-18"),
        call(1, "fleet_status", json!({"fleet": "payments"})),
    ];
    let out = session(&env, &[], &lines);
    let v: Value = serde_json::from_str(out.last().unwrap()).unwrap();
    assert!(
        v["result"]["structuredContent"].get("fleets").is_none(),
        "{v}"
    );
    // A pinned server speaks for its fleet only.
    let lines = [init("2025-06-18"), call(1, "fleet_status", json!({}))];
    let out = session(&env, &["--fleet", "payments"], &lines);
    let v: Value = serde_json::from_str(out.last().unwrap()).unwrap();
    assert!(
        v["result"]["structuredContent"].get("fleets").is_none(),
        "{v}"
    );
}

/// A lake flooded with fleet markers another host never wrote to: `sync` names them (a
/// count and a short sample) and mirrors only this host's fleet, `maint` folds only that
/// one, and `doctor` says how many others exist.
#[test]
fn fleets_only_the_lake_knows_are_named_not_mirrored() {
    let env = Env::new();
    env.cmd()
        .args(["fleet", "claim", "src", "--reason", "mine"])
        .assert()
        .success();
    env.cmd().arg("sync").assert().success();
    let lake = env.ctxlake_home().join("lake");
    for i in 0..40 {
        std::fs::write(lake.join(format!("fleets/fake{i:02}")), b"").unwrap();
    }
    let v = env.json(&["sync"]);
    let mirrored: Vec<&str> = v["fleets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["fleet"].as_str().unwrap())
        .collect();
    assert_eq!(mirrored, ["default"], "{v}");
    assert_eq!(v["unserved_fleets"]["count"], 40, "{v}");
    assert_eq!(v["unserved_fleets"]["sample"][0], "fake00", "{v}");
    assert!(
        v["unserved_fleets"]["sample"].as_array().unwrap().len() < 10,
        "{v}"
    );
    assert!(!env.ctxlake_home().join("cache/fake00").exists());
    let m = env.json(&["maint"]);
    let folded: Vec<&str> = m["fleets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["fleet"].as_str().unwrap())
        .collect();
    assert_eq!(folded, ["default"], "{m}");
    let (_, d) = crate::doctor::doctor(&env, &[]);
    let c = crate::doctor::check(&d, "other fleets");
    assert!(c["saw"].as_str().unwrap().contains("40 fleet(s)"), "{c}");
    // Named on the command line, a fleet is served.
    let v = env.json(&["sync", "--fleet", "fake07"]);
    assert!(
        v["fleets"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["fleet"] == "fake07"),
        "{v}"
    );
}
