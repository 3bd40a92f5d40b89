//! Claude Code: `~/.claude/projects/<cwd-slug>/<session>.jsonl` (`$CLAUDE_CONFIG_DIR`),
//! one JSON object a line. Checked against `claude` 2.1.332: `user` lines carry the prompt
//! (a string) or `tool_result` blocks (`is_error`, `Exit code N`), `assistant` lines carry
//! `tool_use` blocks (`id`, `name`, `input`); every conversational line has `sessionId`,
//! `cwd`, `gitBranch`, `timestamp` and `uuid`. Bookkeeping lines are passed over.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{Event, Kind, Session, Skipped, exit_code_in, jsonl, time_of, tool_use};
use crate::error::Result;

/// Line types that hold nothing a history needs (seen in 2.1.332 transcripts).
const PASSED_OVER: &[&str] = &[
    "queue-operation",
    "attachment",
    "last-prompt",
    "atis-latch",
    "tools-used",
    "cost-state",
    "api-request",
    "api-request-shape",
    "api-request-blob",
    "summary",
    "system",
    "file-history-snapshot",
    "custom-title",
    "progress",
];

/// Every `projects/*/*.jsonl` under the Claude config directory `root`.
pub fn units(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(dirs) = std::fs::read_dir(root.join("projects")) else {
        return out;
    };
    for d in dirs.flatten().filter(|d| d.path().is_dir()) {
        let Ok(files) = std::fs::read_dir(d.path()) else {
            continue;
        };
        out.extend(
            files
                .flatten()
                .map(|f| f.path())
                .filter(|p| p.extension().is_some_and(|x| x == "jsonl") && p.is_file()),
        );
    }
    out.sort();
    out
}

/// One transcript file: one session.
pub fn read(path: &Path, out: &mut dyn FnMut(Session)) -> Result<Skipped> {
    let mut s = Session::default();
    // A tool_result names only its tool_use's id: what that call was, by id.
    let mut calls: HashMap<String, Event> = HashMap::new();
    let mut skipped = jsonl::for_each(path, &mut |v| {
        if !line(&v, &mut s, &mut calls) {
            s.skipped += 1;
        }
    })?;
    skipped += s.skipped;
    if s.id.is_empty() {
        s.id = path
            .file_stem()
            .map(|x| x.to_string_lossy().into_owned())
            .unwrap_or_default();
    }
    if !s.events.is_empty() {
        out(s);
    }
    Ok(skipped)
}

/// Apply one line; false when it was not understood.
fn line(v: &Value, s: &mut Session, calls: &mut HashMap<String, Event>) -> bool {
    let kind = v["type"].as_str().unwrap_or_default();
    if kind != "user" && kind != "assistant" {
        return PASSED_OVER.contains(&kind);
    }
    let Some(at) = time_of(&v["timestamp"]) else {
        return false;
    };
    if s.id.is_empty()
        && let Some(id) = v["sessionId"].as_str()
    {
        s.id = id.to_string();
    }
    if let Some(cwd) = v["cwd"].as_str() {
        s.cwd.get_or_insert_with(|| cwd.to_string());
    }
    if let Some(b) = v["gitBranch"].as_str().filter(|b| !b.is_empty()) {
        s.branch = Some(b.to_string());
    }
    let uuid = v["uuid"].as_str().unwrap_or_default();
    let content = &v["message"]["content"];
    if kind == "user" {
        user(v, content, uuid, at, s, calls)
    } else {
        for block in content.as_array().into_iter().flatten() {
            if block["type"] == "tool_use" {
                let id = block["id"].as_str().unwrap_or(uuid);
                let mut e = Event {
                    key: id.to_string(),
                    at_ms: at,
                    kind: Some(Kind::PreTool),
                    ..Event::default()
                };
                tool_use(
                    block["name"].as_str().unwrap_or("tool"),
                    &block["input"],
                    &mut e,
                );
                calls.insert(id.to_string(), e.clone());
                s.events.push(e);
            }
        }
        true
    }
}

fn user(
    v: &Value,
    content: &Value,
    uuid: &str,
    at: i64,
    s: &mut Session,
    calls: &mut HashMap<String, Event>,
) -> bool {
    if let Some(text) = content.as_str() {
        // Meta lines (a slash command's expansion, a caveat) are not the person typing.
        if v["isMeta"].as_bool() != Some(true) {
            s.events.push(prompt(uuid, at, text));
        }
        return true;
    }
    let Some(blocks) = content.as_array() else {
        return false;
    };
    for b in blocks {
        match b["type"].as_str() {
            Some("text") if v["isMeta"].as_bool() != Some(true) => {
                let text = b["text"].as_str().unwrap_or_default();
                s.events.push(prompt(uuid, at, text));
            }
            Some("tool_result") => {
                let id = b["tool_use_id"].as_str().unwrap_or_default();
                let text = result_text(&b["content"]);
                let failed = b["is_error"].as_bool() == Some(true);
                let mut e = calls.get(id).cloned().unwrap_or_default();
                e.key = format!("{id}:result");
                e.at_ms = at;
                e.kind = Some(if failed {
                    Kind::ToolFailed
                } else {
                    Kind::PostTool
                });
                e.exit_code = exit_code_in(&text).or(if failed { None } else { Some(0) });
                e.exit_code = e.exit_code.filter(|_| e.command.is_some());
                e.error = failed.then(|| text.chars().take(500).collect());
                s.events.push(e);
            }
            _ => {}
        }
    }
    true
}

fn prompt(uuid: &str, at: i64, text: &str) -> Event {
    Event {
        key: uuid.to_string(),
        at_ms: at,
        kind: Some(Kind::Prompt),
        prompt: Some(text.to_string()),
        ..Event::default()
    }
}

/// A tool_result's content: a string, or text blocks.
fn result_text(c: &Value) -> String {
    match c {
        Value::String(s) => s.clone(),
        Value::Array(a) => a
            .iter()
            .filter_map(|b| b["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}
