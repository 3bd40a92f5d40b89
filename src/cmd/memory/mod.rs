//! `ctxlake memory …`: search, propose and trace the fleet's shared claims; operators
//! list, promote, contest, retire, supersede and keep them.

use clap::Subcommand;

use super::GlobalArgs;
use crate::error::Result;

pub mod list;
pub mod model;
pub mod operator;
pub mod propose;
pub mod search;
pub mod timeline;

#[derive(Debug, Subcommand)]
pub enum MemoryCmd {
    Search(search::SearchArgs),
    Propose(propose::ProposeArgs),
    Timeline(timeline::TimelineArgs),
    List(list::ListArgs),
    #[command(
        about = "Promote a claim by hand: agents see it (preferences are promoted only this way)"
    )]
    Promote(operator::OperatorArgs),
    #[command(about = "Mark a claim CONTESTED by hand: it stays visible, flagged")]
    Contest(operator::OperatorArgs),
    #[command(about = "Retire a claim by hand: agents no longer see it")]
    Retire(operator::OperatorArgs),
    #[command(
        about = "Supersede a claim by hand (confirms a probable update): it is kept but no longer current"
    )]
    Supersede(operator::SupersedeArgs),
    #[command(about = "Keep a claim flagged as probably outdated: the flag is dismissed")]
    Keep(operator::KeepArgs),
    /// The semantic model (all-MiniLM-L6-v2): check what is configured, or install it
    #[command(subcommand)]
    Model(model::ModelCmd),
}

pub fn run(cmd: MemoryCmd, g: &GlobalArgs) -> Result<()> {
    match cmd {
        MemoryCmd::Search(a) => search::run(a, g),
        MemoryCmd::Propose(a) => propose::run(a, g),
        MemoryCmd::Timeline(a) => timeline::run(a, g),
        MemoryCmd::List(a) => list::run(a, g),
        MemoryCmd::Promote(a) => operator::run("promote", a, g),
        MemoryCmd::Contest(a) => operator::run("contest", a, g),
        MemoryCmd::Retire(a) => operator::run("retire", a, g),
        MemoryCmd::Supersede(a) => operator::supersede(a, g),
        MemoryCmd::Keep(a) => operator::keep(a, g),
        MemoryCmd::Model(c) => model::run(c, g),
    }
}
