//! `ctxlake doctor`: break each link of the chain in turn (a Claude Code entry at a missing
//! binary, a duplicated entry, deleted hooks, old records in the spool, an unreachable or
//! unsafe store, a skewed clock, a malformed config) and check that doctor names it, exits
//! 1, and that `--fix` repairs what ctxlake owns.

use serde_json::Value;

use crate::common::Env;

#[path = "doctor/pipeline.rs"]
mod pipeline;
#[path = "doctor/store.rs"]
mod store;

/// A HOME where Claude Code is detected and ctxlake is installed into it.
pub(crate) fn installed() -> Env {
    let env = Env::new();
    std::fs::create_dir_all(env.home().join(".claude")).unwrap();
    std::fs::write(
        env.home().join(".claude.json"),
        "{\n  \"numStartups\": 3\n}\n",
    )
    .unwrap();
    env.cmd()
        .args(["install", "claude-code"])
        .assert()
        .success();
    env
}

/// `doctor --json` (plus `extra` args): the exit code and the parsed report.
pub(crate) fn doctor(env: &Env, extra: &[&str]) -> (i32, Value) {
    let out = env
        .cmd()
        .arg("doctor")
        .args(extra)
        .arg("--json")
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap(), v)
}

/// The check called `name`.
pub(crate) fn check<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no check `{name}` in {v:#}"))
}

fn claude_json(env: &Env) -> Value {
    serde_json::from_str(&std::fs::read_to_string(env.home().join(".claude.json")).unwrap())
        .unwrap()
}

fn edit_json(path: &std::path::Path, f: impl FnOnce(&mut Value)) {
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    f(&mut v);
    std::fs::write(path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
}

fn bin() -> String {
    assert_cmd::cargo::cargo_bin("ctxlake")
        .canonicalize()
        .unwrap()
        .display()
        .to_string()
}

#[test]
fn a_working_install_passes_and_proves_the_server_answers() {
    let env = installed();
    let (code, v) = doctor(&env, &[]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["failed"], 0);
    assert_eq!(check(&v, "claude-code: MCP entry")["status"], "ok");
    let answers = check(&v, "claude-code: MCP server answers");
    assert_eq!(answers["status"], "ok", "{answers}");
    assert!(
        answers["saw"].as_str().unwrap().contains("all 8 tools"),
        "{answers}"
    );
    assert_eq!(check(&v, "claude-code: hooks")["status"], "ok");
    assert_eq!(check(&v, "conditional writes")["status"], "ok");
    // Warnings alone exit 0; `--strict` turns them into a failure (no hook event, no service).
    assert!(v["warnings"].as_u64().unwrap() > 0);
    let out = env.cmd().args(["doctor", "--strict"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("✔ claude-code: MCP entry") && text.contains("⚠ sync service"),
        "{text}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("warning(s) (`--strict`)"));
}

#[test]
fn an_entry_at_a_missing_binary_is_named_and_fixed() {
    let env = installed();
    edit_json(&env.home().join(".claude.json"), |v| {
        v["mcpServers"]["ctxlake"]["command"] = "/gone/ctxlake".into()
    });
    let (code, v) = doctor(&env, &[]);
    assert_eq!(code, 1);
    let c = check(&v, "claude-code: MCP entry");
    assert_eq!(
        (c["status"].as_str(), c["drift"].as_str()),
        (Some("fail"), Some("stale_binary_path")),
        "{c}"
    );
    assert!(c["saw"].as_str().unwrap().contains("/gone/ctxlake"), "{c}");
    assert!(
        c["fix"].as_str().unwrap().contains("ctxlake doctor --fix"),
        "{c}"
    );

    // --dry-run shows the diff and writes nothing.
    let before = std::fs::read(env.home().join(".claude.json")).unwrap();
    let out = env
        .cmd()
        .args(["doctor", "--fix", "--dry-run"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("-      \"command\": \"/gone/ctxlake\""),
        "{text}"
    );
    assert!(
        text.contains(&format!("+      \"command\": \"{}\"", bin())),
        "{text}"
    );
    assert_eq!(
        std::fs::read(env.home().join(".claude.json")).unwrap(),
        before
    );

    let (code, v) = doctor(&env, &["--fix"]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["fix"]["files"][0]["runtime"], "claude-code");
    assert_eq!(check(&v, "claude-code: MCP server answers")["status"], "ok");
    let j = claude_json(&env);
    assert_eq!(j["mcpServers"]["ctxlake"]["command"], bin());
    assert_eq!(j["numStartups"], 3, "the user's keys stay");
    assert!(env.home().join(".claude.json.ctxlake.bak").exists());
}

#[test]
fn duplicate_entries_and_hooks_are_removed() {
    let env = installed();
    edit_json(&env.home().join(".claude.json"), |v| {
        v["mcpServers"]["ctxlake-copy"] = serde_json::json!({"command": bin(), "args": ["mcp"]});
        v["mcpServers"]["other"] = serde_json::json!({"command": "npx", "args": ["other-server"]});
    });
    let settings = env.home().join(".claude/settings.json");
    edit_json(&settings, |v| {
        let stop = v["hooks"]["Stop"][0].clone();
        v["hooks"]["Stop"].as_array_mut().unwrap().push(stop);
    });
    let (code, v) = doctor(&env, &[]);
    assert_eq!(code, 1);
    let d = check(&v, "claude-code: duplicates");
    assert_eq!(d["drift"], "duplicate_entries");
    assert!(d["saw"].as_str().unwrap().contains("`ctxlake-copy`"), "{d}");
    let h = check(&v, "claude-code: hooks");
    assert_eq!(h["drift"], "duplicate_entries", "{h}");
    assert!(h["saw"].as_str().unwrap().contains("Stop"), "{h}");

    let (code, v) = doctor(&env, &["--fix"]);
    assert_eq!(code, 0, "{v:#}");
    let servers = claude_json(&env)["mcpServers"].clone();
    assert!(servers.get("ctxlake-copy").is_none(), "{servers}");
    assert_eq!(
        servers["other"]["command"], "npx",
        "a foreign entry is never touched"
    );
    let s: Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    assert_eq!(s["hooks"]["Stop"].as_array().unwrap().len(), 1);
}

#[test]
fn deleted_hooks_are_rewired() {
    let env = installed();
    let settings = env.home().join(".claude/settings.json");
    edit_json(&settings, |v| {
        v.as_object_mut().unwrap().remove("hooks");
        v["theme"] = "dark".into();
    });
    let (code, v) = doctor(&env, &[]);
    assert_eq!(code, 1);
    assert_eq!(check(&v, "claude-code: hooks")["drift"], "hooks_missing");
    edit_json(&settings, |v| {
        v["hooks"] = serde_json::json!({});
    });
    // Partial: put back only some events by reinstalling, then drop one.
    env.cmd()
        .args(["install", "claude-code"])
        .assert()
        .success();
    edit_json(&settings, |v| {
        v["hooks"].as_object_mut().unwrap().remove("PreToolUse");
    });
    let (_, v) = doctor(&env, &[]);
    let h = check(&v, "claude-code: hooks");
    assert_eq!(h["drift"], "hooks_partial");
    assert!(
        h["saw"].as_str().unwrap().contains("missing: PreToolUse"),
        "{h}"
    );

    let (code, v) = doctor(&env, &["--fix"]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(check(&v, "claude-code: hooks")["status"], "ok");
    let s: Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    assert_eq!(s["theme"], "dark");
    assert_eq!(s["hooks"].as_object().unwrap().len(), 6);
}

#[test]
fn wrong_fleet_and_a_rewritten_file_are_named() {
    let env = installed();
    let path = env.home().join(".claude.json");
    edit_json(&path, |v| {
        v["mcpServers"]["ctxlake"]["env"]["CTXLAKE_FLEET_ID"] = "other-team".into()
    });
    let (_, v) = doctor(&env, &[]);
    let c = check(&v, "claude-code: MCP entry");
    assert_eq!(c["drift"], "wrong_fleet_or_agent", "{c}");
    assert!(c["saw"].as_str().unwrap().contains("other-team"), "{c}");
    // The runtime rewrote its file and dropped our key.
    edit_json(&path, |v| {
        v.as_object_mut().unwrap().remove("mcpServers");
    });
    let (_, v) = doctor(&env, &[]);
    assert_eq!(
        check(&v, "claude-code: MCP entry")["drift"],
        "rewritten_lost_keys"
    );
    let (code, v) = doctor(&env, &["--fix"]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(
        claude_json(&env)["mcpServers"]["ctxlake"]["env"]["CTXLAKE_FLEET_ID"],
        "default"
    );
}

#[test]
fn five_runtimes_are_checked_in_parallel_within_three_seconds() {
    let env = Env::new();
    for d in [".claude", ".codex", ".gemini", ".cursor", ".hermes"] {
        std::fs::create_dir_all(env.home().join(d)).unwrap();
    }
    let rts = ["claude-code", "codex", "gemini", "cursor", "hermes"];
    env.cmd().arg("install").args(rts).assert().success();
    let t = std::time::Instant::now();
    let (code, v) = doctor(&env, &[]);
    let wall = t.elapsed();
    assert_eq!(code, 0, "{v:#}");
    for rt in rts {
        let c = check(&v, &format!("{rt}: MCP server answers"));
        assert_eq!(c["status"], "ok", "{c}");
    }
    for rt in ["claude-code", "codex", "gemini", "cursor", "hermes"] {
        assert_eq!(check(&v, &format!("{rt}: hooks"))["status"], "ok", "{rt}");
    }
    let ms = v["elapsed_ms"].as_u64().unwrap();
    eprintln!("doctor, five runtimes (debug build): checks {ms} ms, process {wall:?}");
    assert!(ms < 3000, "five runtimes took {ms} ms");
}

#[test]
fn an_entry_running_another_ctxlake_version_is_stale() {
    use std::os::unix::fs::PermissionsExt;
    let env = installed();
    let old = env.home().join("old/ctxlake");
    std::fs::create_dir_all(old.parent().unwrap()).unwrap();
    std::fs::write(&old, "#!/bin/sh\necho 'ctxlake 0.0.1'\n").unwrap();
    std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o755)).unwrap();
    let old_s = old.display().to_string();
    edit_json(&env.home().join(".claude.json"), |v| {
        v["mcpServers"]["ctxlake"]["command"] = old_s.clone().into()
    });
    let (code, v) = doctor(&env, &[]);
    assert_eq!(code, 1);
    let c = check(&v, "claude-code: MCP entry");
    assert_eq!(c["drift"], "stale_binary_path", "{c}");
    assert!(
        c["saw"].as_str().unwrap().contains("`ctxlake 0.0.1`"),
        "{c}"
    );
    let (code, v) = doctor(&env, &["--fix"]);
    assert_eq!(code, 0, "{v:#}");
}

#[test]
fn a_runtime_the_installer_refuses_does_not_stop_the_other_repairs() {
    let env = installed();
    std::fs::create_dir_all(env.home().join(".gemini")).unwrap();
    env.cmd().args(["install", "gemini"]).assert().success();
    edit_json(&env.home().join(".claude.json"), |v| {
        v["mcpServers"] = serde_json::json!([])
    });
    let gemini = env.home().join(".gemini/settings.json");
    edit_json(&gemini, |v| {
        v["mcpServers"]["ctxlake"]["command"] = "/gone/ctxlake".into()
    });
    let (code, v) = doctor(&env, &["--fix"]);
    assert_eq!(code, 1, "claude-code is still broken: {v:#}");
    let manual = v["fix"]["manual"].to_string();
    assert!(manual.contains("cannot repair claude-code"), "{manual}");
    assert_eq!(check(&v, "gemini: MCP entry")["status"], "ok", "{v:#}");
    let g: Value = serde_json::from_str(&std::fs::read_to_string(&gemini).unwrap()).unwrap();
    assert_eq!(g["mcpServers"]["ctxlake"]["command"], bin());
}
