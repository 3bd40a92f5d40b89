//! End to end through the lake: several agents in one HOME, `sync` and `maint` between
//! them, and `sync` killed mid-drain.

use std::time::Duration;

use serde_json::{Value, json};

use crate::common::{Daemon, Env, local_lake_records};

fn status_of(v: &Value, agent: &str) -> Vec<(String, String)> {
    v["agents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["agent"] == agent)
        .flat_map(|a| a["leases"].as_array().unwrap().iter())
        .map(|l| {
            (
                l["state"].as_str().unwrap().to_string(),
                l["holder"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn overlapping_claims_one_holder_then_release_hands_over() {
    let mut env = Env::new();
    env.as_agent("a1", "s1")
        .cmd()
        .args(["fleet", "claim", "src", "--reason", "refactor"])
        .assert()
        .success();
    std::thread::sleep(Duration::from_millis(20));
    env.cmd().arg("sync").assert().success();
    env.as_agent("a2", "s2")
        .cmd()
        .args(["fleet", "claim", "src/lib.rs", "--reason", "bugfix"])
        .assert()
        .success();
    env.cmd().arg("sync").assert().success();
    env.as_agent("a3", "s3")
        .cmd()
        .args(["fleet", "claim", "src/lib.rs", "--reason", "docs"])
        .assert()
        .success();
    env.cmd().arg("sync").assert().success();
    let v = env.json(&["fleet", "status"]);
    assert_eq!(status_of(&v, "a1"), [("held".to_string(), String::new())]);
    assert_eq!(
        status_of(&v, "a2"),
        [("contended".to_string(), "a1".to_string())]
    );
    assert_eq!(
        status_of(&v, "a3"),
        [("contended".to_string(), "a1".to_string())]
    );
    assert_eq!(
        v["contended"], 1,
        "a3's own view counts its contended lease"
    );

    env.as_agent("a1", "s1")
        .cmd()
        .args(["fleet", "release"])
        .assert()
        .success();
    env.cmd().arg("sync").assert().success();
    let v = env.json(&["fleet", "status"]);
    assert!(status_of(&v, "a1").is_empty());
    assert_eq!(
        status_of(&v, "a2"),
        [("held".to_string(), String::new())],
        "the next earliest grant holds"
    );
    assert_eq!(
        status_of(&v, "a3"),
        [("contended".to_string(), "a2".to_string())]
    );
}

#[test]
fn leases_expire_by_ttl() {
    let mut env = Env::new();
    env.as_agent("a1", "s1")
        .cmd()
        .args(["fleet", "claim", "src", "--reason", "r", "--ttl", "5"])
        .assert()
        .success();
    env.cmd().arg("sync").assert().success();
    env.as_agent("a2", "s2")
        .cmd()
        .args(["fleet", "claim", "src", "--reason", "r"])
        .assert()
        .success();
    env.cmd().arg("sync").assert().success();
    assert_eq!(
        status_of(&env.json(&["fleet", "status"]), "a2"),
        [("contended".to_string(), "a1".to_string())]
    );
    std::thread::sleep(Duration::from_secs(6));
    env.cmd().arg("sync").assert().success();
    let v = env.json(&["fleet", "status"]);
    assert!(status_of(&v, "a1").is_empty(), "expired leases drop out");
    assert_eq!(status_of(&v, "a2"), [("held".to_string(), String::new())]);
}

fn propose(env: &Env, text: &str, ty: &str, subject: &str) {
    let ev = json!([{"session_id": env.session, "message_id": "m1"}]).to_string();
    env.cmd()
        .args([
            "memory",
            "propose",
            text,
            "--type",
            ty,
            "--subject",
            subject,
            "--evidence-json",
            &ev,
        ])
        .assert()
        .success();
}

fn pipeline(env: &Env) {
    env.cmd().arg("sync").assert().success();
    env.cmd().arg("maint").assert().success();
    env.cmd().arg("sync").assert().success();
}

#[test]
fn the_same_claim_from_two_sessions_is_promoted_with_two_independent_sessions() {
    let mut env = Env::new();
    propose(
        env.as_agent("a1", "s1"),
        "Integration tests need the postgres service running",
        "convention",
        "tests",
    );
    pipeline(&env);
    let v = env.json(&["memory", "search", "postgres integration"]);
    assert_eq!(v["enabled"], true);
    assert_eq!(
        v["results"],
        json!([]),
        "a convention needs two independent sessions"
    );
    propose(
        env.as_agent("a2", "s2"),
        "Integration tests need the postgres service running",
        "convention",
        "tests",
    );
    pipeline(&env);
    let v = env.json(&["memory", "search", "postgres integration"]);
    let hit = &v["results"][0];
    assert_eq!(hit["independent_sessions"], 2);
    assert!(
        hit["rendered"]
            .as_str()
            .unwrap()
            .contains("2 independent sessions"),
        "{hit}"
    );
    assert_eq!(hit["scope"], "fleet");
    let t = env.json(&["memory", "timeline", "tests"]);
    let kinds: Vec<_> = t["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        kinds,
        ["claim_proposed", "claim_proposed", "claim_promoted"]
    );
}

#[test]
fn a_contradiction_contests_both_sides() {
    let mut env = Env::new();
    propose(
        env.as_agent("a1", "s1"),
        "The build needs network access",
        "environment",
        "build",
    );
    pipeline(&env);
    propose(
        env.as_agent("a2", "s2"),
        "The build does not need network access",
        "environment",
        "build",
    );
    pipeline(&env);
    let v = env.json(&["memory", "search", "build network access"]);
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    for r in results {
        assert_eq!(r["status"], "contested", "{r}");
        assert!(r["rendered"].as_str().unwrap().contains(", CONTESTED]"));
    }
}

#[test]
fn shadow_mode_publishes_but_shows_nothing_and_says_why() {
    let mut env = Env::new();
    env.write("config.toml", "[memory]\nmode = \"shadow\"\n");
    propose(
        env.as_agent("a1", "s1"),
        "Deploys happen on Tuesdays",
        "environment",
        "deploy",
    );
    pipeline(&env);
    let v = env.json(&["memory", "search", "deploys"]);
    assert_eq!(v["enabled"], true);
    assert_eq!(v["results"], json!([]));
    assert!(v["note"].as_str().unwrap().contains("shadow"));
    let l = env.json(&["memory", "list"]);
    assert_eq!(
        l["claims"][0]["status"], "promoted",
        "operators still see it"
    );
}

#[test]
fn an_operator_decides_preferences() {
    let mut env = Env::new();
    propose(
        env.as_agent("a1", "s1"),
        "Prefer small pull requests",
        "preference",
        "review",
    );
    pipeline(&env);
    let l = env.json(&["memory", "list", "--status", "proposed"]);
    let id = l["claims"][0]["id"].as_str().unwrap().to_string();
    env.cmd()
        .args(["memory", "promote", &id, "--reason", "team agreed"])
        .assert()
        .success();
    pipeline(&env);
    let v = env.json(&["memory", "search", "small pull requests"]);
    assert_eq!(v["results"][0]["id"], id.as_str());
    env.cmd()
        .args(["memory", "retire", "nope", "--reason", "x"])
        .assert()
        .code(2);
}

#[test]
fn handoffs_and_sessions_reach_history() {
    let mut env = Env::new();
    env.as_agent("a1", "s1")
        .cmd()
        .args([
            "fleet",
            "handoff",
            "login refactor half done",
            "--status",
            "in-progress",
            "--next",
            "fix token test",
        ])
        .assert()
        .success();
    env.cmd()
        .args(["fleet", "claim", "src/login.rs", "--reason", "r"])
        .assert()
        .success();
    env.cmd().arg("sync").assert().success();
    let h = env.json(&["fleet", "history"]);
    assert_eq!(h["handoffs"][0]["summary"], "login refactor half done");
    assert_eq!(h["handoffs"][0]["next"], "fix token test");
    assert_eq!(h["sessions"][0]["session"], "s1");
    assert_eq!(h["sessions"][0]["outcome"], "running");
    let lag = h["note"].as_str().unwrap_or_default();
    assert!(
        lag.contains("up to 60 s"),
        "history says how far behind it may be: {h}"
    );
    let st = env.json(&["status"]);
    assert!(st["last_sync"].is_string());
    assert_eq!(st["spool_backlog_bytes"], 0);
}

#[test]
fn sync_killed_mid_drain_loses_and_duplicates_nothing() {
    let env = Env::new();
    let spool = env.ctxlake_home().join("spool/mcp/default.ndjson");
    let n = 3000;
    let limits = ctxlake::spool::Limits {
        max_dir_bytes: u64::MAX,
        rotate_bytes: 200_000,
    };
    let mut ids = std::collections::BTreeSet::new();
    for i in 0..n {
        let id = ctxlake::ulid::new();
        ids.insert(id.clone());
        let rec = ctxlake::spool::Record {
            id,
            ts: "2026-11-29T00:00:00.000Z".into(),
            fleet: "default".into(),
            agent: format!("a{}", i % 7),
            session: format!("s{}", i % 7),
            kind: "fleet_handoff".into(),
            payload: json!({"summary": format!("note {i}"), "status": "done", "next": null, "repo": null}),
        };
        ctxlake::spool::append(
            &spool,
            &rec,
            limits,
            false,
            ctxlake::spool::Wait::Fail(std::time::Duration::from_secs(60)),
        )
        .unwrap();
    }
    let mut seed = 12345u64;
    let mut kills = 0;
    for _ in 0..12 {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mut child = env.std_cmd().arg("sync").arg("-q").spawn().unwrap();
        std::thread::sleep(Duration::from_millis(20 + (seed >> 33) % 150));
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap();
            kills += 1;
        }
        child.wait().unwrap();
        // The cache is replaced atomically: whatever exists parses.
        for f in [
            "roster.json",
            "history.json",
            "handoffs.json",
            "pipeline.json",
        ] {
            let p = env.ctxlake_home().join("cache/default").join(f);
            if let Ok(b) = std::fs::read(&p) {
                serde_json::from_slice::<Value>(&b)
                    .unwrap_or_else(|e| panic!("torn cache {f}: {e}"));
            }
        }
    }
    env.cmd().arg("sync").assert().success();
    let dir = env.ctxlake_home().join("lake/handoffs/default");
    let mut in_lake = std::collections::BTreeSet::new();
    for v in local_lake_records(&dir) {
        let id = v["id"].as_str().unwrap().to_string();
        assert!(in_lake.insert(id.clone()), "duplicate {id}");
    }
    assert_eq!(
        in_lake, ids,
        "every record in the lake exactly once ({kills} kills)"
    );
    let check = env.json(&["spool", "check"]);
    assert_eq!(check["total_records"], 0, "the spool is drained");
}

/// Hook capture → sync → history: a session's events fold into one digest.
#[test]
fn hook_events_fold_into_a_session_digest() {
    let env = Env::new();
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hooks/claude-code");
    let session = "f31a36e2-6dbe-4866-be6f-9f4a675bb550";
    let test_run = json!({"session_id": session, "cwd": "/nonexistent", "hook_event_name": "PostToolUse",
        "tool_name": "Bash", "tool_input": {"command": "cargo test -q"}, "tool_response": {"stdout": "ok"}});
    for (name, body) in [
        ("session-start", None),
        ("post-tool-use-edit", None),
        ("post-tool-use", Some(test_run.to_string())),
        ("session-end", None),
    ] {
        let body = body
            .unwrap_or_else(|| std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap());
        env.cmd()
            .args(["hook", "claude-code"])
            .write_stdin(body)
            .assert()
            .success();
    }
    env.cmd().arg("sync").assert().success();
    let h = env.json(&["fleet", "history"]);
    let s = h["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["session"] == session)
        .expect("the hook session");
    assert_eq!(s["runtime"], "claude-code");
    assert_eq!(s["outcome"], "clean", "{s}");
    assert!(s["ended_at"].is_string());
    assert!(
        s["files_touched"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f.as_str().unwrap().ends_with("notes.txt")),
        "{s}"
    );
    assert_eq!(s["tests"], json!(["cargo test -q"]));
}

#[test]
fn one_sync_daemon_per_host_and_status_sees_it() {
    let env = Env::new();
    let daemon = Daemon::start(&env, 1);
    env.cmd()
        .args(["sync", "--watch"])
        .timeout(Duration::from_secs(20)) // if the lock were broken this would run forever
        .assert()
        .code(1)
        .stderr(predicates::str::contains("already running"));
    let st = env.json(&["status"]);
    assert_eq!(st["sync_daemon_running"], true);
    // A one-shot sync still works beside the daemon (it waits for the host lock).
    env.cmd()
        .args(["fleet", "claim", "a", "--reason", "r"])
        .assert()
        .success();
    env.cmd().arg("sync").assert().success();
    drop(daemon);
    assert_eq!(env.json(&["status"])["sync_daemon_running"], false);
}

#[test]
fn service_install_writes_a_pinned_unit_and_uninstall_removes_it() {
    let env = Env::new();
    env.cmd()
        .args(["service", "install", "--no-start"])
        .assert()
        .success();
    let unit = env.home().join(".config/systemd/user/ctxlake-sync.service");
    let text = std::fs::read_to_string(&unit).unwrap();
    let exe = assert_cmd::cargo::cargo_bin("ctxlake")
        .canonicalize()
        .unwrap();
    assert!(
        text.contains(&format!("ExecStart={} sync --watch", exe.display())),
        "{text}"
    );
    assert!(
        text.contains(&format!("Environment=HOME={}", env.home().display())),
        "{text}"
    );
    assert!(text.contains("Environment=PATH="), "{text}");
    assert!(
        text.contains(&format!(
            "Environment=CTXLAKE_HOME={}",
            env.ctxlake_home().display()
        )),
        "{text}"
    );
    env.cmd()
        .args(["service", "install", "--no-start"])
        .assert()
        .success()
        .stdout(predicates::str::contains("unchanged"));
    env.cmd()
        .args(["service", "uninstall", "--no-start"])
        .assert()
        .success();
    assert!(!unit.exists());
}

/// The first `sync` writes the lake's format marker; a lake of another format (or with a
/// marker that does not parse) is refused by `sync`, `maint`, `lake copy` and doctor's
/// store probe, each naming the format found and the one this build reads.
#[test]
fn a_lake_of_another_format_is_refused_everywhere() {
    let env = Env::new();
    env.cmd().arg("sync").assert().success();
    let lake = env.ctxlake_home().join("lake");
    let marker = lake.join("lake.json");
    assert_eq!(std::fs::read_to_string(&marker).unwrap(), r#"{"format":3}"#);
    let (_, v) = crate::doctor::doctor(&env, &[]);
    let c = crate::doctor::check(&v, "lake format");
    assert_eq!(c["status"], "ok", "{c}");
    let to = tempfile::tempdir().unwrap();
    let copy = |from: &std::path::Path| {
        let urls = [
            format!("file://{}", from.display()),
            format!("file://{}", to.path().display()),
        ];
        env.cmd()
            .args(["lake", "copy", &urls[0], &urls[1]])
            .output()
            .unwrap()
    };
    for (body, says) in [
        (r#"{"format": 2}"#, "in format 2"),
        ("{fo", "does not parse"),
    ] {
        std::fs::write(&marker, body).unwrap();
        for args in [&["sync"][..], &["maint"], &["sync", "--json"]] {
            let out = env.cmd().args(args).output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
            assert!(
                err.contains(says) && err.contains("reads only format 3"),
                "{err}"
            );
            assert!(err.contains("hint: "), "{err}");
        }
        let out = copy(&lake);
        assert_eq!(out.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&out.stderr).contains(says));
        let (code, v) = crate::doctor::doctor(&env, &[]);
        assert_eq!(code, 1, "{v:#}");
        let c = crate::doctor::check(&v, "lake format");
        assert_eq!(c["status"], "fail", "{c}");
        assert!(c["saw"].as_str().unwrap().contains(says), "{c}");
        assert_eq!(
            std::fs::read_to_string(&marker).unwrap(),
            body,
            "never written over"
        );
    }
    assert!(
        !to.path().join("fleets").exists(),
        "nothing copied out of a lake of another format"
    );
}
