//! What a person sees when a request is wrong or asks for quiet: ids and subjects with
//! invisible characters, a zero row count, a corrupt cache, `-q`, and `--json` help.

use serde_json::json;

use crate::common::Env;

fn evidence() -> String {
    json!([{"session_id": "s0", "message_id": "m"}]).to_string()
}

/// Ids and subjects that the sanitizer would change are refused, naming the code point.
#[test]
fn invisible_characters_in_ids_and_subjects_are_refused_by_name() {
    let mut env = Env::new();
    env.extra
        .push(("CTXLAKE_AGENT_ID".into(), "agent\u{202E}a".into()));
    env.cmd()
        .args(["fleet", "status"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("U+202E RIGHT-TO-LEFT OVERRIDE"));
    let env = Env::new();
    env.cmd()
        .args(["--fleet", "team\u{E0041}", "fleet", "status"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "U+E0041 TAG LATIN CAPITAL LETTER A",
        ));
    env.cmd()
        .args([
            "memory",
            "propose",
            "CI needs -D warnings",
            "--type",
            "environment",
            "--subject",
            "c\u{200B}i",
            "--evidence-json",
            &evidence(),
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("U+200B ZERO WIDTH SPACE"));
    env.cmd()
        .args(["memory", "timeline", "c\u{202E}i"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("U+202E RIGHT-TO-LEFT OVERRIDE"));
    assert_eq!(env.json(&["spool", "check"])["total_records"], 0);
}

/// `limit`/`k` of 0 is refused naming the field and the range, on the CLI and over MCP.
#[test]
fn a_zero_row_count_is_refused_naming_the_field() {
    let env = Env::new();
    for (args, field) in [
        (vec!["fleet", "history", "--limit", "0"], "limit"),
        (vec!["memory", "timeline", "ci", "--limit", "0"], "limit"),
        (vec!["memory", "list", "--limit", "0"], "limit"),
        (vec!["memory", "search", "x", "-k", "0"], "k"),
    ] {
        env.cmd()
            .args(&args)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(format!(
                "`{field}` must be in 1..=200"
            )));
    }
    let lines = crate::mcp::session(
        &env,
        &[],
        &[
            crate::mcp::init("2025-11-25"),
            crate::mcp::call(1, "fleet_history", json!({"limit": 0})),
            crate::mcp::call(2, "memory_timeline", json!({"subject": "ci", "limit": 0})),
            crate::mcp::call(3, "memory_search", json!({"query": "x", "k": 0})),
        ],
    );
    for (line, field) in lines[1..].iter().zip(["limit", "limit", "k"]) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["result"]["isError"], true, "{v}");
        let text = v["result"]["content"][0]["text"].as_str().unwrap();
        assert!(
            text.contains(&format!("`{field}` must be in 1..=200")),
            "{text}"
        );
    }
}

/// A corrupt cache is called corrupt, with the fix, never "no cache yet".
#[test]
fn human_status_says_the_cache_is_corrupt_and_how_to_fix_it() {
    let env = Env::new();
    env.write("cache/default/roster.json", "{torn");
    for args in [["fleet", "status"].as_slice(), ["status"].as_slice()] {
        let out = env.cmd().args(args).output().unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(!text.contains("no cache yet"), "{args:?}: {text}");
        assert!(
            text.contains("cache is corrupt: run `ctxlake sync` to rebuild it"),
            "{args:?}: {text}"
        );
    }
}

/// `-q` silences every note, the "nothing is granted" one included; the data stays.
#[test]
fn quiet_silences_the_queued_note() {
    let env = Env::new();
    let loud = env
        .cmd()
        .args(["fleet", "claim", "src/x.rs", "--reason", "r"])
        .output()
        .unwrap();
    let all = |o: &std::process::Output| {
        String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr)
    };
    assert!(all(&loud).contains("nothing is granted"), "{}", all(&loud));
    let quiet = env
        .cmd()
        .args(["fleet", "claim", "src/x.rs", "--reason", "r", "-q"])
        .output()
        .unwrap();
    assert!(quiet.status.success());
    assert!(
        !all(&quiet).contains("nothing is granted"),
        "{}",
        all(&quiet)
    );
    assert!(String::from_utf8_lossy(&quiet.stdout).starts_with("queued "));
}

/// `--json` on a command that is no MCP tool does not claim to print a tool's output.
#[test]
fn json_help_does_not_promise_a_tool_payload_for_non_tools() {
    let env = Env::new();
    for args in [
        vec!["init", "--help"],
        vec!["install", "--help"],
        vec!["mcp", "status", "--help"],
    ] {
        let out = env.cmd().args(&args).output().unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let line = text
            .lines()
            .skip_while(|l| !l.contains("--json"))
            .take(3)
            .collect::<String>();
        assert!(
            !line.contains("exactly the MCP tool's structuredContent"),
            "{args:?}: {line}"
        );
    }
}
