//! ctxlake: a zero-server coordination layer for fleets of coding agents.
//! `tools` holds the implementations; `cmd` (CLI) and `mcp` (MCP server) are thin adapters.

pub mod cache;
pub mod clean;
pub mod cmd;
pub mod config;
pub mod ctx;
pub mod digest;
pub mod error;
pub mod fleet;
pub mod fsutil;
pub mod hook;
pub mod install;
pub mod lake;
pub mod mcp;
pub mod memory;
pub mod output;
pub mod paths;
pub mod redact;
pub mod repo;
pub mod rules;
pub mod sanitize;
pub mod scope;
pub mod scrub;
pub mod snapshot;
mod spelled;
pub mod spool;
pub mod time;
pub mod tools;
pub mod ulid;
