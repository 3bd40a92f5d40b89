//! Every remote client is someone: a call made with a token acts as that token's agent, in
//! its fleets only, read-only when it says so; sessions are bound to their token and die with
//! it; each stateless client has its own session, so one client's release-all never drops
//! another's lease (proved through `sync` and `fleet status`); one token's sessions never
//! end another's.

use serde_json::{Value, json};

use super::client::{self, Server, call, new_token};
use crate::common::Env;

const V: &str = "2025-11-25";

fn h<'a>(auth: &'a str, sid: &'a str) -> Vec<(&'a str, &'a str)> {
    vec![
        ("Authorization", auth),
        ("Mcp-Session-Id", sid),
        ("MCP-Protocol-Version", V),
    ]
}

fn refusal(r: &client::Resp) -> String {
    let res = &r.json()["result"];
    assert_eq!(res["isError"], true, "{}", r.body);
    res["content"][0]["text"].as_str().unwrap().to_string()
}

/// Every spool record `ctxlake` queued, as JSON.
fn spooled(env: &Env) -> Vec<Value> {
    crate::common::lake_records(
        std::fs::read_dir(env.ctxlake_home().join("spool/mcp"))
            .map(|d| {
                d.flatten()
                    .map(|e| {
                        let p = e.path();
                        (format!("{}.ndjson", p.display()), std::fs::read(p).unwrap())
                    })
                    .collect()
            })
            .unwrap_or_default(),
    )
}

#[test]
fn a_call_acts_as_its_tokens_agent_in_its_fleets_only_and_read_only_tokens_never_write() {
    let env = Env::new();
    let bob = Server::bearer(&new_token(
        &env,
        "bob",
        &["--agent", "bob", "--fleet", "team-a"],
    ));
    let ro = Server::bearer(&new_token(&env, "viewer", &["--read-only"]));
    let s = Server::start(&env, &[]);

    let sid = s.initialize("/mcp", V, &[("Authorization", &bob)]);
    let claim = json!({"paths": ["src/a"], "reason": "mine"});
    let r = s.post("/mcp", &h(&bob, &sid), &call(1, "fleet_claim", claim));
    let q = &r.json()["result"]["structuredContent"];
    assert_eq!(q["status"], "queued", "{}", r.body);
    let elsewhere = json!({"fleet": "team-b"});
    let r = s.post("/mcp", &h(&bob, &sid), &call(2, "fleet_status", elsewhere));
    let text = refusal(&r);
    assert!(
        text.contains("fleet_not_accessible") && text.contains("token `bob`"),
        "{text}"
    );
    let pinned = s.post("/mcp/team-b", &[("Authorization", &bob)], &client::init(V));
    assert_eq!(pinned.status, 403, "{}", pinned.body);

    let sid = s.initialize("/mcp", V, &[("Authorization", &ro)]);
    for (i, (tool, args)) in [
        ("fleet_claim", json!({"paths": ["src/x"], "reason": "r"})),
        ("fleet_release", json!({})),
        ("fleet_handoff", json!({"summary": "s", "status": "done"})),
    ]
    .into_iter()
    .enumerate()
    {
        let r = s.post("/mcp", &h(&ro, &sid), &call(i as i64, tool, args));
        let text = refusal(&r);
        assert!(
            text.contains("read_only_token") && text.contains("token `viewer`"),
            "{text}"
        );
    }
    let read = s.post("/mcp", &h(&ro, &sid), &call(9, "fleet_status", json!({})));
    assert_eq!(read.json()["result"]["isError"], false, "{}", read.body);
    assert_eq!(
        read.json()["result"]["structuredContent"]["agent"],
        "viewer"
    );

    let who: Vec<(Value, Value)> = spooled(&env)
        .iter()
        .map(|r| (r["agent"].clone(), r["fleet"].clone()))
        .collect();
    assert_eq!(
        who,
        [(json!("bob"), json!("team-a"))],
        "only bob's claim was queued, in his token's fleet"
    );
    let list = env.json(&["mcp", "token", "list"]);
    let names: Vec<&str> = list["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["owner", "bob", "viewer", "test"]);
    let text = std::fs::read_to_string(env.ctxlake_home().join("mcp-tokens.json")).unwrap();
    assert!(
        !text.contains(bob.trim_start_matches("Bearer ")),
        "secrets are never stored"
    );
    assert!(!list.to_string().contains("sha256"), "list shows no hash");
}

#[test]
fn sessions_are_bound_to_their_token_and_die_with_it() {
    let env = Env::new();
    let a = Server::bearer(&new_token(&env, "a", &[]));
    let b = Server::bearer(&new_token(&env, "b", &[]));
    let s = Server::start(&env, &[]);
    let sid = s.initialize("/mcp", V, &[("Authorization", &a)]);
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
    assert_eq!(s.post("/mcp", &h(&a, &sid), &list).status, 200);
    assert_eq!(
        s.post("/mcp", &h(&b, &sid), &list).status,
        404,
        "another token cannot use it"
    );
    env.cmd()
        .args(["mcp", "token", "revoke", "a"])
        .assert()
        .success();
    assert_eq!(s.post("/mcp", &h(&a, &sid), &list).status, 401);
    // Made again under the same name, it is someone else: the old session stays dead.
    let a2 = Server::bearer(&new_token(&env, "a", &[]));
    assert_eq!(s.post("/mcp", &h(&a2, &sid), &list).status, 404);
    let health = s.request("GET", "/health", &[], b"");
    assert_eq!(
        health.json()["sessions"],
        0,
        "the revoked token's session is gone"
    );
}

/// The leases `fleet status` shows after a sync, as (session, path).
fn leases(env: &Env) -> Vec<(String, String)> {
    env.cmd().arg("sync").assert().success();
    let st = env.json(&["fleet", "status", "--fleet", "team"]);
    let mut out: Vec<(String, String)> = st["agents"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|a| {
            let session = a["session"].as_str().unwrap().to_string();
            a["leases"]
                .as_array()
                .unwrap()
                .iter()
                .map(move |l| (session.clone(), l["path"].as_str().unwrap().to_string()))
        })
        .collect();
    out.sort();
    out
}

#[test]
fn a_stateless_clients_release_all_drops_only_its_own_leases() {
    let env = Env::new();
    let shared = Server::bearer(&new_token(&env, "shared", &[]));
    let other = Server::bearer(&new_token(&env, "other", &[]));
    let s = Server::start(&env, &[]);
    let auth = |t: &str| vec![("Authorization", t.to_string())];
    let clients = [
        (auth(&shared), Some("laptop-a"), "src/a"),
        (auth(&shared), Some("laptop-b"), "src/b"),
        (auth(&other), None, "src/c"),
    ];
    for (a, key, path) in &clients {
        let a: Vec<(&str, &str)> = a.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let args = json!({"fleet": "team", "paths": [path], "reason": "work"});
        let r = s.stateless_call("/mcp", &a, "fleet_claim", args, *key);
        assert_eq!(r.json()["result"]["isError"], false, "{}", r.body);
    }
    assert_eq!(
        leases(&env),
        [
            ("http-other".to_string(), "src/c".to_string()),
            ("http-shared-laptop-a".into(), "src/a".into()),
            ("http-shared-laptop-b".into(), "src/b".into()),
        ]
    );
    let a: Vec<(&str, &str)> = vec![("Authorization", shared.as_str())];
    let r = s.stateless_call(
        "/mcp",
        &a,
        "fleet_release",
        json!({"fleet": "team"}),
        Some("laptop-a"),
    );
    assert_eq!(r.json()["result"]["isError"], false, "{}", r.body);
    assert_eq!(
        leases(&env),
        [
            ("http-other".to_string(), "src/c".to_string()),
            ("http-shared-laptop-b".into(), "src/b".into()),
        ],
        "client A's release-all kept B's and C's leases"
    );
}

#[test]
fn one_token_opening_many_sessions_ends_only_its_own() {
    let env = Env::new();
    let greedy = Server::bearer(&new_token(&env, "greedy", &[]));
    let s = Server::start(&env, &[]);
    let mine = s.initialize("/mcp", V, &[]);
    let first = s.initialize("/mcp", V, &[("Authorization", &greedy)]);
    for _ in 0..1100 {
        s.initialize("/mcp", V, &[("Authorization", &greedy)]);
    }
    let me = s.token.clone().map(|t| Server::bearer(&t)).unwrap();
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
    assert_eq!(
        s.post("/mcp", &h(&me, &mine), &list).status,
        200,
        "another token's session lives"
    );
    assert_eq!(
        s.post("/mcp", &h(&greedy, &first), &list).status,
        404,
        "its own oldest went"
    );
}
