//! The fleet domain: advisory leases derived at read time and handoff notes. Tools, the
//! hook and `sync` build on it; it never imports them.

pub mod briefing;
pub mod lease;
pub mod leases;
pub mod presence;
pub(crate) mod roster;
pub mod used;

pub use lease::{Holder, Lease};
