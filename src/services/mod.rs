//! Services: the orchestration of a sync pass, a drain, a mirror, `maint` and the
//! pipeline's health, over the domain (`fleet`, `memory`, `history`) and storage (`lake`,
//! `spool`, `cache`, `snapshot`). The command line, the MCP server and the dashboard call
//! these; nothing below them does.

pub mod doctor;
pub mod drain;
pub mod health;
pub mod import;
pub mod init;
pub mod maint;
pub mod mirror;
pub mod open;
pub mod serving;
#[cfg(test)]
mod sim;
pub mod status;
pub mod sync;
pub(crate) mod trace;
pub mod watch;
