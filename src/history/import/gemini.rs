//! Gemini CLI: `~/.gemini/tmp/<project>/chats/` (`$GEMINI_CLI_HOME`). Checked against
//! `gemini` 0.61, which writes `session-*.jsonl`: a header `{sessionId, projectHash,
//! startTime, …}`, then message records (`{id, timestamp, type: user|gemini|info|error,
//! content, toolCalls?}`, a message written again when its tool calls finish) and `$set`
//! updates. Older releases wrote one `session-*.json` document `{sessionId, …, messages}`
//! with the same messages. The project's root is in `tmp/<project>/.project_root`.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{Event, Kind, Session, Skipped, exit_code_in, jsonl, time_of, tool_use};
use crate::error::{Error, Result};

/// A legacy whole-document chat larger than this is skipped: it would be read whole.
const MAX_JSON: u64 = 64 << 20;

/// Every `tmp/*/chats/session-*.json[l]` under the Gemini directory `root`.
pub fn units(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(projects) = std::fs::read_dir(root.join("tmp")) else {
        return out;
    };
    for p in projects.flatten() {
        let Ok(chats) = std::fs::read_dir(p.path().join("chats")) else {
            continue;
        };
        out.extend(chats.flatten().map(|c| c.path()).filter(|c| {
            let name = c
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            name.starts_with("session-")
                && (name.ends_with(".jsonl") || name.ends_with(".json"))
                && c.is_file()
        }));
    }
    out.sort();
    out
}

#[derive(Default)]
struct State {
    s: Session,
    /// Tool calls already emitted (a message is rewritten as its calls finish).
    calls: HashSet<String>,
    /// Prompts already emitted, by message id.
    prompts: HashSet<String>,
}

/// One chat file: one session.
pub fn read(path: &Path, out: &mut dyn FnMut(Session)) -> Result<Skipped> {
    let mut st = State::default();
    st.s.cwd = project_root(path);
    let skipped = if path.extension().is_some_and(|x| x == "jsonl") {
        jsonl::for_each(path, &mut |v| {
            if !record(&v, &mut st) {
                st.s.skipped += 1;
            }
        })?
    } else {
        legacy(path, &mut st)?
    };
    let skipped = skipped + st.s.skipped;
    if !st.s.id.is_empty() && !st.s.events.is_empty() {
        out(st.s);
    }
    Ok(skipped)
}

/// `tmp/<project>/.project_root`, beside `chats/`.
fn project_root(chat: &Path) -> Option<String> {
    let dir = chat.parent()?.parent()?;
    let text = std::fs::read_to_string(dir.join(".project_root")).ok()?;
    Some(text.trim().to_string()).filter(|t| !t.is_empty())
}

/// A whole-document chat (before the JSONL format).
fn legacy(path: &Path, st: &mut State) -> Result<usize> {
    let size = std::fs::metadata(path).map_or(0, |m| m.len());
    if size > MAX_JSON {
        return Ok(1);
    }
    let file = std::fs::File::open(path).map_err(|e| Error::io("cannot open", path, e))?;
    let doc: Value = match serde_json::from_reader(std::io::BufReader::new(file)) {
        Ok(v) => v,
        Err(_) => return Ok(1),
    };
    if !record(&doc, st) {
        return Ok(1);
    }
    let mut skipped = 0;
    for m in doc["messages"].as_array().into_iter().flatten() {
        if !message(m, st) {
            skipped += 1;
        }
    }
    Ok(skipped)
}

/// A header, a message or an update; false when not understood.
fn record(v: &Value, st: &mut State) -> bool {
    if let Some(id) = v["sessionId"].as_str() {
        st.s.id = id.to_string();
        return true;
    }
    if v.get("$set").is_some() {
        // Updates of the header (`lastUpdated`) or the first messages, already read.
        for m in v["$set"]["messages"].as_array().into_iter().flatten() {
            message(m, st);
        }
        return true;
    }
    message(v, st)
}

fn message(m: &Value, st: &mut State) -> bool {
    let (Some(id), Some(at)) = (m["id"].as_str(), time_of(&m["timestamp"])) else {
        return false;
    };
    match m["type"].as_str().unwrap_or_default() {
        "user" => {
            let text: Vec<&str> = m["content"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|p| p["text"].as_str())
                .chain(m["content"].as_str())
                .filter(|t| !t.trim_start().starts_with("<session_context>"))
                .collect();
            if !text.is_empty() && st.prompts.insert(id.to_string()) {
                st.s.events.push(Event {
                    key: id.to_string(),
                    at_ms: at,
                    kind: Some(Kind::Prompt),
                    prompt: Some(text.join("\n")),
                    ..Event::default()
                });
            }
            true
        }
        "gemini" => {
            for call in m["toolCalls"].as_array().into_iter().flatten() {
                tool_call(call, at, st);
            }
            true
        }
        "info" | "error" | "warning" => true,
        _ => false,
    }
}

/// A finished tool call: its start (at the message) and its result.
fn tool_call(call: &Value, at: i64, st: &mut State) {
    let Some(id) = call["id"].as_str() else {
        st.s.skipped += 1;
        return;
    };
    if !st.calls.insert(id.to_string()) {
        return;
    }
    let mut pre = Event {
        key: id.to_string(),
        at_ms: at,
        kind: Some(Kind::PreTool),
        ..Event::default()
    };
    tool_use(
        call["name"].as_str().unwrap_or("tool"),
        &call["args"],
        &mut pre,
    );
    let mut post = pre.clone();
    post.key = format!("{id}:result");
    post.at_ms = time_of(&call["timestamp"]).unwrap_or(at);
    let output: String = call["result"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r["functionResponse"]["response"]["output"].as_str())
        .collect::<Vec<_>>()
        .join("\n");
    post.exit_code = exit_code_in(&output).filter(|_| post.command.is_some());
    let status = call["status"].as_str().unwrap_or_default();
    let failed = matches!(status, "error" | "cancelled") || post.exit_code.is_some_and(|c| c != 0);
    post.kind = Some(if failed {
        Kind::ToolFailed
    } else {
        Kind::PostTool
    });
    if status == "error" {
        post.error = Some(output.chars().take(500).collect());
    }
    st.s.events.push(pre);
    st.s.events.push(post);
}
