//! Unit tests of the YAML editor: add then remove gives back the same bytes.

use super::*;
use crate::install::jsonc::Seg;
use serde_json::json;

fn entry() -> Value {
    json!({"command": "/opt/ctx lake/ctxlake", "args": ["mcp"], "env": {"CTXLAKE_FLEET_ID": "true"}, "enabled": true})
}

const HERMES: &str = "_config_version: 33\nmcp_servers:\n  memory:\n    command: /m\n    args:\n      - a\n\n# ── Security ──\n# security:\n#   redact: true\n";

#[test]
fn adds_after_the_last_server_and_removes_exactly() {
    let (after, created) = set(HERMES, "mcp_servers", "ctxlake", &entry()).unwrap();
    assert!(!created);
    let want = "      - a\n  ctxlake:\n    command: /opt/ctx lake/ctxlake\n    args:\n      - mcp\n    env:\n      CTXLAKE_FLEET_ID: \"true\"\n    enabled: true\n\n# ── Security";
    assert!(after.contains(want), "{after}");
    assert!(get(&after, "mcp_servers", "ctxlake").unwrap().is_some());
    assert_eq!(
        remove(&after, "mcp_servers", "ctxlake", false).unwrap(),
        HERMES
    );
    // Setting again replaces, never duplicates.
    let (again, _) = set(&after, "mcp_servers", "ctxlake", &entry()).unwrap();
    assert_eq!(again, after);
}

#[test]
fn creates_and_drops_the_top_key() {
    let before = "model: x # keep\n";
    let (after, created) =
        set(before, "mcp_servers", "ctxlake", &json!({"command": "/c"})).unwrap();
    assert!(created);
    assert_eq!(
        after,
        "model: x # keep\n\nmcp_servers:\n  ctxlake:\n    command: /c\n"
    );
    assert_eq!(
        remove(&after, "mcp_servers", "ctxlake", true).unwrap(),
        before
    );
}

#[test]
fn refuses_flow_style_and_tabs() {
    let e = set(
        "mcp_servers: {a: {command: x}}\n",
        "mcp_servers",
        "ctxlake",
        &entry(),
    )
    .unwrap_err();
    assert_eq!((e.line, e.column), (1, 14));
    assert!(e.message.contains("block mapping"), "{}", e.message);
    let e = set("a:\n\tb: 1\n", "mcp_servers", "ctxlake", &entry()).unwrap_err();
    assert_eq!(e.line, 2);
}

#[test]
fn hooks_append_next_to_user_items_and_remove_only_ours() {
    let ours = |c: &str| c.contains(" hook ") && c.contains("ctxlake");
    let before =
        "hooks:\n  pre_tool_call:\n  - matcher: terminal\n    command: /usr/bin/audit\n# tail\n";
    let item = json!({"command": "/bin/ctxlake hook hermes", "matcher": "terminal|write_file", "timeout": 10});
    let (a1, c1) = add_hook(before, "pre_tool_call", &item, &ours).unwrap();
    assert!(c1.is_empty());
    assert!(a1.contains("/usr/bin/audit\n  - command: /bin/ctxlake hook hermes\n    matcher: \"terminal|write_file\"\n    timeout: 10\n# tail"), "{a1}");
    let (a2, c2) = add_hook(
        &a1,
        "on_session_start",
        &json!({"command": "/bin/ctxlake hook hermes"}),
        &ours,
    )
    .unwrap();
    assert_eq!(
        c2,
        vec![vec![
            Seg::Key("hooks".into()),
            Seg::Key("on_session_start".into())
        ]]
    );
    let (a3, _) = add_hook(&a2, "pre_tool_call", &item, &ours).unwrap();
    assert_eq!(a3, a2, "idempotent");
    assert_eq!(remove_hooks(&a3, &ours, &c2).unwrap(), before);
}

#[test]
fn hooks_created_from_nothing_go_away() {
    let ours = |c: &str| c.contains(" hook ");
    let before = "a: 1";
    let (after, created) = add_hook(
        before,
        "on_session_end",
        &json!({"command": "/c hook hermes", "timeout": 10}),
        &ours,
    )
    .unwrap();
    assert_eq!(
        after,
        "a: 1\n\nhooks:\n  on_session_end:\n    - command: /c hook hermes\n      timeout: 10\n"
    );
    assert_eq!(remove_hooks(&after, &ours, &created).unwrap(), "a: 1\n");
}
