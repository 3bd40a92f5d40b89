//! Hermes: `~/.hermes/state.db` (`$HERMES_HOME`), SQLite, opened read-only. Checked
//! against Hermes 0.19 (schema version 22), whose own `SessionDB` wrote the fixture:
//! `sessions(id, started_at, ended_at, cwd, git_branch, git_repo_root)` (times in
//! seconds), `messages(id, session_id, role, content, tool_call_id, tool_calls,
//! tool_name, timestamp)`; an assistant's `tool_calls` is the OpenAI list
//! `[{id, function: {name, arguments}}]`, a `tool` message its result.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rusqlite::Connection;
use serde_json::Value;

use super::opencode::{open_read_only, require};
use super::{Event, Kind, Session, Skipped, exit_code_in, tool_use, unreadable};
use crate::error::Result;

/// `state.db` under the Hermes home `root`, when there is one.
pub fn units(root: &Path) -> Vec<PathBuf> {
    let db = root.join("state.db");
    if db.is_file() { vec![db] } else { Vec::new() }
}

/// Every session in the database.
pub fn read(path: &Path, out: &mut dyn FnMut(Session)) -> Result<Skipped> {
    let c = open_read_only(path)?;
    require(&c, "sessions", &["id", "started_at", "ended_at"])?;
    require(
        &c,
        "messages",
        &[
            "id",
            "session_id",
            "role",
            "content",
            "tool_call_id",
            "tool_calls",
            "timestamp",
        ],
    )?;
    // Older schemas lack the working directory: read what exists.
    let col = |name: &str| match require(&c, "sessions", &[name]) {
        Ok(()) => name.to_string(),
        Err(_) => "NULL".into(),
    };
    let sql = format!(
        "SELECT id, ended_at, {}, {}, {} FROM sessions ORDER BY started_at, id",
        col("cwd"),
        col("git_branch"),
        col("git_repo_root")
    );
    type Row = (
        String,
        Option<f64>,
        Option<String>,
        Option<String>,
        Option<String>,
    );
    let sessions: Vec<Row> = c
        .prepare(&sql)
        .and_then(|mut s| {
            s.query_map([], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
            })?
            .collect()
        })
        .map_err(unreadable("cannot read sessions"))?;
    let mut skipped = 0;
    for (id, ended, cwd, branch, root) in sessions {
        let mut s = Session {
            id,
            cwd: cwd.filter(|c| !c.is_empty()),
            branch: branch.filter(|b| !b.is_empty()),
            repo_root: root.filter(|r| !r.is_empty()),
            ended_ms: ended.map(secs_to_ms),
            ..Session::default()
        };
        messages(&c, &mut s)?;
        skipped += s.skipped;
        if !s.events.is_empty() {
            out(s);
        }
    }
    Ok(skipped)
}

fn secs_to_ms(s: f64) -> i64 {
    (s * 1000.0).round() as i64
}

fn messages(c: &Connection, s: &mut Session) -> Result<()> {
    let mut stmt = c
        .prepare(
            "SELECT id, role, content, tool_call_id, tool_calls, timestamp FROM messages WHERE session_id = ?1 ORDER BY timestamp, id",
        )
        .map_err(unreadable("cannot read messages"))?;
    let mut rows = stmt
        .query([&s.id])
        .map_err(unreadable("cannot read messages"))?;
    let mut calls: HashMap<String, Event> = HashMap::new();
    while let Some(r) = rows.next().map_err(unreadable("cannot read messages"))? {
        type Msg = (
            i64,
            String,
            Option<String>,
            Option<String>,
            Option<String>,
            f64,
        );
        let row: rusqlite::Result<Msg> = (|| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
            ))
        })();
        let Ok((id, role, content, call_id, tool_calls, ts)) = row else {
            s.skipped += 1;
            continue;
        };
        let at = secs_to_ms(ts);
        let ok = match role.as_str() {
            "user" => {
                s.events.push(Event {
                    key: format!("m{id}"),
                    at_ms: at,
                    kind: Some(Kind::Prompt),
                    prompt: content,
                    ..Event::default()
                });
                true
            }
            "assistant" => match tool_calls.as_deref() {
                None | Some("") => true,
                Some(json) => assistant(json, at, s, &mut calls),
            },
            "tool" => result(call_id.as_deref(), content.as_deref(), at, s, &calls),
            "system" => true,
            _ => false,
        };
        if !ok {
            s.skipped += 1;
        }
    }
    Ok(())
}

fn assistant(json: &str, at: i64, s: &mut Session, calls: &mut HashMap<String, Event>) -> bool {
    let Ok(Value::Array(list)) = serde_json::from_str::<Value>(json) else {
        return false;
    };
    for call in &list {
        let Some(id) = call["id"].as_str() else {
            continue;
        };
        let f = &call["function"];
        let args = match &f["arguments"] {
            Value::String(a) => serde_json::from_str(a).unwrap_or(Value::Null),
            other => other.clone(),
        };
        let mut e = Event {
            key: id.to_string(),
            at_ms: at,
            kind: Some(Kind::PreTool),
            ..Event::default()
        };
        tool_use(f["name"].as_str().unwrap_or("tool"), &args, &mut e);
        calls.insert(id.to_string(), e.clone());
        s.events.push(e);
    }
    true
}

fn result(
    call_id: Option<&str>,
    content: Option<&str>,
    at: i64,
    s: &mut Session,
    calls: &HashMap<String, Event>,
) -> bool {
    let Some(mut e) = call_id.and_then(|id| calls.get(id)).cloned() else {
        return false;
    };
    let text = content.unwrap_or_default();
    let v: Value = serde_json::from_str(text).unwrap_or(Value::Null);
    e.key = format!("{}:result", e.key);
    e.at_ms = at;
    e.exit_code = v["exit_code"].as_i64().or_else(|| exit_code_in(text));
    e.error = v["error"]
        .as_str()
        .filter(|t| !t.is_empty())
        .map(|t| t.chars().take(500).collect());
    let failed = e.error.is_some() || e.exit_code.is_some_and(|c| c != 0);
    e.kind = Some(if failed {
        Kind::ToolFailed
    } else {
        Kind::PostTool
    });
    s.events.push(e);
    true
}
