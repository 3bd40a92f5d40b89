//! Protocol revisions: `initialize` negotiation and the stateless 2026-07-28 era
//! (`server/discover`, `_meta` on each request, -32022, `subscriptions/listen`).

use serde_json::{Value, json};

use super::*;

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

/// `$ref` only where the revision allows it (2026-07-28 speaks JSON Schema 2020-12 in full),
/// only in output schemas (input schemas reach providers' dialects that resolve none), and
/// every reference resolves within its own schema's `$defs`.
#[test]
fn schema_references_only_from_2026_07_28_and_only_in_outputs() {
    let refs = |v: &Value| v.to_string().matches("\"$ref\"").count();
    let old = run(&[init("2025-11-25"), req(1, "tools/list", json!({}))]);
    for t in old[1]["result"]["tools"].as_array().unwrap() {
        assert_eq!(refs(t), 0, "inlined before 2026-07-28: {}", t["name"]);
    }
    let new = run(&[modern(1, "tools/list", json!({}))]);
    for t in new[0]["result"]["tools"].as_array().unwrap() {
        assert_eq!(refs(&t["inputSchema"]), 0, "{}", t["name"]);
        let out = &t["outputSchema"];
        for r in out.to_string().split("\"$ref\":\"#/$defs/").skip(1) {
            let name = &r[..r.find('"').unwrap()];
            assert!(out["$defs"][name].is_object(), "{}: {name}", t["name"]);
        }
    }
    // No output schema repeats a subschema worth hoisting today (issue 26 left out every
    // nullable, the shape that repeated): `schema::tests` holds the hoisting itself.
}
