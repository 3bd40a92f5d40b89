//! opencode ≥ 1.2: `~/.local/share/opencode/opencode.db` (`$XDG_DATA_HOME`), SQLite, opened
//! read-only. Checked against `opencode` 1.18: `session(id, directory, time_created,
//! time_updated)`, `message(id, session_id, time_created, data)` and `part(id,
//! message_id, session_id, time_created, data)`, `data` being JSON: a user message's
//! `text` parts are its prompt; a `tool` part is `{callID, tool, state: {status, input,
//! output|error, metadata, time: {start, end}}}`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};
use serde_json::Value;

use super::{Event, Kind, Session, Skipped, TRANSCRIPT, tool_use, unreadable};
use crate::error::{Error, Result};

/// `opencode.db` under the opencode data directory `root`, when there is one.
pub fn units(root: &Path) -> Vec<PathBuf> {
    let db = root.join("opencode.db");
    if db.is_file() { vec![db] } else { Vec::new() }
}

/// Open `path` read-only: the runtime may be running, and this must never change its
/// files. Without a `-wal` beside it the database is whole and is opened immutable, so
/// SQLite leaves no `-wal`/`-shm` of its own; with one (the runtime is running, or
/// crashed), the WAL must be read too.
pub(crate) fn open_read_only(path: &Path) -> Result<Connection> {
    let wal = path.with_file_name(format!(
        "{}-wal",
        path.file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default()
    ));
    let immutable = if wal.exists() { "" } else { "&immutable=1" };
    let uri = format!("file:{}?mode=ro{immutable}", uri_path(path));
    let c = Connection::open_with_flags(
        uri,
        OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI,
    )
    .map_err(|e| {
        Error::storage(
            TRANSCRIPT,
            format!("cannot open `{}` read-only", path.display()),
        )
        .source(e)
    })?;
    let _ = c.busy_timeout(std::time::Duration::from_secs(2));
    let _ = c.pragma_update(None, "query_only", true);
    Ok(c)
}

/// `path` with the characters a URI gives meaning to escaped.
fn uri_path(path: &Path) -> String {
    let mut out = String::new();
    for c in path.to_string_lossy().chars() {
        match c {
            '%' | '?' | '#' | ' ' => out.push_str(&format!("%{:02X}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// The tables and columns read here, so a schema change is a clear error, not a guess.
pub(crate) fn require(c: &Connection, table: &str, cols: &[&str]) -> Result<()> {
    let have: Vec<String> = c
        .prepare(&format!("SELECT name FROM pragma_table_info('{table}')"))
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        .map_err(unreadable("cannot read the schema"))?;
    match cols.iter().find(|c| !have.iter().any(|h| h == *c)) {
        None => Ok(()),
        Some(missing) => Err(Error::storage(
            TRANSCRIPT,
            format!("table `{table}` has no column `{missing}`: a format this build does not know"),
        )),
    }
}

/// Every session in the database, each with its messages' parts.
pub fn read(path: &Path, out: &mut dyn FnMut(Session)) -> Result<Skipped> {
    let c = open_read_only(path)?;
    require(&c, "session", &["id", "directory"])?;
    require(&c, "message", &["id", "session_id", "data"])?;
    require(
        &c,
        "part",
        &["id", "message_id", "session_id", "time_created", "data"],
    )?;
    let sessions: Vec<(String, String)> = c
        .prepare("SELECT id, directory FROM session ORDER BY time_created, id")
        .and_then(|mut s| s.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect())
        .map_err(unreadable("cannot read sessions"))?;
    let mut skipped = 0;
    for (id, dir) in sessions {
        let s = session(&c, id, dir)?;
        skipped += s.skipped;
        if !s.events.is_empty() {
            out(s);
        }
    }
    Ok(skipped)
}

fn session(c: &Connection, id: String, dir: String) -> Result<Session> {
    let mut s = Session {
        id,
        cwd: Some(dir).filter(|d| !d.is_empty()),
        ..Session::default()
    };
    // Which messages are the person's: a user message's text parts are its prompt.
    let roles: HashMap<String, String> = c
        .prepare("SELECT id, data FROM message WHERE session_id = ?1")
        .and_then(|mut st| {
            st.query_map([&s.id], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
            })?
            .collect::<Result<Vec<_>, _>>()
        })
        .map_err(unreadable("cannot read messages"))?
        .into_iter()
        .map(|(id, data)| {
            let role = serde_json::from_str::<Value>(&data)
                .ok()
                .and_then(|v| v["role"].as_str().map(str::to_string))
                .unwrap_or_default();
            (id, role)
        })
        .collect();
    let mut stmt = c
        .prepare(
            "SELECT id, message_id, time_created, data FROM part WHERE session_id = ?1 ORDER BY time_created, id",
        )
        .map_err(unreadable("cannot read parts"))?;
    let mut rows = stmt
        .query([&s.id])
        .map_err(unreadable("cannot read parts"))?;
    while let Some(r) = rows.next().map_err(unreadable("cannot read parts"))? {
        let (Ok(pid), Ok(mid), Ok(at), Ok(data)) = (
            r.get::<_, String>(0),
            r.get::<_, String>(1),
            r.get::<_, i64>(2),
            r.get::<_, String>(3),
        ) else {
            s.skipped += 1;
            continue;
        };
        let Ok(v) = serde_json::from_str::<Value>(&data) else {
            s.skipped += 1;
            continue;
        };
        let user = roles.get(&mid).is_some_and(|r| r == "user");
        if !part(&v, &pid, at, user, &mut s) {
            s.skipped += 1;
        }
    }
    Ok(s)
}

fn part(v: &Value, pid: &str, at: i64, user: bool, s: &mut Session) -> bool {
    match v["type"].as_str().unwrap_or_default() {
        "text" if user => {
            if v["synthetic"].as_bool() != Some(true) {
                s.events.push(Event {
                    key: pid.to_string(),
                    at_ms: at,
                    kind: Some(Kind::Prompt),
                    prompt: v["text"].as_str().map(str::to_string),
                    ..Event::default()
                });
            }
            true
        }
        "tool" => {
            let st = &v["state"];
            let call = v["callID"].as_str().unwrap_or(pid);
            let mut pre = Event {
                key: call.to_string(),
                at_ms: st["time"]["start"].as_i64().unwrap_or(at),
                kind: Some(Kind::PreTool),
                ..Event::default()
            };
            tool_use(v["tool"].as_str().unwrap_or("tool"), &st["input"], &mut pre);
            let status = st["status"].as_str().unwrap_or_default();
            let finished = matches!(status, "completed" | "error");
            let mut post = pre.clone();
            s.events.push(pre);
            if finished {
                post.key = format!("{call}:result");
                post.at_ms = st["time"]["end"].as_i64().unwrap_or(post.at_ms);
                post.exit_code = st["metadata"]["exit"].as_i64();
                let failed = status == "error" || post.exit_code.is_some_and(|c| c != 0);
                post.kind = Some(if failed {
                    Kind::ToolFailed
                } else {
                    Kind::PostTool
                });
                post.error = st["error"].as_str().map(|e| e.chars().take(500).collect());
                s.events.push(post);
            }
            true
        }
        // Reasoning, step markers, snapshots, patches, files, assistant text.
        "text" | "reasoning" | "step-start" | "step-finish" | "snapshot" | "patch" | "file"
        | "agent" | "compaction" | "subtask" | "retry" => true,
        _ => false,
    }
}
