//! A transcript's session as the hook events it would have produced: session start (cwd,
//! repo, branch), prompts, tool uses with their paths and commands, outcomes, session
//! end. Each record goes through the hook's own capture (`hook::capture::replay`: the
//! write boundary), is marked `imported`, and gets an id derived from the runtime's own
//! session and message ids, so replaying it again mints the same ids.

use serde_json::{Map, Value, json};

use crate::ctx::Ctx;
use crate::history::import::{Event, Kind, Session};
use crate::hook::capture;
use crate::hook::payload::Kind as HookKind;
use crate::spool::Record;

/// What is kept of the session beyond metadata, paths, commands and outcomes.
#[derive(Debug, Clone, Copy)]
pub(super) struct Keep {
    pub prompts: bool,
}

/// The records for `s`'s events from index `from` on (a start first when `from` is 0,
/// an end last), `session` being the id the records carry.
pub(super) fn records(
    ctx: &Ctx,
    runtime: &str,
    session: &str,
    s: &Session,
    from: usize,
    keep: Keep,
) -> Vec<Record> {
    let (Some(first), Some(last)) = (s.first_ms(), s.last_ms()) else {
        return Vec::new();
    };
    let repo = s
        .cwd
        .as_deref()
        .and_then(|c| crate::repo::discover(std::path::Path::new(c)))
        .map(|r| r.id)
        .or_else(|| s.repo_root.clone());
    let mut common = Map::new();
    common.insert("imported".into(), json!(true));
    if let Some(r) = &repo {
        common.insert("repo".into(), json!(r));
    }
    let mut out = Vec::new();
    let mut push = |key: &str, at: i64, kind: HookKind, mut p: Map<String, Value>| {
        p.extend(common.clone());
        let id = record_id(runtime, &s.id, key, at);
        let ts = crate::time::format_ms(at);
        out.push(capture::replay(
            ctx,
            runtime,
            session,
            kind,
            Value::Object(p),
            id,
            ts,
        ));
    };
    if from == 0 {
        let mut p = Map::new();
        p.insert("event".into(), json!("SessionStart"));
        p.insert("source".into(), json!("import"));
        if let Some(c) = &s.cwd {
            p.insert("cwd".into(), json!(c));
        }
        if let Some(b) = &s.branch {
            p.insert("branch".into(), json!(b));
        }
        push("start", first, HookKind::SessionStart, p);
    }
    for e in s.events.iter().skip(from) {
        let (kind, p) = body(e, keep);
        push(&e.key, e.at_ms, kind, p);
    }
    if s.events.len() > from {
        let end = s.ended_ms.map_or(last, |t| t.max(last));
        let mut p = Map::new();
        p.insert("event".into(), json!("SessionEnd"));
        p.insert("source".into(), json!("import"));
        push(
            &format!("end:{}", s.events.len()),
            end,
            HookKind::SessionEnd,
            p,
        );
    }
    out
}

/// One event's hook kind and payload, with the capture's field names.
fn body(e: &Event, keep: Keep) -> (HookKind, Map<String, Value>) {
    let (kind, name) = match e.kind {
        Some(Kind::Prompt) => (HookKind::Prompt, "UserPromptSubmit"),
        Some(Kind::PreTool) => (HookKind::PreTool, "PreToolUse"),
        Some(Kind::PostTool) => (HookKind::PostTool, "PostToolUse"),
        Some(Kind::ToolFailed) => (HookKind::ToolFailed, "PostToolUseFailure"),
        None => (HookKind::Other, "Other"),
    };
    let mut p = Map::new();
    p.insert("event".into(), json!(name));
    if let Some(t) = &e.tool {
        p.insert("tool".into(), json!(t));
    }
    if !e.paths.is_empty() {
        p.insert("paths".into(), json!(e.paths));
    }
    if let Some(c) = &e.command {
        p.insert("command".into(), json!(c));
    }
    if let Some(text) = &e.prompt {
        // Prompt text is the one field that is the person's own words: kept only when
        // `[import] prompts = true`; otherwise only its length says a prompt was typed.
        match keep.prompts {
            true => p.insert("prompt".into(), json!(text)),
            false => p.insert("prompt_chars".into(), json!(text.chars().count())),
        };
    }
    if let Some(c) = e.exit_code {
        p.insert("exit_code".into(), json!(c));
    }
    if let Some(err) = &e.error {
        p.insert("error".into(), json!(err));
    }
    if matches!(kind, HookKind::PostTool | HookKind::ToolFailed) {
        let ok = kind == HookKind::PostTool && e.exit_code.is_none_or(|c| c == 0);
        p.insert("ok".into(), json!(ok));
    }
    (kind, p)
}

/// A ULID at the event's time whose random part comes from the runtime's own ids: the
/// same transcript event always gets the same record id, on any host.
pub(super) fn record_id(runtime: &str, session: &str, key: &str, at_ms: i64) -> String {
    let d = crate::digest::sha256_hex(
        format!("ctxlake import\0{runtime}\0{session}\0{key}").as_bytes(),
    );
    let rand = u128::from_str_radix(&d[..20], 16).unwrap_or(0);
    crate::ulid::encode(at_ms.max(0) as u64, rand)
}
