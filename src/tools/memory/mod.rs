//! Memory tools: search promoted claims, propose new ones, read a subject's timeline.

pub mod propose;
pub mod search;
pub mod timeline;

pub use crate::memory::snapshot::{Opened, open_snapshot, shadow_note};
