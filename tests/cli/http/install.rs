//! `install <runtime> --http` and `service install --http`: remote entries that send a token
//! from `CTXLAKE_MCP_TOKEN` and never hold it, and the HTTP server's own user unit.

use serde_json::Value;

use super::client;
use crate::common::Env;

#[test]
fn install_http_writes_remote_entries_that_name_the_token_variable_only() {
    let env = Env::new();
    let token = client::new_token(&env, "laptop", &[]);
    let install = |args: &[&str]| {
        env.cmd()
            .arg("install")
            .args(args)
            .args(["--force", "--no-hooks"])
            .output()
            .unwrap()
    };
    assert!(install(&["claude-code", "--http"]).status.success());
    let file = env.home().join(".claude.json");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        !text.contains(&token),
        "the token is never written in clear"
    );
    let entry = &serde_json::from_str::<Value>(&text).unwrap()["mcpServers"]["ctxlake"];
    assert_eq!(entry["type"], "http");
    assert_eq!(entry["url"], "http://127.0.0.1:8719/mcp");
    assert_eq!(
        entry["headers"]["Authorization"],
        "Bearer ${CTXLAKE_MCP_TOKEN}"
    );
    let out = install(&["codex", "--http", "http://127.0.0.1:9000/mcp"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let toml = std::fs::read_to_string(env.home().join(".codex/config.toml")).unwrap();
    assert!(
        toml.contains("url = \"http://127.0.0.1:9000/mcp\""),
        "{toml}"
    );
    assert!(
        toml.contains("bearer_token_env_var = \"CTXLAKE_MCP_TOKEN\"") && !toml.contains(&token)
    );
    let zed = install(&["zed", "--http"]);
    assert_eq!(zed.status.code(), Some(2), "no remote entry for zed");
    let un = env
        .cmd()
        .args(["uninstall", "claude-code", "codex"])
        .output()
        .unwrap();
    assert!(
        un.status.success(),
        "{}",
        String::from_utf8_lossy(&un.stderr)
    );
    assert!(
        !file.exists(),
        "uninstall removes exactly what install wrote"
    );
}

#[test]
fn service_install_http_writes_its_own_unit_next_to_sync() {
    let env = Env::new();
    let svc = |args: &[&str]| {
        env.cmd()
            .arg("service")
            .args(args)
            .arg("--no-start")
            .output()
            .unwrap()
    };
    assert!(svc(&["install"]).status.success());
    assert!(
        svc(&["install", "--http", "127.0.0.1:9123"])
            .status
            .success()
    );
    let dir = env.home().join(".config/systemd/user");
    let unit = std::fs::read_to_string(dir.join("ctxlake-mcp-http.service")).unwrap();
    let exec = unit.lines().find(|l| l.starts_with("ExecStart=")).unwrap();
    assert!(exec.ends_with(" mcp --http 127.0.0.1:9123"), "{exec}");
    let sync = std::fs::read_to_string(dir.join("ctxlake-sync.service")).unwrap();
    assert!(sync.contains(" sync --watch"), "the sync unit is untouched");
    assert_eq!(
        svc(&["install", "--http", "nonsense"]).status.code(),
        Some(2)
    );
    assert!(svc(&["uninstall", "--http"]).status.success());
    assert!(!dir.join("ctxlake-mcp-http.service").exists());
    assert!(dir.join("ctxlake-sync.service").exists());
}

#[test]
fn doctor_names_a_remote_entry_whose_token_is_unset_unknown_or_revoked() {
    let mut env = Env::new();
    std::fs::create_dir_all(env.home().join(".claude")).unwrap();
    std::fs::write(env.home().join(".claude.json"), "{}\n").unwrap();
    let url = "http://127.0.0.1:9/mcp";
    env.cmd()
        .args(["install", "claude-code", "--http", url, "--no-hooks"])
        .assert()
        .success();
    let token = client::new_token(&env, "laptop", &[]);
    let remote = |env: &Env| {
        let (_, v) = crate::doctor::doctor(env, &[]);
        crate::doctor::check(&v, "claude-code: remote token").clone()
    };
    let c = remote(&env);
    assert_eq!(c["status"], "fail", "{c}");
    assert!(
        c["saw"]
            .as_str()
            .unwrap()
            .contains("CTXLAKE_MCP_TOKEN, which is not set"),
        "{c}"
    );
    env.extra.push(("CTXLAKE_MCP_TOKEN".into(), "0".repeat(64)));
    let c = remote(&env);
    assert_eq!(c["status"], "fail", "{c}");
    assert!(c["saw"].as_str().unwrap().contains("does not know"), "{c}");
    env.extra.pop();
    env.extra.push(("CTXLAKE_MCP_TOKEN".into(), token));
    let c = remote(&env);
    assert_eq!(c["status"], "ok", "{c}");
    assert!(c["saw"].as_str().unwrap().contains("token `laptop`"), "{c}");
    env.cmd()
        .args(["mcp", "token", "revoke", "laptop"])
        .assert()
        .success();
    let c = remote(&env);
    assert_eq!(c["status"], "fail", "a revoked token is named: {c}");
    assert!(c["saw"].as_str().unwrap().contains("revoked"), "{c}");
}
