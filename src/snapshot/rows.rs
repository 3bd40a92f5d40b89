//! The snapshot's rows: a claim as the gate left it (with its place in a supersede chain
//! and its age), and one timeline event. The read boundary cleans every string of both
//! as a reader decodes them: readers see a row only through `columns::Cols`.

use crate::config::MemoryMode;
use crate::vocab::{ClaimScope, ClaimStatus, ClaimType};

/// A claim as the gate left it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ClaimRow {
    pub id: String,
    pub text: String,
    pub claim_type: ClaimType,
    pub subject: String,
    pub scope: ClaimScope,
    pub status: ClaimStatus,
    pub independent_sessions: u32,
    pub confidence: f64,
    pub created_at: String,
    pub promoted_at: Option<String>,
    pub agent: String,
    pub session: String,
    /// The slot it fills (`ci.node-version`), if a proposal named one.
    pub key: Option<String>,
    /// The claim that replaced it, and when (status `superseded`).
    pub superseded_by: Option<String>,
    pub superseded_at: Option<String>,
    /// A newer promoted claim that probably updates it: flagged, never applied.
    pub outdated_by: Option<String>,
    /// A claim proposed to replace it that is not in effect yet.
    pub pending_by: Option<String>,
    /// When a session last proposed it: its newest evidence.
    pub last_evidence_at: String,
}

impl ClaimRow {
    /// Agent-visible when memory is on and the gate let it through (contested stays visible, flagged).
    pub fn visible(&self, mode: MemoryMode) -> bool {
        mode == MemoryMode::On
            && matches!(self.status, ClaimStatus::Promoted | ClaimStatus::Contested)
    }

    /// Indexed for search (FTS and vectors): the visible claims, and the superseded ones a
    /// history question may ask for (`include_superseded`).
    pub fn indexed(&self, mode: MemoryMode) -> bool {
        self.visible(mode) || (mode == MemoryMode::On && self.status == ClaimStatus::Superseded)
    }
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EventRow {
    pub at: String,
    pub subject: String,
    pub kind: String,
    pub claim_id: String,
    pub agent: String,
    pub session: String,
    pub text: String,
    /// The other claim an entry names: the replacement of a `claim_superseded`, the newer
    /// claim of a `claim_outdated`, the rival of a fork's `claim_contested`.
    pub related_id: Option<String>,
}
