//! `ctxlake memory search QUERY`: promoted claims with attribution.

use clap::Args;

use crate::cmd::{GlobalArgs, context, printed};
use crate::error::Result;
use crate::tools::memory::search::{SearchInput, SearchOutput, run as search};
use crate::vocab::{ClaimScope, ClaimType};

/// Search the fleet's promoted claims (lexical FTS5 and vector similarity, fused)
///
/// Every hit is a peer observation with its attribution: id, date, how many
/// independent sessions back it, confidence, and its marks: CONTESTED when disputed,
/// "probably outdated by" a newer claim, a pending replacement, "unconfirmed for N days".
/// Claims a newer one replaced are left out unless `--include-superseded`.
///
/// Example:
///   ctxlake memory search "flaky integration test"
///   ctxlake memory search postgres --subject db --type environment -k 5 --json
///   ctxlake memory search "which Node version did CI use" --include-superseded
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct SearchArgs {
    /// What to look for.
    pub query: String,
    /// Only claims about this subject.
    #[arg(long)]
    pub subject: Option<String>,
    /// Only claims of this type.
    #[arg(long = "type", value_enum, value_name = "TYPE")]
    pub claim_type: Option<ClaimType>,
    /// Only claims of this scope.
    #[arg(long, value_enum)]
    pub scope: Option<ClaimScope>,
    /// How many results (default 10, at most 200).
    #[arg(short)]
    pub k: Option<u32>,
    /// Also claims newer ones replaced (for history questions).
    #[arg(long)]
    pub include_superseded: bool,
}

pub fn run(args: SearchArgs, g: &GlobalArgs) -> Result<()> {
    let ctx = context(g)?;
    let input = SearchInput {
        fleet: None,
        query: args.query,
        scope: args.scope,
        subject: args.subject,
        claim_type: args.claim_type,
        k: args.k,
        include_superseded: args.include_superseded,
    };
    let out = search(&ctx, input)?;
    if let (false, Some(n)) = (g.json, &out.note) {
        g.output().note(&format!("note: {n}"));
    }
    printed(g.output().emit(&out, render))
}

fn render(out: &SearchOutput) -> String {
    if out.results.is_empty() {
        return "no matching claims\n".into();
    }
    let mut s = format!("{}\n\n", out.heading);
    for h in &out.results {
        s.push_str(&h.rendered);
        s.push_str("\n\n");
    }
    if out.truncated {
        s.push_str("(more claims matched; raise -k)\n");
    }
    s
}
