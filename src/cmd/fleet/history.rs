//! `ctxlake fleet history`: recent sessions and handoff notes.

use clap::Args;

use crate::cmd::{GlobalArgs, context, printed};
use crate::error::Result;
use crate::output::table;
use crate::tools::fleet::history::{HistoryInput, HistoryOutput, run as history};

/// Show recent sessions (outcome, files, commands, tests) and handoff notes, newest first
///
/// Example:
///   ctxlake fleet history --since 2d
///   ctxlake fleet history --repo github.com/acme/api --limit 10 --json
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct HistoryArgs {
    /// Only this repository (normalized remote, e.g. `github.com/acme/api`).
    #[arg(long)]
    pub repo: Option<String>,
    /// Only since: a date, an RFC 3339 time, or an age (`30m`, `2h`, `7d`).
    #[arg(long)]
    pub since: Option<String>,
    /// Rows per list (default 50, at most 200).
    #[arg(long)]
    pub limit: Option<u32>,
}

pub fn run(args: HistoryArgs, g: &GlobalArgs) -> Result<()> {
    let ctx = context(g)?;
    let out = history(
        &ctx,
        HistoryInput {
            fleet: None,
            repo: args.repo,
            since: args.since,
            limit: args.limit,
        },
    )?;
    if let (false, Some(n)) = (g.json, &out.note) {
        g.output().note(&format!("note: {n}"));
    }
    printed(g.output().emit(&out, render))
}

fn render(out: &HistoryOutput) -> String {
    let mut s = String::new();
    if !out.handoffs.is_empty() {
        let mut t = table(&["when", "agent", "status", "summary", "next"]);
        for h in &out.handoffs {
            t.add_row(vec![
                h.at.clone(),
                h.agent.clone(),
                h.status.to_string(),
                h.summary.clone(),
                h.next.clone().unwrap_or_default(),
            ]);
        }
        s.push_str(&format!("handoffs\n{t}\n"));
    }
    if !out.sessions.is_empty() {
        let mut t = table(&["started", "agent", "repo", "outcome", "files", "tests"]);
        for x in &out.sessions {
            // A session replayed from its runtime's transcript says so.
            let outcome = match x.imported {
                true => format!("{} (imported)", x.outcome),
                false => x.outcome.to_string(),
            };
            t.add_row(vec![
                x.started_at.clone(),
                x.agent.clone(),
                x.repo.clone().unwrap_or_default(),
                outcome,
                x.files_touched.len().to_string(),
                x.tests.join(", "),
            ]);
        }
        s.push_str(&format!("sessions\n{t}\n"));
    }
    if s.is_empty() {
        s.push_str("no sessions or handoffs\n");
    }
    if out.truncated {
        s.push_str("(more rows matched; raise --limit)\n");
    }
    s
}
