//! Probable updates (DESIGN §4): when an agent gave neither `supersedes` nor `key`, the gate
//! may still notice that a newer promoted claim changes an older one, and flag the older
//! (`outdated_by`), never hide it. Precision matters more than recall: two facts that
//! coexist must never be flagged. So the test is narrow, and explainable in four rules:
//!
//! 1. **What it is about is equal**: the words and entity numbers before the first verb
//!    ("the arm64 runners", "widget 3", "the rate limit for admins"), and any environment
//!    or platform named ("in staging", "on Windows"), are the same in both, so "widget 3 is
//!    deprecated" / "widget 4 is now deprecated" are two facts, whatever else they share.
//! 2. **The newer one says it changed**: it holds an update cue the older does not ("now",
//!    "since", "no longer", "instead of", "moved to", "upgraded", "was removed", …).
//! 3. **It does not add**: no additive word ("also", "too", "as well"): "CI now also runs
//!    rustfmt" adds to "CI runs clippy".
//! 4. **Most of the older sentence is restated** (more than half of its content words and
//!    values, verbs left out), and something differs: a value, a word, or the negation
//!    (the changed verb phrase); or all its words are, around a different value.
//!
//! The caller checks the rest of the rule: the same subject and type, both promoted, the
//! newer promoted later. Measured on `tests/data/knowledge_updates.tsv` (tests/cli/updates.rs).

mod head;

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

#[cfg(test)]
pub(crate) use head::bucket;
pub(crate) use head::bucket_of;
use head::{Stripped, head_word, strip, verb_start};

use crate::memory::contradiction::{Tok, lower, stem, tokens};
use crate::vocab::ClaimType;

/// A claim's sentence as the probable-update test compares it.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Shape {
    /// Content words and entity numbers before the predicate: what the claim is about.
    pub head: BTreeSet<String>,
    /// Content words and values, without cues, verbs and prepositions.
    pub content: BTreeSet<String>,
    /// The values of `content` (numbers, versions, sizes, durations).
    pub values: BTreeSet<String>,
    pub negated: bool,
    /// The update cues it holds.
    pub cues: BTreeSet<&'static str>,
    /// It adds to a fact rather than changing one.
    pub additive: bool,
}

/// Verbs that carry no content of their own ("runs on", "takes", "prefer").
const VERBS: &[&str] = &[
    "use", "uses", "used", "need", "needs", "needed", "require", "requires", "required", "run",
    "runs", "take", "takes", "took", "listen", "listens", "live", "lives", "seem", "seems",
    "prefer", "prefers",
];

impl Shape {
    pub(crate) fn of(text: &str) -> Shape {
        Shape::of_tokens(tokens(&lower(text)))
    }

    /// The shape of a text already tokenized (`tokens`): a caller that also reads the
    /// text's `Statement` tokenizes it once.
    pub(crate) fn of_tokens(toks: Vec<Tok>) -> Shape {
        let Stripped {
            kept,
            cues,
            additive,
        } = strip(toks);
        let mut s = Shape {
            cues: cues.into_iter().collect(),
            additive,
            ..Shape::default()
        };
        let start = verb_start(&kept);
        s.head = (0..kept.len())
            .filter_map(|i| head_word(&kept, i, start))
            .map(Cow::into_owned)
            .collect();
        let mut after_aux = false;
        for (i, tok) in kept.iter().enumerate() {
            match tok {
                Tok::Negator => s.negated = !s.negated,
                Tok::Verb => {}
                Tok::Filler => {}
                Tok::Word(w) => {
                    let (canon, flip) = crate::memory::contradiction::antonym(w);
                    s.negated ^= flip;
                    // A state word ("is enabled", "fails") is the fact's value, never a verb.
                    let state = crate::memory::contradiction::has_antonym(w);
                    let verb = !state
                        && (VERBS.contains(w)
                            || (i == start && crate::memory::contradiction::verbish(w))
                            || (after_aux && w.ends_with("ed")));
                    let preposition = crate::memory::contradiction::is_preposition(w);
                    if !verb && !preposition && !flip_only(canon) {
                        s.content.insert(stem(canon).to_string());
                    }
                }
                Tok::Value(v) => {
                    let v = if i < start {
                        format!("#{v}")
                    } else {
                        v.to_string()
                    };
                    s.values.insert(v.clone());
                    s.content.insert(v);
                }
            }
            after_aux = matches!(tok, Tok::Verb);
        }
        s
    }
}

/// An antonym's canonical word says only which way the claim points (kept as negation).
fn flip_only(canon: &str) -> bool {
    canon == "on"
}

/// Whether `new` (promoted later, same subject and type) probably updates `old`.
pub(crate) fn probable_update(old: &Shape, new: &Shape) -> bool {
    if !new.cues.iter().any(|c| !old.cues.contains(c)) || (new.additive && !old.additive) {
        return false;
    }
    if old.head != new.head || old.content.is_empty() {
        return false;
    }
    let shared = old.content.intersection(&new.content).count();
    let most = shared * 2 > old.content.len();
    (most && (old.content != new.content || old.negated != new.negated)) || value_changed(old, new)
}

/// The same words around a different value ("the integration tests take 12 minutes" /
/// "… now take 4 minutes"): a short sentence whose value is half of it still restates it.
fn value_changed(old: &Shape, new: &Shape) -> bool {
    let words = |s: &Shape| {
        s.content
            .difference(&s.values)
            .cloned()
            .collect::<BTreeSet<_>>()
    };
    let w = words(old);
    !w.is_empty() && w == words(new) && !old.values.is_empty() && old.values != new.values
}

/// A promoted claim as the probable-update pass sees it.
pub(crate) struct Candidate<'a> {
    pub id: &'a str,
    pub first_id: &'a str,
    /// Lowercased.
    pub subject: String,
    pub claim_type: ClaimType,
    pub promoted_at: &'a str,
    pub shape: &'a Shape,
    /// The claims it names in `supersedes` or a person said replace it.
    pub ties: &'a BTreeSet<String>,
    pub key: Option<&'a str>,
    /// When a person said to keep it (`memory keep`): claims promoted by then flag it no more.
    pub keeps: Vec<&'a str>,
}

/// For each candidate that a newer one (same subject and type, promoted later, not tied
/// to it by `supersedes` or a key: those wait for the gate) probably updates: the newest
/// such, and when it was promoted. Any candidates; pairs are compared within a subject
/// and type only.
pub(crate) fn outdated(c: &[Candidate]) -> BTreeMap<String, (String, String)> {
    let mut out = BTreeMap::new();
    for o in c {
        let later = |n: &&Candidate| (n.promoted_at, n.first_id) > (o.promoted_at, o.first_id);
        let newest = c
            .iter()
            .filter(|n| n.subject == o.subject && n.claim_type == o.claim_type)
            .filter(later)
            .filter(|n| !o.ties.contains(n.id) && !n.ties.contains(o.id))
            .filter(|n| o.key.is_none() || o.key != n.key)
            .filter(|n| !o.keeps.iter().any(|k| *k >= n.promoted_at))
            .filter(|n| probable_update(o.shape, n.shape))
            .max_by(|a, b| (a.promoted_at, a.first_id).cmp(&(b.promoted_at, b.first_id)));
        if let Some(n) = newest {
            out.insert(
                o.id.to_string(),
                (n.id.to_string(), n.promoted_at.to_string()),
            );
        }
    }
    out
}

#[cfg(test)]
#[path = "update_tests.rs"]
mod tests;
