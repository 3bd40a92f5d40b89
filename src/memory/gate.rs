//! The promotion gate (DESIGN §4), a pure fold of claim events into claims:
//! evidence required; independent sessions = distinct proposing sessions that had not
//! been shown the claim first; `environment`/`outcome` promote at 1, `convention` at 2,
//! `preference` only by a person, `hypothesis` never; a claim that contradicts a
//! promoted one on the same subject makes both CONTESTED (the newest never silently wins).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use serde_json::Value;

use crate::memory::contradiction::Statement;
use crate::memory::event::Event;
use crate::snapshot::rows::{ClaimRow, EventRow};
use crate::spool::RecordKind;
use crate::vocab::{ClaimScope, ClaimStatus, ClaimType};

#[derive(Debug, Default)]
pub struct Folded {
    pub claims: Vec<ClaimRow>,
    pub events: Vec<EventRow>,
}

struct Building {
    row: ClaimRow,
    independent: HashSet<String>,
    /// When each independent session first proposed it, in order.
    independent_at: Vec<String>,
}

/// The content-addressed id of a claim: the same words about the same subject are one claim.
pub fn claim_id(subject: &str, text: &str) -> String {
    let norm = |s: &str| {
        s.to_lowercase()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let key = format!(
        "{}\n{}",
        norm(subject),
        norm(text).trim_end_matches(['.', '!'])
    );
    format!("c-{}", &crate::digest::sha256_hex(key.as_bytes())[..10])
}

/// Independent sessions that promote a claim of this type; `None`: the gate never does
/// (a preference waits for a person, a hypothesis stays one).
pub(crate) fn needed(ty: ClaimType) -> Option<usize> {
    match ty {
        ClaimType::Environment | ClaimType::Outcome => Some(1),
        ClaimType::Convention => Some(2),
        ClaimType::Preference | ClaimType::Hypothesis => None,
    }
}

/// Why a proposed claim is still waiting, in the gate's own terms.
pub(crate) fn waiting_because(ty: ClaimType, independent: u32) -> String {
    match (ty, needed(ty)) {
        (ClaimType::Preference, _) => "a preference is promoted only by a person".into(),
        (_, None) => "a hypothesis is never promoted".into(),
        (_, Some(k)) => format!(
            "needs {k} independent session(s), has {independent} (a session that was shown the claim first does not count)"
        ),
    }
}

/// A proposal's claim text, subject and type, if the gate takes it: all three present and
/// valid, and evidence cited (no evidence, no claim — even if an old client spooled it).
pub(crate) fn proposal(p: &Value) -> Option<(&str, &str, ClaimType)> {
    let text = p["claim"].as_str()?;
    let subject = p["subject"].as_str()?;
    let ty = p["type"].as_str().and_then(ClaimType::parse)?;
    let evidence = p["evidence"].as_array().map(Vec::as_slice);
    crate::memory::evidence::check(evidence.unwrap_or_default()).ok()?;
    Some((text, subject, ty))
}

/// Fold every claim event of a fleet (in id order) into claims and their timeline.
pub fn fold(events: &[Event]) -> Folded {
    let mut g = Gate::default();
    g.proposals(events);
    g.promote();
    g.operators(events);
    g.finish()
}

#[derive(Default)]
struct Gate {
    /// (session, claim) → when that session was first shown the claim.
    shown: HashMap<(String, String), String>,
    claims: BTreeMap<String, Building>,
    /// Claim ids in the order they first appeared.
    order: Vec<String>,
    out: Folded,
}

fn timeline(claim: &ClaimRow, at: &str, kind: &str, agent: &str, session: &str) -> EventRow {
    EventRow {
        at: at.into(),
        subject: claim.subject.clone(),
        kind: kind.into(),
        claim_id: claim.id.clone(),
        agent: agent.into(),
        session: session.into(),
        text: claim.text.clone(),
    }
}

impl Gate {
    /// Pass 1: proposals, and what was shown to whom.
    fn proposals(&mut self, events: &[Event]) {
        for e in events {
            match e.kind {
                RecordKind::MemoryShown => self.shown_to(e),
                RecordKind::MemoryPropose => self.propose(e),
                _ => {}
            }
        }
    }

    fn shown_to(&mut self, e: &Event) {
        for id in e.payload["claim_ids"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            self.shown
                .entry((e.session.clone(), id.to_string()))
                .or_insert_with(|| e.at.clone());
        }
    }

    fn propose(&mut self, e: &Event) {
        let Some((text, subject, ty)) = proposal(&e.payload) else {
            return;
        };
        let id = claim_id(subject, text);
        let order = &mut self.order;
        let b = self.claims.entry(id.clone()).or_insert_with(|| {
            order.push(id.clone());
            Building {
                row: ClaimRow {
                    id: id.clone(),
                    text: text.into(),
                    claim_type: ty,
                    subject: subject.into(),
                    scope: ClaimScope::Agent,
                    status: ClaimStatus::Proposed,
                    independent_sessions: 0,
                    confidence: 0.0,
                    created_at: e.at.clone(),
                    promoted_at: None,
                    agent: e.agent.clone(),
                    session: e.session.clone(),
                },
                independent: HashSet::new(),
                independent_at: Vec::new(),
            }
        });
        let was_shown = self
            .shown
            .get(&(e.session.clone(), id))
            .is_some_and(|t| t.as_str() <= e.at.as_str());
        if !was_shown && b.independent.insert(e.session.clone()) {
            b.independent_at.push(e.at.clone());
        }
        b.row.independent_sessions = b.independent.len() as u32;
        let ev = timeline(&b.row, &e.at, "claim_proposed", &e.agent, &e.session);
        self.out.events.push(ev);
    }

    /// Pass 2: the gate, in the order claims first appeared. Promoted claims are indexed by
    /// subject and content words (only equal words can contradict), with their parsed
    /// statements, so each candidate meets only the few it could contradict.
    fn promote(&mut self) {
        type Key = (String, BTreeSet<String>);
        let mut promoted: HashMap<Key, Vec<(String, Statement)>> = HashMap::new();
        for id in self.order.clone() {
            let b = &self.claims[&id];
            let statement = Statement::parse(&b.row.text);
            // Without content words nothing contradicts it: an empty set matches nothing.
            let subject = (
                b.row.subject.to_lowercase(),
                statement.words().cloned().unwrap_or_default(),
            );
            let (ty, n, at) = (
                b.row.claim_type,
                b.independent.len(),
                b.row.created_at.clone(),
            );
            let rivals: Vec<String> = promoted
                .get(&subject)
                .into_iter()
                .flatten()
                .filter(|(_, s)| s.contradicts(&statement))
                .map(|(p, _)| p.clone())
                .collect();
            if !rivals.is_empty() {
                self.contest(&rivals, &id, &at);
                if let Some(list) = promoted.get_mut(&subject) {
                    list.retain(|(p, _)| !rivals.contains(p));
                }
                continue;
            }
            if let Some(k) = needed(ty).filter(|k| n >= *k)
                && let Some(b) = self.claims.get_mut(&id)
            {
                // Promoted when the k-th independent session proposed it.
                let at = b.independent_at.get(k - 1).cloned().unwrap_or(at);
                b.row.status = ClaimStatus::Promoted;
                b.row.scope = ClaimScope::Fleet;
                b.row.promoted_at = Some(at.clone());
                let ev = timeline(&b.row, &at, "claim_promoted", "gate", "gate");
                self.out.events.push(ev);
                if statement.words().is_some() {
                    promoted.entry(subject).or_default().push((id, statement));
                }
            }
        }
    }

    /// Both sides of a contradiction become CONTESTED: the newest never silently wins.
    fn contest(&mut self, rivals: &[String], id: &str, at: &str) {
        for r in rivals.iter().map(String::as_str).chain(std::iter::once(id)) {
            if let Some(b) = self.claims.get_mut(r) {
                b.row.status = ClaimStatus::Contested;
                b.row.scope = ClaimScope::Fleet;
                let ev = timeline(&b.row, at, "claim_contested", "gate", "gate");
                self.out.events.push(ev);
            }
        }
    }

    /// Pass 3: a person's word is final.
    fn operators(&mut self, events: &[Event]) {
        for e in events
            .iter()
            .filter(|e| e.kind == RecordKind::MemoryOperator)
        {
            let (Some(action), Some(id)) =
                (e.payload["action"].as_str(), e.payload["claim_id"].as_str())
            else {
                continue;
            };
            let Some(b) = self.claims.get_mut(id) else {
                continue;
            };
            let (status, kind) = match action {
                "promote" => (ClaimStatus::Promoted, "claim_promoted"),
                "contest" => (ClaimStatus::Contested, "claim_contested"),
                "retire" => (ClaimStatus::Retired, "claim_retired"),
                _ => continue,
            };
            b.row.status = status;
            if status != ClaimStatus::Retired {
                b.row.scope = ClaimScope::Fleet;
            }
            if status == ClaimStatus::Promoted {
                b.row.promoted_at = Some(e.at.clone());
            }
            let mut ev = timeline(&b.row, &e.at, kind, &e.agent, &e.session);
            if let Some(r) = e.payload["reason"].as_str() {
                ev.text = format!("{} (reason: {r})", ev.text);
            }
            self.out.events.push(ev);
        }
    }

    /// Confidence `1 − 0.5^(n+1)` for n independent sessions, halved when contested.
    fn finish(mut self) -> Folded {
        for id in std::mem::take(&mut self.order) {
            if let Some(mut b) = self.claims.remove(&id) {
                let n = b
                    .independent
                    .len()
                    .max(usize::from(b.row.status == ClaimStatus::Promoted))
                    as i32;
                let mut conf = 1.0 - 0.5f64.powi(n + 1);
                if b.row.status == ClaimStatus::Contested {
                    conf *= 0.5;
                }
                b.row.confidence = (conf * 100.0).round() / 100.0;
                self.out.claims.push(b.row);
            }
        }
        self.out.events.sort_by(|a, b| a.at.cmp(&b.at));
        self.out
    }
}

#[cfg(test)]
#[path = "gate_tests.rs"]
mod tests;
