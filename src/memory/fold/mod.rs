//! The gate as an incremental fold. `State` holds, per claim, the events the gate reads
//! (its proposals, the first time each session was shown it, a person's word on it) and
//! what the gate made of it; applying new events, in any order, recomputes only the
//! claims, contradiction groups, supersede chains (`links`) and probable-update buckets
//! they touch. The result equals the full fold of every event (`memory::gate::fold`, kept
//! as the reference the tests hold this to), so `maint` folds 1k new events on top of
//! 100k in milliseconds instead of refolding history.

mod claim;
mod events;
mod group;
mod links;
mod list;
mod settle;
mod view;

pub(crate) use claim::{Gated, Links, Op, SortKey};
pub(crate) use settle::settle;

use std::collections::{BTreeSet, HashMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::memory::event::Event;
use crate::spool::RecordKind;
use claim::Claim;

#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct State {
    /// The claims, in order, each parsed only when needed.
    claims: list::List,
    /// `shown_key(session, claim id)` → the lowest-id event that showed it that claim: (id, at).
    shown: HashMap<String, (String, String)>,
    /// A person's words by claim id (the claim may not exist yet), in id order.
    operators: HashMap<String, Vec<Op>>,
    /// A digest of every event id applied: a second copy of an event changes nothing.
    seen: HashSet<u128>,
    /// Claim id → the claims whose proposals name it in `supersedes`.
    #[serde(default)]
    named_by: HashMap<String, BTreeSet<String>>,
    /// Key → the claims holding it.
    #[serde(default)]
    keyed: HashMap<String, BTreeSet<String>>,
    /// Claim id → the claims a person said it replaces (`memory supersede OLD --by ID`).
    #[serde(default)]
    replaces: HashMap<String, BTreeSet<String>>,
    /// What changed since the snapshot this state last built (`view`).
    pending: view::Pending,
    /// The claims this apply parsed or created, written back to `claims` at its end.
    #[serde(skip)]
    work: HashMap<String, Claim>,
    /// Groups a claim left during this apply: their gate runs again too.
    #[serde(skip)]
    left: BTreeSet<u64>,
    /// Probable-update buckets a claim left during this apply.
    #[serde(skip)]
    left_buckets: BTreeSet<u64>,
    /// Claims whose chains moved though they were not touched (a key's holder left).
    #[serde(skip)]
    relink: BTreeSet<String>,
}

/// An event id as `seen` holds it: 128 bits of its SHA-256.
fn seen_key(id: &str) -> u128 {
    crate::digest::sha256_u128(id.as_bytes())
}

impl State {
    /// Rebuild the index a deserialized state does not carry.
    pub(crate) fn reindex(&mut self) {
        self.claims.reindex();
    }

    /// Whether a state read from the lake is whole (see `list::List::is_whole`).
    pub(crate) fn is_whole(&self) -> bool {
        self.claims.is_whole()
    }

    /// Events applied so far (distinct ids).
    pub(crate) fn events(&self) -> usize {
        self.seen.len()
    }

    pub(crate) fn claim_count(&self) -> usize {
        self.claims.len()
    }

    /// Whether the event `id` was folded.
    pub(crate) fn has(&self, id: &str) -> bool {
        self.seen.contains(&seen_key(id))
    }

    /// Fold `events` in; returns how many were new. Order does not matter.
    pub(crate) fn apply(&mut self, events: impl IntoIterator<Item = Event>) -> usize {
        let last = self.claims.last_first();
        let (mut touched, mut fresh) = (BTreeSet::new(), 0);
        for e in events {
            if !self.seen.insert(seen_key(&e.id)) {
                continue;
            }
            fresh += 1;
            match e.kind {
                RecordKind::MemoryShown => self.shown_to(&e, &mut touched),
                RecordKind::MemoryPropose => self.propose(e, &mut touched),
                RecordKind::MemoryOperator => self.operator(e, &mut touched),
                _ => {}
            }
        }
        if !touched.is_empty() {
            self.recompute(&touched, last.as_deref());
        }
        self.claims.store(std::mem::take(&mut self.work));
        fresh
    }

    /// `apply` in rounds of at most `round` events, each round's claims written back to
    /// the list before the next is read: a first fold of 100k events holds one round's
    /// claims parsed, not every claim of the fleet. The result is `apply`'s (order does
    /// not matter); a round re-reads only the earlier claims its groups and buckets hold.
    pub(crate) fn apply_in_rounds(
        &mut self,
        events: impl IntoIterator<Item = Event>,
        round: usize,
    ) -> usize {
        let mut events = events.into_iter().peekable();
        let mut fresh = 0;
        while events.peek().is_some() {
            fresh += self.apply(events.by_ref().take(round.max(1)));
        }
        fresh
    }

    /// The claim `id`, parsed into `work` (where it is changed and written back).
    fn open(&mut self, id: &str) -> Option<&mut Claim> {
        if !self.work.contains_key(id) {
            let c = self.claims.parse(self.claims.position(id)?)?;
            self.work.insert(id.to_string(), c);
        }
        self.work.get_mut(id)
    }

    /// Re-run pass 2 for every group holding a touched claim (and every group a claim
    /// left), then re-render each claim whose inputs or gate result may have moved.
    /// `last`: the newest first id before this apply; a new claim sorting before it
    /// changes the claims' order.
    fn recompute(&mut self, touched: &BTreeSet<String>, last: Option<&str>) {
        let mut groups: BTreeSet<u64> = std::mem::take(&mut self.left);
        let mut render: BTreeSet<String> = BTreeSet::new();
        for id in touched {
            if let Some(c) = self.open(id) {
                let moved = c.hash.is_empty() && last.is_some_and(|l| c.first_id() < l);
                groups.insert(c.group);
                self.pending.reordered |= moved;
                render.insert(id.clone());
            }
        }
        // Each group's members: listed ones, and those parsed or new in this apply.
        let mut listed = self.claims.members(&groups);
        for (id, c) in self.work.iter().filter(|(_, c)| groups.contains(&c.group)) {
            listed.entry(c.group).or_default().push(id.clone());
        }
        for g in groups {
            let mut ids = listed.remove(&g).unwrap_or_default();
            ids.sort();
            ids.dedup();
            ids.retain(|id| self.open(id).is_some_and(|c| c.group == g));
            let decided = {
                let ties: Vec<BTreeSet<String>> = ids
                    .iter()
                    .map(|id| {
                        let ops = self.ops(id);
                        self.work.get(id).map(|c| c.ties(ops)).unwrap_or_default()
                    })
                    .collect();
                let members: Vec<group::Member> = ids
                    .iter()
                    .zip(&ties)
                    .filter_map(|(id, ties)| {
                        let claim = self.work.get(id)?;
                        let independent = claim.independent(|s| shown_at(&self.shown, s, id));
                        let promotes_at = claim.promotes_at(&independent);
                        Some(group::Member {
                            id,
                            claim,
                            promotes_at,
                            ties,
                        })
                    })
                    .collect();
                group::decide(&members)
            };
            for (id, gated) in decided {
                if let Some(c) = self.work.get_mut(&id)
                    && c.gated != gated
                {
                    c.gated = gated;
                    render.insert(id);
                }
            }
        }
        self.relink(&mut render);
        self.reflag(&mut render);
        for id in render {
            self.rerender(&id);
        }
    }

    /// A person's words on claim `id`, in id order.
    fn ops(&self, id: &str) -> &[Op] {
        self.operators
            .get(id)
            .map(Vec::as_slice)
            .unwrap_or_default()
    }

    /// Whether claim `id` exists (parsed in this apply or listed).
    fn known(&self, id: &str) -> bool {
        self.work.contains_key(id) || self.claims.position(id).is_some()
    }

    /// Render one claim again; a changed hash makes it (and its subject's timeline) pending.
    fn rerender(&mut self, id: &str) {
        let Some(c) = self.work.get(id) else {
            return;
        };
        let (row, timeline) = self.render(id, c);
        let hash = claim::hash(&row, &timeline);
        let changed = hash != c.hash;
        if changed {
            self.pending.changed(id, &row.subject);
        }
        if let Some(c) = self.work.get_mut(id) {
            c.hash = hash;
            c.status = Some(row.status);
        }
    }

    fn render(
        &self,
        id: &str,
        c: &Claim,
    ) -> (
        crate::snapshot::rows::ClaimRow,
        Vec<(claim::SortKey, crate::snapshot::rows::EventRow)>,
    ) {
        let independent = c.independent(|s| shown_at(&self.shown, s, id)).len();
        c.render(id, independent, self.ops(id), &|x| self.known(x))
    }
}

fn shown_at(
    shown: &HashMap<String, (String, String)>,
    session: &str,
    claim: &str,
) -> Option<(String, String)> {
    if shown.is_empty() {
        return None; // no key to format: a fleet whose agents never searched
    }
    shown.get(&shown_key(session, claim)).cloned()
}

/// One (session, claim) pair as a map key: the session's length first, so no two pairs
/// share a key whatever bytes a session holds.
fn shown_key(session: &str, claim: &str) -> String {
    format!("{}:{session}{claim}", session.len())
}

/// The gate group and probable-update bucket of a claim, from one tokenizing of its text.
/// (The gate and the probable-update pass read the text again only for a group or bucket
/// holding other claims: alone in one, a claim has nothing to be compared with.)
fn places(subject: &str, ty: crate::vocab::ClaimType, text: &str) -> (u64, u64) {
    use crate::memory::{contradiction, supersede::update};
    let lowered = contradiction::lower(text);
    let toks = contradiction::tokens(&lowered);
    let words = contradiction::Statement::words_of(&toks);
    let group = group::name(&subject.to_lowercase(), words.iter().map(|w| w.as_ref()));
    (group, update::bucket_of(subject, ty, toks))
}

#[cfg(test)]
mod tests;
