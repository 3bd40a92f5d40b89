//! How each kind of claim event changes the incremental fold's inputs: what was shown to
//! whom, a proposal (with the claims it names and its key, kept in the indexes the chain
//! pass walks), and a person's word. Each names the claims it touched; `recompute` runs
//! the gate and the passes after it for those.

use std::collections::BTreeSet;

use serde_json::Value;

use super::claim::{Claim, Op, Proposal};
use super::{State, places, shown_key};
use crate::memory::event::Event;

impl State {
    pub(super) fn shown_to(&mut self, e: &Event, touched: &mut BTreeSet<String>) {
        let ids = e.payload["claim_ids"].as_array().into_iter().flatten();
        for id in ids.filter_map(Value::as_str) {
            let key = shown_key(&e.session, id);
            let first = self.shown.get(&key).is_none_or(|(sid, _)| e.id < *sid);
            if first {
                self.shown.insert(key, (e.id.clone(), e.at.clone()));
                touched.insert(id.to_string());
            }
        }
    }

    pub(super) fn propose(&mut self, e: Event, touched: &mut BTreeSet<String>) {
        let Some((text, subject, ty)) = crate::memory::gate::proposal(&e.payload) else {
            return;
        };
        let id = crate::memory::gate::claim_id(subject, text);
        let links = crate::memory::gate::links(&e.payload);
        for t in links.iter().flat_map(|l| &l.supersedes) {
            self.named_by
                .entry(t.clone())
                .or_default()
                .insert(id.clone());
        }
        let proposal = Proposal(e.id, e.at, e.agent, e.session, links);
        let (text, subject) = (text.to_string(), subject.to_string());
        touched.insert(id.clone());
        let Some(c) = self.open(&id) else {
            let (group, bucket) = places(&subject, ty, &text);
            let claim = Claim {
                group,
                bucket,
                text,
                subject,
                ty,
                proposals: vec![proposal],
                gated: Default::default(),
                linked: Default::default(),
                outdated: None,
                hash: String::new(),
                status: None,
            };
            if let Some(k) = claim.key() {
                self.keyed
                    .entry(k.to_string())
                    .or_default()
                    .insert(id.clone());
            }
            // A person may have named it as a replacement before it arrived.
            touched.extend(self.replaces.get(&id).into_iter().flatten().cloned());
            self.work.insert(id, claim);
            return;
        };
        let key = c.key().map(str::to_string);
        let at = c.proposals.partition_point(|q| q.0 < proposal.0);
        c.proposals.insert(at, proposal);
        let mut left = (None, None, None);
        if at == 0 {
            // An older proposal than the claim's first: it names the claim now, and a claim
            // already rendered moves (a new one is placed by `recompute`).
            let old = (!c.hash.is_empty()).then(|| c.subject.clone());
            let (group, bucket) = (c.group, c.bucket);
            c.text = text;
            c.subject = subject;
            c.ty = ty;
            (c.group, c.bucket) = places(&c.subject, c.ty, &c.text);
            left = (
                (c.group != group).then_some(group),
                (c.bucket != bucket).then_some(bucket),
                old,
            );
        }
        let now = c.key().map(str::to_string);
        let (group, bucket, old) = left;
        self.left.extend(group);
        self.left_buckets.extend(bucket);
        if let Some(old) = old {
            self.pending.reordered = true;
            self.pending.subject(&old);
        }
        if now != key {
            // A key a claim no longer holds: its other holders' chain moved too.
            if let Some(holders) = key.as_ref().and_then(|k| self.keyed.get_mut(k)) {
                holders.remove(&id);
                self.relink.extend(holders.iter().cloned());
            }
            if let Some(k) = now {
                self.keyed.entry(k).or_default().insert(id);
            }
        }
    }

    pub(super) fn operator(&mut self, e: Event, touched: &mut BTreeSet<String>) {
        let p = &e.payload;
        let (Some(action), Some(id)) = (p["action"].as_str(), p["claim_id"].as_str()) else {
            return;
        };
        let by = p["by"].as_str().map(str::to_string);
        match (action, &by) {
            ("promote" | "contest" | "retire" | "keep", _) | ("supersede", Some(_)) => {}
            _ => return,
        }
        if let Some(b) = by.as_ref().filter(|_| action == "supersede") {
            self.replaces
                .entry(b.clone())
                .or_default()
                .insert(id.to_string());
            touched.insert(b.clone());
        }
        let reason = p["reason"].as_str().map(str::to_string);
        let op = Op(e.id, e.at, e.agent, e.session, action.into(), reason, by);
        let ops = self.operators.entry(id.to_string()).or_default();
        let at = ops.partition_point(|o| o.0 < op.0);
        ops.insert(at, op);
        touched.insert(id.to_string());
    }
}
