//! What the incremental fold hands the snapshot build: the whole folded state (a full
//! build), or only what changed since the snapshot it last built (a patch), and the
//! digest that names the state.

use std::collections::{BTreeSet, HashSet};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::State;
use super::claim::SortKey;
use super::list::subject_name;
use crate::config::MemoryMode;
#[cfg(test)]
use crate::memory::gate::Folded;
use crate::snapshot::build::Rendered;
use crate::snapshot::delta::Delta;
use crate::snapshot::rows::EventRow;
use crate::vocab::ClaimStatus;

/// What changed since the snapshot this state last built.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct Pending {
    /// That snapshot's id and claim count: what a patch starts from.
    pub base: Option<(String, usize)>,
    /// Claims whose row or timeline changed.
    pub claims: BTreeSet<String>,
    /// Timeline subjects whose rows changed, ASCII-lowercased as the reader groups them.
    pub subjects: BTreeSet<String>,
    /// A claim's place in the order moved: only a full build matches.
    pub reordered: bool,
}

impl Pending {
    /// Nothing is recorded before a first build: only a full build follows (`delta`).
    pub fn changed(&mut self, id: &str, subject: &str) {
        if self.base.is_some() {
            self.claims.insert(id.to_string());
            self.subject(subject);
        }
    }

    pub fn subject(&mut self, subject: &str) {
        if self.base.is_some() {
            self.subjects.insert(subject.to_ascii_lowercase());
        }
    }
}

impl State {
    /// The state's name: a digest over the memory mode and every claim's rendering, in
    /// claim order (each claim's hash covers its row and its timeline's sort keys).
    pub(crate) fn digest(&self, mode: MemoryMode) -> String {
        let mut h = Sha256::new();
        h.update(mode.as_str().as_bytes());
        h.update([0]);
        for e in self.claims.entries() {
            h.update(e.5.as_bytes());
        }
        crate::digest::hex(&h.finalize())
    }

    /// Claims promoted and contested, after a person's word.
    pub(crate) fn counts(&self) -> (usize, usize) {
        let of = |s: ClaimStatus| self.claims.entries().iter().filter(|e| e.6 == s).count();
        (of(ClaimStatus::Promoted), of(ClaimStatus::Contested))
    }

    /// Every claim and the whole timeline, as the full fold gives them (the tests'
    /// reference; `maint` streams `rendered` instead).
    #[cfg(test)]
    pub(crate) fn folded(&self) -> Folded {
        let mut out = Folded::default();
        let mut events: Vec<(SortKey, EventRow)> = Vec::new();
        for (row, timeline) in self.rendered() {
            out.claims.push(row);
            events.extend(timeline);
        }
        events.sort_by(|a, b| a.0.cmp(&b.0));
        out.events = events.into_iter().map(|(_, e)| e).collect();
        out
    }

    /// Each claim's row and timeline in claim order, rendered as it is taken: what
    /// `folded` collects, for a build that streams them (`snapshot::build::build_streamed`).
    pub(crate) fn rendered(&self) -> impl Iterator<Item = Rendered> + '_ {
        let entries = self.claims.entries().iter().enumerate();
        entries.filter_map(|(i, e)| {
            let c = self.claims.parse(i)?;
            Some(self.render(&e.0, &c))
        })
    }

    /// What changed since the last build, if a patch of it can express the change: the
    /// state built before, and no claim moved in the order.
    pub(crate) fn delta(&self) -> Option<Delta> {
        let p = &self.pending;
        let (base, base_claims) = p.base.clone().filter(|_| !p.reordered)?;
        let mut claims = Vec::new();
        for (i, e) in self.claims.entries().iter().enumerate() {
            if p.claims.contains(&e.0) {
                let c = self.claims.parse(i)?;
                claims.push((i, self.render(&e.0, &c).0));
            }
        }
        let mut subjects: Vec<(String, Vec<(SortKey, EventRow)>)> =
            p.subjects.iter().map(|s| (s.clone(), Vec::new())).collect();
        let names: HashSet<u64> = p.subjects.iter().map(|s| subject_name(s)).collect();
        for i in self.claims.with_subjects(&names) {
            let c = self.claims.parse(i)?;
            let key = c.subject.to_ascii_lowercase();
            if let Ok(at) = subjects.binary_search_by(|(s, _)| s.cmp(&key)) {
                let id = &self.claims.entries()[i].0;
                subjects[at].1.extend(self.render(id, &c).1);
            }
        }
        let subjects = subjects
            .into_iter()
            .map(|(s, mut rows)| {
                rows.sort_by(|a, b| a.0.cmp(&b.0));
                (s, rows.into_iter().map(|(_, e)| e).collect())
            })
            .collect();
        Some(Delta {
            base_snapshot_id: base,
            base_claims,
            total: self.claims.len(),
            claims,
            subjects,
        })
    }

    /// Forget which snapshot this state last built (it came from another host): the next
    /// build is a full one.
    pub(crate) fn forget_builds(&mut self) {
        self.pending = Pending::default();
    }

    /// The snapshot `snapshot_id` now holds this state: later changes patch it.
    pub(crate) fn built(&mut self, snapshot_id: &str) {
        self.pending = Pending {
            base: Some((snapshot_id.to_string(), self.claims.len())),
            ..Pending::default()
        };
    }
}
