//! Every installer edit is checked by a real parser for the file's format: malformed input is
//! refused untouched with its line and column, whatever the hand editor would have made of it.

use std::fs;
use std::path::Path;

use super::super::common::Env;

/// Refused with exit 1, naming the file, `at` and a hint; the file and its neighbours untouched.
fn assert_refused(env: &Env, rt: &str, rel: &str, text: &str, at: &str) {
    let p = env.home().join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(&p, text).unwrap();
    let out = env.cmd().args(["install", rt]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{rt}: {err}");
    assert!(err.contains(&p.display().to_string()), "{rt}: {err}");
    assert!(err.contains(at), "{rt}: want `{at}` in {err}");
    assert!(err.contains("hint: "), "{rt}: {err}");
    assert_eq!(fs::read_to_string(&p).unwrap(), text, "{rt}: file changed");
    assert!(
        !Path::new(&format!("{}.ctxlake.bak", p.display())).exists(),
        "{rt}: backup written"
    );
    assert!(!env.ctxlake_home().join("state/install").exists(), "{rt}");
}

/// The reported case: a mis-indented key and an unclosed flow sequence were "updated" (exit 0)
/// and stayed malformed, because the line editor never parsed the YAML.
#[test]
fn malformed_hermes_yaml_is_refused_untouched() {
    let env = Env::new();
    let text = "model:\n  default: gpt-5\n   provider: openai\ntoolsets: [hermes-cli, web\n";
    assert_refused(&env, "hermes", ".hermes/config.yaml", text, "line 3");
}

#[test]
fn an_unclosed_flow_sequence_alone_is_refused() {
    let env = Env::new();
    let text = "model:\n  default: gpt-5\ntoolsets: [hermes-cli, web\n";
    assert_refused(&env, "hermes", ".hermes/config.yaml", text, "line ");
}

/// Claude's files are strict JSON (a comment there would break Claude itself); the JSONC
/// runtimes keep theirs.
#[test]
fn each_file_is_read_in_its_own_dialect() {
    let env = Env::new();
    let text = "{\n  // mine\n  \"theme\": \"dark\",\n}\n";
    assert_refused(
        &env,
        "claude-desktop",
        ".config/Claude/claude_desktop_config.json",
        text,
        "not valid JSON: line 2",
    );
    let env = Env::new();
    let p = env.home().join(".config/zed/settings.json");
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(&p, text).unwrap();
    let out = env.cmd().args(["install", "zed"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let env = Env::new();
    assert_refused(
        &env,
        "zed",
        ".config/zed/settings.json",
        "{\n  'a': 1\n}\n",
        "not valid JSONC: line 2",
    );
}

#[test]
fn uninstall_refuses_a_malformed_file_untouched_too() {
    let env = Env::new();
    let p = env.home().join(".hermes/config.yaml");
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(&p, "model: gpt-5\n").unwrap();
    let out = env.cmd().args(["install", "hermes"]).output().unwrap();
    assert!(out.status.success());
    let broken = format!("{}  oops: [\n", fs::read_to_string(&p).unwrap());
    fs::write(&p, &broken).unwrap();
    let out = env.cmd().args(["uninstall", "hermes"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("not valid YAML: line ") && err.contains("hint: "),
        "{err}"
    );
    assert_eq!(fs::read_to_string(&p).unwrap(), broken);
}

/// One refusal per format; Hermes's flow-style `mcp_servers` is valid YAML the editor will not splice.
#[test]
fn malformed_configs_are_refused_with_line_and_column() {
    for (rt, rel, text, at) in [
        (
            "gemini",
            ".gemini/settings.json",
            "{\n  \"a\": 1,,\n}\n",
            "line 2, column 10",
        ),
        ("codex", ".codex/config.toml", "a = 1\nb = = 2\n", "line 2"),
        (
            "hermes",
            ".hermes/config.yaml",
            "mcp_servers: {x: {command: y}}\n",
            "line 1, column 14",
        ),
    ] {
        let env = Env::new();
        let p = env.home().join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(&p, text).unwrap();
        let out = super::run(&env, &["install", rt]);
        assert_eq!(out.status.code(), Some(1), "{rt}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(at) && err.contains(&p.display().to_string()),
            "{rt}: {err}"
        );
        assert!(
            err.contains("hint: ") && err.contains("nothing was written"),
            "{err}"
        );
        assert_eq!(fs::read_to_string(&p).unwrap(), text);
        assert!(!Path::new(&format!("{}.ctxlake.bak", p.display())).exists());
    }
}

/// The editor parses only the members it edits (`mcpServers`, `hooks`); the rest of the file
/// is skipped text, spliced back as it was. Its syntax is still checked, by the format's real
/// parser: what that parser refuses in a member ctxlake never edits is refused as before.
#[test]
fn malformed_text_in_a_member_ctxlake_does_not_edit_is_still_refused() {
    for (inside, at) in [
        ("[01]", "line 2, column"),
        ("[1, 2}", "line 2, column"),
        ("[\"tab\there\"]", "line 2, column"),
        ("[\"\\x\"]", "line 2, column"),
        ("[\"open]", "line 3, column 1"),
    ] {
        let env = Env::new();
        let text =
            format!("{{\n  \"projects\": {{\"/p\": {inside}}},\n  \"mcpServers\": {{}}\n}}\n");
        assert_refused(&env, "claude-code", ".claude.json", &text, at);
    }
    for inside in ["[1,, 2]", "[1 /* open", "{\"a\" 1}"] {
        let env = Env::new();
        let text = format!("{{\n  // mine\n  \"other\": {inside},\n  \"mcpServers\": {{}}\n}}\n");
        assert_refused(&env, "gemini", ".gemini/settings.json", &text, "line 3");
    }
}

/// A lone surrogate escape and a number past f64 are in strict JSON's grammar and the runtime
/// reads them (Claude Code's `JSON.parse` does); ctxlake's own value parser does not. In a
/// member ctxlake does not edit they are spliced back byte for byte and do not stop an
/// install; inside the servers object it edits they are refused, nothing written.
#[test]
fn grammar_valid_oddities_pass_beside_the_edit_and_are_refused_inside_it() {
    let env = Env::new();
    let p = env.home().join(".claude.json");
    let projects = "\"projects\": {\"/p\": [\"\\ud800\", 1e400, \"]}\\\"\"]}";
    let text = format!("{{\n  {projects},\n  \"mcpServers\": {{}}\n}}\n");
    fs::write(&p, &text).unwrap();
    let out = super::run(&env, &["install", "claude-code", "--no-hooks"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let after = fs::read_to_string(&p).unwrap();
    assert!(
        after.starts_with(&format!("{{\n  {projects},\n")),
        "{after}"
    );
    assert!(after.contains("\"ctxlake\": {"), "{after}");
    // Without the install record, uninstall edits the entry out rather than restoring.
    fs::remove_dir_all(env.ctxlake_home().join("state/install")).unwrap();
    let out = super::run(&env, &["uninstall", "claude-code"]);
    assert!(out.status.success());
    assert_eq!(fs::read_to_string(&p).unwrap(), text);

    let env = Env::new();
    let text = "{\n  \"mcpServers\": {\n    \"m\": {\"env\": {\"K\": \"\\ud800\"}}\n  }\n}\n";
    assert_refused(&env, "claude-code", ".claude.json", text, "line 3, column");
}
