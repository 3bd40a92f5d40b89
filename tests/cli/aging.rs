//! Memory that ages, through every surface a user or agent has: the CLI (propose with
//! `--supersedes`/`--key`, `memory list --status superseded`, the timeline's chain, a
//! person's `supersede` and `keep`), stdio MCP and HTTP MCP (`supersedes`, `key`,
//! `include_superseded`), and the dashboard's chains.

use serde_json::{Value, json};

use crate::common::Env;
use crate::http::client::{Server, call as http_call};
use crate::mcp::{call, init, session};

const OLD: &str = "CI runs on Node 18";
const NEW: &str = "CI runs on Node 22";

fn id(text: &str) -> String {
    ctxlake::memory::gate::claim_id("ci", text)
}

fn pipeline(env: &Env) {
    for step in ["sync", "maint", "sync"] {
        env.cmd().args([step, "-q"]).assert().success();
    }
}

fn propose(env: &mut Env, session: &str, text: &str, extra: &[&str]) -> Value {
    let evidence = format!("{session}:m1");
    let mut args = vec![
        "memory",
        "propose",
        text,
        "--type",
        "environment",
        "--subject",
        "ci",
        "--evidence",
        &evidence,
    ];
    args.extend(extra);
    env.as_agent(&format!("agent-{session}"), session)
        .json(&args)
}

fn search(env: &mut Env, q: &str, history: bool) -> Vec<Value> {
    let mut args = vec!["memory", "search", q, "-k", "20"];
    if history {
        args.push("--include-superseded");
    }
    env.as_agent("reader", "reader").json(&args)["results"]
        .as_array()
        .unwrap()
        .clone()
}

fn hit<'a>(hits: &'a [Value], text: &str) -> Option<&'a Value> {
    hits.iter().find(|h| h["claim"] == text)
}

/// The old fact, promoted by two sessions.
fn promoted_old(env: &mut Env) {
    propose(env, "o1", OLD, &["--key", "ci.node-version"]);
    propose(env, "o2", OLD, &["--key", "ci.node-version"]);
    pipeline(env);
}

#[test]
fn one_session_hides_nothing_and_two_supersede_with_a_chain_in_the_timeline() {
    let mut env = Env::new();
    promoted_old(&mut env);
    let sup = id(OLD);
    propose(&mut env, "n1", NEW, &["--supersedes", &sup]);
    pipeline(&env);
    let hits = search(&mut env, "Node CI", false);
    let old = hit(&hits, OLD).expect("one session hides nothing");
    assert_eq!(old["status"], "promoted");
    assert_eq!(old["pending_replacement"], id(NEW));
    assert!(
        old["rendered"]
            .as_str()
            .unwrap()
            .contains(&format!("replacement pending: {}", id(NEW)))
    );
    propose(&mut env, "n2", NEW, &["--supersedes", &sup]);
    pipeline(&env);
    let hits = search(&mut env, "Node CI", false);
    assert!(
        hit(&hits, OLD).is_none(),
        "never shown as current: {hits:?}"
    );
    assert_eq!(hit(&hits, NEW).unwrap()["status"], "promoted");
    // The rendered result shows the id and says, in one line, how to replace the fact.
    let out = env
        .cmd()
        .args(["memory", "search", "Node CI"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(ctxlake::memory::render::REPLACING), "{text}");
    assert!(text.contains(&format!("[{}, ", id(NEW))), "{text}");
    let history = search(&mut env, "Node CI", true);
    let old = hit(&history, OLD).expect("asked for history");
    assert_eq!(
        (&old["status"], &old["superseded_by"]),
        (&json!("superseded"), &json!(id(NEW)))
    );
    assert!(
        old["rendered"]
            .as_str()
            .unwrap()
            .contains(&format!("SUPERSEDED by {}", id(NEW)))
    );
    let list = env.json(&["memory", "list"]);
    assert!(
        list["claims"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["id"] != id(OLD))
    );
    let gone = env.json(&["memory", "list", "--status", "superseded"]);
    assert_eq!(gone["claims"][0]["superseded_by"], id(NEW));
    let t = env.json(&["memory", "timeline", "ci"]);
    let chain: Vec<&Value> = t["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "claim_superseded")
        .collect();
    assert_eq!(chain.len(), 1, "{t}");
    assert_eq!(
        (&chain[0]["claim_id"], &chain[0]["related_claim_id"]),
        (&json!(id(OLD)), &json!(id(NEW)))
    );
    assert!(chain[0]["text"].as_str().unwrap().contains(&id(NEW)));
}

#[test]
fn a_person_confirms_or_dismisses_a_probable_update() {
    let mut env = Env::new();
    let (old, new) = (
        "The login test is flaky",
        "The login test is no longer flaky",
    );
    for s in ["a", "b"] {
        propose(&mut env, s, old, &[]);
    }
    pipeline(&env);
    for s in ["c", "d"] {
        propose(&mut env, s, new, &[]);
    }
    pipeline(&env);
    let hits = search(&mut env, "login test flaky", false);
    let pos = |t: &str| hits.iter().position(|h| h["claim"] == t).unwrap();
    assert_eq!(
        hits[pos(old)]["outdated_by"],
        id(new),
        "flagged, not applied"
    );
    assert!(pos(new) < pos(old), "ranked below the newer claim");
    env.json(&["memory", "keep", &id(old)]);
    pipeline(&env);
    let hits = search(&mut env, "login test flaky", false);
    assert!(
        hit(&hits, old).unwrap().get("outdated_by").is_none(),
        "dismissed"
    );
    env.json(&[
        "memory",
        "supersede",
        &id(old),
        "--by",
        &id(new),
        "--reason",
        "fixed in #12",
    ]);
    pipeline(&env);
    assert!(hit(&search(&mut env, "login test flaky", false), old).is_none());
    let t = env.json(&["memory", "timeline", "ci"]);
    let kinds: Vec<&str> = t["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert!(
        kinds.contains(&"claim_kept") && kinds.contains(&"claim_superseded"),
        "{kinds:?}"
    );
    let bad = env
        .cmd()
        .args(["memory", "supersede", &id(old), "--by", "nope"])
        .assert()
        .code(2);
    let _ = bad;
}

#[test]
fn stdio_mcp_takes_supersedes_key_and_include_superseded() {
    let mut env = Env::new();
    promoted_old(&mut env);
    let args = |s: &str| {
        json!({"claim": NEW, "type": "environment", "subject": "ci", "key": "ci.node-version",
               "supersedes": [id(OLD)], "evidence": [{"session_id": s, "message_id": "m"}]})
    };
    for s in ["m1", "m2"] {
        env.as_agent("mcp-agent", s);
        let out = session(
            &env,
            &[],
            &[init("2025-11-25"), call(1, "memory_propose", args(s))],
        );
        let r: Value = serde_json::from_str(&out[1]).unwrap();
        assert_eq!(r["result"]["structuredContent"]["status"], "queued", "{r}");
    }
    let bad = json!({"claim": NEW, "type": "environment", "subject": "ci", "key": "CI Node",
                     "evidence": [{"session_id": "s", "message_id": "m"}]});
    let out = session(
        &env,
        &[],
        &[init("2025-11-25"), call(1, "memory_propose", bad)],
    );
    let r: Value = serde_json::from_str(&out[1]).unwrap();
    assert_eq!(r["result"]["isError"], true, "a bad key is refused: {r}");
    pipeline(&env);
    env.as_agent("reader", "reader");
    let q = |history: bool| {
        call(
            1,
            "memory_search",
            json!({"query": "Node CI", "include_superseded": history}),
        )
    };
    let out = session(&env, &[], &[init("2025-11-25"), q(false), q(true)]);
    let now: Value = serde_json::from_str(&out[1]).unwrap();
    let then: Value = serde_json::from_str(&out[2]).unwrap();
    let ids = |v: &Value| -> Vec<String> {
        v["result"]["structuredContent"]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["id"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(ids(&now), vec![id(NEW)]);
    assert!(ids(&then).contains(&id(OLD)));
}

#[test]
fn http_mcp_and_the_dashboard_show_the_chain() {
    let mut env = Env::new();
    promoted_old(&mut env);
    env.extra
        .push(("CTXLAKE_FLEET_ID".into(), "default".into()));
    let s = Server::start(&env, &[]);
    let args = json!({"claim": NEW, "type": "environment", "subject": "ci", "key": "ci.node-version",
                      "evidence": [{"session_id": "h", "message_id": "m"}]});
    for _ in 0..2 {
        // Each initialized HTTP session is a session of its own: two independent ones.
        let sid = s.initialize("/mcp", "2025-11-25", &[]);
        let h = [
            ("Mcp-Session-Id", sid.as_str()),
            ("MCP-Protocol-Version", "2025-11-25"),
        ];
        let r = s.post("/mcp", &h, &http_call(1, "memory_propose", args.clone()));
        assert_eq!(r.json()["result"]["isError"], false, "{}", r.body);
    }
    pipeline(&env);
    let sid = s.initialize("/mcp", "2025-11-25", &[]);
    let h = [
        ("Mcp-Session-Id", sid.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    let q = json!({"query": "Node CI", "include_superseded": true});
    let r = s.post("/mcp", &h, &http_call(2, "memory_search", q)).json();
    let hits = r["result"]["structuredContent"]["results"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(hit(&hits, OLD).unwrap()["superseded_by"], id(NEW), "{r}");
    let page = s.request("GET", "/fleet/default", &[], b"");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("Superseded"), "{}", page.body);
    assert!(
        page.body.contains(&format!("{} → {}", id(OLD), id(NEW))),
        "{}",
        page.body
    );
}
