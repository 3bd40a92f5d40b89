//! The whole fold of a fleet's claim events (in id order), written plainly as passes over
//! every claim: the reference `memory::fold`'s incremental state is held to. Pass 1
//! counts independent sessions and what each claim names; pass 2 is the gate; then the
//! supersede resolution, a person's words and probable updates over all claims at once.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use serde_json::Value;

use super::{Folded, claim_id, links, needed, proposal};
use crate::memory::contradiction::Statement;
use crate::memory::event::Event;
use crate::memory::fold::{Op, SortKey};
use crate::snapshot::rows::{ClaimRow, EventRow};
use crate::spool::RecordKind;
use crate::vocab::{ClaimScope, ClaimStatus};

#[path = "finish.rs"]
mod finish;

/// Fold every claim event of a fleet (in id order) into claims and their timeline.
pub fn fold(events: &[Event]) -> Folded {
    let mut g = Gate::default();
    g.operators(events);
    g.proposals(events);
    g.promote();
    g.finish()
}

struct Building {
    row: ClaimRow,
    first_id: String,
    independent: HashSet<String>,
    /// When each independent session first proposed it, in order.
    independent_at: Vec<String>,
    /// Every proposal's time: the newest is the claim's newest evidence.
    last: String,
    key: Option<String>,
    /// (first naming, independent sessions naming it, when the second did).
    named: BTreeMap<String, (String, Vec<String>, Option<String>)>,
    keyed: Option<(String, Vec<String>, Option<String>)>,
    events: Vec<(SortKey, EventRow)>,
}

#[derive(Default)]
struct Gate {
    /// (session, claim) → when that session was first shown the claim.
    shown: HashMap<(String, String), String>,
    claims: BTreeMap<String, Building>,
    /// Claim ids in the order they first appeared.
    order: Vec<String>,
    /// A person's words by claim id, in id order.
    ops: HashMap<String, Vec<Op>>,
}

fn event(claim: &ClaimRow, at: &str, kind: &str, agent: &str, session: &str) -> EventRow {
    EventRow {
        at: at.into(),
        subject: claim.subject.clone(),
        kind: kind.into(),
        claim_id: claim.id.clone(),
        agent: agent.into(),
        session: session.into(),
        text: claim.text.clone(),
        related_id: None,
    }
}

/// Record that `session` named something, independently or not, at `at`.
fn name(
    entry: &mut (String, Vec<String>, Option<String>),
    session: &str,
    independent: bool,
    at: &str,
) {
    if independent && !entry.1.iter().any(|s| s == session) {
        entry.1.push(session.to_string());
        if entry.1.len() == 2 {
            entry.2 = Some(at.to_string());
        }
    }
}

impl Gate {
    /// A person's words, read first: pass 2 never contests two claims a person tied.
    fn operators(&mut self, events: &[Event]) {
        for e in events
            .iter()
            .filter(|e| e.kind == RecordKind::MemoryOperator)
        {
            let p = &e.payload;
            let (Some(action), Some(id)) = (p["action"].as_str(), p["claim_id"].as_str()) else {
                continue;
            };
            let by = p["by"].as_str().map(str::to_string);
            let ok = match action {
                "promote" | "contest" | "retire" | "keep" => true,
                "supersede" => by.is_some(),
                _ => false,
            };
            if ok {
                let reason = p["reason"].as_str().map(str::to_string);
                let op = Op(
                    e.id.clone(),
                    e.at.clone(),
                    e.agent.clone(),
                    e.session.clone(),
                    action.into(),
                    reason,
                    by,
                );
                self.ops.entry(id.to_string()).or_default().push(op);
            }
        }
    }

    /// Pass 1: proposals, and what was shown to whom.
    fn proposals(&mut self, events: &[Event]) {
        for e in events {
            match e.kind {
                RecordKind::MemoryShown => {
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
                RecordKind::MemoryPropose => self.propose(e),
                _ => {}
            }
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
                    key: None,
                    superseded_by: None,
                    superseded_at: None,
                    outdated_by: None,
                    pending_by: None,
                    last_evidence_at: String::new(),
                },
                first_id: e.id.clone(),
                independent: HashSet::new(),
                independent_at: Vec::new(),
                last: String::new(),
                key: None,
                named: BTreeMap::new(),
                keyed: None,
                events: Vec::new(),
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
        b.last = b.last.clone().max(e.at.clone());
        if let Some(l) = links(&e.payload) {
            if b.key.is_none() {
                b.key = l.key.clone();
            }
            for t in &l.supersedes {
                let n = b
                    .named
                    .entry(t.clone())
                    .or_insert_with(|| (e.at.clone(), Vec::new(), None));
                name(n, &e.session, !was_shown, &e.at);
            }
            if l.key.is_some() && l.key == b.key {
                let n = b
                    .keyed
                    .get_or_insert_with(|| (e.at.clone(), Vec::new(), None));
                name(n, &e.session, !was_shown, &e.at);
            }
        }
        let ev = event(&b.row, &e.at, "claim_proposed", &e.agent, &e.session);
        b.events.push(((e.at.clone(), 1, e.id.clone(), 0), ev));
    }

    /// Whether `a` and `b` are tied (one names the other, they share a key, or a person
    /// said one replaces the other): an update, never a contradiction.
    fn tied(&self, a: &str, b: &str) -> bool {
        let names = |x: &str, y: &str| {
            self.claims.get(x).is_some_and(|c| c.named.contains_key(y))
                || self
                    .ops
                    .get(x)
                    .into_iter()
                    .flatten()
                    .any(|o| o.4 == "supersede" && o.6.as_deref() == Some(y))
        };
        let key = |x: &str| self.claims.get(x).and_then(|c| c.key.clone());
        names(a, b) || names(b, a) || key(a).is_some_and(|k| key(b) == Some(k))
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
            let (ty, n, at, first) = (
                b.row.claim_type,
                b.independent.len(),
                b.row.created_at.clone(),
                b.first_id.clone(),
            );
            let rivals: Vec<String> = promoted
                .get(&subject)
                .into_iter()
                .flatten()
                .filter(|(p, s)| s.contradicts(&statement) && !self.tied(p, &id))
                .map(|(p, _)| p.clone())
                .collect();
            if !rivals.is_empty() {
                // Both sides of a contradiction become CONTESTED: the newest never silently wins.
                for (place, r) in rivals.iter().chain(std::iter::once(&id)).enumerate() {
                    if let Some(b) = self.claims.get_mut(r) {
                        b.row.status = ClaimStatus::Contested;
                        b.row.scope = ClaimScope::Fleet;
                        let ev = event(&b.row, &at, "claim_contested", "gate", "gate");
                        b.events
                            .push(((at.clone(), 2, first.clone(), place as u32), ev));
                    }
                }
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
                let ev = event(&b.row, &at, "claim_promoted", "gate", "gate");
                b.events.push(((at.clone(), 2, first, 0), ev));
                if statement.words().is_some() {
                    promoted.entry(subject).or_default().push((id, statement));
                }
            }
        }
    }
}
