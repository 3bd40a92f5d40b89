//! `fleet_handoff`: leave a note for whoever picks this work up next.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use crate::error::{Error, Result};
use crate::tools::queue::{self, Queued};
use crate::tools::{Ctx, Tool, invoke, schema_of};
pub use crate::vocab::HandoffStatus;

pub const TOOL: Tool = Tool {
    name: "fleet_handoff",
    description: "Leave a note for whoever picks up this work next; it shows in fleet_history and in every session-start briefing.",
    read_only: false,
    input_schema: schema_of::<HandoffInput>,
    output_schema: schema_of::<Queued>,
    peer_fields: &[],
    call: |ctx, args| invoke(ctx, args, run),
};

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HandoffInput {
    #[serde(default)]
    pub fleet: Option<String>,
    /// What was done and where it stands.
    pub summary: String,
    /// Where the work stands.
    pub status: HandoffStatus,
    /// What the next agent should do.
    #[serde(default)]
    pub next: Option<String>,
}

pub fn run(ctx: &Ctx, input: HandoffInput) -> Result<Queued> {
    let fleet = ctx.fleet(input.fleet.as_deref())?;
    if input.summary.trim().is_empty() {
        return Err(
            Error::refused("summary_missing", "a handoff needs a summary")
                .hint("say what was done and where it stands"),
        );
    }
    let repo = crate::repo::discover(&ctx.cwd).map(|r| r.id);
    let payload = json!({
        "summary": input.summary,
        "status": input.status.as_str(),
        "next": input.next,
        "repo": repo,
    });
    queue::write(ctx, &fleet, crate::spool::RecordKind::FleetHandoff, payload)
}
