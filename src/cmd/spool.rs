//! `ctxlake spool check`: validate every spool line and report what a reader would skip.

use clap::{Args, Subcommand};
use serde::Serialize;

use super::{GlobalArgs, printed};
use crate::error::Result;
use crate::output::table;
use crate::paths::Paths;

/// Inspect the local write queue.
#[derive(Debug, Subcommand)]
pub enum SpoolCmd {
    Check(CheckArgs),
}

/// Validate every spool file: intact records, torn lines skipped, resynced records
///
/// Example:
///   ctxlake spool check
///   ctxlake spool check --json | jq '.total_records'
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct CheckArgs {}

#[derive(Debug, Serialize)]
pub struct CheckOutput {
    pub spool: String,
    pub files: Vec<FileReport>,
    pub total_records: usize,
    pub total_skipped_bytes: u64,
}

#[derive(Debug, Serialize)]
pub struct FileReport {
    pub path: String,
    pub bytes: u64,
    pub records: usize,
    pub resynced: usize,
    pub bad_lines: usize,
    pub skipped_bytes: u64,
    pub partial_tail_bytes: u64,
}

pub fn run(cmd: SpoolCmd, g: &GlobalArgs) -> Result<()> {
    let SpoolCmd::Check(_) = cmd;
    let paths = Paths::from_env()?;
    let mut out = CheckOutput {
        spool: paths.spool.display().to_string(),
        files: vec![],
        total_records: 0,
        total_skipped_bytes: 0,
    };
    for f in crate::spool::list_files(&paths.spool) {
        let s = crate::spool::read_file(&f, 0)?;
        out.total_records += s.records.len();
        out.total_skipped_bytes += s.skipped_bytes;
        out.files.push(FileReport {
            path: f
                .strip_prefix(&paths.spool)
                .unwrap_or(&f)
                .display()
                .to_string(),
            bytes: std::fs::metadata(&f).map(|m| m.len()).unwrap_or(0),
            records: s.records.len(),
            resynced: s.resynced,
            bad_lines: s.bad_lines,
            skipped_bytes: s.skipped_bytes,
            partial_tail_bytes: s.partial_tail_bytes,
        });
    }
    printed(g.output().emit(&out, |o| {
        let mut t = table(&[
            "file",
            "records",
            "resynced",
            "bad lines",
            "skipped bytes",
            "partial tail",
        ]);
        for f in &o.files {
            t.add_row(vec![
                f.path.clone(),
                f.records.to_string(),
                f.resynced.to_string(),
                f.bad_lines.to_string(),
                f.skipped_bytes.to_string(),
                f.partial_tail_bytes.to_string(),
            ]);
        }
        format!(
            "{t}\n{} intact records, {} bytes skipped\n",
            o.total_records, o.total_skipped_bytes
        )
    }))
}
