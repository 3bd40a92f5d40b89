//! Fleet tools: who is working on what, advisory leases, history and handoffs.

pub mod claim;
pub mod handoff;
pub mod history;
pub mod list;
pub mod release;
pub mod status;
