//! Start an MCP entry exactly as a runtime would (its command, args and env on top of this
//! environment), then `initialize` and `tools/list` over stdio within a deadline. The child
//! is always killed: a server that never answers must not outlive the doctor.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

pub(crate) const DEADLINE: Duration = Duration::from_secs(2);

/// What the spawned server answered.
#[derive(Debug)]
pub(crate) struct Answer {
    pub tools: Vec<String>,
    pub elapsed: Duration,
}

/// Why a spawned entry gave no usable answer (rendered into the doctor's check).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SpawnError {
    /// The program could not be started (`what` is the command line tried).
    Start {
        what: String,
        why: String,
    },
    NoPipes,
    /// No answer to this request within the deadline.
    Silent {
        request: &'static str,
        ms: u128,
    },
    Exited,
    NotJson(String),
    Answered(String),
    /// `--version` did not exit within the deadline.
    VersionHung {
        cmd: String,
        ms: u128,
    },
    NoVersion(String),
}

impl std::fmt::Display for SpawnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SpawnError::Start { what, why } => write!(f, "cannot start `{what}`: {why}"),
            SpawnError::NoPipes => f.write_str("no stdio pipes to the server"),
            SpawnError::Silent { request, ms } => {
                write!(f, "no answer to `{request}` within {ms} ms")
            }
            SpawnError::Exited => f.write_str("the server exited before answering"),
            SpawnError::NotJson(line) => {
                write!(f, "the server wrote a line that is not JSON: {line}")
            }
            SpawnError::Answered(e) => write!(f, "the server answered an error: {e}"),
            SpawnError::VersionHung { cmd, ms } => {
                write!(f, "`{cmd} --version` did not exit within {ms} ms")
            }
            SpawnError::NoVersion(cmd) => write!(f, "`{cmd} --version` printed no version"),
        }
    }
}

/// Run `cmd args` with `env` added, handshake, list tools. `Err` says what went wrong.
pub(crate) fn handshake(
    cmd: &str,
    args: &[String],
    env: &[(String, String)],
    deadline: Duration,
) -> Result<Answer, SpawnError> {
    let start = Instant::now();
    let mut child = Command::new(cmd)
        .args(args)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| SpawnError::Start {
            what: cmd.to_string(),
            why: e.to_string(),
        })?;
    let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        let _ = child.kill();
        let _ = child.wait();
        return Err(SpawnError::NoPipes);
    };
    let frames = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "ctxlake-doctor", "version": env!("CARGO_PKG_VERSION")}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
    ];
    let text: String = frames.iter().map(|f| format!("{f}\n")).collect();
    let _ = stdin
        .write_all(text.as_bytes())
        .and_then(|()| stdin.flush());
    // A reader thread, so the deadline holds even when the server writes nothing.
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let result = read_answers(&rx, start, deadline);
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    result.map(|tools| Answer {
        tools,
        elapsed: start.elapsed(),
    })
}

fn read_answers(
    rx: &mpsc::Receiver<String>,
    start: Instant,
    deadline: Duration,
) -> Result<Vec<String>, SpawnError> {
    let mut initialized = false;
    loop {
        let left = deadline.saturating_sub(start.elapsed());
        let line = match rx.recv_timeout(left) {
            Ok(l) => l,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let what = if initialized {
                    "tools/list"
                } else {
                    "initialize"
                };
                return Err(SpawnError::Silent {
                    request: what,
                    ms: deadline.as_millis(),
                });
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(SpawnError::Exited);
            }
        };
        let Ok(v) = serde_json::from_str::<Value>(&line) else {
            return Err(SpawnError::NotJson(short(&line)));
        };
        if let Some(e) = v.get("error") {
            return Err(SpawnError::Answered(e.to_string()));
        }
        match v.get("id").and_then(Value::as_i64) {
            Some(1) => initialized = true,
            Some(2) => {
                let tools = v["result"]["tools"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(|t| t["name"].as_str().map(str::to_string))
                            .collect()
                    })
                    .unwrap_or_default();
                return Ok(tools);
            }
            _ => {}
        }
    }
}

fn short(s: &str) -> String {
    s.chars().take(80).collect()
}

/// The program's `--version` line (`ctxlake 0.1.0`), or why it has none. Bounded by
/// [`DEADLINE`]: a stale entry may name a program that never exits on `--version`.
pub(crate) fn version(cmd: &str) -> Result<String, SpawnError> {
    let mut child = Command::new(cmd)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| SpawnError::Start {
            what: format!("{cmd} --version"),
            why: e.to_string(),
        })?;
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if start.elapsed() < DEADLINE => std::thread::sleep(Duration::from_millis(5)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(SpawnError::VersionHung {
                    cmd: cmd.to_string(),
                    ms: DEADLINE.as_millis(),
                });
            }
        }
    };
    let mut text = String::new();
    if let Some(mut out) = child.stdout.take() {
        let _ = std::io::Read::read_to_string(&mut out, &mut text);
    }
    let text = text.lines().next().unwrap_or("").trim().to_string();
    if !status.success() || text.is_empty() {
        return Err(SpawnError::NoVersion(cmd.to_string()));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_silent_or_dead_server_fails_within_the_deadline() {
        let t = Instant::now();
        let sleep = ["-c".to_string(), "sleep 5".to_string()];
        let e = handshake("sh", &sleep, &[], Duration::from_millis(300)).unwrap_err();
        assert_eq!(e.to_string(), "no answer to `initialize` within 300 ms");
        assert!(
            t.elapsed() < Duration::from_secs(3),
            "the child is killed, not waited for"
        );
        let e = handshake("true", &[], &[], DEADLINE).unwrap_err();
        assert_eq!(e, SpawnError::Exited);
        let e = handshake("/nonexistent/ctxlake", &[], &[], DEADLINE).unwrap_err();
        assert!(matches!(e, SpawnError::Start { .. }), "{e}");
        let junk = ["-c".to_string(), "echo not-json; sleep 5".to_string()];
        let e = handshake("sh", &junk, &[], DEADLINE).unwrap_err();
        assert!(matches!(e, SpawnError::NotJson(_)), "{e}");
    }

    #[test]
    fn version_reads_the_first_line_and_never_hangs() {
        use std::os::unix::fs::PermissionsExt;
        let e = version("/nonexistent/ctxlake").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("cannot start `/nonexistent/ctxlake --version`"),
            "{e}"
        );
        assert_eq!(
            version("false").unwrap_err().to_string(),
            "`false --version` printed no version"
        );
        let d = tempfile::tempdir().unwrap();
        let script = |name: &str, body: &str| {
            let p = d.path().join(name);
            std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
            p.display().to_string()
        };
        let ok = script("two-lines", "echo 'ctxlake 9.9.9'; echo more");
        assert_eq!(version(&ok).unwrap(), "ctxlake 9.9.9");
        let t = Instant::now();
        let e = version(&script("hangs", "exec sleep 30")).unwrap_err();
        assert!(e.to_string().contains("did not exit within 2000 ms"), "{e}");
        assert!(t.elapsed() < Duration::from_secs(4), "{:?}", t.elapsed());
    }
}
