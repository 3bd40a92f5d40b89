//! The memory domain: evidence rules, contradiction detection, supersede chains and
//! probable updates, attribution rendering, and access to the published snapshot. Tools, the hook and `maint` build on it; it never
//! imports them.

pub(crate) mod contradiction;
pub mod event;
pub mod evidence;
pub(crate) mod fold;
pub mod gate;
pub mod render;
pub mod snapshot;
pub mod supersede;
