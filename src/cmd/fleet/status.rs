//! `ctxlake fleet status`: active agents and lease standings as a table or JSON.

use clap::Args;

use crate::cmd::{GlobalArgs, context, printed};
use crate::error::Result;
use crate::output::table;
use crate::tools::fleet::status::{StatusInput, StatusOutput, run as status};

/// Show active agents, their tasks and every lease's standing (held or contended)
///
/// Reads the local cache that `ctxlake sync` keeps; the header says how old it is.
/// Leases are advisory: a contended path is a reason to talk, not a lock.
///
/// Example:
///   ctxlake fleet status
///   ctxlake fleet status --fleet payments --json | jq '.agents[].agent'
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct StatusArgs {}

pub fn run(_args: StatusArgs, g: &GlobalArgs) -> Result<()> {
    let ctx = context(g)?;
    let out = status(&ctx, StatusInput { fleet: None })?;
    let o = g.output();
    if let (false, Some(n)) = (g.json, &out.note) {
        o.note(&format!("note: {n}"));
    }
    printed(o.emit(&out, render))
}

const MAX_TABLE_ROWS: usize = 100;

fn render(out: &StatusOutput) -> String {
    let age = match (out.cache_age_secs, out.cache_problem) {
        (Some(s), _) => format!("cache {s}s old"),
        (None, Some(p)) => p.headline().into(),
        (None, None) => "cache age unknown".into(),
    };
    let mut s = format!(
        "fleet {} · {} · you are {} ({})\n",
        out.fleet, age, out.agent, out.session
    );
    if out.agents.is_empty() {
        s.push_str("no active agents\n");
        return s;
    }
    let mut t = table(&["agent", "task", "path", "state", "expires", "reason"]);
    // A terminal table of thousands of rows helps nobody (and lays out slowly); the rest
    // is one `--json` away.
    let mut rows = 0usize;
    let total: usize = out.agents.iter().map(|a| a.leases.len().max(1)).sum();
    for a in &out.agents {
        if rows >= MAX_TABLE_ROWS {
            break;
        }
        let who = if a.you {
            format!("{} (you)", a.agent)
        } else {
            a.agent.clone()
        };
        let task = a.task.clone().unwrap_or_default();
        if a.leases.is_empty() {
            t.add_row(vec![
                who.clone(),
                task.clone(),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
            ]);
            rows += 1;
        }
        for l in a.leases.iter().take(MAX_TABLE_ROWS.saturating_sub(rows)) {
            rows += 1;
            let state = match &l.holder {
                Some(h) => format!("contended (held by {h})"),
                None => l.state.to_string(),
            };
            let path = if l.path.is_empty() {
                "(whole repo)".into()
            } else {
                l.path.clone()
            };
            t.add_row(vec![
                who.clone(),
                task.clone(),
                path,
                state,
                l.expires_at.clone(),
                l.reason.clone(),
            ]);
        }
    }
    s.push_str(&t.to_string());
    s.push('\n');
    if total > rows {
        s.push_str(&format!(
            "… {} more row(s): `ctxlake fleet status --json` lists every lease\n",
            total - rows
        ));
    }
    if out.truncated {
        s.push_str("(more agents than shown)\n");
    }
    s.push_str(&out.advisory);
    s.push('\n');
    s
}
