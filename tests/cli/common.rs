//! A hermetic environment per test: empty env but PATH, HOME and every ctxlake and XDG
//! directory inside a fresh temp dir, no colour, fixed width.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

pub struct Env {
    pub dir: tempfile::TempDir,
    pub agent: String,
    pub session: String,
    pub extra: Vec<(String, String)>,
}

impl Env {
    pub fn new() -> Env {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join("home/work")).expect("mkdir");
        Env {
            dir,
            agent: "agent-a".into(),
            session: "sess-a".into(),
            extra: Vec::new(),
        }
    }

    /// The same HOME, acting as another agent/session.
    pub fn as_agent(&mut self, agent: &str, session: &str) -> &mut Env {
        self.agent = agent.into();
        self.session = session.into();
        self
    }

    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }
    pub fn ctxlake_home(&self) -> PathBuf {
        self.home().join(".ctxlake")
    }
    pub fn work(&self) -> PathBuf {
        self.home().join("work")
    }

    pub fn cmd(&self) -> Command {
        Command::from_std(self.std_cmd())
    }

    /// The same hermetic command as a `std::process::Command` (to spawn and kill).
    pub fn std_cmd(&self) -> std::process::Command {
        let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin("ctxlake"));
        c.env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", self.home())
            .env("CTXLAKE_HOME", self.ctxlake_home())
            .env("XDG_CONFIG_HOME", self.home().join(".config"))
            .env("XDG_DATA_HOME", self.home().join(".local/share"))
            .env("XDG_CACHE_HOME", self.home().join(".cache"))
            .env("XDG_STATE_HOME", self.home().join(".local/state"))
            .env("NO_COLOR", "1")
            .env("COLUMNS", "100")
            .env("USER", "tester")
            .env("CTXLAKE_AGENT_ID", &self.agent)
            .env("CTXLAKE_SESSION_ID", &self.session)
            // A debug build's hook on a loaded machine can pass the release budget (300 ms);
            // the watchdog's own test runs with the default.
            .env("CTXLAKE_HOOK_BUDGET_MS", "20000")
            .current_dir(self.work());
        for (k, v) in &self.extra {
            c.env(k, v);
        }
        c
    }

    /// Run with `--json`, expect success, parse stdout.
    pub fn json(&self, args: &[&str]) -> Value {
        let out = self.cmd().args(args).arg("--json").output().expect("run");
        assert!(
            out.status.success(),
            "ctxlake {args:?} failed: {}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout of {args:?} is not JSON ({e}): {}",
                String::from_utf8_lossy(&out.stdout)
            )
        })
    }

    pub fn write(&self, rel: &str, text: &str) -> PathBuf {
        let p = self.ctxlake_home().join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(&p, text).expect("write");
        p
    }

    /// All bytes of every spool file, for "a secret never reaches the spool".
    pub fn spool_bytes(&self) -> Vec<u8> {
        let mut all = Vec::new();
        collect(&self.ctxlake_home().join("spool"), &mut all);
        all
    }
}

fn collect(dir: &Path, out: &mut Vec<u8>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if let Ok(b) = std::fs::read(&p) {
            out.extend_from_slice(&b);
        }
    }
}

/// The records a lake area holds, as JSON, from its batch objects `(key, bytes)`: every
/// line (framed spool records: the handoff's summary is in its `payload`).
pub fn lake_records(objects: Vec<(String, Vec<u8>)>) -> Vec<Value> {
    let mut out = Vec::new();
    for (key, bytes) in objects {
        assert!(key.ends_with(".ndjson"), "not a batch: {key}");
        let scan = ctxlake::spool::scan(&bytes, 0);
        assert_eq!(scan.bad_lines, 0, "a bad line in {key}");
        out.extend(
            scan.records
                .iter()
                .map(|r| serde_json::to_value(r).unwrap()),
        );
    }
    out
}

/// `lake_records` of a local lake directory (its staged temp files skipped).
pub fn local_lake_records(dir: &Path) -> Vec<Value> {
    let mut objects = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        if !name.starts_with('.') {
            objects.push((name.clone(), std::fs::read(dir.join(&name)).unwrap()));
        }
    }
    lake_records(objects)
}

/// A `sync --watch` daemon, killed on drop so a failing assertion cannot leave it holding
/// the test's pipes.
pub struct Daemon(std::process::Child);

impl Daemon {
    /// Start it with `--interval secs` and wait for its first pass to write the cache.
    pub fn start(env: &Env, secs: u64) -> Daemon {
        let d = Daemon(
            env.std_cmd()
                .args(["sync", "--watch", "--interval", &secs.to_string(), "-q"])
                .spawn()
                .unwrap(),
        );
        let pipeline = env.ctxlake_home().join("cache/default/pipeline.json");
        for _ in 0..400 {
            if pipeline.exists() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        assert!(pipeline.exists(), "the daemon never completed a pass");
        d
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
