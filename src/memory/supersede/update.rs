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

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use crate::memory::contradiction::{Tok, stem, tokens};
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

/// Words that say a fact changed. `no longer`, `not anymore` also negate, as they should.
const CUES: &[&str] = &[
    "now",
    "since",
    "anymore",
    "longer",
    "instead",
    "upgraded",
    "downgraded",
    "moved",
    "migrated",
    "switched",
    "replaced",
    "removed",
    "dropped",
    "renamed",
    "bumped",
    "changed",
    "reverted",
];
/// Cues that are verbs: they mark where the predicate starts ("the URL moved to …").
const VERB_CUES: &[&str] = &[
    "upgraded",
    "downgraded",
    "moved",
    "migrated",
    "switched",
    "replaced",
    "removed",
    "dropped",
    "renamed",
    "bumped",
    "changed",
    "reverted",
];
/// Cues that need a negator before them.
const NEGATED_CUES: &[&str] = &["longer", "anymore"];
/// Words that add a fact to another.
const ADDITIVE: &[&str] = &["also", "too", "additionally", "well", "another", "both"];
/// Where a fact holds, wherever the sentence says it: an environment, a platform, a
/// browser. Two claims naming different ones are about different things ("on in staging" /
/// "now on in production"), so these words are part of the head.
const SCOPES: &[&str] = &[
    "production",
    "prod",
    "staging",
    "stage",
    "dev",
    "development",
    "test",
    "testing",
    "qa",
    "local",
    "preview",
    "linux",
    "macos",
    "mac",
    "windows",
    "ios",
    "android",
    "arm64",
    "aarch64",
    "x86",
    "x86_64",
    "amd64",
    "chrome",
    "chromium",
    "firefox",
    "safari",
    "edge",
];
/// Verbs that carry no content of their own ("runs on", "takes", "prefer").
const VERBS: &[&str] = &[
    "use", "uses", "used", "need", "needs", "needed", "require", "requires", "required", "run",
    "runs", "take", "takes", "took", "listen", "listens", "live", "lives", "seem", "seems",
    "prefer", "prefers",
];

impl Shape {
    pub(crate) fn of(text: &str) -> Shape {
        Shape::of_tokens(tokens(text))
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
                        && (VERBS.contains(&w.as_str())
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
                        v.clone()
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

/// A text's tokens with its update cues and additive words taken out.
struct Stripped {
    kept: Vec<Tok>,
    cues: Vec<&'static str>,
    additive: bool,
}

fn strip(mut toks: Vec<Tok>) -> Stripped {
    let mut out = Stripped {
        kept: Vec::with_capacity(toks.len()),
        cues: Vec::new(),
        additive: false,
    };
    let kept = &mut out.kept;
    let mut i = 0;
    while i < toks.len() {
        let word = match &toks[i] {
            Tok::Word(w) => Some(w.as_str()),
            _ => None,
        };
        if let Some(w) = word {
            // `longer` and `anymore` say a change only when negated: "no longer",
            // "not … anymore".
            let negated = match w {
                "longer" => matches!(kept.last(), Some(Tok::Negator)),
                _ => kept.contains(&Tok::Negator),
            };
            let cue = CUES
                .iter()
                .copied()
                .find(|c| *c == w && (negated || !NEGATED_CUES.contains(c)));
            if let Some(c) = cue {
                out.cues.push(c);
                if VERB_CUES.contains(&c) {
                    kept.push(Tok::Verb);
                }
                // `instead of`: the object stays, the connective goes.
                let of = matches!(toks.get(i + 1), Some(Tok::Word(n)) if n == "of");
                i += 1 + usize::from(c == "instead" && of);
                continue;
            }
            if ADDITIVE.contains(&w) && (w != "well" || kept_ends_with(kept, "as")) {
                out.additive = true;
                i += 1;
                continue;
            }
        }
        // Moved, not copied: only tokens after `i` are looked at again.
        kept.push(std::mem::replace(&mut toks[i], Tok::Filler));
        i += 1;
    }
    out
}

/// What `kept[i]` adds to a shape's head (`start`: where its verb is): content words and
/// entity numbers before the verb, and scope words wherever they are.
fn head_word(kept: &[Tok], i: usize, start: usize) -> Option<Cow<'_, str>> {
    match &kept[i] {
        Tok::Word(w) => {
            let canon = crate::memory::contradiction::antonym(w).0;
            let preposition = crate::memory::contradiction::is_preposition(w);
            ((i < start && !preposition) || SCOPES.contains(&w.as_str()))
                .then(|| Cow::Borrowed(stem(canon)))
        }
        Tok::Value(v) => (i < start).then(|| Cow::Owned(format!("#{v}"))),
        Tok::Negator | Tok::Verb | Tok::Filler => None,
    }
}

/// Where the first verb is: an auxiliary or `=`, a verb cue, a verb of [`VERBS`], or a
/// plain word ending in -s or -ed that follows a noun (after an article or a preposition
/// it is a plural: "the runners", "for admins"). Everything before it, a prepositional
/// qualifier included ("the rate limit for admins"), is what the claim is about.
fn verb_start(toks: &[Tok]) -> usize {
    use crate::memory::contradiction::{is_preposition, verbish};
    toks.iter()
        .enumerate()
        .position(|(i, t)| match t {
            Tok::Verb => true,
            Tok::Word(w) => {
                let after_noun = match i.checked_sub(1).map(|p| &toks[p]) {
                    Some(Tok::Word(p)) => !is_preposition(p),
                    Some(Tok::Value(_) | Tok::Negator) => true,
                    _ => false,
                };
                VERBS.contains(&w.as_str()) || (after_noun && verbish(w))
            }
            _ => false,
        })
        .unwrap_or(toks.len())
}

/// An antonym's canonical word says only which way the claim points (kept as negation).
fn flip_only(canon: &str) -> bool {
    canon == "on"
}

fn kept_ends_with(kept: &[Tok], w: &str) -> bool {
    matches!(kept.last(), Some(Tok::Word(l)) if l == w)
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

/// The bucket a claim's probable updates can come from, as its whole `shape` names it
/// (the tests hold `bucket_of` to it).
#[cfg(test)]
pub(crate) fn bucket(subject: &str, ty: ClaimType, shape: &Shape) -> u64 {
    bucket_of_head(subject, ty, shape.head.iter().map(String::as_str))
}

/// The bucket a claim's probable updates can come from: its subject (lowercased), type
/// and head (`Shape::head`), read from the tokens of its text without the rest of its
/// shape. Two buckets sharing a name only cost a larger recompute.
pub(crate) fn bucket_of(subject: &str, ty: ClaimType, toks: Vec<Tok>) -> u64 {
    let kept = strip(toks).kept;
    let start = verb_start(&kept);
    let mut head: Vec<Cow<str>> = (0..kept.len())
        .filter_map(|i| head_word(&kept, i, start))
        .collect();
    head.sort_unstable();
    head.dedup();
    bucket_of_head(subject, ty, head.iter().map(|w| w.as_ref()))
}

/// `head`: sorted, each once (as a set iterates).
fn bucket_of_head<'a>(subject: &str, ty: ClaimType, head: impl Iterator<Item = &'a str>) -> u64 {
    let mut text = format!("{}\u{1}{}", subject.to_lowercase(), ty.as_str());
    for w in head {
        text.push('\u{1}');
        text.push_str(w);
    }
    crate::digest::sha256_u64(text.as_bytes())
}

#[cfg(test)]
#[path = "update_tests.rs"]
mod tests;
