//! `ctxlake maint`: run the promotion gate and publish memory snapshots.

use clap::Args;
use serde::Serialize;

use super::{GlobalArgs, printed};
use crate::error::{Error, Result};
use crate::lake::{self, maint::MaintReport};
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
    /// Only this fleet (default: every fleet in the lake).
    #[arg(long = "only", value_name = "FLEET")]
    pub only: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct MaintOutput {
    pub store: String,
    pub fleets: Vec<MaintReport>,
}

pub fn run(args: MaintArgs, g: &GlobalArgs) -> Result<()> {
    let ctx = Ctx::load(&g.scope_flags())?;
    let store = lake::open(&ctx.paths, &ctx.config)?;
    lake::health::probe(&ctx.paths, store.as_ref())?;
    let fleets = match args.only {
        Some(f) => {
            crate::scope::validate_id("fleet", &f)?;
            vec![f]
        }
        None => lake::fleets(store.as_ref())?,
    };
    let writer = format!("{}-{}", ctx.scope.agent, crate::ulid::new());
    let mut out = MaintOutput {
        store: store.url(),
        fleets: Vec::new(),
    };
    for f in fleets {
        let r = lake::maint::maint(&ctx.paths, &ctx.config, store.as_ref(), &f, &writer).map_err(
            |e| Error {
                message: format!("fleet `{f}`: {}", e.message),
                ..e
            },
        )?;
        if let (false, Some(n)) = (g.json, &r.note) {
            g.output().note(&format!("note: fleet `{f}`: {n}"));
        }
        out.fleets.push(r);
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
