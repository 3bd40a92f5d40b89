//! tools/call and tools/list rows: unknown tool, bad arguments per version, refusals as
//! `isError`, structured results, pinned mode, and the call log.

use serde_json::{Value, json};

use super::*;

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

/// The published input schemas leave out `additionalProperties: false` and `minimum: 0`
/// (the token budget); the server still refuses what they would have, naming the argument.
#[test]
fn unpublished_input_limits_are_still_enforced_for_every_tool() {
    let list = run(&[init("2025-11-25"), req(1, "tools/list", json!({}))]);
    let tools = list[1]["result"]["tools"].as_array().unwrap();
    let mut calls = vec![init("2025-11-25")];
    let mut expect = Vec::new();
    for (i, t) in tools.iter().enumerate() {
        let schema = &t["inputSchema"];
        let text = schema.to_string();
        assert!(!text.contains("additionalProperties") && !text.contains("\"minimum\""));
        let name = t["name"].as_str().unwrap();
        let props = schema["properties"].as_object().unwrap();
        // Every required argument, well-typed, so the one wrong thing is what is tested.
        let base: serde_json::Map<String, Value> = schema["required"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|k| {
                let p = &props[k.as_str().unwrap()];
                let v = match (p["type"].as_str(), p.get("enum")) {
                    (_, Some(e)) => e[0].clone(),
                    (Some("array"), _) if p["items"]["type"] == "object" => json!([{}]),
                    (Some("array"), _) => json!(["x"]),
                    _ => json!("x"),
                };
                (k.as_str().unwrap().to_string(), v)
            })
            .collect();
        let with = |k: &str, v: Value| {
            let mut a = base.clone();
            a.insert(k.into(), v);
            Value::Object(a)
        };
        calls.push(call(i as i64 * 2 + 1, name, with("zzz_unknown", json!(1))));
        expect.push("`zzz_unknown`".to_string());
        if let Some((k, _)) = props.iter().find(|(_, p)| p["type"] == "integer") {
            calls.push(call(i as i64 * 2 + 2, name, with(k, json!(-1))));
            expect.push(format!("`{k}`"));
        }
    }
    let out = run(&calls);
    assert_eq!(out.len(), expect.len() + 1);
    for (f, field) in out[1..].iter().zip(&expect) {
        assert_eq!(f["result"]["isError"], true, "{f}");
        let text = f["result"]["content"][0]["text"].as_str().unwrap();
        assert!(text.contains("invalid_arguments"), "{text}");
        assert!(text.contains(field.as_str()), "{field}: {text}");
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
    // The answer does not echo the fleet: the spool it went to says it.
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
        // No display `title`: clients show the name; the list is paid for in context.
        assert!(t.get("title").is_none(), "{}", t["name"]);
        let a = &t["annotations"];
        if a["readOnlyHint"] == true {
            // What a read returns was written by other agents: the default, open world.
            assert_eq!(a.as_object().unwrap().len(), 1, "{a}");
        } else {
            assert_eq!(a["destructiveHint"], false, "{}", t["name"]);
            // `readOnlyHint` and `idempotentHint` are left out: false is the spec's default.
            assert!(a.get("readOnlyHint").is_none() && a.get("idempotentHint").is_none());
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
    let lines = crate::mcp::log::recent(&c.paths, 10);
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

/// An id or a time that fails validation is a bad argument like a wrong-typed one: the
/// mapping follows the error's kind, not its code.
#[test]
fn invalid_ids_and_times_map_like_any_bad_argument() {
    let bad = || {
        [
            call(1, "fleet_status", json!({"fleet": "a/b"})),
            call(2, "fleet_history", json!({"since": "next tuesday"})),
        ]
    };
    for v in ["2024-11-05", "2025-06-18"] {
        let out = run(&[vec![init(v)], bad().to_vec()].concat());
        for (f, want) in out[1..].iter().zip(["invalid_id", "invalid_since"]) {
            assert_eq!(code(f), INVALID_PARAMS, "{v}: {f}");
            assert_eq!(f["error"]["data"]["code"], want, "{f}");
        }
    }
    let out = run(&[vec![init("2025-11-25")], bad().to_vec()].concat());
    for (f, want) in out[1..].iter().zip(["invalid_id", "invalid_since"]) {
        assert_eq!(f["result"]["isError"], true, "{f}");
        assert_eq!(f["result"]["_meta"]["ctxlake/error"]["code"], want);
    }
}

/// `type` is the canonical name (as in `memory_propose` and every output); `claim_type`
/// stays accepted. An unknown type is a bad argument naming the allowed values.
#[test]
fn memory_search_type_is_checked_under_either_name() {
    for name in ["type", "claim_type"] {
        let out = run(&[
            init("2025-06-18"),
            call(1, "memory_search", json!({"query": "q", name: "bogus"})),
            call(2, "memory_search", json!({"query": "q", name: "outcome"})),
        ]);
        assert_eq!(code(&out[1]), INVALID_PARAMS, "{name}: {}", out[1]);
        let msg = out[1]["error"]["message"].as_str().unwrap();
        assert!(
            msg.contains("environment") && msg.contains("bogus"),
            "{msg}"
        );
        assert_eq!(out[2]["result"]["isError"], false, "{name}: {}", out[2]);
        let out = run(&[
            init("2025-11-25"),
            call(1, "memory_search", json!({"query": "q", name: "bogus"})),
        ]);
        assert_eq!(out[1]["result"]["isError"], true, "{}", out[1]);
    }
}

#[test]
fn handoff_status_accepts_the_kebab_spelling() {
    let dir = tempfile::tempdir().unwrap();
    let c = ctx(dir.path(), None);
    let args = json!({"summary": "half done", "status": "in-progress"});
    let out = run_with(&c, &[init("2025-11-25"), call(1, "fleet_handoff", args)]);
    assert_eq!(out[1]["result"]["isError"], false, "{}", out[1]);
    let spool = std::fs::read_to_string(c.paths.spool_mcp("team")).unwrap();
    assert!(spool.contains("\"status\":\"in_progress\""), "{spool}");
}
