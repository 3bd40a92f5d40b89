//! One claim in the incremental fold: what its proposals say, what the gate decided for it,
//! and the row and timeline the full fold (`memory::gate::fold`) would give it. Everything
//! here is a function of the claim's own events, the `shown` pairs naming it, its gate
//! group's result and what the supersede resolution and the probable-update pass left
//! on it, so a new event recomputes only the claims it touches.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::settle::{Settled, settle};
use crate::memory::gate::needed;
use crate::memory::supersede::{Naming, Outcome};
use crate::snapshot::rows::{ClaimRow, EventRow};
use crate::vocab::{ClaimScope, ClaimStatus, ClaimType};

/// Where a timeline event sorts in the full fold: by `at`, then by the pass that wrote
/// it (1 proposals, 2 the gate, 3 operators), then by the event id (passes 1 and 3) or
/// the first proposal id of the claim the gate was deciding and the event's place in
/// that decision (pass 2). This is the full fold's stable sort of its push order.
pub(crate) type SortKey = (String, u8, String, u32);

/// What a proposal says besides the claim: the claims it replaces and the slot it fills.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub(crate) struct Links {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub supersedes: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
}

/// A valid proposal: (event id, at, agent, session, links when it names any).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub(crate) struct Proposal(
    pub String,
    pub String,
    pub String,
    pub String,
    pub Option<Links>,
);

/// A person's word on a claim: (event id, at, agent, session, action, reason, and for a
/// `supersede` the claim that replaces it).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub(crate) struct Op(
    pub String,
    pub String,
    pub String,
    pub String,
    pub String,
    pub Option<String>,
    pub Option<String>,
);

/// What a claim names, each with its naming: (`supersedes` targets, its key).
pub(crate) type Namings = (Vec<(String, Naming)>, Option<(String, Naming)>);

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
    /// What the supersede resolution left on it (`memory::supersede`).
    #[serde(default)]
    pub linked: Outcome,
    /// (by, at): a newer claim that probably updates it (`memory::supersede::update`).
    #[serde(default)]
    pub outdated: Option<(String, String)>,
    /// The gate group (a hash of the lowercased subject and content words).
    #[serde(skip)]
    pub group: u64,
    /// The probable-update bucket (a hash of the lowercased subject, the type and the
    /// sentence's head): only claims in one bucket can update each other.
    #[serde(skip)]
    pub bucket: u64,
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
        // Most claims have a few proposals: a scan of those counted beats building a set,
        // which only a claim with many (lake content is untrusted) needs.
        let mut counted = std::collections::HashSet::new();
        let many = self.proposals.len() > 16;
        for Proposal(id, at, _, session, _) in &self.proposals {
            let was_shown = shown(session).is_some_and(|(sid, sat)| sid < *id && sat <= *at);
            if was_shown {
                continue;
            }
            let first = if many {
                counted.insert(session.as_str())
            } else {
                !out.iter().any(|(s, _)| s == session)
            };
            if first {
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

    /// When any session last proposed it: its newest evidence.
    pub fn last_evidence(&self) -> &str {
        self.proposals
            .iter()
            .map(|p| p.1.as_str())
            .max()
            .unwrap_or_default()
    }

    /// The slot it fills: the key of its first proposal that names one.
    pub fn key(&self) -> Option<&str> {
        self.proposals
            .iter()
            .find_map(|p| p.4.as_ref()?.key.as_deref())
    }

    /// The claims it names in `supersedes` and its key, each with when a proposal first
    /// named it and when a second independent session did (the power to replace).
    pub fn namings<'a>(&'a self, shown: impl Fn(&str) -> Option<(String, String)>) -> Namings {
        let key = self.key().map(str::to_string);
        // (what, first naming, sessions that named it independently, second's time)
        let mut named: Vec<(String, String, Vec<&'a str>, Option<String>)> = Vec::new();
        let mut keyed: Option<(String, Vec<&'a str>, Option<String>)> = None;
        for Proposal(id, at, _, session, links) in &self.proposals {
            let Some(links) = links else { continue };
            let independent = !shown(session).is_some_and(|(sid, sat)| sid < *id && sat <= *at);
            let note = |sessions: &mut Vec<&'a str>, second: &mut Option<String>| {
                if independent && !sessions.contains(&session.as_str()) {
                    sessions.push(session.as_str());
                    if sessions.len() == 2 {
                        *second = Some(at.clone());
                    }
                }
            };
            for t in &links.supersedes {
                let i = match named.iter().position(|n| n.0 == *t) {
                    Some(i) => i,
                    None => {
                        named.push((t.clone(), at.clone(), Vec::new(), None));
                        named.len() - 1
                    }
                };
                let (_, _, sessions, second) = &mut named[i];
                note(sessions, second);
            }
            if links.key.is_some() && links.key == key {
                let k = keyed.get_or_insert_with(|| (at.clone(), Vec::new(), None));
                note(&mut k.1, &mut k.2);
            }
        }
        let named = named
            .into_iter()
            .map(|(t, first, _, second)| (t, Naming { first, second }))
            .collect();
        let keyed = keyed.map(|(first, _, second)| Naming { first, second });
        (named, key.zip(keyed))
    }

    /// The claims it is tied to, which the gate never contests it with: those it names
    /// in `supersedes`, and those a person said replace it.
    pub fn ties(&self, ops: &[Op]) -> BTreeSet<String> {
        let mut out: BTreeSet<String> = self
            .proposals
            .iter()
            .filter_map(|p| p.4.as_ref())
            .flat_map(|l| l.supersedes.iter().cloned())
            .collect();
        out.extend(
            ops.iter()
                .filter(|o| o.4 == "supersede")
                .filter_map(|o| o.6.clone()),
        );
        out
    }

    /// Its standing after the gate and a person's word, before any supersede.
    pub fn standing(&self, ops: &[Op]) -> Settled {
        settle(self.first_id(), &self.gated, None, ops, &|_| false).0
    }

    /// The finish: the row and its timeline, each event with its sort key. `known` says
    /// whether a claim id exists (a person's supersede naming none is ignored).
    pub fn render(
        &self,
        id: &str,
        independent: usize,
        ops: &[Op],
        known: &dyn Fn(&str) -> bool,
    ) -> (ClaimRow, Vec<(SortKey, EventRow)>) {
        let first = self.proposals.first();
        let field = |f: fn(&Proposal) -> &String| first.map(f).cloned().unwrap_or_default();
        let (settled, steps) = settle(self.first_id(), &self.gated, Some(&self.linked), ops, known);
        let visible = matches!(
            settled.status,
            ClaimStatus::Promoted | ClaimStatus::Contested
        );
        let mut row = ClaimRow {
            id: id.into(),
            text: self.text.clone(),
            claim_type: self.ty,
            subject: self.subject.clone(),
            scope: settled.scope,
            status: settled.status,
            independent_sessions: independent as u32,
            confidence: 0.0,
            created_at: field(|p| &p.1),
            promoted_at: settled.promoted_at.clone(),
            agent: field(|p| &p.2),
            session: field(|p| &p.3),
            key: self.key().map(str::to_string),
            superseded_by: settled.superseded.as_ref().map(|s| s.0.clone()),
            superseded_at: settled.superseded.as_ref().map(|s| s.1.clone()),
            outdated_by: self
                .outdated
                .as_ref()
                .filter(|_| settled.status == ClaimStatus::Promoted)
                .map(|o| o.0.clone()),
            pending_by: self.linked.pending.clone().filter(|_| visible),
            last_evidence_at: self.last_evidence().to_string(),
        };
        let ev = |at: &str, kind: &str, agent: &str, session: &str| EventRow {
            at: at.into(),
            subject: self.subject.clone(),
            kind: kind.into(),
            claim_id: id.into(),
            agent: agent.into(),
            session: session.into(),
            text: self.text.clone(),
            related_id: None,
        };
        let mut timeline = Vec::new();
        for Proposal(pid, at, agent, session, _) in &self.proposals {
            let key = (at.clone(), 1, pid.clone(), 0);
            timeline.push((key, ev(at, "claim_proposed", agent, session)));
        }
        for GateEvent(at, kind, by, place) in &self.gated.events {
            let key = (at.clone(), 2, by.clone(), *place);
            timeline.push((key, ev(at, kind, "gate", "gate")));
        }
        for (key, step) in steps {
            let mut e = ev(&step.at, step.kind, &step.agent, &step.session);
            if let Some(n) = step.note {
                e.text = format!("{} ({n})", e.text);
            }
            e.related_id = step.related;
            timeline.push((key, e));
        }
        if let (Some((by, at)), Some(_)) = (&self.outdated, &row.outdated_by) {
            let mut e = ev(at, "claim_outdated", "gate", "gate");
            e.text = format!("{} (probably outdated by {by})", e.text);
            e.related_id = Some(by.clone());
            timeline.push(((at.clone(), 3, self.first_id().to_string(), u32::MAX), e));
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
