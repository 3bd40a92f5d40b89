//! The guard refuses an edit that touches anything of the user's, for every format.

use serde_json::{Value, json};

use super::*;
use crate::install::runtimes::{Format, Runtime, Target};

fn ours(c: &str) -> bool {
    c.starts_with("/bin/ctxlake hook")
}

fn hermes() -> Target {
    Target {
        runtime: Runtime::Hermes,
        path: "config.yaml".into(),
        format: Format::Yaml,
        mcp: Some((
            vec!["mcp_servers"],
            json!({"command": "/bin/ctxlake", "args": ["mcp"]}),
        )),
        hooks: vec![(
            "pre_tool_call",
            json!({"command": "/bin/ctxlake hook hermes"}),
        )],
    }
}

fn yaml(text: &str) -> Value {
    validate::parse(Format::Yaml, text).unwrap()
}

const BEFORE: &str =
    "model:\n  default: gpt-5\nhooks:\n  pre_tool_call:\n    - command: /usr/bin/audit\n";
const AFTER: &str = "model:\n  default: gpt-5\nhooks:\n  pre_tool_call:\n    - command: /usr/bin/audit\n    - command: /bin/ctxlake hook hermes\n\nmcp_servers:\n  ctxlake:\n    command: /bin/ctxlake\n    args:\n      - mcp\n";

#[test]
fn a_correct_edit_passes_both_ways() {
    let t = hermes();
    check(&t, yaml(BEFORE), yaml(AFTER), Direction::Install, &ours).unwrap();
    check(&t, yaml(AFTER), yaml(BEFORE), Direction::Uninstall, &ours).unwrap();
}

#[test]
fn an_edit_that_also_changes_a_user_key_is_refused() {
    let t = hermes();
    let wrong = AFTER.replace("gpt-5", "gpt-4");
    let e = check(&t, yaml(BEFORE), yaml(&wrong), Direction::Install, &ours)
        .unwrap_err()
        .to_string();
    assert!(e.contains("`model.default`"), "{e}");
    let e = check(&t, yaml(&wrong), yaml(BEFORE), Direction::Uninstall, &ours)
        .unwrap_err()
        .to_string();
    assert!(e.contains("`model.default`"), "{e}");
}

#[test]
fn dropping_a_user_hook_or_adding_a_key_is_refused() {
    let t = hermes();
    let dropped = AFTER.replace("    - command: /usr/bin/audit\n", "");
    let e = check(&t, yaml(BEFORE), yaml(&dropped), Direction::Install, &ours)
        .unwrap_err()
        .to_string();
    assert!(e.contains("hooks.pre_tool_call"), "{e}");
    let added = format!("{AFTER}extra: 1\n");
    let e = check(&t, yaml(BEFORE), yaml(&added), Direction::Install, &ours)
        .unwrap_err()
        .to_string();
    assert!(e.contains("`extra`"), "{e}");
}

#[test]
fn a_wrong_or_leftover_entry_of_ours_is_refused() {
    let t = hermes();
    let wrong = AFTER.replace("      - mcp\n", "      - serve\n");
    let e = check(&t, yaml(BEFORE), yaml(&wrong), Direction::Install, &ours)
        .unwrap_err()
        .to_string();
    assert!(e.contains("mcp_servers.ctxlake"), "{e}");
    let e = check(&t, yaml(AFTER), yaml(AFTER), Direction::Uninstall, &ours)
        .unwrap_err()
        .to_string();
    assert!(e.contains("still there"), "{e}");
}

#[test]
fn json_and_toml_edits_are_held_to_the_same_rule() {
    let mut t = hermes();
    t.format = Format::Jsonc;
    t.mcp = Some((vec!["mcpServers"], json!({"command": "/bin/ctxlake"})));
    t.hooks.clear();
    let old = json!({"mcpServers": {"a": {"command": "x"}}, "theme": "dark"});
    let good = json!({"mcpServers": {"a": {"command": "x"}, "ctxlake": {"command": "/bin/ctxlake"}}, "theme": "dark"});
    check(&t, old.clone(), good.clone(), Direction::Install, &ours).unwrap();
    let mut bad = good.clone();
    bad["mcpServers"]["a"]["command"] = json!("y");
    let e = check(&t, old, bad, Direction::Install, &ours)
        .unwrap_err()
        .to_string();
    assert!(e.contains("mcpServers.a.command"), "{e}");

    t.format = Format::Toml;
    t.mcp = Some((vec!["mcp_servers"], json!({"command": "/bin/ctxlake"})));
    let old = validate::parse(Format::Toml, "model = \"o3\"\n").unwrap();
    let new = "model = \"o3\"\n\n[mcp_servers.ctxlake]\ncommand = \"/bin/ctxlake\"\n";
    check(
        &t,
        old.clone(),
        validate::parse(Format::Toml, new).unwrap(),
        Direction::Install,
        &ours,
    )
    .unwrap();
    let e = verify(
        std::path::Path::new("/x/config.toml"),
        &t,
        old.clone(),
        &new.replace("o3", "o4"),
        Direction::Install,
        &ours,
    )
    .unwrap_err();
    assert_eq!(e.code, "install_edit_unsafe");
    assert!(
        e.message.contains("`model`") && e.message.contains("/x/config.toml"),
        "{e}"
    );
    let e = verify(
        std::path::Path::new("/x/c"),
        &t,
        old.clone(),
        "model = = 1",
        Direction::Install,
        &ours,
    )
    .unwrap_err();
    assert!(e.message.contains("not valid TOML"), "{e}");
}

#[test]
fn created_containers_and_cursor_version_may_come_and_go_empty() {
    let t = Target {
        runtime: Runtime::Cursor,
        path: "hooks.json".into(),
        format: Format::Jsonc,
        mcp: None,
        hooks: vec![("stop", json!({"command": "/bin/ctxlake hook cursor"}))],
    };
    let new = json!({"version": 1, "hooks": {"stop": [{"command": "/bin/ctxlake hook cursor"}]}});
    check(&t, json!({}), new.clone(), Direction::Install, &ours).unwrap();
    check(&t, new.clone(), json!({}), Direction::Uninstall, &ours).unwrap();
    // A version the user set is theirs.
    let e = check(&t, json!({"version": 2}), new, Direction::Install, &ours)
        .unwrap_err()
        .to_string();
    assert!(e.contains("`version`"), "{e}");
}

/// A strict JSON object is compared member by member as text, and by value where the text
/// differs: a change deep in a member no edit of ours touches is still found (and named),
/// a member re-spaced but equal in value is not a change, and a repeated key counts by
/// its last value, as the full parse reads it.
#[test]
fn large_json_members_compare_by_text_then_value() {
    let mut t = hermes();
    t.format = Format::Json;
    t.mcp = Some((vec!["mcpServers"], json!({"command": "/bin/ctxlake"})));
    t.hooks.clear();
    let old = r#"{"projects": {"/a": {"n": 1, "h": ["x"]}}, "mcpServers": {}, "n": 1, "n": 2}"#;
    let entry = r#""mcpServers": {"ctxlake": {"command": "/bin/ctxlake"}}"#;
    let good = old.replace(r#""mcpServers": {}"#, entry);
    let parsed = || Parsed::parse(Format::Json, old).unwrap();
    assert!(matches!(parsed(), Parsed::Members(_)));
    let path = std::path::Path::new("/x/.claude.json");
    let run = |after: &str| verify(path, &t, parsed(), after, Direction::Install, &ours);
    run(&good).unwrap();
    run(&good.replace(
        r#"{"n": 1, "h": ["x"]}"#,
        "{ \"n\" : 1 ,\n \"h\": [ \"x\" ] }",
    ))
    .unwrap();
    let e = run(&good.replace(r#"["x"]"#, r#"["y"]"#)).unwrap_err();
    assert!(e.message.contains("`projects./a.h[0]`"), "{e}");
    let e = run(&good.replace(r#""n": 2"#, r#""n": 3"#)).unwrap_err();
    assert!(e.message.contains("`n`"), "{e}");
    run(&good.replace(r#""n": 1, "n": 2"#, r#""n": 2"#)).unwrap();
    let e = run(&good.replace(r#", "n": 1, "n": 2"#, "")).unwrap_err();
    assert!(e.message.contains("`n`"), "{e}");
    // Not an object at the top: the whole value is compared.
    assert!(matches!(
        Parsed::parse(Format::Json, "[1]").unwrap(),
        Parsed::Whole(_)
    ));
    let bad = "{\"a\": 1e}";
    let e = Parsed::parse(Format::Json, bad).err().unwrap();
    let full = validate::parse(Format::Json, bad).unwrap_err();
    assert_eq!(
        (e.line, e.column, e.message),
        (full.line, full.column, full.message)
    );
}
