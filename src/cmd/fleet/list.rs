//! `ctxlake fleet list`: the fleets this host knows, as a table or JSON.

use clap::Args;

use crate::cmd::{GlobalArgs, context, printed};
use crate::error::Result;
use crate::output::table;
use crate::tools::fleet::list::{ListOutput, run as list};

/// List the fleets this host is configured for, mirrors, or served over MCP
///
/// Each with its active agents (as of the last `ctxlake sync`) and last activity. The
/// same list is in `fleet_status` when an agent calls it without `fleet` on a server
/// that is not pinned to one fleet.
///
/// Example:
///   ctxlake fleet list
///   ctxlake fleet list --json | jq -r '.fleets[].fleet'
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct ListArgs {}

pub fn run(_args: ListArgs, g: &GlobalArgs) -> Result<()> {
    let ctx = context(g)?;
    printed(g.output().emit(&list(&ctx), render))
}

fn render(out: &ListOutput) -> String {
    if out.fleets.is_empty() {
        return "no fleets known on this host yet\n".into();
    }
    let mut t = table(&["fleet", "agents", "last activity", "known as"]);
    for f in &out.fleets {
        let how: Vec<&str> = [
            (f.configured, "configured"),
            (f.mirrored, "mirrored"),
            (f.served, "served"),
        ]
        .into_iter()
        .filter_map(|(on, s)| on.then_some(s))
        .collect();
        t.add_row(vec![
            f.fleet.clone(),
            f.agents.to_string(),
            f.last_activity.clone().unwrap_or_else(|| "—".into()),
            how.join(", "),
        ]);
    }
    format!("{t}\n")
}
