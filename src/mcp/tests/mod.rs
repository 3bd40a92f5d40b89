//! One test per row of the conformance table, driven through `serve` with in-memory
//! buffers: what goes in, exactly which frames come out. Shared helpers live here.

use std::path::Path;

use serde_json::{Value, json};

mod calls;
mod eras;
mod framing;
mod props;

pub use super::jsonrpc::*;
use super::serve;
use crate::config::Config;
use crate::paths::Paths;
use crate::scope::Scope;
use crate::tools::Ctx;

pub fn ctx(dir: &Path, pinned: Option<&str>) -> Ctx {
    Ctx {
        paths: Paths::with_overrides(dir.to_path_buf(), None, None),
        config: Config::default(),
        scope: Scope {
            fleet: "team".into(),
            agent: "a1".into(),
            session: "mcp-test".into(),
        },
        pinned_fleet: pinned.map(String::from),
        grant: Default::default(),
        cwd: dir.to_path_buf(),
        clock: crate::ctx::Clock::System,
        trace: crate::ctx::Trace::default(),
    }
}

/// Run one connection; every output line must be one JSON value.
pub fn run_with(ctx: &Ctx, lines: &[String]) -> Vec<Value> {
    let input = lines.join("\n");
    let mut out = Vec::new();
    serve(ctx, input.as_bytes(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

pub fn run(lines: &[String]) -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    run_with(&ctx(dir.path(), None), lines)
}

pub fn init(version: &str) -> String {
    json!({"jsonrpc": "2.0", "id": "init", "method": "initialize",
        "params": {"protocolVersion": version, "capabilities": {},
                   "clientInfo": {"name": "t", "version": "1"}}})
    .to_string()
}

pub fn req(id: i64, method: &str, params: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

pub fn call(id: i64, tool: &str, args: Value) -> String {
    req(id, "tools/call", json!({"name": tool, "arguments": args}))
}

pub fn code(frame: &Value) -> i64 {
    frame["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("not an error: {frame}"))
}

pub fn s(x: &str) -> String {
    x.to_string()
}
