//! The snapshot's rows: a claim as the gate left it, and one timeline event. The read
//! boundary cleans every string of both when a reader decodes them.

use crate::clean::{Clean, clean_opt, clean_str};
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
}

impl ClaimRow {
    /// Agent-visible when memory is on and the gate let it through (contested stays visible, flagged).
    pub fn visible(&self, mode: &str) -> bool {
        mode == "on" && matches!(self.status, ClaimStatus::Promoted | ClaimStatus::Contested)
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
}

impl Clean for ClaimRow {
    fn clean(&mut self) {
        for s in [
            &mut self.id,
            &mut self.text,
            &mut self.subject,
            &mut self.created_at,
            &mut self.agent,
            &mut self.session,
        ] {
            clean_str(s);
        }
        clean_opt(&mut self.promoted_at);
    }
}

impl Clean for EventRow {
    fn clean(&mut self) {
        for s in [
            &mut self.at,
            &mut self.subject,
            &mut self.kind,
            &mut self.claim_id,
            &mut self.agent,
            &mut self.session,
            &mut self.text,
        ] {
            clean_str(s);
        }
    }
}
