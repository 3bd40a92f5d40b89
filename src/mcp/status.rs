//! `ctxlake mcp status`: which servers (stdio, and `--http`) run on this host (each registers a small
//! file under `run/` while it lives) and which tool calls they served lately.

use std::fs;
use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::log::{self, CallLine};
use crate::paths::Paths;
use crate::tools::Ctx;

/// How many recent calls `status` shows.
pub const RECENT_CALLS: usize = 20;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
pub struct ServerEntry {
    pub pid: u32,
    /// The client that spawned it (the runtime), by pid and command name.
    pub ppid: u32,
    pub parent: Option<String>,
    pub fleet: String,
    /// True when started with `--fleet` (every other fleet refused).
    pub pinned: bool,
    pub agent: String,
    pub session: String,
    pub started_at: String,
    /// Kernel start time of `pid`, so a recycled pid is not mistaken for this server.
    #[serde(default)]
    pub proc_start: Option<u64>,
    /// `mcp --http`: the endpoint URL clients connect to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// `mcp --http`: how many handshake-era sessions are open.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub http_sessions: Option<u64>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct StatusOutput {
    pub servers: Vec<ServerEntry>,
    pub recent_calls: Vec<CallLine>,
}

/// Removes this server's registration when the session ends normally. A SIGKILLed or
/// SIGTERMed server leaves its file behind; `running` prunes those by checking `/proc`.
pub struct Registration {
    path: PathBuf,
}

impl Drop for Registration {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

/// Record this process as a running server (best effort: status is a convenience).
pub fn register(ctx: &Ctx) -> Option<Registration> {
    write(&ctx.paths, &entry(ctx))
}

/// What `status` shows about this process; `register` writes it as is, the HTTP server
/// adds its URL and session count first.
pub fn entry(ctx: &Ctx) -> ServerEntry {
    let pid = std::process::id();
    let (ppid, proc_start) = stat(pid).unzip();
    let ppid = ppid.unwrap_or(0);
    ServerEntry {
        pid,
        ppid,
        parent: comm(ppid),
        fleet: ctx.fleet(None).unwrap_or_else(|_| ctx.scope.fleet.clone()),
        pinned: ctx.pinned_fleet.is_some(),
        agent: ctx.scope.agent.clone(),
        session: ctx.scope.session.clone(),
        started_at: crate::time::now_rfc3339(),
        proc_start: proc_start.flatten(),
        url: None,
        http_sessions: None,
    }
}

/// Write `entry` as this process's registration; the guard removes it on drop.
pub fn write(paths: &Paths, entry: &ServerEntry) -> Option<Registration> {
    // Servers ended by SIGTERM/SIGKILL leave their file; sweep those now so `run/` stays small.
    running(paths);
    store(paths, entry).map(|path| Registration { path })
}

/// Replace this process's registration (already guarded) with a newer `entry`.
pub fn refresh(paths: &Paths, entry: &ServerEntry) {
    store(paths, entry);
}

fn store(paths: &Paths, entry: &ServerEntry) -> Option<PathBuf> {
    let dir = paths.run();
    let pid = entry.pid;
    let path = dir.join(format!("mcp-{pid}.json"));
    let written = (|| {
        fs::create_dir_all(&dir)?;
        // temp + rename so `status` never reads half a file; no fsync: it dies with the boot.
        let tmp = dir.join(format!(".mcp-{pid}.json.tmp"));
        fs::write(
            &tmp,
            serde_json::to_vec(entry).map_err(std::io::Error::other)?,
        )?;
        fs::rename(&tmp, &path)
    })();
    match written {
        Ok(()) => Some(path),
        Err(e) => {
            crate::output::stderr(&format!(
                "ctxlake mcp: cannot register in `{}`: {e}\n",
                dir.display()
            ));
            None
        }
    }
}

/// Live servers, oldest first; registrations of dead processes are removed on the way.
pub fn running(paths: &Paths) -> Vec<ServerEntry> {
    let Ok(dir) = fs::read_dir(paths.run()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for path in dir.flatten().map(|e| e.path()) {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !(name.starts_with("mcp-") && name.ends_with(".json")) {
            continue;
        }
        match read_entry(&path) {
            Some(e) if alive(&e) => out.push(e),
            _ => {
                let _ = fs::remove_file(&path);
            }
        }
    }
    out.sort_by(|a, b| a.started_at.cmp(&b.started_at));
    out
}

pub fn status(paths: &Paths) -> StatusOutput {
    StatusOutput {
        servers: running(paths),
        recent_calls: log::recent(paths, RECENT_CALLS),
    }
}

fn read_entry(path: &Path) -> Option<ServerEntry> {
    serde_json::from_slice(&fs::read(path).ok()?).ok()
}

fn alive(e: &ServerEntry) -> bool {
    match stat(e.pid) {
        None => false,
        Some((_, start)) => e.proc_start.is_none() || start == e.proc_start,
    }
}

/// `(ppid, starttime)` from `/proc/<pid>/stat`; `None` when the process is gone.
fn stat(pid: u32) -> Option<(u32, Option<u64>)> {
    let text = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name is in parentheses and may itself contain spaces or `)`.
    let rest = &text[text.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ppid = fields.get(1)?.parse().ok()?;
    // Field 22 of stat is the 20th after the name (which is field 2).
    Some((ppid, fields.get(19).and_then(|s| s.parse().ok())))
}

fn comm(pid: u32) -> Option<String> {
    let c = fs::read_to_string(format!("/proc/{pid}/comm")).ok()?;
    Some(c.trim().chars().take(64).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_reads_this_process() {
        let (ppid, start) = stat(std::process::id()).unwrap();
        assert!(ppid > 0);
        assert!(start.is_some());
        assert!(stat(u32::MAX).is_none());
    }

    #[test]
    fn dead_and_recycled_registrations_are_pruned() {
        let dir = tempfile::tempdir().unwrap();
        let paths = Paths::with_overrides(dir.path().to_path_buf(), None, None);
        let me = std::process::id();
        let mk = |pid: u32, proc_start| ServerEntry {
            pid,
            ppid: 1,
            parent: None,
            fleet: "f".into(),
            pinned: false,
            agent: "a".into(),
            session: format!("s{pid}"),
            started_at: "2026-01-01T00:00:00.000Z".into(),
            proc_start,
            url: None,
            http_sessions: None,
        };
        let run = paths.run();
        fs::create_dir_all(&run).unwrap();
        let live = mk(me, stat(me).unwrap().1);
        for e in [&live, &mk(u32::MAX, Some(1)), &mk(me, Some(u64::MAX))] {
            let p = run.join(format!("mcp-{}-{}.json", e.pid, e.proc_start.unwrap()));
            fs::write(p, serde_json::to_vec(e).unwrap()).unwrap();
        }
        assert_eq!(running(&paths), vec![live]);
        assert_eq!(fs::read_dir(&run).unwrap().count(), 1);
    }
}
