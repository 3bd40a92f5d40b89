//! `ctxlake lake copy FROM TO`: move a lake between stores (for example a local lake
//! into a bucket when a fleet grows past one machine).

use clap::{Args, Subcommand};

use super::{GlobalArgs, printed};
use crate::error::Result;
use crate::lake::{self, copy::CopyReport};

/// Manage the lake itself.
#[derive(Debug, Subcommand)]
pub enum LakeCmd {
    Copy(CopyArgs),
}

/// Copy every object of one lake into another, skipping what is already there
///
/// Idempotent and resumable: the destination is probed, then listed, and only missing
/// objects are created (create-if-absent). Objects present in both with different
/// sizes are left alone and named. Stop the fleet's `sync` daemons before you switch
/// `store` to the destination.
///
/// Example:
///   ctxlake lake copy file:///home/me/.ctxlake/lake s3://team-lake/ctxlake
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct CopyArgs {
    /// The lake to read (`file:///path`, `s3://bucket/prefix` or `az://container/prefix`).
    #[arg(value_name = "FROM")]
    pub from: String,
    /// The lake to write (`file:///path`, `s3://bucket/prefix` or `az://container/prefix`).
    #[arg(value_name = "TO")]
    pub to: String,
}

pub fn run(cmd: LakeCmd, g: &GlobalArgs) -> Result<()> {
    let LakeCmd::Copy(a) = cmd;
    let ctx = super::context(g)?;
    let from = crate::services::open::url(&ctx.config, &a.from)?;
    let to = crate::services::open::url(&ctx.config, &a.to)?;
    crate::services::health::probe(&ctx.paths, to.as_ref())?;
    let bar = super::progress::Bar::items(g, "copying objects");
    let out = lake::copy::copy(from.as_ref(), to.as_ref(), &mut |done, total| {
        bar.set(done as u64, total as u64)
    });
    bar.finish();
    let out = out?;
    printed(g.output().emit(&out, render))
}

fn render(r: &CopyReport) -> String {
    let mut s = format!(
        "copied {} of {} object(s) from {} to {} ({} already there)\n",
        r.copied, r.objects, r.from, r.to, r.already_present
    );
    for k in &r.differing {
        s.push_str(&format!("differs, left alone: {k}\n"));
    }
    s
}
