//! `ctxlake memory …`: search, propose and trace the fleet's shared claims.

use clap::Subcommand;

use super::GlobalArgs;
use crate::error::Result;

pub mod propose;
pub mod search;
pub mod timeline;

#[derive(Debug, Subcommand)]
pub enum MemoryCmd {
    Search(search::SearchArgs),
    Propose(propose::ProposeArgs),
    Timeline(timeline::TimelineArgs),
}

pub fn run(cmd: MemoryCmd, g: &GlobalArgs) -> Result<()> {
    match cmd {
        MemoryCmd::Search(a) => search::run(a, g),
        MemoryCmd::Propose(a) => propose::run(a, g),
        MemoryCmd::Timeline(a) => timeline::run(a, g),
    }
}
