//! `ctxlake memory timeline SUBJECT`: what the fleet did about a subject, in order.

use clap::Args;

use crate::cmd::{GlobalArgs, context, printed};
use crate::error::Result;
use crate::output::table;
use crate::tools::memory::timeline::{TimelineInput, TimelineOutput, run as timeline};

/// Show what the fleet proposed, promoted, contested and handed off about a subject
///
/// Example:
///   ctxlake memory timeline ci --since 7d
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct TimelineArgs {
    /// The subject, as claims name it.
    pub subject: String,
    /// Only since: a date, an RFC 3339 time, or an age (`30m`, `2h`, `7d`).
    #[arg(long)]
    pub since: Option<String>,
    /// Rows (default 50, at most 200).
    #[arg(long)]
    pub limit: Option<u32>,
}

pub fn run(args: TimelineArgs, g: &GlobalArgs) -> Result<()> {
    let ctx = context(g)?;
    let subject = args.subject.clone();
    let out = timeline(
        &ctx,
        TimelineInput {
            fleet: None,
            subject: args.subject,
            since: args.since,
            limit: args.limit,
        },
    )?;
    if let (false, Some(n)) = (g.json, &out.note) {
        g.output().note(&format!("note: {n}"));
    }
    printed(g.output().emit(&out, |o| render(o, &subject)))
}

fn render(out: &TimelineOutput, subject: &str) -> String {
    if out.entries.is_empty() {
        return format!("nothing recorded about `{subject}`\n");
    }
    let mut t = table(&["when", "what", "agent", "text"]);
    for e in &out.entries {
        t.add_row(vec![
            e.at.clone(),
            e.kind.clone(),
            e.agent.clone(),
            e.text.clone(),
        ]);
    }
    let more = if out.truncated {
        "(more entries; raise --limit)\n"
    } else {
        ""
    };
    format!("{t}\n{more}")
}
