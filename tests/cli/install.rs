//! `ctxlake install` / `uninstall` against the real binary: round trips on fixtures generated
//! by the runtimes' own CLIs and hand-written ones, idempotence, backups, symlinks, refusals.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::common::Env;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/install");

/// (runtime, fixture, where it goes under HOME).
const CASES: &[(&str, &str, &str)] = &[
    ("claude-code", "claude-code/claude.json", ".claude.json"),
    (
        "claude-code",
        "claude-code/settings.json",
        ".claude/settings.json",
    ),
    ("codex", "codex/config.toml", ".codex/config.toml"),
    ("codex", "codex/handwritten.toml", ".codex/config.toml"),
    ("gemini", "gemini/settings.json", ".gemini/settings.json"),
    (
        "opencode",
        "opencode/opencode.jsonc",
        ".config/opencode/opencode.jsonc",
    ),
    (
        "opencode",
        "opencode/handwritten.jsonc",
        ".config/opencode/opencode.jsonc",
    ),
    ("hermes", "hermes/config.yaml", ".hermes/config.yaml"),
    ("hermes", "hermes/handwritten.yaml", ".hermes/config.yaml"),
    ("cursor", "cursor/handwritten.jsonc", ".cursor/mcp.json"),
    ("cursor", "cursor/hooks.json", ".cursor/hooks.json"),
    ("zed", "zed/handwritten.jsonc", ".config/zed/settings.json"),
    (
        "vscode",
        "vscode/handwritten.jsonc",
        ".config/Code/User/mcp.json",
    ),
    (
        "windsurf",
        "windsurf/crlf.json",
        ".codeium/windsurf/mcp_config.json",
    ),
    (
        "claude-desktop",
        "claude-desktop/minified.json",
        ".config/Claude/claude_desktop_config.json",
    ),
];

fn place(env: &Env, fixture: &str, rel: &str) -> (PathBuf, Vec<u8>) {
    let bytes = fs::read(Path::new(FIXTURES).join(fixture)).unwrap();
    let p = env.home().join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(&p, &bytes).unwrap();
    (p, bytes)
}

fn run(env: &Env, args: &[&str]) -> std::process::Output {
    env.cmd().args(args).output().unwrap()
}

fn ok(env: &Env, args: &[&str]) -> String {
    let out = run(env, args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn every_fixture_round_trips_byte_for_byte_and_is_idempotent() {
    for (rt, fixture, rel) in CASES {
        let env = Env::new();
        let (p, orig) = place(&env, fixture, rel);
        ok(&env, &["install", rt]);
        let installed = fs::read(&p).unwrap();
        assert_ne!(installed, orig, "{fixture}: nothing installed");
        let text = String::from_utf8_lossy(&installed);
        assert!(
            text.contains(" hook ") || text.contains("ctxlake"),
            "{fixture}"
        );
        assert_eq!(
            fs::read(format!("{}.ctxlake.bak", p.display())).unwrap(),
            orig,
            "{fixture}: backup"
        );
        let mtime = fs::metadata(&p).unwrap().modified().unwrap();
        let again = ok(&env, &["install", rt]);
        assert!(again.contains("already installed"), "{fixture}: {again}");
        assert_eq!(
            fs::metadata(&p).unwrap().modified().unwrap(),
            mtime,
            "{fixture}: touched"
        );
        ok(&env, &["uninstall", rt]);
        assert_eq!(fs::read(&p).unwrap(), orig, "{fixture}: not restored");
        assert!(
            !Path::new(&format!("{}.ctxlake.bak", p.display())).exists(),
            "{fixture}: stale backup"
        );
    }
}

/// Without the recorded state the editors alone must still undo their own insertions.
#[test]
fn structural_uninstall_without_state_is_also_byte_identical() {
    for (rt, fixture, rel) in CASES {
        let env = Env::new();
        let (p, orig) = place(&env, fixture, rel);
        ok(&env, &["install", rt]);
        fs::remove_dir_all(env.ctxlake_home().join("state")).unwrap();
        let out = ok(&env, &["uninstall", rt]);
        assert!(out.contains("removed entries"), "{fixture}: {out}");
        assert_eq!(
            String::from_utf8(fs::read(&p).unwrap()).unwrap(),
            String::from_utf8(orig).unwrap(),
            "{fixture}"
        );
    }
}

#[test]
fn user_edit_in_between_keeps_the_edit_and_drops_only_ours() {
    let env = Env::new();
    let (p, _) = place(&env, "gemini/settings.json", ".gemini/settings.json");
    ok(&env, &["install", "gemini"]);
    let edited = fs::read_to_string(&p)
        .unwrap()
        .replace("\"trust\": true", "\"trust\": false");
    fs::write(&p, &edited).unwrap();
    assert!(ok(&env, &["uninstall", "gemini"]).contains("removed entries"));
    let v: Value = serde_json::from_str(&fs::read_to_string(&p).unwrap()).unwrap();
    assert_eq!(v["mcpServers"]["projsrv"]["trust"], Value::Bool(false));
    assert!(v["mcpServers"].get("ctxlake").is_none());
    assert!(v.get("hooks").is_none(), "created `hooks` left behind: {v}");
    assert_eq!(v["mcpServers"].as_object().unwrap().len(), 2);
}

/// A file that already held an entry of ours is not "clean": its bytes are not kept for a
/// byte-exact restore (that would put the old entry back), so uninstall takes ours out.
#[test]
fn an_entry_already_there_is_taken_out_not_restored() {
    let env = Env::new();
    let p = env.home().join(".claude.json");
    let stale = r#"{"numStartups": 3, "mcpServers": {"ctxlake": {"type": "stdio", "command": "/old/ctxlake", "args": ["mcp"]}, "m": {"command": "m"}}}"#;
    fs::write(&p, stale).unwrap();
    ok(&env, &["install", "claude-code", "--no-hooks"]);
    ok(&env, &["uninstall", "claude-code"]);
    let v: Value = serde_json::from_str(&fs::read_to_string(&p).unwrap()).unwrap();
    assert!(v["mcpServers"].get("ctxlake").is_none(), "{v}");
    assert_eq!(v["mcpServers"]["m"]["command"], "m");
    assert_eq!(v["numStartups"], 3);
}

#[test]
fn containers_we_created_go_away_and_mode_is_kept() {
    let env = Env::new();
    let p = env.home().join(".cursor/mcp.json");
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(&p, "{\n  \"a\": 1\n}\n").unwrap();
    fs::set_permissions(&p, fs::Permissions::from_mode(0o640)).unwrap();
    ok(&env, &["install", "cursor", "--no-hooks"]);
    assert_eq!(
        fs::metadata(&p).unwrap().permissions().mode() & 0o777,
        0o640
    );
    fs::write(
        &p,
        fs::read_to_string(&p)
            .unwrap()
            .replace("\"a\": 1", "\"a\": 2"),
    )
    .unwrap();
    ok(&env, &["uninstall", "cursor"]);
    assert_eq!(fs::read_to_string(&p).unwrap(), "{\n  \"a\": 2\n}\n");
}

#[test]
fn hooks_are_appended_next_to_the_users_own() {
    let env = Env::new();
    let (p, orig) = place(&env, "claude-code/settings.json", ".claude/settings.json");
    ok(&env, &["install", "claude-code"]);
    let v: Value = serde_json::from_slice(&fs::read(&p).unwrap()).unwrap();
    let pre = v["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(pre.len(), 2);
    assert_eq!(pre[0]["hooks"][0]["command"], "/usr/local/bin/guard.sh");
    assert!(
        pre[1]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .ends_with(" hook claude-code")
    );
    let mcp: Value =
        serde_json::from_slice(&fs::read(env.home().join(".claude.json")).unwrap()).unwrap();
    let entry = &mcp["mcpServers"]["ctxlake"];
    assert_eq!(entry["type"], "stdio");
    assert!(Path::new(entry["command"].as_str().unwrap()).is_absolute());
    assert_eq!(entry["args"], serde_json::json!(["mcp"]));
    assert_eq!(entry["env"]["CTXLAKE_AGENT_ID"], "agent-a");
    ok(&env, &["uninstall", "claude-code"]);
    assert_eq!(fs::read(&p).unwrap(), orig);
    assert!(
        !env.home().join(".claude.json").exists(),
        "created file not deleted"
    );
}

#[test]
fn a_symlinked_config_is_edited_at_its_target() {
    let env = Env::new();
    let (real, orig) = place(&env, "codex/handwritten.toml", "dotfiles/codex.toml");
    fs::create_dir_all(env.home().join(".codex")).unwrap();
    let link = env.home().join(".codex/config.toml");
    std::os::unix::fs::symlink("../dotfiles/codex.toml", &link).unwrap();
    ok(&env, &["install", "codex", "--no-hooks"]);
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        fs::read_to_string(&real)
            .unwrap()
            .contains("[mcp_servers.ctxlake]")
    );
    ok(&env, &["uninstall", "codex"]);
    assert_eq!(fs::read(&real).unwrap(), orig);
}

#[test]
fn undetected_runtimes_are_reported_not_invented() {
    let env = Env::new();
    let empty = env.home().join("empty-path");
    fs::create_dir_all(&empty).unwrap();
    let out = env
        .cmd()
        .env("PATH", &empty)
        .args(["install", "gemini"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("`gemini` is not detected: no `~/.gemini` and no `gemini` on PATH"),
        "{err}"
    );
    assert!(!env.home().join(".gemini").exists());
    let out = env
        .cmd()
        .env("PATH", &empty)
        .args(["install", "gemini", "--force"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(env.home().join(".gemini/settings.json").exists());
}

#[test]
fn no_runtime_and_no_terminal_is_a_usage_error() {
    let env = Env::new();
    let out = run(&env, &["install"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("--all"));
    fs::create_dir_all(env.home().join(".codex")).unwrap();
    assert_eq!(
        run(&env, &["install", "codex", "--project"]).status.code(),
        Some(2)
    );
}

#[test]
fn dry_run_prints_a_diff_and_writes_nothing() {
    let env = Env::new();
    let (p, orig) = place(&env, "zed/handwritten.jsonc", ".config/zed/settings.json");
    let out = ok(&env, &["install", "zed", "--dry-run"]);
    assert!(
        out.contains(&format!("--- {}", p.display())) && out.contains("+\t\t\"ctxlake\": {"),
        "{out}"
    );
    assert_eq!(fs::read(&p).unwrap(), orig);
    assert!(!env.ctxlake_home().join("state").exists());
}

#[test]
fn project_scope_pins_the_fleet() {
    let env = Env::new();
    fs::create_dir_all(env.home().join(".claude")).unwrap();
    ok(
        &env,
        &[
            "install",
            "claude-code",
            "--project",
            "--fleet",
            "team-a",
            "--no-hooks",
        ],
    );
    let v: Value =
        serde_json::from_slice(&fs::read(env.work().join(".mcp.json")).unwrap()).unwrap();
    assert_eq!(
        v["mcpServers"]["ctxlake"]["args"],
        serde_json::json!(["mcp", "--fleet", "team-a"])
    );
    assert!(
        v["mcpServers"]["ctxlake"]["env"]
            .get("CTXLAKE_AGENT_ID")
            .is_none()
    );
}

#[test]
fn list_reports_every_runtime_as_json() {
    let env = Env::new();
    place(&env, "hermes/config.yaml", ".hermes/config.yaml");
    ok(&env, &["install", "hermes"]);
    let v = env.json(&["install", "--list"]);
    let rows = v["runtimes"].as_array().unwrap();
    assert_eq!(rows.len(), 10);
    let hermes = rows.iter().find(|r| r["runtime"] == "hermes").unwrap();
    assert_eq!(hermes["detected"], true);
    assert_eq!(hermes["installed"], true);
    assert_eq!(hermes["files"][0]["hooks"], 6);
    let zed = rows.iter().find(|r| r["runtime"] == "zed").unwrap();
    assert_eq!(zed["installed"], false);
}

#[path = "install/backup.rs"]
mod backup;
#[path = "install/project.rs"]
mod project;
#[path = "install/validate.rs"]
mod validate;
