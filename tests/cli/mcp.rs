//! `ctxlake mcp` as a real child process: stdout carries frames and nothing else, the
//! process ends on EOF and SIGTERM, pinning comes only from the command line, `status`
//! sees running servers, and every tool's `--json` equals its MCP `structuredContent`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::Env;

pub(crate) fn init(version: &str) -> String {
    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": version, "capabilities": {},
                   "clientInfo": {"name": "cli-test", "version": "1"}}})
    .to_string()
}

pub(crate) fn call(id: i64, tool: &str, args: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": tool, "arguments": args}})
    .to_string()
}

/// One whole session: write every line, close stdin, collect stdout lines.
pub(crate) fn session(env: &Env, extra: &[&str], lines: &[String]) -> Vec<String> {
    let out = env
        .cmd()
        .arg("mcp")
        .args(extra)
        .write_stdin(lines.join("\n") + "\n")
        .timeout(Duration::from_secs(30))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

/// A JSON-RPC 2.0 message a server may send: a response with an id, or a notification.
fn is_frame(v: &Value) -> bool {
    let Some(o) = v.as_object() else { return false };
    let response = o.contains_key("id") && (o.contains_key("result") ^ o.contains_key("error"));
    let notification = !o.contains_key("id") && o["method"].is_string();
    o.get("jsonrpc") == Some(&json!("2.0")) && (response || notification)
}

#[test]
fn every_stdout_line_is_exactly_one_frame_across_a_mixed_session() {
    let env = Env::new();
    let input = vec![
        "not json at all".to_string(),
        init("2025-03-26"),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.into(),
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#.into(),
        "[]".into(),
        r#"{"jsonrpc":"2.0","id":42,"result":{}}"#.into(),
        call(2, "fleet_status", json!({})),
        call(3, "memory_write", json!({})),
        call(4, "memory_search", json!({"query": 5})),
        call(
            5,
            "memory_propose",
            json!({"claim": "c", "type": "outcome", "subject": "s", "evidence": []}),
        ),
        format!(
            "[{},{}]",
            call(6, "fleet_history", json!({})),
            r#"{"jsonrpc":"2.0","method":"x"}"#
        ),
        "\u{1b}[31mred".into(),
        r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#.into(),
    ];
    let lines = session(&env, &[], &input);
    let ids: Vec<Value> = lines
        .iter()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l:?}"));
            let frames = match &v {
                Value::Array(a) => a.clone(),
                one => vec![one.clone()],
            };
            assert!(frames.iter().all(is_frame), "not a JSON-RPC frame: {l}");
            frames[0]["id"].clone()
        })
        .collect();
    let n = Value::Null;
    assert_eq!(
        ids,
        [
            n.clone(),
            json!(0),
            json!(1),
            n.clone(),
            json!(2),
            json!(3),
            json!(4),
            json!(5),
            json!(6),
            n,
            json!(7)
        ]
    );
}

/// A std child with piped stdio in the same sealed environment as `Env::cmd`.
fn spawn(env: &Env, extra: &[&str]) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin("ctxlake"))
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", env.home())
        .env("CTXLAKE_HOME", env.ctxlake_home())
        .env("CTXLAKE_AGENT_ID", &env.agent)
        .current_dir(env.work())
        .arg("mcp")
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

fn wait_within(child: &mut Child, limit: Duration) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            return s;
        }
        assert!(
            start.elapsed() < limit,
            "server still running after {limit:?}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Send one request and read its one answer line.
fn ask(child: &mut Child, out: &mut impl BufRead, line: &str) -> Value {
    let stdin = child.stdin.as_mut().unwrap();
    writeln!(stdin, "{line}").unwrap();
    stdin.flush().unwrap();
    let mut answer = String::new();
    out.read_line(&mut answer).unwrap();
    serde_json::from_str(&answer).unwrap()
}

#[test]
fn status_lists_a_running_server_and_the_server_exits_on_eof() {
    let env = Env::new();
    let mut child = spawn(&env, &["--fleet", "team"]);
    let mut out = BufReader::new(child.stdout.take().unwrap());
    assert_eq!(ask(&mut child, &mut out, &init("2025-11-25"))["id"], 0);
    let r = ask(&mut child, &mut out, &call(1, "fleet_status", json!({})));
    assert_eq!(r["result"]["structuredContent"]["fleet"], "team");
    let s = env.json(&["mcp", "status"]);
    let servers = s["servers"].as_array().unwrap();
    assert_eq!(servers.len(), 1, "{s}");
    assert_eq!(servers[0]["pid"], child.id());
    assert_eq!(
        servers[0]["ppid"],
        std::process::id(),
        "the parent is this test"
    );
    assert_eq!(servers[0]["fleet"], "team");
    assert_eq!(servers[0]["pinned"], true);
    assert!(servers[0]["session"].as_str().unwrap().starts_with("mcp-"));
    drop(child.stdin.take());
    assert!(wait_within(&mut child, Duration::from_secs(5)).success());
    let s = env.json(&["mcp", "status"]);
    assert_eq!(s["servers"], json!([]));
    let calls = s["recent_calls"].as_array().unwrap();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0]["tool"], "fleet_status");
    assert_eq!(calls[0]["ok"], true);
}

#[test]
fn sigterm_ends_a_waiting_server_and_status_prunes_it() {
    let env = Env::new();
    let mut child = spawn(&env, &[]);
    let mut out = BufReader::new(child.stdout.take().unwrap());
    assert_eq!(ask(&mut child, &mut out, &init("2025-06-18"))["id"], 0);
    let term = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    wait_within(&mut child, Duration::from_secs(5));
    assert_eq!(env.json(&["mcp", "status"])["servers"], json!([]));
}

#[test]
fn only_a_fleet_given_on_the_command_line_pins() {
    let mut env = Env::new();
    env.extra.push(("CTXLAKE_FLEET_ID".into(), "team".into()));
    let other = call(1, "fleet_status", json!({"fleet": "elsewhere"}));
    let open = session(&env, &[], &[init("2025-11-25"), other.clone()]);
    let r: Value = serde_json::from_str(&open[1]).unwrap();
    assert_eq!(
        r["result"]["structuredContent"]["fleet"], "elsewhere",
        "env sets a default, never a pin"
    );
    let pinned = session(
        &env,
        &["--fleet", "team"],
        &[
            init("2025-11-25"),
            other,
            call(2, "fleet_status", json!({})),
        ],
    );
    let r: Value = serde_json::from_str(&pinned[1]).unwrap();
    assert_eq!(r["result"]["isError"], true);
    assert!(
        r["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("fleet_not_accessible")
    );
    let r: Value = serde_json::from_str(&pinned[2]).unwrap();
    assert_eq!(r["result"]["structuredContent"]["fleet"], "team");
}

#[path = "mcp/contract.rs"]
mod contract;
#[path = "mcp/tokens.rs"]
mod tokens;

/// tools/list is what an agent's model reads: a change to a name, description or schema must
/// be deliberate (rug-pull and tool-poisoning reviews start from this file). Re-bless with
/// `CTXLAKE_BLESS=1 cargo test --test cli mcp::tools_list`.
#[test]
fn tools_list_matches_its_snapshot() {
    let env = Env::new();
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).to_string();
    let lines = session(&env, &[], &[init("2025-11-25"), list]);
    let got: Value = serde_json::from_str(&lines[1]).unwrap();
    let got = serde_json::to_string_pretty(&got["result"]).unwrap() + "\n";
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli/mcp/tools_list.json");
    if std::env::var_os("CTXLAKE_BLESS").is_some() {
        std::fs::write(&path, &got).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        want == got,
        "tools/list drifted from {}; review and re-bless with CTXLAKE_BLESS=1",
        path.display()
    );
}

/// The call log keeps `[mcp] log_days` days (default 30): older files go at server start.
#[test]
fn old_call_logs_are_pruned_at_start() {
    let env = Env::new();
    let today = ctxlake::time::date_of(ctxlake::time::now_ms());
    let old = env.write("logs/mcp-2020-01-01.jsonl", "{}\n");
    let recent = env.write(&format!("logs/mcp-{today}.jsonl"), "{}\n");
    let other = env.write("logs/notes.txt", "mine\n");
    env.write("config.toml", "[mcp]\nlog_days = 100000\n");
    session(&env, &[], &[init("2025-11-25")]);
    assert!(old.exists(), "a configured 100000 days keeps 2020");
    env.write("config.toml", "# defaults\n");
    session(&env, &[], &[init("2025-11-25")]);
    assert!(!old.exists(), "30 days by default");
    assert!(recent.exists() && other.exists());
}

/// A broken setting never kills the server: the handshake and `tools/list` work, every
/// `tools/call` is an `isError` result naming the setting (and the file and line), the
/// fix is given, and stderr says it once.
#[test]
fn a_bad_setting_is_reported_by_every_call_not_by_a_dead_server() {
    let list = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#.to_string();
    let mut bad_env = Env::new();
    bad_env.agent = "a/b".into();
    let bad_toml = Env::new();
    bad_toml.write("config.toml", "fleet = \"x\"\nagent = [\n");
    let cases: [(&Env, &[&str]); 2] = [
        (&bad_env, &["CTXLAKE_AGENT_ID", "`a/b`", "hint:"]),
        (&bad_toml, &["config.toml", "line 2", "hint:"]),
    ];
    for (env, named) in cases {
        let out = env
            .cmd()
            .arg("mcp")
            .write_stdin(
                [
                    init("2025-11-25"),
                    list.clone(),
                    call(2, "fleet_status", json!({})),
                    call(3, "memory_search", json!({"query": "x"})),
                ]
                .join("\n")
                    + "\n",
            )
            .timeout(Duration::from_secs(30))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(out.status.success(), "{named:?}: {stderr}");
        let lines: Vec<Value> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 4, "{named:?}: {lines:?}");
        assert!(lines[0]["result"]["protocolVersion"].is_string());
        assert_eq!(lines[1]["result"]["tools"].as_array().unwrap().len(), 8);
        for reply in &lines[2..] {
            assert_eq!(reply["result"]["isError"], true, "{reply}");
            let text = reply["result"]["content"][0]["text"].as_str().unwrap();
            for n in named {
                assert!(text.contains(n), "{n} not in {text}");
            }
        }
        assert_eq!(stderr.matches("error:").count(), 1, "{stderr}");
        assert!(named[..2].iter().all(|n| stderr.contains(n)), "{stderr}");
    }
}
