//! One claim in the incremental fold: what its proposals say, what the gate decided for it,
//! and the row and timeline the full fold (`memory::gate::fold`) would give it. Everything
//! here is a function of the claim's own events, the `shown` pairs naming it and its
//! gate group's result, so a new event recomputes only the claims it touches.

use serde::{Deserialize, Serialize};

use crate::memory::gate::needed;
use crate::snapshot::rows::{ClaimRow, EventRow};
use crate::vocab::{ClaimScope, ClaimStatus, ClaimType};

/// Where a timeline event sorts in the full fold: by `at`, then by the pass that wrote
/// it (1 proposals, 2 the gate, 3 operators), then by the event id (passes 1 and 3) or
/// the first proposal id of the claim the gate was deciding and the event's place in
/// that decision (pass 2). This is the full fold's stable sort of its push order.
pub(crate) type SortKey = (String, u8, String, u32);

/// A valid proposal: (event id, at, agent, session).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub(crate) struct Proposal(pub String, pub String, pub String, pub String);

/// A person's word on a claim: (event id, at, agent, session, action, reason).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub(crate) struct Op(
    pub String,
    pub String,
    pub String,
    pub String,
    pub String,
    pub Option<String>,
);

/// An event the gate wrote about a claim: (at, kind, decided-at first id, place).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub(crate) struct GateEvent(pub String, pub String, pub String, pub u32);

/// What pass 2 (the gate) left on a claim, before any operator.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub(crate) struct Gated {
    pub status: ClaimStatus,
    pub scope: ClaimScope,
    pub promoted_at: Option<String>,
    pub events: Vec<GateEvent>,
}

impl Default for Gated {
    fn default() -> Self {
        Gated {
            status: ClaimStatus::Proposed,
            scope: ClaimScope::Agent,
            promoted_at: None,
            events: Vec::new(),
        }
    }
}

/// A claim's inputs and gate result. Stored as its list entry's detail (`list::Entry`),
/// parsed only when a run touches it; the fields the entry holds are not stored twice.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Claim {
    /// The words, type and subject of the lowest-id proposal: they name the claim.
    pub text: String,
    pub subject: String,
    pub ty: ClaimType,
    /// Every valid proposal, in id order; the first one is the claim's origin.
    pub proposals: Vec<Proposal>,
    pub gated: Gated,
    /// The gate group (a hash of the lowercased subject and content words).
    #[serde(skip)]
    pub group: u64,
    /// A digest of `row` and `timeline` with their sort keys (see `State::digest`).
    #[serde(skip)]
    pub hash: String,
    /// The row's status after a person's word (the report counts it).
    #[serde(skip)]
    pub status: Option<ClaimStatus>,
}

impl Claim {
    pub fn first_id(&self) -> &str {
        self.proposals.first().map_or("", |p| p.0.as_str())
    }

    /// Pass 1: the sessions that proposed it without having been shown it first, with
    /// the time of each one's first such proposal, in id order. `shown` answers when a
    /// session was first shown the claim (the lowest-id event): (id, at).
    pub fn independent(
        &self,
        shown: impl Fn(&str) -> Option<(String, String)>,
    ) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        let mut counted = std::collections::HashSet::new();
        for Proposal(id, at, _, session) in &self.proposals {
            let was_shown = shown(session).is_some_and(|(sid, sat)| sid < *id && sat <= *at);
            if !was_shown && counted.insert(session.as_str()) {
                out.push((session.clone(), at.clone()));
            }
        }
        out
    }

    /// The time pass 2 promotes it, if it would on its own (no contradiction).
    pub fn promotes_at(&self, independent: &[(String, String)]) -> Option<String> {
        let k = needed(self.ty).filter(|k| independent.len() >= *k)?;
        Some(
            independent
                .get(k - 1)
                .map_or_else(|| self.created_at().to_string(), |(_, at)| at.clone()),
        )
    }

    pub fn created_at(&self) -> &str {
        self.proposals.first().map_or("", |p| p.1.as_str())
    }

    /// Pass 3 and the finish: the row and its timeline, each event with its sort key.
    pub fn render(
        &self,
        id: &str,
        independent: usize,
        ops: &[Op],
    ) -> (ClaimRow, Vec<(SortKey, EventRow)>) {
        let first = self.proposals.first();
        let field = |f: fn(&Proposal) -> &String| first.map(f).cloned().unwrap_or_default();
        let mut row = ClaimRow {
            id: id.into(),
            text: self.text.clone(),
            claim_type: self.ty,
            subject: self.subject.clone(),
            scope: self.gated.scope,
            status: self.gated.status,
            independent_sessions: independent as u32,
            confidence: 0.0,
            created_at: field(|p| &p.1),
            promoted_at: self.gated.promoted_at.clone(),
            agent: field(|p| &p.2),
            session: field(|p| &p.3),
        };
        let ev = |at: &str, kind: &str, agent: &str, session: &str| EventRow {
            at: at.into(),
            subject: self.subject.clone(),
            kind: kind.into(),
            claim_id: id.into(),
            agent: agent.into(),
            session: session.into(),
            text: self.text.clone(),
        };
        let mut timeline = Vec::new();
        for Proposal(pid, at, agent, session) in &self.proposals {
            let key = (at.clone(), 1, pid.clone(), 0);
            timeline.push((key, ev(at, "claim_proposed", agent, session)));
        }
        for GateEvent(at, kind, by, place) in &self.gated.events {
            let key = (at.clone(), 2, by.clone(), *place);
            timeline.push((key, ev(at, kind, "gate", "gate")));
        }
        for Op(oid, at, agent, session, action, reason) in ops {
            let (status, kind) = match action.as_str() {
                "promote" => (ClaimStatus::Promoted, "claim_promoted"),
                "contest" => (ClaimStatus::Contested, "claim_contested"),
                "retire" => (ClaimStatus::Retired, "claim_retired"),
                _ => continue,
            };
            row.status = status;
            if status != ClaimStatus::Retired {
                row.scope = ClaimScope::Fleet;
            }
            if status == ClaimStatus::Promoted {
                row.promoted_at = Some(at.clone());
            }
            let mut e = ev(at, kind, agent, session);
            if let Some(r) = reason {
                e.text = format!("{} (reason: {r})", e.text);
            }
            timeline.push(((at.clone(), 3, oid.clone(), 0), e));
        }
        // Confidence `1 − 0.5^(n+1)` for n independent sessions, halved when contested.
        let n = independent.max(usize::from(row.status == ClaimStatus::Promoted)) as i32;
        let mut conf = 1.0 - 0.5f64.powi(n + 1);
        if row.status == ClaimStatus::Contested {
            conf *= 0.5;
        }
        row.confidence = (conf * 100.0).round() / 100.0;
        (row, timeline)
    }
}

/// The digest of a rendered claim: its row and its timeline with the sort keys, so the
/// list of these in claim order determines every row and the global event order.
pub(crate) fn hash(row: &ClaimRow, timeline: &[(SortKey, EventRow)]) -> String {
    let full = crate::digest::sha256_json_hex(&(row, timeline));
    full[..32].to_string()
}
