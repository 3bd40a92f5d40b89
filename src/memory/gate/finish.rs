//! The end of the whole fold (`full`): the supersede resolution over every claim at once,
//! each claim's final standing after a person's words, probable updates over every pair of
//! a subject and type, then the rows and the timeline in the incremental fold's order.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use super::{Building, Gate, event};
use crate::memory::fold::{Gated, settle};
use crate::memory::gate::Folded;
use crate::memory::supersede::update::{self, Candidate, Shape};
use crate::memory::supersede::{self, Naming, Node, Outcome, Standing};
use crate::vocab::ClaimStatus;

impl Gate {
    fn gated(b: &Building) -> Gated {
        Gated {
            status: b.row.status,
            scope: b.row.scope,
            promoted_at: b.row.promoted_at.clone(),
            events: Vec::new(),
        }
    }

    /// The resolution over every claim at once, then each claim's final standing.
    fn outcomes(&self) -> BTreeMap<String, Outcome> {
        let naming = |(first, _, second): &(String, Vec<String>, Option<String>)| Naming {
            first: first.clone(),
            second: second.clone(),
        };
        let nodes: Vec<Node> = self
            .claims
            .iter()
            .map(|(id, b)| {
                let ops = self.ops.get(id).map(Vec::as_slice).unwrap_or_default();
                let st = settle(&b.first_id, &Self::gated(b), None, ops, &|_| false).0;
                let standing = match st.status {
                    ClaimStatus::Promoted => Standing::Promoted,
                    ClaimStatus::Contested => Standing::Contested,
                    ClaimStatus::Retired => Standing::Retired,
                    _ => Standing::Waiting,
                };
                let since = match standing {
                    Standing::Promoted => st.promoted_at.unwrap_or_default(),
                    _ => b.row.created_at.clone(),
                };
                Node {
                    id: id.clone(),
                    first_id: b.first_id.clone(),
                    standing,
                    since,
                    key: b.key.clone().zip(b.keyed.as_ref().map(naming)),
                    supersedes: b
                        .named
                        .iter()
                        .map(|(t, n)| (t.clone(), naming(n)))
                        .collect(),
                }
            })
            .collect();
        supersede::resolve(&nodes)
    }

    /// The supersede resolution, a person's words, probable updates; confidence
    /// `1 − 0.5^(n+1)` for n independent sessions, halved when contested.
    pub(super) fn finish(mut self) -> Folded {
        let outcomes = self.outcomes();
        let ids: HashSet<String> = self.claims.keys().cloned().collect();
        let known = |id: &str| ids.contains(id);
        for (id, b) in &mut self.claims {
            let ops = self.ops.get(id).map(Vec::as_slice).unwrap_or_default();
            let outcome = outcomes.get(id).cloned().unwrap_or_default();
            let (s, steps) = settle(&b.first_id, &Self::gated(b), Some(&outcome), ops, &known);
            b.row.status = s.status;
            b.row.scope = s.scope;
            b.row.promoted_at = s.promoted_at.clone();
            b.row.superseded_by = s.superseded.as_ref().map(|x| x.0.clone());
            b.row.superseded_at = s.superseded.as_ref().map(|x| x.1.clone());
            b.row.key = b.key.clone();
            b.row.last_evidence_at = b.last.clone();
            let visible = matches!(s.status, ClaimStatus::Promoted | ClaimStatus::Contested);
            b.row.pending_by = outcome.pending.clone().filter(|_| visible);
            for (key, step) in steps {
                let mut ev = event(&b.row, &step.at, step.kind, &step.agent, &step.session);
                if let Some(n) = step.note {
                    ev.text = format!("{} ({n})", ev.text);
                }
                ev.related_id = step.related;
                b.events.push((key, ev));
            }
        }
        self.probable_updates();
        let mut out = Folded::default();
        let mut events = Vec::new();
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
                events.append(&mut b.events);
                out.claims.push(b.row);
            }
        }
        events.sort_by(|a, b| a.0.cmp(&b.0));
        out.events = events.into_iter().map(|(_, e)| e).collect();
        out
    }

    /// Flag each promoted claim a newer promoted one of its subject and type probably
    /// updates (`memory::supersede::update`), comparing every such pair.
    fn probable_updates(&mut self) {
        let mut buckets: BTreeMap<(String, &str), Vec<String>> = BTreeMap::new();
        for (id, b) in &self.claims {
            if b.row.status == ClaimStatus::Promoted {
                buckets
                    .entry((b.row.subject.to_lowercase(), b.row.claim_type.as_str()))
                    .or_default()
                    .push(id.clone());
            }
        }
        let mut flags = BTreeMap::new();
        for ids in buckets.values() {
            let shapes: Vec<Shape> = ids
                .iter()
                .map(|id| Shape::of(&self.claims[id].row.text))
                .collect();
            let ties: Vec<BTreeSet<String>> = ids.iter().map(|id| self.ties(id)).collect();
            let cands: Vec<Candidate> = ids
                .iter()
                .zip(&shapes)
                .zip(&ties)
                .map(|((id, shape), ties)| {
                    let b = &self.claims[id];
                    Candidate {
                        id,
                        first_id: &b.first_id,
                        subject: b.row.subject.to_lowercase(),
                        claim_type: b.row.claim_type,
                        promoted_at: b.row.promoted_at.as_deref().unwrap_or_default(),
                        shape,
                        ties,
                        key: b.key.as_deref(),
                        keeps: self
                            .ops
                            .get(id)
                            .into_iter()
                            .flatten()
                            .filter(|o| o.4 == "keep")
                            .map(|o| o.1.as_str())
                            .collect(),
                    }
                })
                .collect();
            flags.extend(update::outdated(&cands));
        }
        for (id, (by, at)) in flags {
            if let Some(b) = self.claims.get_mut(&id) {
                b.row.outdated_by = Some(by.clone());
                let mut ev = event(&b.row, &at, "claim_outdated", "gate", "gate");
                ev.text = format!("{} (probably outdated by {by})", ev.text);
                ev.related_id = Some(by);
                b.events.push(((at, 3, b.first_id.clone(), u32::MAX), ev));
            }
        }
    }

    /// The claims `id` names in `supersedes` or a person said replace it.
    fn ties(&self, id: &str) -> BTreeSet<String> {
        let mut out: BTreeSet<String> = self.claims[id].named.keys().cloned().collect();
        out.extend(
            self.ops
                .get(id)
                .into_iter()
                .flatten()
                .filter(|o| o.4 == "supersede")
                .filter_map(|o| o.6.clone()),
        );
        out
    }
}
