//! Reading the session transcripts that runtimes already keep on disk, one module per
//! runtime, into neutral [`Session`]s: what a hook would have reported (prompts, tool
//! uses with the paths they touched, their outcomes) with the runtime's own ids and
//! times. Readers stream (a line, a row at a time) and skip-and-count what they do not
//! understand; they never fail a whole transcript on one odd record.

pub mod claude;
pub mod codex;
pub mod gemini;
pub mod hermes;
mod jsonl;
pub mod opencode;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::error::{Error, Result};

/// The runtimes whose transcripts are read, named as their hooks name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Source {
    ClaudeCode,
    Codex,
    Gemini,
    Opencode,
    Hermes,
}

impl Source {
    pub const ALL: [Source; 5] = [
        Source::ClaudeCode,
        Source::Codex,
        Source::Gemini,
        Source::Opencode,
        Source::Hermes,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Source::ClaudeCode => "claude-code",
            Source::Codex => "codex",
            Source::Gemini => "gemini",
            Source::Opencode => "opencode",
            Source::Hermes => "hermes",
        }
    }

    pub fn parse(s: &str) -> Option<Source> {
        Source::ALL
            .into_iter()
            .find(|r| r.as_str() == s || (s == "claude" && *r == Source::ClaudeCode))
    }

    /// The transcript files (or databases) under the runtime's data directory `root`.
    pub fn units(self, root: &Path) -> Vec<PathBuf> {
        match self {
            Source::ClaudeCode => claude::units(root),
            Source::Codex => codex::units(root),
            Source::Gemini => gemini::units(root),
            Source::Opencode => opencode::units(root),
            Source::Hermes => hermes::units(root),
        }
    }

    /// Read one unit, handing each session to `out`; what was skipped, counted.
    pub fn read(self, unit: &Path, out: &mut dyn FnMut(Session)) -> Result<Skipped> {
        match self {
            Source::ClaudeCode => claude::read(unit, out),
            Source::Codex => codex::read(unit, out),
            Source::Gemini => gemini::read(unit, out),
            Source::Opencode => opencode::read(unit, out),
            Source::Hermes => hermes::read(unit, out),
        }
    }
}

/// Lines, rows or records a reader did not understand.
pub type Skipped = usize;

/// The error code of a transcript that could not be read: the import lists it beside
/// the file and goes on with the next.
pub(crate) const TRANSCRIPT: &str = "transcript_unreadable";

/// A failed query on a runtime's database, as `what` with SQLite's reason as the cause.
pub(crate) fn unreadable(what: &'static str) -> impl Fn(rusqlite::Error) -> Error {
    move |e| Error::storage(TRANSCRIPT, what).source(e)
}

/// What happened, in the hook capture's vocabulary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Prompt,
    PreTool,
    PostTool,
    ToolFailed,
}

/// One event of a transcript.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Event {
    /// Unique within its session and stable across reads: built from the runtime's own
    /// message or call id, so importing again mints the same record id.
    pub key: String,
    pub at_ms: i64,
    pub kind: Option<Kind>,
    pub tool: Option<String>,
    pub paths: Vec<String>,
    pub command: Option<String>,
    pub prompt: Option<String>,
    pub exit_code: Option<i64>,
    pub error: Option<String>,
}

/// One session of a runtime, as its transcript tells it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Session {
    /// The runtime's own session id (what its hooks report as `session_id`).
    pub id: String,
    pub cwd: Option<String>,
    pub branch: Option<String>,
    /// A repository root the runtime recorded itself (Hermes), when the cwd may be gone.
    pub repo_root: Option<String>,
    /// In transcript order.
    pub events: Vec<Event>,
    /// When the runtime says the session ended (else: its last event).
    pub ended_ms: Option<i64>,
    /// Records of this session the reader did not understand.
    pub skipped: usize,
}

impl Session {
    pub fn first_ms(&self) -> Option<i64> {
        self.events.iter().map(|e| e.at_ms).min()
    }
    pub fn last_ms(&self) -> Option<i64> {
        self.events.iter().map(|e| e.at_ms).max()
    }
}

/// Tools that change files, by each runtime's name for them (lowercase).
const WRITERS: &[&str] = &[
    "edit",
    "multiedit",
    "write",
    "notebookedit",
    "apply_patch",
    "write_file",
    "replace",
    "patch",
    "delete_file",
    "create_file",
    "edit_file",
];
/// Tools that run a shell command.
const SHELLS: &[&str] = &[
    "bash",
    "shell",
    "terminal",
    "run_shell_command",
    "exec_command",
    "local_shell",
];
const PATH_KEYS: &[&str] = &[
    "file_path",
    "path",
    "notebook_path",
    "filePath",
    "absolute_path",
];

/// A tool call's name, the paths it writes and its command, from its input object.
pub(crate) fn tool_use(name: &str, input: &Value, e: &mut Event) {
    e.tool = Some(name.to_string());
    let lower = name.to_ascii_lowercase();
    if WRITERS.contains(&lower.as_str()) {
        for k in PATH_KEYS {
            if let Some(p) = input.get(*k).and_then(Value::as_str) {
                push_unique(&mut e.paths, p);
            }
        }
        for k in ["input", "patch", "command"] {
            if let Some(text) = input.get(k).and_then(Value::as_str) {
                for p in patch_paths(text) {
                    push_unique(&mut e.paths, p);
                }
            }
        }
    } else if SHELLS.contains(&lower.as_str()) {
        e.command = match input.get("command").or_else(|| input.get("cmd")) {
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
}

pub(crate) fn push_unique(v: &mut Vec<String>, s: &str) {
    if !s.trim().is_empty() && !v.iter().any(|x| x == s) {
        v.push(s.to_string());
    }
}

/// Files named by a V4A patch (Codex `apply_patch`, Hermes `patch`).
pub fn patch_paths(patch: &str) -> Vec<&str> {
    patch
        .lines()
        .filter_map(|l| {
            let l = l.trim_end();
            [
                "*** Update File: ",
                "*** Add File: ",
                "*** Delete File: ",
                "*** Move to: ",
            ]
            .iter()
            .find_map(|p| l.strip_prefix(p))
        })
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect()
}

/// `Exit code 1` / `Exit Code: 101` / `exited with code 2` in a tool's output.
pub(crate) fn exit_code_in(text: &str) -> Option<i64> {
    let lower = text.to_ascii_lowercase();
    let at = ["exit code", "exited with code"]
        .iter()
        .find_map(|k| lower.find(k).map(|i| i + k.len()))?;
    let rest = lower.get(at..)?.trim_start_matches([':', ' ']);
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '-'))
        .unwrap_or(rest.len());
    rest.get(..end)?.parse().ok()
}

/// An RFC 3339 time, or `None` (the record is then skipped and counted).
pub(crate) fn time_of(v: &Value) -> Option<i64> {
    v.as_str().and_then(crate::time::parse_rfc3339)
}
