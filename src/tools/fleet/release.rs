//! `fleet_release`: queue the release of some or all of this session's leases.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use crate::error::Result;
use crate::tools::queue::{self, Queued};
use crate::tools::{Ctx, Tool, invoke, schema_of};

pub const TOOL: Tool = Tool {
    name: "fleet_release",
    description: "Give up leases you claimed, so the next claimant becomes holder.",
    read_only: false,
    input_schema: schema_of::<ReleaseInput>,
    output_schema: schema_of::<Queued>,
    peer_fields: &[],
    call: |ctx, args| invoke(ctx, args, run),
};

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReleaseInput {
    #[serde(default)]
    pub fleet: Option<String>,
    /// Omit for all this session holds.
    #[serde(default)]
    pub paths: Option<Vec<String>>,
}

pub fn run(ctx: &Ctx, input: ReleaseInput) -> Result<Queued> {
    let fleet = ctx.fleet(input.fleet.as_deref())?;
    let payload = match input.paths.filter(|p| !p.is_empty()) {
        None => json!({ "all": true }),
        Some(paths) => {
            let (repo, paths) = super::claim::normalize_paths(ctx, &paths)?;
            json!({ "all": false, "repo": repo, "paths": paths })
        }
    };
    queue::write(ctx, &fleet, crate::spool::RecordKind::FleetRelease, payload)
}
