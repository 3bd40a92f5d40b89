//! The write path every write tool shares: the arguments pass the write boundary
//! ([`crate::scrub`]), then one durable record goes to the fleet's spool. The answer says
//! "queued", never "granted", and names every field the bound cut.

use serde::Serialize;
use serde_json::Value;

use super::Ctx;
use crate::error::Result;
use crate::scrub::{Cut, scrub};
use crate::spool::{self, Record, RecordKind};

/// Where a write stands when its tool answers: queued for sync, never granted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum QueuedStatus {
    Queued,
}

/// What every write tool returns. The structured answer is only what the caller cannot
/// know already: the record id, and what the write boundary changed (left out when
/// nothing). The fleet and scope it was written as stay out of it (tools/list's token
/// budget, `tests/cli/mcp/tokens.rs`, pays for every field four times) but not out of the
/// CLI's text.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Queued {
    /// Always `queued`.
    // The published schema stays a plain string: a one-value `enum` there pushed
    // tools/list over its token budget.
    #[schemars(with = "String")]
    pub status: QueuedStatus,
    /// The spool record id (a ULID).
    pub id: String,
    /// What happened, for a human or a model: queued, not granted, and each cut's lengths.
    pub message: String,
    /// Secrets replaced by `[REDACTED:<rule>]` before the write (absent: none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub redacted: usize,
    /// Fields longer than the bound, cut with a visible `…[truncated]` marker (absent:
    /// everything was kept whole). Their lengths are in `message`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub truncated: Vec<String>,
    /// The fleet, agent and session it was written as, for the CLI's text.
    #[serde(skip)]
    pub fleet: String,
    #[serde(skip)]
    pub agent: String,
    /// Each cut in full, for the CLI's text.
    #[serde(skip)]
    pub cuts: Vec<Cut>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The answer's `message`: the queued note, then one sentence per cut field.
fn message(cuts: &[Cut]) -> String {
    let mut m = crate::rules::QUEUED.to_string();
    for c in cuts {
        m.push_str(&format!(
            "; `{}` was cut from {} to {} characters",
            c.field, c.chars, c.kept
        ));
    }
    m
}

/// A new spool record from this caller, stamped now.
pub fn record(ctx: &Ctx, fleet: &str, kind: RecordKind, payload: Value) -> Record {
    Record {
        id: crate::ulid::new(),
        ts: ctx.now_rfc3339(),
        fleet: fleet.to_string(),
        agent: ctx.scope.agent.clone(),
        session: ctx.scope.session.clone(),
        kind,
        payload,
    }
}

/// Pass `payload` through the write boundary and durably spool it (unless the caller's
/// token is read-only: every write tool comes through here, so none can skip that check).
pub fn write(ctx: &Ctx, fleet: &str, kind: RecordKind, mut payload: Value) -> Result<Queued> {
    ctx.check_write(kind.as_str())?;
    let scrubbed = scrub(&mut payload, crate::rules::MAX_TEXT_CHARS);
    let rec = record(ctx, fleet, kind, payload);
    let wait = spool::Wait::Fail(ctx.config.lock_wait());
    spool::append(
        &ctx.paths.spool_mcp(fleet),
        &rec,
        crate::spool::Limits::of(&ctx.config),
        true,
        wait,
    )?;
    Ok(Queued {
        status: QueuedStatus::Queued,
        id: rec.id,
        message: message(&scrubbed.cut),
        redacted: scrubbed.redacted,
        truncated: scrubbed.cut.iter().map(|c| c.field.clone()).collect(),
        fleet: rec.fleet,
        agent: rec.agent,
        cuts: scrubbed.cut,
    })
}
