//! `ctxlake fleet …`: who is working where, leases, history, handoffs.

use clap::Subcommand;

use super::GlobalArgs;
use crate::error::Result;

pub mod claim;
pub mod handoff;
pub mod history;
pub mod list;
pub mod release;
pub mod status;

#[derive(Debug, Subcommand)]
pub enum FleetCmd {
    Status(status::StatusArgs),
    List(list::ListArgs),
    Claim(claim::ClaimArgs),
    Release(release::ReleaseArgs),
    History(history::HistoryArgs),
    Handoff(handoff::HandoffArgs),
}

pub fn run(cmd: FleetCmd, g: &GlobalArgs) -> Result<()> {
    match cmd {
        FleetCmd::Status(a) => status::run(a, g),
        FleetCmd::List(a) => list::run(a, g),
        FleetCmd::Claim(a) => claim::run(a, g),
        FleetCmd::Release(a) => release::run(a, g),
        FleetCmd::History(a) => history::run(a, g),
        FleetCmd::Handoff(a) => handoff::run(a, g),
    }
}
