//! The incremental fold's passes after the gate: the supersede resolution over each chain
//! a changed claim belongs to (the claims connected by `supersedes` and keys), and the
//! probable-update flags of each bucket a changed claim is in. Both read only those few
//! claims, so a new event costs what its chain and bucket hold, not the fleet's memory.

use std::collections::{BTreeSet, HashMap};

use super::{State, shown_at};
use crate::memory::supersede::update::{self, Candidate, Shape};
use crate::memory::supersede::{self, Node, Outcome, Standing};
use crate::vocab::ClaimStatus;

impl State {
    /// Resolve again every chain holding a claim of `render` (or one a key left); a claim
    /// whose outcome moved is rendered again.
    pub(super) fn relink(&mut self, render: &mut BTreeSet<String>) {
        let mut seeds: BTreeSet<String> = std::mem::take(&mut self.relink);
        seeds.extend(render.iter().cloned());
        let mut done: BTreeSet<String> = BTreeSet::new();
        for seed in seeds {
            if done.contains(&seed) {
                continue;
            }
            if self.lone(&seed) {
                // Its chain is itself: the resolution of one node without edges is nothing.
                if let Some(c) = self.work.get_mut(&seed)
                    && c.linked != Outcome::default()
                {
                    c.linked = Outcome::default();
                    render.insert(seed);
                }
                continue;
            }
            let chain = self.chain(&seed);
            done.extend(chain.iter().cloned());
            let nodes: Vec<Node> = chain.iter().filter_map(|id| self.node(id)).collect();
            let mut out = supersede::resolve(&nodes);
            for id in chain {
                let o = out.remove(&id).unwrap_or_default();
                if let Some(c) = self.work.get_mut(&id)
                    && c.linked != o
                {
                    c.linked = o;
                    render.insert(id);
                }
            }
        }
    }

    /// Whether claim `id` (opened) names no claim and no key, and no claim names it: it
    /// is connected to nothing (most claims; `chain` would allocate to find that out).
    fn lone(&mut self, id: &str) -> bool {
        let named = self.named_by.get(id).is_some_and(|by| !by.is_empty());
        !named
            && self
                .open(id)
                .is_some_and(|c| c.proposals.iter().all(|p| p.4.is_none()))
    }

    /// Every claim connected to `id` by `supersedes` (either way) or a shared key.
    fn chain(&mut self, id: &str) -> Vec<String> {
        let mut seen: BTreeSet<String> = BTreeSet::from([id.to_string()]);
        let mut queue = vec![id.to_string()];
        while let Some(x) = queue.pop() {
            let Some(c) = self.open(&x) else { continue };
            let mut next: Vec<String> = c
                .proposals
                .iter()
                .filter_map(|p| p.4.as_ref())
                .flat_map(|l| l.supersedes.iter().cloned())
                .collect();
            let key = c.key().map(str::to_string);
            next.extend(self.named_by.get(&x).into_iter().flatten().cloned());
            if let Some(k) = key {
                next.extend(self.keyed.get(&k).into_iter().flatten().cloned());
            }
            for n in next {
                if self.known(&n) && seen.insert(n.clone()) {
                    queue.push(n);
                }
            }
        }
        seen.into_iter().collect()
    }

    /// Claim `id` as the resolution sees it (it must have been opened).
    fn node(&self, id: &str) -> Option<Node> {
        let c = self.work.get(id)?;
        let st = c.standing(self.ops(id));
        let standing = match st.status {
            ClaimStatus::Promoted => Standing::Promoted,
            ClaimStatus::Contested => Standing::Contested,
            ClaimStatus::Retired => Standing::Retired,
            ClaimStatus::Proposed | ClaimStatus::Superseded => Standing::Waiting,
        };
        let since = match standing {
            Standing::Promoted => st.promoted_at.unwrap_or_default(),
            _ => c.created_at().to_string(),
        };
        let (supersedes, key) = c.namings(|s| shown_at(&self.shown, s, id));
        Some(Node {
            id: id.to_string(),
            first_id: c.first_id().to_string(),
            standing,
            since,
            key,
            supersedes,
        })
    }

    /// Flag again every probable-update bucket holding a claim of `render` (or one a claim
    /// left); a claim whose flag moved is rendered again.
    pub(super) fn reflag(&mut self, render: &mut BTreeSet<String>) {
        let mut buckets: BTreeSet<u64> = std::mem::take(&mut self.left_buckets);
        for id in render.iter() {
            if let Some(c) = self.work.get(id) {
                buckets.insert(c.bucket);
            }
        }
        if buckets.is_empty() {
            return;
        }
        let mut listed = self.claims.bucket_members(&buckets);
        for (id, c) in self
            .work
            .iter()
            .filter(|(_, c)| buckets.contains(&c.bucket))
        {
            listed.entry(c.bucket).or_default().push(id.clone());
        }
        for b in buckets {
            let mut ids = listed.remove(&b).unwrap_or_default();
            ids.sort();
            ids.dedup();
            ids.retain(|id| self.open(id).is_some_and(|c| c.bucket == b));
            let flags = self.flags(&ids);
            for id in ids {
                let flag = flags.get(&id).cloned();
                if let Some(c) = self.work.get_mut(&id)
                    && c.outdated != flag
                {
                    c.outdated = flag;
                    render.insert(id);
                }
            }
        }
    }

    /// The probable-update flags among `ids` (all opened): only promoted claims take part.
    fn flags(&self, ids: &[String]) -> HashMap<String, (String, String)> {
        // Alone in its bucket (most claims), a claim has nothing to be updated by: its
        // status need not be settled to know that.
        if ids.len() < 2 {
            return HashMap::new();
        }
        let mut current = Vec::new();
        for id in ids {
            let Some(c) = self.work.get(id) else { continue };
            let ops = self.ops(id);
            let (s, _) =
                crate::memory::fold::settle(c.first_id(), &c.gated, Some(&c.linked), ops, &|x| {
                    self.known(x)
                });
            if s.status == ClaimStatus::Promoted {
                current.push((id, c, s.promoted_at.unwrap_or_default(), ops));
            }
        }
        // One promoted claim has no newer one to be updated by: its text need not be read.
        if current.len() < 2 {
            return HashMap::new();
        }
        let current: Vec<_> = current
            .into_iter()
            .map(|(id, c, at, ops)| (id, c, at, Shape::of(&c.text), c.ties(ops)))
            .collect();
        let cands: Vec<Candidate> = current
            .iter()
            .map(|(id, c, at, shape, ties)| Candidate {
                id,
                first_id: c.first_id(),
                subject: c.subject.to_lowercase(),
                claim_type: c.ty,
                promoted_at: at,
                shape,
                ties,
                key: c.key(),
                keeps: self
                    .ops(id)
                    .iter()
                    .filter(|o| o.4 == "keep")
                    .map(|o| o.1.as_str())
                    .collect(),
            })
            .collect();
        update::outdated(&cands).into_iter().collect()
    }
}
