//! A runtime's hook payload → one normalized [`Event`]. Field names come from payloads
//! captured from the real runtimes (`tests/fixtures/hooks/`), not only from their docs.

use serde::Serialize;
use serde_json::Value;

/// The runtimes that call `ctxlake hook`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Runtime {
    ClaudeCode,
    Codex,
    Cursor,
    Gemini,
    Hermes,
}

impl Runtime {
    pub fn as_str(self) -> &'static str {
        match self {
            Runtime::ClaudeCode => "claude-code",
            Runtime::Codex => "codex",
            Runtime::Cursor => "cursor",
            Runtime::Gemini => "gemini",
            Runtime::Hermes => "hermes",
        }
    }
}

/// What happened, across every runtime's event vocabulary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    SessionStart,
    Prompt,
    PreTool,
    PostTool,
    ToolFailed,
    Stop,
    SessionEnd,
    Other,
}

/// One hook event, reduced to what the fleet needs. Bulky fields (file contents, tool
/// output) are never kept: they cost redaction time and belong to the transcript.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Event {
    pub kind: Option<Kind>,
    /// The runtime's own event name, as received.
    pub event: String,
    #[serde(skip)]
    pub session: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// Files a writing tool is about to change (or changed), as the runtime names them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ok: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Why the session started or ended (`startup`, `resume`, `exit`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Hermes `pre_llm_call`: the first turn of a session (where its briefing goes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_turn: Option<bool>,
}

/// Map any runtime's event name (or the CLI's `session-start` style) to a [`Kind`].
pub fn kind_of(name: &str) -> Kind {
    let n: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    match n
        .strip_prefix("on")
        .filter(|r| r.starts_with("session"))
        .unwrap_or(&n)
    {
        "sessionstart" => Kind::SessionStart,
        "userpromptsubmit" | "beforeagent" | "beforesubmitprompt" | "prellmcall" | "prompt" => {
            Kind::Prompt
        }
        "pretooluse"
        | "beforetool"
        | "beforeshellexecution"
        | "beforemcpexecution"
        | "pretoolcall"
        | "pretool"
        | "preshell"
        | "premcp" => Kind::PreTool,
        "posttooluse"
        | "aftertool"
        | "aftershellexecution"
        | "aftermcpexecution"
        | "afterfileedit"
        | "posttoolcall"
        | "posttool"
        | "afteredit" => Kind::PostTool,
        "posttoolusefailure" | "toolfailed" => Kind::ToolFailed,
        "stop" | "afteragent" | "subagentstop" => Kind::Stop,
        "sessionend" | "sessionfinalize" => Kind::SessionEnd,
        _ => Kind::Other,
    }
}

/// Tools that write files, by every runtime's name for them (lowercased).
const WRITERS: &[&str] = &[
    "edit",
    "multiedit",
    "write",
    "notebookedit",
    "apply_patch",
    "write_file",
    "replace",
    "patch",
    "delete",
    "delete_file",
    "create_file",
    "edit_file",
    "search_replace",
    "str_replace_editor",
];
const SHELLS: &[&str] = &[
    "bash",
    "shell",
    "terminal",
    "run_shell_command",
    "exec_command",
    "local_shell",
];
pub(crate) const PATH_KEYS: &[&str] = &[
    "file_path",
    "path",
    "notebook_path",
    "filePath",
    "target_file",
    "absolute_path",
];

/// Normalize `p` (the parsed stdin). `event_arg` names the event when the payload does not.
pub fn normalize(p: &Value, event_arg: Option<&str>) -> Event {
    let s = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    let extra = p.get("extra").unwrap_or(&Value::Null);
    let event = s(p, "hook_event_name")
        .or_else(|| event_arg.map(str::to_string))
        .unwrap_or_default();
    let kind = kind_of(&event);
    let mut e = Event {
        kind: Some(kind),
        session: ["session_id", "conversation_id", "sessionId"]
            .iter()
            .find_map(|k| s(p, k))
            .filter(|x| !x.is_empty()),
        cwd: s(p, "cwd").or_else(|| {
            p.get("workspace_roots")
                .and_then(|r| r.get(0))
                .and_then(Value::as_str)
                .map(str::to_string)
        }),
        tool: s(p, "tool_name"),
        prompt: s(p, "prompt").or_else(|| s(extra, "user_message")),
        source: s(p, "source").or_else(|| s(p, "reason")),
        first_turn: extra.get("is_first_turn").and_then(Value::as_bool),
        duration_ms: ["duration_ms", "duration"]
            .iter()
            .find_map(|k| p.get(*k).or_else(|| extra.get(*k)))
            .and_then(Value::as_f64)
            .map(|d| d.max(0.0) as u64),
        event,
        ..Event::default()
    };
    tool_fields(p, &mut e);
    outcome(p, extra, kind, &mut e);
    e
}

/// Paths and command of a tool call.
fn tool_fields(p: &Value, e: &mut Event) {
    // Cursor's MCP hooks pass tool_input as a JSON string.
    let parsed;
    let mut input = p.get("tool_input").unwrap_or(&Value::Null);
    if let Some(text) = input.as_str() {
        parsed = serde_json::from_str::<Value>(text).unwrap_or(Value::Null);
        input = &parsed;
    }
    let tool = e.tool.as_deref().map(str::to_ascii_lowercase);
    let name = tool.as_deref().unwrap_or("");
    if WRITERS.contains(&name) || e.event == "afterFileEdit" {
        for v in [input, p] {
            for k in PATH_KEYS {
                if let Some(path) = v.get(*k).and_then(Value::as_str) {
                    push_unique(&mut e.paths, path);
                }
            }
            if !e.paths.is_empty() {
                break;
            }
        }
        // Codex `apply_patch` carries the patch as `command`; Hermes `patch` as `patch`.
        for k in ["command", "patch", "input"] {
            if let Some(text) = input.get(k).and_then(Value::as_str) {
                for path in patch_paths(text) {
                    push_unique(&mut e.paths, path);
                }
            }
        }
    } else if SHELLS.contains(&name) {
        e.command = match input.get("command") {
            Some(Value::String(c)) => Some(c.clone()),
            Some(Value::Array(a)) => Some(
                a.iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            _ => None,
        };
    }
    if e.command.is_none() && e.tool.is_none() {
        // Cursor's shell events name the command at the top level.
        e.command = p.get("command").and_then(Value::as_str).map(str::to_string);
        if e.command.is_some() {
            e.tool = Some("shell".into());
        }
    }
}

// One reading of V4A patches and one de-duplication for live hooks and imported
// transcripts alike.
pub use crate::history::import::patch_paths;
use crate::history::import::push_unique;

/// Exit code, success and error of a finished tool call, where the runtime says.
fn outcome(p: &Value, extra: &Value, kind: Kind, e: &mut Event) {
    let resp = p.get("tool_response").unwrap_or(&Value::Null);
    let code_keys = ["exit_code", "exitCode", "returncode", "exit_status"];
    e.exit_code = [resp, p, extra]
        .iter()
        .flat_map(|v| code_keys.iter().map(move |k| v.get(*k)))
        .find_map(|v| v.and_then(Value::as_i64));
    let err_text = p
        .get("error")
        .or_else(|| resp.get("error"))
        .or_else(|| extra.get("error_message"))
        .and_then(Value::as_str)
        .filter(|t| !t.is_empty());
    if e.exit_code.is_none() {
        // Claude: `"error":"Exit code 1\n…"`; Gemini: `llmContent` with `Exit Code: 101`.
        let texts = [err_text, resp.get("llmContent").and_then(Value::as_str)];
        e.exit_code = texts.iter().flatten().find_map(|t| exit_code_in(t));
    }
    e.error = err_text.map(|t| t.chars().take(500).collect());
    let failed_status = extra.get("status").and_then(Value::as_str) == Some("error");
    if matches!(kind, Kind::PostTool | Kind::ToolFailed) {
        e.ok = Some(
            kind != Kind::ToolFailed
                && !failed_status
                && e.error.is_none()
                && e.exit_code.is_none_or(|c| c == 0),
        );
    }
}

fn exit_code_in(text: &str) -> Option<i64> {
    let lower = text.to_ascii_lowercase();
    let at = lower.find("exit code")? + "exit code".len();
    let rest = lower.get(at..)?.trim_start_matches([':', ' ']);
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '-'))
        .unwrap_or(rest.len());
    rest.get(..end)?.parse().ok()
}

#[cfg(test)]
#[path = "payload_tests.rs"]
mod tests;
