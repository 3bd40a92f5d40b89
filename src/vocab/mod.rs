//! The wire vocabulary: every type, status and kind that the lake, the cache, the
//! snapshot and the tools spell, as enums with one spelling each. A leaf, so storage and
//! the domain can both name them.

mod claim;
mod handoff;
mod session;

pub use claim::{ClaimScope, ClaimStatus, ClaimType};
pub use handoff::HandoffStatus;
pub use session::SessionOutcome;
