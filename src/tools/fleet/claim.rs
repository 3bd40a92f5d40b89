//! `fleet_claim`: queue an advisory lease request on repo-relative paths.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use crate::error::{Error, Result};
use crate::rules;
use crate::tools::queue::{self, Queued};
use crate::tools::{Ctx, Tool, invoke, schema_of};

pub const TOOL: Tool = Tool {
    name: "fleet_claim",
    description: "Claim an advisory lease on paths you are about to edit, so other agents see you there. You hold it once fleet_status shows you as holder; claim again to renew.",
    read_only: false,
    input_schema: schema_of::<ClaimInput>,
    output_schema: schema_of::<Queued>,
    peer_fields: &[],
    call: |ctx, args| invoke(ctx, args, run),
};

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClaimInput {
    #[serde(default)]
    pub fleet: Option<String>,
    /// Files, directories (covering what is below) or globs, relative or absolute.
    pub paths: Vec<String>,
    /// What you will do there.
    pub reason: String,
    /// Seconds (default 1800, 5 to 604800).
    #[serde(default)]
    pub ttl_secs: Option<u64>,
}

pub fn run(ctx: &Ctx, input: ClaimInput) -> Result<Queued> {
    let fleet = ctx.fleet(input.fleet.as_deref())?;
    if input.reason.trim().is_empty() {
        return Err(Error::refused("reason_missing", "a claim needs a reason")
            .hint("say what you are about to do, e.g. `--reason \"refactor login\"`"));
    }
    let ttl = input.ttl_secs.unwrap_or(rules::DEFAULT_TTL_SECS);
    if !(rules::MIN_TTL_SECS..=rules::MAX_TTL_SECS).contains(&ttl) {
        return Err(
            Error::refused("ttl_out_of_range", format!("ttl of {ttl}s is out of range")).hint(
                format!(
                    "use {} to {} seconds",
                    rules::MIN_TTL_SECS,
                    rules::MAX_TTL_SECS
                ),
            ),
        );
    }
    let (repo, paths) = normalize_paths(ctx, &input.paths)?;
    let payload = json!({ "repo": repo, "paths": paths, "reason": input.reason, "ttl_secs": ttl });
    queue::write(ctx, &fleet, crate::spool::RecordKind::FleetClaim, payload)
}

/// Make paths repo-relative (shared with release); refuses empty lists and escapes.
pub fn normalize_paths(ctx: &Ctx, paths: &[String]) -> Result<(String, Vec<String>)> {
    if paths.is_empty() {
        return Err(Error::refused("paths_missing", "no paths given")
            .hint("name at least one file, directory or glob"));
    }
    if paths.len() > rules::MAX_PATHS {
        return Err(
            Error::refused("too_many_paths", format!("{} paths given", paths.len())).hint(format!(
                "claim at most {} paths; claim a directory to cover many files",
                rules::MAX_PATHS
            )),
        );
    }
    let repo = crate::repo::discover(&ctx.cwd);
    let mut out = Vec::new();
    for p in paths {
        let rel = crate::repo::relative_path(p, &ctx.cwd, repo.as_ref())?;
        if !out.contains(&rel) {
            out.push(rel);
        }
    }
    Ok((repo.map(|r| r.id).unwrap_or_default(), out))
}
