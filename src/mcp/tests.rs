//! One test per row of the conformance table, driven through `serve` with in-memory
//! buffers: what goes in, exactly which frames come out.

use std::path::Path;

use serde_json::{Value, json};

use super::jsonrpc::*;
use super::serve;
use crate::config::Config;
use crate::paths::Paths;
use crate::scope::Scope;
use crate::tools::Ctx;

fn ctx(dir: &Path, pinned: Option<&str>) -> Ctx {
    Ctx {
        paths: Paths::with_overrides(dir.to_path_buf(), None, None),
        config: Config::default(),
        scope: Scope {
            fleet: "team".into(),
            agent: "a1".into(),
            session: "mcp-test".into(),
        },
        pinned_fleet: pinned.map(String::from),
        cwd: dir.to_path_buf(),
    }
}

/// Run one connection; every output line must be one JSON value.
fn run_with(ctx: &Ctx, lines: &[String]) -> Vec<Value> {
    let input = lines.join("\n");
    let mut out = Vec::new();
    serve(ctx, input.as_bytes(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn run(lines: &[String]) -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    run_with(&ctx(dir.path(), None), lines)
}

fn init(version: &str) -> String {
    json!({"jsonrpc": "2.0", "id": "init", "method": "initialize",
        "params": {"protocolVersion": version, "capabilities": {},
                   "clientInfo": {"name": "t", "version": "1"}}})
    .to_string()
}

fn req(id: i64, method: &str, params: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

fn call(id: i64, tool: &str, args: Value) -> String {
    req(id, "tools/call", json!({"name": tool, "arguments": args}))
}

fn code(frame: &Value) -> i64 {
    frame["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("not an error: {frame}"))
}

fn s(x: &str) -> String {
    x.to_string()
}

#[test]
fn malformed_json_is_a_parse_error_with_null_id() {
    let out = run(&[s("{not json"), s("{\"jsonrpc\":\"2.0\",\"id\":1,")]);
    assert_eq!(out.len(), 2);
    for f in &out {
        assert_eq!(code(f), PARSE_ERROR);
        assert_eq!(f["id"], Value::Null);
        assert_eq!(f["jsonrpc"], "2.0");
    }
}

#[test]
fn bytes_that_are_not_utf8_are_a_parse_error() {
    let dir = tempfile::tempdir().unwrap();
    let mut out = Vec::new();
    serve(&ctx(dir.path(), None), &b"\xff\xfe\n"[..], &mut out).unwrap();
    let f: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(code(&f), PARSE_ERROR);
}

#[test]
fn a_value_that_is_not_an_object_is_an_invalid_request() {
    let out = run(&[s("3"), s("\"ping\""), s("null"), s("true")]);
    assert_eq!(out.len(), 4);
    for f in &out {
        assert_eq!(code(f), INVALID_REQUEST);
        assert_eq!(f["id"], Value::Null);
    }
}

#[test]
fn no_method_is_invalid_with_an_id_and_dropped_without() {
    let out = run(&[s(r#"{"jsonrpc":"2.0","id":7}"#), s(r#"{"jsonrpc":"2.0"}"#)]);
    assert_eq!(out.len(), 1);
    assert_eq!(code(&out[0]), INVALID_REQUEST);
    assert_eq!(out[0]["id"], 7);
}

#[test]
fn bad_envelopes_are_invalid_requests() {
    let out = run(&[
        s(r#"{"id":1,"method":"ping"}"#),
        s(r#"{"jsonrpc":"2.0","id":2,"method":5}"#),
        s(r#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#),
        s(r#"{"jsonrpc":"2.0","id":3,"method":"ping","params":[1]}"#),
    ]);
    let ids: Vec<_> = out.iter().map(|f| f["id"].clone()).collect();
    assert_eq!(ids, [json!(1), json!(2), Value::Null, json!(3)]);
    assert!(out.iter().all(|f| code(f) == INVALID_REQUEST));
}

#[test]
fn unknown_method_is_method_not_found() {
    let out = run(&[init("2025-11-25"), req(1, "resources/list", json!({}))]);
    assert_eq!(code(&out[1]), METHOD_NOT_FOUND);
    assert_eq!(out[1]["id"], 1);
}

#[test]
fn notifications_are_never_answered() {
    let out = run(&[
        s(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
        s(r#"{"jsonrpc":"2.0","method":"no/such/method"}"#),
        s(r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"nosuch"}}"#),
        s(r#"{"jsonrpc":"2.0","method":"ping","params":[1]}"#),
        s(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#),
    ]);
    assert!(out.is_empty(), "{out:?}");
}

#[test]
fn stray_results_and_errors_are_ignored() {
    let out = run(&[
        s(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
        s(r#"{"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"x"}}"#),
        s(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}"#),
    ]);
    assert!(out.is_empty(), "{out:?}");
}

#[test]
fn ping_answers_an_empty_object() {
    let out = run(&[req(9, "ping", json!({}))]);
    assert_eq!(out[0]["result"], json!({}));
}

#[test]
fn initialize_echoes_supported_versions_and_answers_newest_otherwise() {
    for (asked, answered) in [
        ("2024-11-05", "2024-11-05"),
        ("2025-03-26", "2025-03-26"),
        ("2025-06-18", "2025-06-18"),
        ("2025-11-25", "2025-11-25"),
        ("1999-01-01", "2025-11-25"),
    ] {
        let r = &run(&[init(asked)])[0]["result"];
        assert_eq!(r["protocolVersion"], answered);
        assert_eq!(r["serverInfo"]["name"], "ctxlake");
        assert_eq!(r["capabilities"]["tools"]["listChanged"], false);
    }
}

#[test]
fn unknown_tool_is_invalid_params_in_every_version() {
    for v in ["2024-11-05", "2025-06-18", "2025-11-25"] {
        let out = run(&[init(v), call(1, "memory_write", json!({}))]);
        assert_eq!(code(&out[1]), INVALID_PARAMS, "{v}");
        assert!(
            out[1]["error"]["message"]
                .as_str()
                .unwrap()
                .contains("memory_write")
        );
    }
    let out = run(&[req(2, "tools/call", json!({"arguments": {}}))]);
    assert_eq!(code(&out[0]), INVALID_PARAMS);
    let out = run(&[call(3, "fleet_status", json!("x"))]);
    assert_eq!(code(&out[0]), INVALID_PARAMS);
}

#[test]
fn bad_arguments_are_invalid_params_before_2025_11_25() {
    for v in ["2024-11-05", "2025-03-26", "2025-06-18"] {
        let out = run(&[
            init(v),
            call(1, "memory_search", json!({})),
            call(2, "memory_search", json!({"query": "q", "k": "ten"})),
        ]);
        assert_eq!(code(&out[1]), INVALID_PARAMS, "{v}");
        assert!(
            out[1]["error"]["message"]
                .as_str()
                .unwrap()
                .contains("`query`")
        );
        assert_eq!(code(&out[2]), INVALID_PARAMS);
        assert!(out[2]["error"]["message"].as_str().unwrap().contains("`k`"));
    }
}

#[test]
fn bad_arguments_are_tool_errors_from_2025_11_25() {
    let out = run(&[
        init("2025-11-25"),
        call(1, "fleet_claim", json!({"reason": "r"})),
        call(2, "fleet_history", json!({"limit": "many"})),
        call(3, "fleet_status", json!({"bogus": 1})),
    ]);
    for (f, field) in out[1..].iter().zip(["`paths`", "`limit`", "`bogus`"]) {
        assert_eq!(f["result"]["isError"], true, "{f}");
        let text = f["result"]["content"][0]["text"].as_str().unwrap();
        assert!(text.contains(field), "{text}");
        assert!(text.contains("invalid_arguments"), "{text}");
    }
}

#[test]
fn tool_refusals_are_is_error_results_and_the_session_goes_on() {
    let args = json!({"claim": "c", "type": "convention", "subject": "s", "evidence": []});
    let out = run(&[
        init("2025-06-18"),
        call(1, "memory_propose", args),
        req(2, "ping", json!({})),
    ]);
    let r = &out[1]["result"];
    assert_eq!(r["isError"], true);
    let text = r["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("evidence_missing") && text.contains("hint: "),
        "{text}"
    );
    assert_eq!(r["_meta"]["ctxlake/error"]["code"], "evidence_missing");
    assert_eq!(out[2]["result"], json!({}));
}

#[test]
fn results_carry_structured_content_and_the_same_json_as_text() {
    let out = run(&[init("2025-06-18"), call(1, "fleet_status", json!({}))]);
    let r = &out[1]["result"];
    assert_eq!(r["isError"], false);
    let text: Value = serde_json::from_str(r["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text, r["structuredContent"]);
    assert_eq!(r["structuredContent"]["fleet"], "team");
    // 2024-11-05 predates structuredContent: text only.
    let out = run(&[init("2024-11-05"), call(1, "fleet_status", json!({}))]);
    assert!(out[1]["result"].get("structuredContent").is_none());
    assert_eq!(out[1]["result"]["content"][0]["type"], "text");
}

#[test]
fn a_good_proposal_is_queued_to_the_spool() {
    let dir = tempfile::tempdir().unwrap();
    let c = ctx(dir.path(), None);
    let ev = json!([{"session_id": "s9", "message_id": "m3"}]);
    let args = json!({"claim": "tests need -D warnings", "type": "convention", "subject": "ci", "evidence": ev});
    let out = run_with(&c, &[init("2025-11-25"), call(1, "memory_propose", args)]);
    let r = &out[1]["result"]["structuredContent"];
    assert_eq!(r["status"], "queued", "{}", out[1]);
    assert_eq!(r["fleet"], "team");
    assert!(c.paths.spool_mcp("team").exists());
}

#[test]
fn tools_list_has_the_eight_tools_shaped_per_version() {
    let out = run(&[init("2025-11-25"), req(1, "tools/list", json!({}))]);
    let tools = out[1]["result"]["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 8);
    assert!(out[1]["result"].get("nextCursor").is_none());
    for t in tools {
        assert_eq!(t["inputSchema"]["type"], "object", "{}", t["name"]);
        assert_eq!(t["outputSchema"]["type"], "object");
        assert!(t["title"].is_string());
        let a = &t["annotations"];
        if a["readOnlyHint"] == true {
            assert_eq!(a["openWorldHint"], false);
        } else {
            assert_eq!(a["destructiveHint"], false, "{}", t["name"]);
            assert_eq!(a["idempotentHint"], false);
            assert_eq!(a["openWorldHint"], false);
        }
    }
    let reads: Vec<_> = tools
        .iter()
        .filter(|t| t["annotations"]["readOnlyHint"] == true)
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        reads,
        [
            "fleet_status",
            "fleet_history",
            "memory_search",
            "memory_timeline"
        ]
    );
    let old = run(&[init("2024-11-05"), req(1, "tools/list", json!({}))]);
    for t in old[1]["result"]["tools"].as_array().unwrap() {
        assert!(t.get("outputSchema").is_none() && t.get("annotations").is_none());
    }
}

#[test]
fn batches_are_accepted_on_2025_03_26_only() {
    let batch = format!(
        "[{},{},{}]",
        req(1, "ping", json!({})),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        req(2, "nosuch", json!({}))
    );
    let out = run(&[
        init("2025-03-26"),
        batch.clone(),
        s("[]"),
        format!("[{}]", init("2025-03-26")),
    ]);
    assert_eq!(out.len(), 4);
    let replies = out[1].as_array().unwrap();
    assert_eq!(replies.len(), 2, "the notification gets no reply");
    assert_eq!(replies[0]["result"], json!({}));
    assert_eq!(code(&replies[1]), METHOD_NOT_FOUND);
    assert_eq!(code(&out[2]), INVALID_REQUEST);
    assert_eq!(code(&out[3].as_array().unwrap()[0]), INVALID_REQUEST);
    let only_notes = r#"[{"jsonrpc":"2.0","method":"notifications/initialized"}]"#;
    assert_eq!(run(&[init("2025-03-26"), s(only_notes)]).len(), 1);
    for v in ["2024-11-05", "2025-06-18", "2025-11-25"] {
        let out = run(&[init(v), batch.clone()]);
        assert_eq!(code(&out[1]), INVALID_REQUEST, "{v}");
        assert_eq!(out[1]["id"], Value::Null);
    }
    assert_eq!(
        code(&run(&[batch])[0]),
        INVALID_REQUEST,
        "no batch before initialize"
    );
}

fn modern(id: i64, method: &str, mut params: Value) -> String {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    req(id, method, params)
}

#[test]
fn server_discover_answers_the_stateless_era() {
    let out = run(&[
        modern(1, "server/discover", json!({})),
        req(2, "server/discover", json!({})),
    ]);
    for f in &out {
        let r = &f["result"];
        assert_eq!(r["supportedVersions"], json!(["2026-07-28"]));
        assert_eq!(r["resultType"], "complete");
        assert!(r["ttlMs"].is_u64() && r["cacheScope"].is_string());
        assert_eq!(
            r["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
            "ctxlake"
        );
    }
}

#[test]
fn an_unsupported_era_fails_fast_with_32022() {
    let p = json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2099-01-01",
                             "io.modelcontextprotocol/clientCapabilities": {}}});
    let out = run(&[
        req(1, "server/discover", p.clone()),
        req(2, "tools/list", p),
    ]);
    for f in &out {
        assert_eq!(code(f), UNSUPPORTED_VERSION);
        let supported = f["error"]["data"]["supported"].as_array().unwrap();
        assert!(
            supported.contains(&json!("2026-07-28")) && supported.contains(&json!("2025-11-25"))
        );
        assert_eq!(f["error"]["data"]["requested"], "2099-01-01");
    }
}

#[test]
fn stateless_requests_carry_meta_and_get_stamped_results() {
    let out = run(&[
        modern(1, "tools/list", json!({})),
        modern(
            2,
            "tools/call",
            json!({"name": "fleet_status", "arguments": {}}),
        ),
        modern(
            3,
            "tools/call",
            json!({"name": "fleet_history", "arguments": {"limit": "x"}}),
        ),
        modern(4, "ping", json!({})),
        req(
            5,
            "tools/list",
            json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}),
        ),
    ]);
    assert_eq!(out[0]["result"]["tools"].as_array().unwrap().len(), 8);
    assert_eq!(out[0]["result"]["resultType"], "complete");
    assert!(out[0]["result"]["ttlMs"].is_u64());
    assert_eq!(out[1]["result"]["structuredContent"]["fleet"], "team");
    assert_eq!(out[1]["result"]["resultType"], "complete");
    assert_eq!(
        out[2]["result"]["isError"], true,
        "bad arguments are tool errors"
    );
    assert_eq!(
        code(&out[3]),
        METHOD_NOT_FOUND,
        "ping is gone in 2026-07-28"
    );
    assert_eq!(
        code(&out[4]),
        INVALID_PARAMS,
        "clientCapabilities is required"
    );
}

#[test]
fn subscriptions_listen_is_acknowledged_and_left_open() {
    let out = run(&[modern(
        4,
        "subscriptions/listen",
        json!({"notifications": {"toolsListChanged": true}}),
    )]);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0]["method"], "notifications/subscriptions/acknowledged");
    assert!(out[0].get("id").is_none());
    assert_eq!(out[0]["params"]["notifications"], json!({}));
    assert_eq!(
        out[0]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        4
    );
}

#[test]
fn pinned_mode_refuses_other_fleets_and_open_mode_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let other = call(1, "fleet_status", json!({"fleet": "elsewhere"}));
    let same = call(2, "fleet_status", json!({"fleet": "team"}));
    let pinned = run_with(
        &ctx(dir.path(), Some("team")),
        &[init("2025-11-25"), other.clone(), same],
    );
    let r = &pinned[1]["result"];
    assert_eq!(r["isError"], true);
    assert_eq!(r["_meta"]["ctxlake/error"]["code"], "fleet_not_accessible");
    assert!(
        r["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("pinned to fleet `team`")
    );
    assert_eq!(pinned[2]["result"]["structuredContent"]["fleet"], "team");
    let open = run_with(&ctx(dir.path(), None), &[init("2025-11-25"), other]);
    assert_eq!(open[1]["result"]["structuredContent"]["fleet"], "elsewhere");
}

#[test]
fn an_oversized_frame_is_refused_and_the_next_one_served() {
    let big = format!("{{\"x\":\"{}\"}}", "a".repeat(super::MAX_FRAME_BYTES + 10));
    let out = run(&[big, req(1, "ping", json!({}))]);
    assert_eq!(out.len(), 2);
    assert_eq!(code(&out[0]), PARSE_ERROR);
    assert_eq!(out[1]["id"], 1);
}

#[test]
fn the_call_log_has_one_line_per_call_and_never_the_arguments() {
    let dir = tempfile::tempdir().unwrap();
    let c = ctx(dir.path(), None);
    let secret = "hunter2-do-not-log";
    run_with(
        &c,
        &[
            init("2025-11-25"),
            call(1, "memory_search", json!({"query": secret})),
            call(2, "fleet_status", json!({"fleet": "../../etc"})),
            call(3, "no_such_tool", json!({})),
        ],
    );
    let lines = super::log::recent(&c.paths, 10);
    assert_eq!(lines.len(), 2, "unknown tools are not calls");
    assert!(lines[0].ok && lines[0].tool == "memory_search" && lines[0].fleet == "team");
    assert!(!lines[1].ok && lines[1].fleet == "(invalid)");
    assert_eq!(lines[1].code.as_deref(), Some("invalid_id"));
    let raw = std::fs::read_to_string(
        std::fs::read_dir(c.paths.logs())
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path(),
    )
    .unwrap();
    assert!(!raw.contains(secret) && !raw.contains("etc"), "{raw}");
}

/// Garbage and good calls interleaved: exactly one frame per request, none for the rest.
#[test]
fn a_mixed_session_emits_exactly_the_frames_it_owes() {
    let input = vec![
        s("garbage"),
        s(""),
        init("2025-11-25"),
        s(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
        s("[1,2]"),
        s(r#"{"jsonrpc":"2.0","id":99,"result":{}}"#),
        req(1, "tools/list", json!({})),
        s(r#"{"jsonrpc":"2.0"}"#),
        call(2, "fleet_status", json!({})),
        call(3, "nosuch", json!({})),
        s("42"),
        call(4, "memory_search", json!({})),
        s(r#"{"jsonrpc":"2.0","method":"x"}"#),
        req(5, "ping", json!({})),
    ];
    let out = run(&input);
    let ids: Vec<Value> = out.iter().map(|f| f["id"].clone()).collect();
    let n = Value::Null;
    assert_eq!(
        ids,
        [
            n.clone(),
            json!("init"),
            n.clone(),
            json!(1),
            json!(2),
            json!(3),
            n,
            json!(4),
            json!(5)
        ]
    );
    assert!(out.iter().all(|f| f["jsonrpc"] == "2.0"));
}
