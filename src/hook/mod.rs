//! `ctxlake hook <runtime>`: read a runtime's hook payload, capture it to the spool, and
//! answer with a briefing (session start) or a collision warning (before an edit).
//! Hot path (DESIGN §2): cache and spool only, never the lake; never fails the agent's turn.

pub mod briefing;
pub mod capture;
pub mod collision;
pub mod emit;
pub mod payload;
#[cfg(test)]
mod props;
pub mod watchdog;

use std::io::Read;
use std::path::PathBuf;

use serde_json::Value;

use crate::config::Config;
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::paths::{Paths, env, var};
use crate::scope::{Scope, ScopeFlags};
use emit::Reply;
use payload::{Event, Kind};

pub use payload::Runtime;

/// Larger payloads are refused unread (and logged): parsing and scrubbing them would
/// cost far more than the hook's budget, and no runtime sends them for the events we use.
pub const MAX_STDIN: u64 = 4 << 20;

/// Run one hook over `input`; returns what to print on stdout (often nothing).
/// Never fails: any trouble becomes one line in `logs/hook-<date>.log`.
pub fn run(
    runtime: Runtime,
    event_arg: Option<&str>,
    flags: &ScopeFlags,
    input: &mut dyn Read,
) -> String {
    // Without a home there is nowhere to log either; the turn goes on regardless.
    let Ok(paths) = Paths::from_env() else {
        return String::new();
    };
    let mut notes = Vec::new();
    let out = handle(&paths, runtime, event_arg, flags, input, &mut notes);
    let out = match out {
        Ok(text) => text,
        Err(e) => {
            notes.push(e.one_line());
            String::new()
        }
    };
    for n in notes {
        capture::log(&paths, &format!("{} {n}", runtime.as_str()));
    }
    out
}

fn handle(
    paths: &Paths,
    runtime: Runtime,
    event_arg: Option<&str>,
    flags: &ScopeFlags,
    input: &mut dyn Read,
    notes: &mut Vec<String>,
) -> Result<String> {
    let bytes = read_capped(input)?;
    let value: Value = serde_json::from_slice(&bytes).map_err(|e| {
        Error::refused(
            "hook_payload",
            format!("malformed payload ({} bytes)", bytes.len()),
        )
        .source(e)
    })?;
    if !value.is_object() {
        return Err(Error::refused(
            "hook_payload",
            "malformed payload: not a JSON object",
        ));
    }
    let event = payload::normalize(&value, event_arg);
    let session = event
        .session
        .clone()
        .or_else(|| var(env::SESSION_ID))
        .map(|s| crate::scope::session_id(&s))
        .unwrap_or_else(|| "unknown".into());
    let ctx = context(paths, flags, &event, &session, notes);
    watchdog::stage(watchdog::Stage::Capturing);
    let rec = capture::record(&ctx, runtime, &session, &event);
    match capture::append(&ctx, runtime, &rec) {
        Ok(capture::Captured::Live) => {}
        Ok(capture::Captured::Overflow(seg)) => notes.push(format!(
            "{}: the spool file was locked, captured in `{}` instead",
            event.event,
            seg.display()
        )),
        Ok(capture::Captured::Dropped) => {
            notes.push(format!("{} dropped: the hook spool is full", event.event))
        }
        Err(e) => notes.push(format!("{} not captured: {}", event.event, e.one_line())),
    }
    watchdog::stage(watchdog::Stage::Answering);
    Ok(respond(&ctx, runtime, &event, notes))
}

/// Read all of stdin up to [`MAX_STDIN`]; drain the rest so the runtime's write never
/// fails on a closed pipe.
fn read_capped(input: &mut dyn Read) -> Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(8192);
    input
        .take(MAX_STDIN + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::storage("hook_payload", "cannot read the payload").source(e))?;
    if bytes.len() as u64 > MAX_STDIN {
        let _ = std::io::copy(input, &mut std::io::sink());
        return Err(Error::refused(
            "hook_payload",
            format!("payload over {} MiB ignored", MAX_STDIN >> 20),
        ));
    }
    Ok(bytes)
}

/// Paths, config and scope as every tool sees them. A broken config or a bad id in the
/// environment must not cost the capture: fall back to defaults and log why.
fn context(
    paths: &Paths,
    flags: &ScopeFlags,
    event: &Event,
    session: &str,
    notes: &mut Vec<String>,
) -> Ctx {
    let config = Config::load_file(&paths.config_file()).unwrap_or_else(|e| {
        notes.push(format!("config ignored: {}", e.one_line()));
        Config::default()
    });
    let mut scope = Scope::resolve(flags, &config).unwrap_or_else(|e| {
        notes.push(format!("scope defaulted: {}", e.one_line()));
        Scope {
            fleet: crate::config::DEFAULT_FLEET.into(),
            agent: crate::scope::default_agent(),
            session: String::new(),
        }
    });
    scope.session = session.to_string();
    let cwd = event
        .cwd
        .as_ref()
        .map(PathBuf::from)
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("."));
    Ctx {
        paths: paths.clone(),
        config,
        scope,
        pinned_fleet: None,
        grant: Default::default(),
        cwd,
        clock: crate::ctx::Clock::System,
        trace: crate::ctx::Trace::default(),
    }
}

/// The briefing at session start (Hermes: its first `pre_llm_call`, the only hook whose
/// context it injects), a collision verdict before a write, nothing otherwise.
fn respond(ctx: &Ctx, runtime: Runtime, event: &Event, notes: &mut Vec<String>) -> String {
    let kind = event.kind.unwrap_or(Kind::Other);
    let first_hermes_turn =
        runtime == Runtime::Hermes && kind == Kind::Prompt && event.first_turn == Some(true);
    let reply = match kind {
        Kind::SessionStart => Some(Reply::Context(briefing(ctx, notes))),
        Kind::Prompt if first_hermes_turn => Some(Reply::Context(briefing(ctx, notes))),
        Kind::PreTool => collision::verdict(ctx, &event.paths, &ctx.cwd).map(|v| match v {
            collision::Verdict::Warn(t) => Reply::Warn(t),
            collision::Verdict::Block(t) => Reply::Block(t),
        }),
        _ => None,
    };
    let Some(reply) = reply else {
        return String::new();
    };
    let mut out = emit::render(runtime, echo_name(runtime, kind, &event.event), &reply);
    out.push('\n');
    out
}

fn briefing(ctx: &Ctx, notes: &mut Vec<String>) -> String {
    let repo = crate::repo::discover(&ctx.cwd).map(|r| r.id);
    briefing::build(ctx, repo.as_deref(), notes)
}

/// The event name a runtime expects echoed back (its canonical name when the event
/// came from the command line as `session-start` and the like).
fn echo_name(runtime: Runtime, kind: Kind, received: &str) -> &str {
    match (runtime, kind) {
        (Runtime::ClaudeCode | Runtime::Codex, Kind::SessionStart) => "SessionStart",
        (Runtime::ClaudeCode | Runtime::Codex, Kind::PreTool) => "PreToolUse",
        (Runtime::Gemini, Kind::SessionStart) => "SessionStart",
        (Runtime::Gemini, Kind::PreTool) => "BeforeTool",
        _ => received,
    }
}
