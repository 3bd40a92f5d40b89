//! Capture: one redacted, sanitized spool record per hook event, appended without fsync
//! (DESIGN §3: a crash may lose the last few hook events; an fsync would blow the 5 ms
//! budget). Over the spool cap the event is dropped and counted, never an error.

use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::Path;

use serde_json::{Value, json};

use super::payload::{Event, Kind, Runtime};
use crate::ctx::Ctx;
use crate::error::Result;
use crate::paths::Paths;
use crate::scrub::scrub;
use crate::spool::{self, Landed, Record, RecordKind, Wait};

/// Longest string kept in a captured event (prompts, commands, errors).
pub const FIELD_CHARS: usize = 2000;

/// The spool record for `event`, its payload through the write boundary ([`scrub`]).
pub fn record(ctx: &Ctx, runtime: Runtime, session: &str, event: &Event) -> Record {
    let payload = serde_json::to_value(event).unwrap_or(Value::Null);
    let (id, ts) = (crate::ulid::new(), ctx.now_rfc3339());
    seal(ctx, runtime.as_str(), session, event.kind, payload, id, ts)
}

/// A replayed event (`ctxlake import`): the same boundary as a live one, with the id and
/// time the transcript gives. `runtime` may be one without hooks (opencode).
pub fn replay(
    ctx: &Ctx,
    runtime: &str,
    session: &str,
    kind: Kind,
    payload: Value,
    id: String,
    ts: String,
) -> Record {
    seal(ctx, runtime, session, Some(kind), payload, id, ts)
}

fn seal(
    ctx: &Ctx,
    runtime: &str,
    session: &str,
    kind: Option<Kind>,
    mut payload: Value,
    id: String,
    ts: String,
) -> Record {
    if let Value::Object(m) = &mut payload {
        m.insert("runtime".into(), json!(runtime));
    }
    scrub(&mut payload, FIELD_CHARS);
    Record {
        id,
        ts,
        fleet: ctx.scope.fleet.clone(),
        agent: ctx.scope.agent.clone(),
        session: session.to_string(),
        kind: record_kind(kind),
        payload,
    }
}

/// The spool kind of a hook event (`hook_<event kind>` on disk).
fn record_kind(kind: Option<Kind>) -> RecordKind {
    match kind {
        Some(Kind::SessionStart) => RecordKind::HookSessionStart,
        Some(Kind::Prompt) => RecordKind::HookPrompt,
        Some(Kind::PreTool) => RecordKind::HookPreTool,
        Some(Kind::PostTool) => RecordKind::HookPostTool,
        Some(Kind::ToolFailed) => RecordKind::HookToolFailed,
        Some(Kind::Stop) => RecordKind::HookStop,
        Some(Kind::SessionEnd) => RecordKind::HookSessionEnd,
        Some(Kind::Other) | None => RecordKind::HookOther,
    }
}

/// What became of a captured event.
#[derive(Debug, PartialEq, Eq)]
pub enum Captured {
    Live,
    /// The session's spool file was locked past [`spool::QUICK_WAIT`]: the record went
    /// to this overflow segment, which `sync` drains like any other spool file.
    Overflow(std::path::PathBuf),
    /// Dropped and counted: the spool is full.
    Dropped,
}

/// Append `rec` to `spool/hooks/<runtime>/<session>.ndjson` without ever waiting long
/// for its lock.
pub fn append(ctx: &Ctx, runtime: Runtime, rec: &Record) -> Result<Captured> {
    let path = ctx.paths.spool_hook(runtime.as_str(), &rec.session);
    let limits = crate::spool::Limits::of(&ctx.config);
    match spool::append(&path, rec, limits, false, Wait::Overflow(spool::QUICK_WAIT)) {
        Ok(Landed::Live) => Ok(Captured::Live),
        Ok(Landed::Overflow(seg)) => Ok(Captured::Overflow(seg)),
        Err(e) if e.code == "spool_full" => {
            count_drop(&ctx.paths);
            Ok(Captured::Dropped)
        }
        Err(e) => Err(e),
    }
}

/// Bump the dropped-events counter. Best effort and unlocked: two hooks racing may
/// lose one increment, which is acceptable for a counter that only says "some were lost".
fn count_drop(paths: &Paths) {
    let dir = paths.state();
    let file = paths.hook_dropped();
    let n: u64 = std::fs::read_to_string(&file)
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0);
    let _ = std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&dir);
    let _ = std::fs::write(&file, format!("{}\n", n + 1));
}

/// Append one line to `logs/hook-<date>.log`; the only place a hook's trouble goes.
pub fn log(paths: &Paths, line: &str) {
    let dir = paths.logs();
    let _ = std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&dir);
    let now = crate::time::now_ms();
    let file = dir.join(format!("hook-{}.log", crate::time::date_of(now)));
    let text = format!(
        "{} {}\n",
        crate::time::format_ms(now),
        crate::sanitize::clean(&line.replace('\n', " "), FIELD_CHARS)
    );
    let _ = open_append(&file).and_then(|mut f| f.write_all(text.as_bytes()));
}

fn open_append(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .mode(0o600)
        .open(path)
}
