//! `install --list`: every runtime, detected or not, installed or not, and its files.

use std::path::PathBuf;

use serde::Serialize;

use super::plan::{read, resolve};
use super::runtimes::{ALL, EntryOpts, Runtime, detect, is_ours, targets};
use super::{Installer, edit};

#[derive(Debug, Clone, Serialize)]
pub struct RuntimeStatus {
    pub runtime: Runtime,
    pub detected: bool,
    pub reason: String,
    /// The MCP entry is in the runtime's file.
    pub installed: bool,
    pub files: Vec<FileStatus>,
    /// Why there are no files (e.g. no project scope), when there are none.
    pub note: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct FileStatus {
    pub path: PathBuf,
    pub exists: bool,
    /// Holds ctxlake's MCP entry (None: this file is for hooks only).
    pub mcp: Option<bool>,
    /// How many hook entries of ours it holds.
    pub hooks: usize,
    pub error: Option<String>,
}

pub fn list(inst: &Installer, o: &EntryOpts) -> Vec<RuntimeStatus> {
    let ours = |c: &str| is_ours(c, &o.exe);
    ALL.iter()
        .map(|&rt| {
            let d = detect(rt, &inst.env);
            let (files, note) = match targets(rt, &inst.env, o) {
                Ok(ts) => (
                    ts.iter().map(|t| file_status(t, &ours)).collect::<Vec<_>>(),
                    None,
                ),
                Err(e) => (Vec::new(), Some(e.message)),
            };
            let installed = files.iter().any(|f| f.mcp == Some(true));
            RuntimeStatus {
                runtime: rt,
                detected: d.detected,
                reason: d.reason,
                installed,
                files,
                note,
            }
        })
        .collect()
}

fn file_status(t: &super::runtimes::Target, ours: &dyn Fn(&str) -> bool) -> FileStatus {
    let mut s = FileStatus {
        path: t.path.clone(),
        exists: false,
        mcp: t.mcp.as_ref().map(|_| false),
        hooks: 0,
        error: None,
    };
    let text = match resolve(&t.path).and_then(|p| read(&p)) {
        Ok(Some(text)) => text,
        Ok(None) => return s,
        Err(e) => {
            s.exists = true;
            s.error = Some(e.message);
            return s;
        }
    };
    s.exists = true;
    let status = super::validate::parse(t.format, &text)
        .map_err(edit::Problem::Syntax)
        .and_then(|_| edit::status(t, &text, ours));
    match status {
        Ok((mcp, hooks)) => {
            s.mcp = t.mcp.as_ref().map(|_| mcp);
            s.hooks = hooks;
        }
        Err(edit::Problem::Parse(e) | edit::Problem::Syntax(e)) => {
            s.error = Some(format!(
                "line {}, column {}: {}",
                e.line, e.column, e.message
            ))
        }
        Err(edit::Problem::Shape(m)) => s.error = Some(m.to_string()),
    }
    s
}
