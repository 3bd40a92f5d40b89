//! `ctxlake maint`: run the promotion gate and publish memory snapshots.

use clap::Args;

use super::{GlobalArgs, printed};
use crate::error::Result;
use crate::services::maint;
use crate::tools::Ctx;

/// Fold claim events, run the promotion gate and publish each fleet's snapshot
///
/// Safe to run on several hosts at once: publishing creates the next numbered
/// manifest only if absent, and an unchanged state publishes nothing. Run
/// `ctxlake sync` afterwards (or let `sync --watch` do it) to mirror the result.
///
/// Example:
///   ctxlake sync && ctxlake maint && ctxlake sync
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct MaintArgs {
    /// Only this fleet (default: every fleet in the lake this host serves, as `sync` mirrors)
    #[arg(long = "only", value_name = "FLEET")]
    pub only: Option<String>,
}

pub fn run(args: MaintArgs, g: &GlobalArgs) -> Result<()> {
    let ctx = Ctx::load(&g.scope_flags())?;
    let store = crate::services::open::configured(&ctx)?;
    // A bar only for a fold worth watching (a first one reads every event object).
    let bar = super::progress::Bar::items(g, "folding claim events");
    let out = maint::run_observed(&ctx, store.as_ref(), args.only, &mut |done, total| {
        if total > 1000 {
            bar.set(done, total)
        }
    });
    bar.finish();
    let out = out?;
    if !g.json {
        for r in &out.fleets {
            if let Some(n) = &r.note {
                g.output().note(&format!("note: fleet `{}`: {n}", r.fleet));
            }
        }
    }
    printed(g.output().emit(&out, |o| {
        if o.fleets.is_empty() {
            return "no fleets in the lake yet: nothing to do\n".into();
        }
        o.fleets
            .iter()
            .map(|r| {
                format!(
                    "fleet {}: {} events → {} claims ({} promoted, {} contested); snapshot {} {}\n",
                    r.fleet,
                    r.events,
                    r.claims,
                    r.promoted,
                    r.contested,
                    r.snapshot_id.as_deref().unwrap_or("-"),
                    r.outcome
                )
            })
            .collect()
    }))
}
