//! The fold's claims in the full fold's order (by first proposal id), as small entries
//! holding what every run reads (id, first proposal id, gate group, probable-update
//! bucket, subject, hash, status) and the claim's detail as unparsed JSON. A run parses only the details of
//! the claims it touches, so loading, saving and freeing 100k claims costs a few
//! allocations each instead of dozens.

use std::collections::{BTreeSet, HashMap, HashSet};

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::claim::Claim;
use crate::vocab::ClaimStatus;

/// (id, first proposal id, group, bucket, subject name, hash, status, detail).
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Entry(
    pub String,
    pub String,
    pub u64,
    pub u64,
    pub u64,
    pub String,
    pub ClaimStatus,
    pub Box<RawValue>,
);

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub(crate) struct List {
    entries: Vec<Entry>,
    /// Position by claim id; rebuilt after a load (`reindex`).
    #[serde(skip)]
    index: HashMap<String, usize>,
}

/// The name the timeline groups a subject by (ASCII case folded, as its reader does).
pub(crate) fn subject_name(subject: &str) -> u64 {
    crate::digest::sha256_u64(subject.to_ascii_lowercase().as_bytes())
}

impl List {
    pub fn reindex(&mut self) {
        self.index = self
            .entries
            .iter()
            .enumerate()
            .map(|(i, e)| (e.0.clone(), i))
            .collect();
    }

    /// Every id once, in order of first proposal, and every detail parses.
    pub fn is_whole(&self) -> bool {
        self.index.len() == self.entries.len()
            && self.entries.windows(2).all(|w| w[0].1 <= w[1].1)
            && (0..self.entries.len()).all(|i| self.parse(i).is_some())
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    pub fn position(&self, id: &str) -> Option<usize> {
        self.index.get(id).copied()
    }

    /// The newest first proposal id (the last claim in order).
    pub fn last_first(&self) -> Option<String> {
        self.entries.last().map(|e| e.1.clone())
    }

    /// Entry `i`'s claim, parsed; `None` if its detail does not parse.
    pub fn parse(&self, i: usize) -> Option<Claim> {
        let e = self.entries.get(i)?;
        let mut c: Claim = serde_json::from_str(e.7.get()).ok()?;
        c.group = e.2;
        c.bucket = e.3;
        c.hash = e.5.clone();
        c.status = Some(e.6);
        Some(c)
    }

    /// The ids of the claims listed in each of `groups`, in one pass over the list.
    pub fn members(&self, groups: &BTreeSet<u64>) -> HashMap<u64, Vec<String>> {
        let groups: HashSet<u64> = groups.iter().copied().collect();
        let mut out: HashMap<u64, Vec<String>> = HashMap::new();
        for e in self.entries.iter().filter(|e| groups.contains(&e.2)) {
            out.entry(e.2).or_default().push(e.0.clone());
        }
        out
    }

    /// The ids of the claims listed in each of `buckets`, in one pass over the list.
    pub fn bucket_members(&self, buckets: &BTreeSet<u64>) -> HashMap<u64, Vec<String>> {
        let buckets: HashSet<u64> = buckets.iter().copied().collect();
        let mut out: HashMap<u64, Vec<String>> = HashMap::new();
        for e in self.entries.iter().filter(|e| buckets.contains(&e.3)) {
            out.entry(e.3).or_default().push(e.0.clone());
        }
        out
    }

    /// The positions of the claims whose subject is named one of `names`.
    pub fn with_subjects(&self, names: &HashSet<u64>) -> Vec<usize> {
        (0..self.entries.len())
            .filter(|&i| names.contains(&self.entries[i].4))
            .collect()
    }

    /// Write `work` (parsed and changed claims) back, keeping the claims in order.
    pub fn store(&mut self, work: HashMap<String, Claim>) {
        let mut resort = false;
        // New claims in order of first proposal: appended after the newest listed one,
        // as a first fold's are, they keep the list sorted without a sort of all of it.
        let mut work: Vec<(String, Claim)> = work.into_iter().collect();
        work.sort_unstable_by(|a, b| a.1.first_id().cmp(b.1.first_id()));
        for (id, c) in work {
            let Ok(detail) = serde_json::value::to_raw_value(&c) else {
                continue; // cannot happen: a claim is strings and numbers
            };
            let entry = Entry(
                id.clone(),
                c.first_id().to_string(),
                c.group,
                c.bucket,
                subject_name(&c.subject),
                c.hash.clone(),
                c.status.unwrap_or(ClaimStatus::Proposed),
                detail,
            );
            match self.index.get(&id) {
                Some(&i) => {
                    resort |= self.entries[i].1 != entry.1;
                    self.entries[i] = entry;
                }
                None => {
                    resort |= self.entries.last().is_some_and(|l| l.1 > entry.1);
                    self.index.insert(id, self.entries.len());
                    self.entries.push(entry);
                }
            }
        }
        if resort {
            self.entries.sort_by(|a, b| a.1.cmp(&b.1));
            self.reindex();
        }
    }
}
