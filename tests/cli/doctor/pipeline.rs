//! `ctxlake doctor`'s pipeline and settings groups: old records in the spool (and the sync
//! service `--fix --yes` installs), the last hook event before and after sync, and a
//! malformed or misspelt `config.toml`.

use serde_json::Value;

use super::{check, doctor, installed};

#[test]
fn old_records_in_the_spool_mean_nothing_drains_it() {
    let mut env = installed();
    // Written by a host clock two hours back: the record has waited two hours.
    env.extra
        .push(("CTXLAKE_TEST_CLOCK_SKEW_MS".into(), "-7200000".into()));
    env.cmd()
        .args(["fleet", "claim", "src/a", "--reason", "r"])
        .assert()
        .success();
    env.extra.clear();
    let (code, v) = doctor(&env, &[]);
    assert_eq!(code, 1);
    let c = check(&v, "spool backlog");
    assert_eq!(c["status"], "fail", "{c}");
    assert!(
        c["saw"]
            .as_str()
            .unwrap()
            .contains("the oldest has waited 2h"),
        "{c}"
    );
    assert!(c["fix"].as_str().unwrap().contains("ctxlake sync"), "{c}");
    // Without a terminal, --fix does not install a service: it says how.
    let out = env.cmd().args(["doctor", "--fix"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("skipped the sync service") && text.contains("ctxlake service install"),
        "{text}"
    );
    let st = env.cmd().arg("status").output().unwrap();
    assert!(
        String::from_utf8_lossy(&st.stdout).contains("`ctxlake doctor`"),
        "status points to doctor"
    );
    // `--yes` installs it (no service manager on PATH here: the unit is written, not started).
    let out = env
        .cmd()
        .env("PATH", "/nonexistent")
        .args(["doctor", "--fix", "--yes", "--json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).expect("--fix --json is one JSON object");
    assert_eq!(v["fix"]["service"], "installed", "{v:#}");
    let unit = env.home().join(".config/systemd/user/ctxlake-sync.service");
    assert!(
        std::fs::read_to_string(&unit)
            .unwrap()
            .contains("sync --watch")
    );
    assert_eq!(
        check(&v, "sync service")["status"],
        "warn",
        "installed, not running: {v:#}"
    );
    // A writer killed mid-record leaves a torn line: counted, as `spool check` counts it.
    let live = env.ctxlake_home().join("spool/mcp/default.ndjson");
    let mut bytes = std::fs::read(&live).unwrap();
    bytes.extend_from_slice(b"{\"v\":1,\"crc\":\"torn\n");
    std::fs::write(&live, bytes).unwrap();
    let (_, v) = doctor(&env, &[]);
    let t = check(&v, "spool records");
    assert_eq!(t["status"], "warn", "{t}");
    assert!(
        t["saw"].as_str().unwrap().starts_with("1 torn line(s)"),
        "{t}"
    );
    env.cmd().arg("sync").assert().success();
    let (code, v) = doctor(&env, &[]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(check(&v, "spool backlog")["status"], "ok");
    assert_eq!(check(&v, "cache `default`")["status"], "ok", "{v:#}");
    let m = check(&v, "maint `default`");
    assert!(
        m["saw"].as_str().unwrap().contains("maint never ran"),
        "{m}"
    );
    // Maint's manifest reaches this host's cache with the next sync.
    env.cmd().arg("maint").assert().success();
    env.cmd().arg("sync").assert().success();
    let (_, v) = doctor(&env, &[]);
    assert_eq!(check(&v, "maint `default`")["status"], "ok", "{v:#}");
}

#[test]
fn a_malformed_config_and_an_unknown_key_are_named() {
    let env = installed();
    env.write("config.toml", "fleet = \"a\"\nagent = [\n");
    let (code, v) = doctor(&env, &[]);
    assert_eq!(code, 1);
    let c = check(&v, "config.toml");
    assert_eq!(c["status"], "fail");
    assert!(c["saw"].as_str().unwrap().contains("not valid TOML"), "{c}");
    assert!(
        c["saw"].as_str().unwrap().contains("line 2, column 10"),
        "{c}"
    );
    assert!(!c["saw"].as_str().unwrap().contains('\n'), "one line: {c}");
    env.write("config.toml", "fleet = \"bad fleet\"\n");
    let (code, v) = doctor(&env, &[]);
    assert_eq!(code, 1);
    let ids = check(&v, "ids");
    assert_eq!(ids["status"], "fail", "{ids}");
    assert!(ids["saw"].as_str().unwrap().contains("bad fleet"), "{ids}");
    env.write("config.toml", "fleet = \"a\"\n[memory]\nmod = \"on\"\n");
    let (code, v) = doctor(&env, &[]);
    let c = check(&v, "unknown key");
    assert_eq!(c["status"], "warn");
    assert!(
        c["fix"]
            .as_str()
            .unwrap()
            .contains("did you mean `memory.mode`"),
        "{c}"
    );
    assert_eq!(
        code, 1,
        "the entry now names another fleet than config.toml: {v:#}"
    );
    assert_eq!(
        check(&v, "claude-code: MCP entry")["drift"],
        "wrong_fleet_or_agent"
    );
}

#[test]
fn the_last_hook_event_is_found_waiting_and_after_sync() {
    let env = installed();
    let (_, v) = doctor(&env, &[]);
    let c = check(&v, "claude-code: last hook event");
    assert_eq!(c["status"], "warn", "no event yet: {c}");
    session_start(&env);
    let (_, v) = doctor(&env, &[]);
    let c = check(&v, "claude-code: last hook event");
    assert_eq!(c["status"], "ok", "waiting in the spool: {c}");
    // Drained: the spool file is gone; the fleet's history carries the runtime.
    env.cmd().arg("sync").assert().success();
    assert!(
        !env.ctxlake_home()
            .join("spool/hooks/claude-code")
            .read_dir()
            .unwrap()
            .any(|e| { e.unwrap().path().extension().is_some_and(|x| x == "ndjson") })
    );
    let (_, v) = doctor(&env, &[]);
    let c = check(&v, "claude-code: last hook event");
    assert_eq!(c["status"], "ok", "found in history.json: {c}");
}

/// A daemon holds drained hook records for its next history write (a minute): `status`
/// counts them, and `doctor` fails once the oldest has waited an hour with no sync running.
#[test]
fn hook_records_held_for_history_are_counted_and_found_stale() {
    let mut env = installed();
    // The event and the daemon on a clock two hours back: to the daemon the record is
    // new, so it holds it; to everything after, it has waited two hours.
    env.extra
        .push(("CTXLAKE_TEST_CLOCK_SKEW_MS".into(), "-7200000".into()));
    session_start(&env);
    let daemon = crate::common::Daemon::start(&env, 1);
    let pending = env.ctxlake_home().join("state/history/default.ndjson");
    for _ in 0..200 {
        if pending.exists() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    drop(daemon);
    env.extra.clear();
    let status = env.json(&["status"]);
    assert_eq!(status["history_held_records"], 1, "{status:#}");
    let (code, v) = doctor(&env, &[]);
    let c = check(&v, "history held");
    assert_eq!(c["status"], "fail", "{c}");
    assert!(
        c["saw"].as_str().unwrap().contains("no sync is running"),
        "{c}"
    );
    assert_eq!(code, 1);
    // A one-shot sync writes everything held.
    env.cmd().arg("sync").assert().success();
    assert_eq!(env.json(&["status"])["history_held_records"], 0);
    let (_, v) = doctor(&env, &[]);
    assert_eq!(check(&v, "history held")["status"], "ok");
}

/// Claude Code's captured SessionStart payload, through `ctxlake hook claude-code`.
fn session_start(env: &crate::common::Env) {
    let payload = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/hooks/claude-code/session-start.json"
    ))
    .unwrap();
    env.cmd()
        .args(["hook", "claude-code"])
        .write_stdin(payload)
        .assert()
        .success();
}
