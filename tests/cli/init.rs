//! `ctxlake init`: flags, no-terminal refusal, and comment-keeping re-runs.

use crate::common::Env;

#[test]
fn init_writes_config_and_keeps_user_edits() {
    let env = Env::new();
    env.cmd()
        .args(["init", "--fleet", "payments", "--agent", "bot-1", "--yes"])
        .assert()
        .success();
    let path = env.ctxlake_home().join("config.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("fleet = \"payments\"") && text.contains("agent = \"bot-1\""),
        "{text}"
    );
    assert!(text.contains("store = \"file://"), "{text}");
    // A person edits it; a re-run changes only what was asked.
    let edited = text.replace(
        "fleet = \"payments\"",
        "# my fleet\nfleet = \"payments\" # keep me",
    );
    std::fs::write(&path, edited).unwrap();
    env.cmd()
        .args(["init", "--memory", "shadow", "--yes"])
        .assert()
        .success();
    let after = std::fs::read_to_string(&path).unwrap();
    assert!(
        after.contains("# my fleet") && after.contains("# keep me"),
        "{after}"
    );
    assert!(after.contains("mode = \"shadow\""), "{after}");
    // The config now scopes every command.
    let v = env.json(&["fleet", "status"]);
    assert_eq!(v["fleet"], "payments");
    // Flag beats env beats config.
    let mut e2 = env.cmd();
    e2.env("CTXLAKE_FLEET_ID", "from-env")
        .args(["fleet", "status", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&e2.output().unwrap().stdout).unwrap();
    assert_eq!(v["fleet"], "from-env");
}

#[test]
fn init_without_terminal_or_yes_is_a_usage_error() {
    let env = Env::new();
    env.cmd()
        .arg("init")
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--yes"));
    assert!(!env.ctxlake_home().join("config.toml").exists());
}

#[test]
fn malformed_config_is_refused_with_its_location() {
    let env = Env::new();
    env.write("config.toml", "fleet = [\n");
    env.cmd()
        .args(["fleet", "status"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("line"));
}

#[test]
fn commands_work_without_init() {
    let env = Env::new();
    let v = env.json(&["fleet", "status"]);
    assert_eq!(v["fleet"], "default");
}
