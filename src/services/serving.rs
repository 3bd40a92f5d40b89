//! Which fleets this host serves: mirrors in `sync` and folds in `maint`. A fleet marker
//! in the lake is not enough, since anyone who can write the lake can plant thousands
//! (each cost every host five listings per `sync` and a fold per `maint`). A host serves
//! its configured fleet (`--fleet`, `CTXLAKE_FLEET_ID` or `config.toml`), the fleets its
//! own agents wrote to (`fleet::used`, and its own rosters), the fleets its HTTP tokens
//! are limited to, and the fleets its MCP server answered calls in lately. Every other
//! fleet in the lake is only named: counted, with a short sample.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::ctx::Ctx;

/// Names an unserved-fleets report carries at most: a flood of markers must not flood
/// the output or `state/store.json`.
pub const SAMPLE: usize = 5;

/// Every fleet this host serves.
pub fn fleets(ctx: &Ctx) -> BTreeSet<String> {
    let mut out = local(ctx);
    // Both halves keep only valid fleet ids already.
    out.extend(crate::tools::fleet::list::served(ctx).into_keys());
    out
}

/// [`fleets`] without those its MCP server answered calls in (for a caller that reads the
/// call log itself, as `fleet list` does).
pub fn local(ctx: &Ctx) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    out.insert(ctx.scope.fleet.clone());
    out.extend(ctx.config.fleet.iter().cloned());
    out.extend(crate::fleet::used::read(&ctx.paths));
    out.extend(own_rosters(ctx));
    // A token limited to fleets names them; an unlimited one (the owner's) names none:
    // its calls show in the call log once it uses a fleet.
    if let Ok(Some(tokens)) = crate::auth::Store::load(&ctx.paths.mcp_tokens()) {
        out.extend(tokens.tokens.into_iter().flat_map(|t| t.fleets));
    }
    out.retain(|f| crate::scope::validate_id("fleet", f).is_ok());
    out
}

/// Fleets this host kept its own roster of (`state/roster/<fleet>.own.json`).
fn own_rosters(ctx: &Ctx) -> Vec<String> {
    std::fs::read_dir(ctx.paths.roster_dir())
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".own.json").map(str::to_string))
        .collect()
}

/// The lake's fleets this host does not serve: how many, and the first few by name.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Unserved {
    pub count: usize,
    pub sample: Vec<String>,
}

impl Unserved {
    /// Of `in_lake`, those not in `served`.
    pub fn of(in_lake: &[String], served: &BTreeSet<String>) -> Unserved {
        let mut rest: Vec<&String> = in_lake.iter().filter(|f| !served.contains(*f)).collect();
        rest.sort();
        Unserved {
            count: rest.len(),
            sample: rest.into_iter().take(SAMPLE).cloned().collect(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unserved_fleets_are_counted_with_a_bounded_sample() {
        let lake: Vec<String> = (0..300)
            .map(|i| format!("fake{i:03}"))
            .chain(["mine".into()])
            .collect();
        let served: BTreeSet<String> = ["mine".to_string(), "elsewhere".to_string()].into();
        let u = Unserved::of(&lake, &served);
        assert_eq!(u.count, 300);
        assert_eq!(
            u.sample,
            ["fake000", "fake001", "fake002", "fake003", "fake004"]
        );
        assert!(Unserved::of(&["mine".to_string()], &served).is_empty());
    }
}
