//! The write path every write tool shares: clean and scrub the arguments, then append
//! one durable record to the fleet's spool. The answer says "queued", never "granted".

use serde::Serialize;
use serde_json::Value;

use super::Ctx;
use crate::error::Result;
use crate::spool::{self, Limits, Record};

/// What every write tool returns.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Queued {
    /// Always `queued`.
    pub status: String,
    /// The spool record id (a ULID).
    pub id: String,
    pub fleet: String,
    pub agent: String,
    pub session: String,
    /// Secrets replaced by `[REDACTED:<rule>]` before the write.
    pub redacted: usize,
    pub message: String,
}

pub fn limits(ctx: &Ctx) -> Limits {
    Limits {
        max_dir_bytes: ctx.config.spool_max_bytes,
        rotate_bytes: ctx.config.spool_rotate_bytes,
    }
}

/// A new spool record from this caller, stamped now.
pub fn record(ctx: &Ctx, fleet: &str, kind: &str, payload: Value) -> Record {
    Record {
        id: crate::ulid::new(),
        ts: crate::time::now_rfc3339(),
        fleet: fleet.to_string(),
        agent: ctx.scope.agent.clone(),
        session: ctx.scope.session.clone(),
        kind: kind.to_string(),
        payload,
    }
}

/// Clean (invisible text), scrub (secrets, recursively), and durably spool `payload`.
pub fn write(ctx: &Ctx, fleet: &str, kind: &str, mut payload: Value) -> Result<Queued> {
    crate::sanitize::clean_value(&mut payload, super::rules::MAX_TEXT_CHARS);
    let redacted = crate::redact::Redactor::global().redact_value(&mut payload);
    let rec = record(ctx, fleet, kind, payload);
    let wait = spool::Wait::Fail(ctx.config.lock_wait());
    spool::append(&ctx.paths.spool_mcp(fleet), &rec, limits(ctx), true, wait)?;
    Ok(Queued {
        status: "queued".into(),
        id: rec.id,
        fleet: rec.fleet,
        agent: rec.agent,
        session: rec.session,
        redacted,
        message: super::rules::QUEUED.into(),
    })
}
