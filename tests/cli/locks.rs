//! Nothing ctxlake does on an agent's hot path hangs: with a spool lock held by another
//! process (`flock -x FILE sleep 30`), the hook answers at once and its record still
//! arrives, CLI and MCP writes fail within their deadline naming the holder, `sync`
//! skips the file, and a hook whose stdin never closes is cut by its watchdog.

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::Env;

/// `flock -x FILE sleep 30` as a child in its own process group; the group is killed on
/// drop (releasing the lock), even when an assertion fails.
struct Held(Child);

impl Held {
    fn new(path: &Path) -> Held {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let child = Command::new("flock")
            .args(["-x", path.to_str().unwrap(), "sleep", "30"])
            .process_group(0)
            .spawn()
            .expect("util-linux flock");
        let held = Held(child);
        let probe = std::fs::File::open(path).or_else(|_| {
            std::thread::sleep(Duration::from_millis(100));
            std::fs::File::open(path)
        });
        let probe = probe.unwrap();
        let start = Instant::now();
        while probe.try_lock().is_ok() {
            probe.unlock().unwrap();
            assert!(
                start.elapsed() < Duration::from_secs(5),
                "flock never took it"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        held
    }
    fn pid(&self) -> u32 {
        self.0.id()
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        // `sleep` inherited the locked descriptor: end the whole group, not just `flock`.
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.0.id())])
            .status();
        let _ = self.0.wait();
    }
}

/// Run `cmd` with `stdin`, killing it after `limit`: a hang is a failure, not a stuck suite.
fn run_bounded(mut cmd: Command, stdin: &[u8], limit: Duration) -> (Output, Duration) {
    let start = Instant::now();
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    loop {
        if child.try_wait().unwrap().is_some() {
            let took = start.elapsed();
            return (child.wait_with_output().unwrap(), took);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "still running after {limit:?}; stderr: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn hook_cmd(env: &Env) -> Command {
    let mut c = env.std_cmd();
    c.args(["hook", "claude-code"]);
    c
}

fn prompt(env: &Env, session: &str, text: &str) -> Vec<u8> {
    json!({"session_id": session, "cwd": env.work(), "hook_event_name": "UserPromptSubmit",
           "prompt": text})
    .to_string()
    .into_bytes()
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(files_under(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// How many times the record `id` occurs across every session segment in the lake.
fn lake_count(env: &Env, id: &str) -> usize {
    files_under(&env.ctxlake_home().join("lake/sessions"))
        .iter()
        .flat_map(|f| ctxlake::spool::read_file(f, 0).unwrap().records)
        .filter(|r| r.id == id)
        .count()
}

#[test]
fn a_locked_spool_costs_the_hook_no_wait_and_loses_no_record() {
    let env = Env::new();
    let live = env
        .ctxlake_home()
        .join("spool/hooks/claude-code/s-locked.ndjson");
    // Best of three, locked and not: the machine is shared and this is a debug build; a
    // hook that waits on the lock fails all three. (Release build: see the README.)
    let fastest = |label: &str| {
        (1..=3)
            .map(|i| {
                let text = format!("{label} {i}");
                let (out, took) = run_bounded(
                    hook_cmd(&env),
                    &prompt(&env, "s-locked", &text),
                    Duration::from_secs(10),
                );
                assert!(
                    out.status.success(),
                    "{}",
                    String::from_utf8_lossy(&out.stderr)
                );
                took
            })
            .min()
            .unwrap()
    };
    let free = fastest("prompt");
    let held = Held::new(&live);
    let locked = fastest("prompt under lock");
    assert!(
        locked < free + Duration::from_millis(100),
        "the hook took {locked:?} with the spool locked, {free:?} without"
    );
    let dir = live.parent().unwrap();
    let segments: Vec<_> = files_under(dir)
        .into_iter()
        .filter(|p| p.to_string_lossy().contains(".overflow-"))
        .collect();
    assert_eq!(segments.len(), 3, "{segments:?}");
    let ids: Vec<String> = segments
        .iter()
        .map(|s| {
            ctxlake::spool::read_file(s, 0).unwrap().records[0]
                .id
                .clone()
        })
        .collect();
    drop(held);
    for _ in 0..2 {
        env.cmd().arg("sync").assert().success();
    }
    for id in &ids {
        assert_eq!(
            lake_count(&env, id),
            1,
            "record {id} in the lake exactly once"
        );
    }
    assert!(
        files_under(dir).is_empty(),
        "drained and removed: {:?}",
        files_under(dir)
    );
    let h = env.json(&["fleet", "history"]);
    assert!(
        h["sessions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["session"] == "s-locked"),
        "{h}"
    );
}

fn write_limits(env: &Env) {
    env.write("config.toml", "[limits]\nlock_wait_ms = 300\n");
}

fn assert_names_holder(text: &str, held: &Held) {
    assert!(text.contains(&format!("pid {}", held.pid())), "{text}");
    assert!(text.contains("flock -x"), "{text}");
    assert!(text.contains("ctxlake spool check"), "{text}");
}

#[test]
fn cli_and_mcp_writes_fail_within_their_deadline_naming_the_holder() {
    let env = Env::new();
    write_limits(&env);
    let held = Held::new(&env.ctxlake_home().join("spool/mcp/default.ndjson"));
    let mut claim = env.std_cmd();
    claim.args(["fleet", "claim", "src/a.rs", "--reason", "r"]);
    let (out, took) = run_bounded(claim, b"", Duration::from_secs(10));
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        took >= Duration::from_millis(300) && took < Duration::from_millis(1500),
        "{took:?}"
    );
    assert_names_holder(&String::from_utf8_lossy(&out.stderr), &held);
    let lines = [
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                       "clientInfo": {"name": "t", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "fleet_claim", "arguments": {"paths": ["src/a.rs"], "reason": "r"}}}),
    ];
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let mut mcp = env.std_cmd();
    mcp.arg("mcp");
    let (out, _) = run_bounded(mcp, input.as_bytes(), Duration::from_secs(10));
    let reply: Value = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|v| v["id"] == 1)
        .expect("a reply to the call");
    assert_eq!(reply["result"]["isError"], true, "{reply}");
    assert_names_holder(
        reply["result"]["content"][0]["text"].as_str().unwrap(),
        &held,
    );
    drop(held);
    let s = env.json(&["spool", "check"]);
    assert_eq!(s["total_records"], 0, "nothing half-written: {s}");
    assert_eq!(s["total_skipped_bytes"], 0, "{s}");
}

#[test]
fn sync_skips_a_locked_file_with_a_note_and_drains_it_later() {
    let env = Env::new();
    write_limits(&env);
    env.cmd()
        .args(["fleet", "claim", "src/a.rs", "--reason", "r"])
        .assert()
        .success();
    // A hook killed mid-overflow leaves a hidden temp file; an hour later sync sweeps it.
    let stale = env.write(
        "spool/hooks/claude-code/.s.overflow-x.ndjson.tmp-1",
        "{\"v\":1",
    );
    let two_hours_ago = std::time::SystemTime::now() - Duration::from_secs(7200);
    std::fs::File::options()
        .write(true)
        .open(&stale)
        .unwrap()
        .set_modified(two_hours_ago)
        .unwrap();
    let held = Held::new(&env.ctxlake_home().join("spool/mcp/default.ndjson"));
    let mut sync = env.std_cmd();
    sync.args(["sync", "--json"]);
    let (out, _) = run_bounded(sync, b"", Duration::from_secs(10));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let busy = v["drained"]["busy"][0].as_str().unwrap_or_default();
    assert!(busy.contains(&format!("pid {}", held.pid())), "{v}");
    assert_eq!(v["drained"]["records"], 0, "{v}");
    assert!(!stale.exists(), "the stale overflow temp file is swept");
    drop(held);
    let v = env.json(&["sync"]);
    assert_eq!(v["drained"]["applied"], 1, "{v}");
}

#[test]
fn a_hook_whose_stdin_never_closes_is_cut_by_its_watchdog() {
    let env = Env::new();
    let start = Instant::now();
    let mut child = hook_cmd(&env)
        .env_remove("CTXLAKE_HOOK_BUDGET_MS")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Keep stdin open (never EOF), as a runtime that forgot to close it would.
    let _stdin = child.stdin.take().unwrap();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > Duration::from_secs(5) {
            let _ = child.kill();
            panic!("the hook hung on an open stdin");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let took = start.elapsed();
    let out = child.wait_with_output().unwrap();
    assert!(status.success(), "{status}");
    assert!(took >= Duration::from_millis(300), "{took:?}");
    assert!(out.stdout.is_empty(), "printed nothing");
    let logs: String = files_under(&env.ctxlake_home().join("logs"))
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    assert!(
        logs.contains("watchdog") && logs.contains("reading the payload"),
        "{logs}"
    );
}
