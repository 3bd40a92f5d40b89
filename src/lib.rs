//! ctxlake: a zero-server coordination layer for fleets of coding agents.
//! `tools` holds the implementations; `cmd` (CLI) and `mcp` (MCP server) are thin adapters.

pub mod cmd;
pub mod config;
pub mod error;
pub mod fsutil;
pub mod install;
pub mod output;
pub mod paths;
pub mod scope;
pub mod time;
pub mod ulid;
