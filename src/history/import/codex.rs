//! Codex: `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl` (`$CODEX_HOME`), one JSON object
//! a line, `{timestamp, type, payload}`. Checked against `codex` 0.171: `session_meta`
//! (the thread id, cwd, optionally `git.branch`), `turn_context` (cwd), `response_item`
//! (user `message`s; `function_call`, `custom_tool_call`, `local_shell_call` and their
//! `*_output`s, matched by `call_id`), `event_msg` (`exec_command_end` with the exit code,
//! `patch_apply_end` with the files changed).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{Event, Kind, Session, Skipped, exit_code_in, jsonl, push_unique, time_of, tool_use};
use crate::error::Result;

/// Line types with nothing a history needs.
const PASSED_OVER: &[&str] = &["world_state", "compacted"];

/// Texts Codex puts in user messages itself (context, not the person typing).
const INJECTED: &[&str] = &[
    "<environment_context>",
    "<user_instructions>",
    "<permissions",
    "<skills_instructions>",
    "<multi_agent",
    "<turn_aborted>",
    "# AGENTS.md",
];

/// Every `sessions/**/rollout-*.jsonl` under the Codex home `root`.
pub fn units(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.join("sessions")];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            match e.file_type() {
                Ok(t) if t.is_dir() => stack.push(p),
                Ok(t)
                    if t.is_file() && name.starts_with("rollout-") && name.ends_with(".jsonl") =>
                {
                    out.push(p)
                }
                _ => {}
            }
        }
    }
    out.sort();
    out
}

/// What an `*_end` event says about a call: exit code, files changed, success.
type End = (Option<i64>, Vec<String>, Option<bool>);

#[derive(Default)]
struct State {
    s: Session,
    /// Each call's start, by `call_id`, for its output to name.
    calls: HashMap<String, Event>,
    /// Where each call's result landed in `s.events`, for a later `*_end` event to amend.
    results: HashMap<String, usize>,
    /// Exit codes and files from `event_msg`s that came before the output.
    ends: HashMap<String, End>,
    line: usize,
}

/// One rollout file: one session.
pub fn read(path: &Path, out: &mut dyn FnMut(Session)) -> Result<Skipped> {
    let mut st = State::default();
    let mut skipped = jsonl::for_each(path, &mut |v| {
        st.line += 1;
        if !line(&v, &mut st) {
            st.s.skipped += 1;
        }
    })?;
    skipped += st.s.skipped;
    if !st.s.id.is_empty() && !st.s.events.is_empty() {
        out(st.s);
    }
    Ok(skipped)
}

fn line(v: &Value, st: &mut State) -> bool {
    let p = &v["payload"];
    let Some(at) = time_of(&v["timestamp"]) else {
        return false;
    };
    match v["type"].as_str().unwrap_or_default() {
        "session_meta" => {
            st.s.id = p["id"].as_str().unwrap_or_default().to_string();
            st.s.cwd = p["cwd"].as_str().map(str::to_string);
            st.s.branch = p["git"]["branch"].as_str().map(str::to_string);
            !st.s.id.is_empty()
        }
        "turn_context" => {
            if let Some(cwd) = p["cwd"].as_str() {
                st.s.cwd = Some(cwd.to_string());
            }
            true
        }
        "response_item" => response_item(p, at, st),
        "event_msg" => {
            event_msg(p, st);
            true
        }
        other => PASSED_OVER.contains(&other),
    }
}

fn response_item(p: &Value, at: i64, st: &mut State) -> bool {
    let call_id = p["call_id"].as_str().unwrap_or_default().to_string();
    match p["type"].as_str().unwrap_or_default() {
        "message" if p["role"] == "user" => {
            let text: Vec<&str> = p["content"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|c| c["text"].as_str())
                .filter(|t| !INJECTED.iter().any(|i| t.trim_start().starts_with(i)))
                .collect();
            if !text.is_empty() {
                let key = p["id"]
                    .as_str()
                    .map_or_else(|| format!("line-{}", st.line), str::to_string);
                st.s.events.push(Event {
                    key,
                    at_ms: at,
                    kind: Some(Kind::Prompt),
                    prompt: Some(text.join("\n")),
                    ..Event::default()
                });
            }
            true
        }
        "function_call" | "custom_tool_call" | "local_shell_call" => {
            if call_id.is_empty() {
                return false;
            }
            let name = p["name"].as_str().unwrap_or("shell");
            let input = match (&p["arguments"], &p["input"], &p["action"]) {
                (Value::String(a), _, _) => serde_json::from_str(a).unwrap_or(Value::Null),
                (_, Value::String(patch), _) => serde_json::json!({ "input": patch }),
                (_, _, action) if action.is_object() => action.clone(),
                _ => Value::Null,
            };
            let mut e = Event {
                key: call_id.clone(),
                at_ms: at,
                kind: Some(Kind::PreTool),
                ..Event::default()
            };
            tool_use(name, &input, &mut e);
            st.calls.insert(call_id, e.clone());
            st.s.events.push(e);
            true
        }
        "function_call_output" | "custom_tool_call_output" | "local_shell_call_output" => {
            let Some(mut e) = st.calls.get(&call_id).cloned() else {
                return false;
            };
            let text = output_text(&p["output"]);
            e.key = format!("{call_id}:result");
            e.at_ms = at;
            e.kind = Some(Kind::PostTool);
            e.exit_code = output_exit(&text).or_else(|| exit_code_in(&text));
            let index = st.s.events.len();
            st.s.events.push(e);
            st.results.insert(call_id.clone(), index);
            if let Some(end) = st.ends.remove(&call_id) {
                amend(st, &call_id, end);
            }
            true
        }
        // Reasoning, assistant messages, tool lists, settings: nothing for a history.
        _ => true,
    }
}

/// `exec_command_end` / `patch_apply_end`: the authoritative exit code and files.
fn event_msg(p: &Value, st: &mut State) {
    let call_id = p["call_id"].as_str().unwrap_or_default().to_string();
    let end = match p["type"].as_str().unwrap_or_default() {
        "exec_command_end" => (p["exit_code"].as_i64(), Vec::new(), None),
        "patch_apply_end" => {
            let files = p["changes"]
                .as_object()
                .map(|m| m.keys().cloned().collect())
                .unwrap_or_default();
            (None, files, p["success"].as_bool())
        }
        _ => return,
    };
    if st.results.contains_key(&call_id) {
        amend(st, &call_id, end);
    } else {
        st.ends.insert(call_id, end);
    }
}

fn amend(st: &mut State, call_id: &str, (code, files, success): End) {
    let Some(e) = st
        .results
        .get(call_id)
        .and_then(|i| st.s.events.get_mut(*i))
    else {
        return;
    };
    if code.is_some() {
        e.exit_code = code;
    }
    // The patch named the files already (relative); the end event names them absolute.
    if e.paths.is_empty() {
        for f in &files {
            push_unique(&mut e.paths, f);
        }
    }
    let failed = e.exit_code.is_some_and(|c| c != 0) || success == Some(false);
    if failed {
        e.kind = Some(Kind::ToolFailed);
    }
}

/// An output is a string, sometimes itself JSON (`{"output": …, "metadata": {"exit_code": …}}`).
fn output_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Object(_) => v["content"]
            .as_str()
            .map_or_else(|| v.to_string(), str::to_string),
        _ => String::new(),
    }
}

fn output_exit(text: &str) -> Option<i64> {
    let v: Value = serde_json::from_str(text).ok()?;
    v["metadata"]["exit_code"].as_i64()
}
