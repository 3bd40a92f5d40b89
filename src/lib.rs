//! ctxlake: a zero-server coordination layer for fleets of coding agents.
//! `tools` holds the implementations; `cmd` (CLI) and `mcp` (MCP server) are thin adapters.

pub(crate) mod addr;
pub(crate) mod auth;
pub(crate) mod cache;
pub(crate) mod clean;
pub mod cmd;
pub(crate) mod config;
pub(crate) mod ctx;
pub(crate) mod dashboard;
pub(crate) mod digest;
pub mod error;
pub(crate) mod fleet;
pub(crate) mod fsutil;
pub(crate) mod history;
pub mod hook;
pub(crate) mod install;
pub(crate) mod lake;
pub(crate) mod mcp;
pub mod memory;
pub mod output;
pub mod paths;
pub(crate) mod peer;
pub(crate) mod redact;
pub(crate) mod repo;
pub(crate) mod rules;
pub(crate) mod sanitize;
pub(crate) mod scope;
pub mod scrub;
pub(crate) mod services;
pub mod snapshot;
mod spelled;
pub mod spool;
pub mod time;
pub(crate) mod tools;
pub mod ulid;
pub mod vocab;

#[cfg(test)]
mod proptests;
