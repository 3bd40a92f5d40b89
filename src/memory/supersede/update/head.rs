//! What a claim is about, as the probable-update test reads it: its text with the update
//! cues taken out, the words before its verb (and its scope words), and the bucket they
//! name with its subject and type. A fold places every new claim by the bucket alone.

use std::borrow::Cow;

use super::VERBS;
use crate::memory::contradiction::{Tok, stem};
use crate::vocab::ClaimType;

/// Words that say a fact changed, besides the verb cues below. `no longer`, `not anymore`
/// also negate, as they should.
const CUES: &[&str] = &["now", "since", "anymore", "longer", "instead"];
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

/// A text's tokens with its update cues and additive words taken out.
pub(super) struct Stripped<'a> {
    pub kept: Vec<Tok<'a>>,
    pub cues: Vec<&'static str>,
    pub additive: bool,
}

pub(super) fn strip(mut toks: Vec<Tok<'_>>) -> Stripped<'_> {
    let mut out = Stripped {
        kept: Vec::with_capacity(toks.len()),
        cues: Vec::new(),
        additive: false,
    };
    let kept = &mut out.kept;
    let mut i = 0;
    while i < toks.len() {
        let word = match &toks[i] {
            Tok::Word(w) => Some(*w),
            _ => None,
        };
        if let Some(w) = word {
            // `longer` and `anymore` say a change only when negated: "no longer",
            // "not … anymore".
            let negated = match w {
                "longer" => matches!(kept.last(), Some(Tok::Negator)),
                _ => kept.contains(&Tok::Negator),
            };
            let cue = (CUES.iter().chain(VERB_CUES))
                .copied()
                .find(|c| *c == w && (negated || !NEGATED_CUES.contains(c)));
            if let Some(c) = cue {
                out.cues.push(c);
                if VERB_CUES.contains(&c) {
                    kept.push(Tok::Verb);
                }
                // `instead of`: the object stays, the connective goes.
                let of = matches!(toks.get(i + 1), Some(Tok::Word(n)) if *n == "of");
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
pub(super) fn head_word<'a>(kept: &[Tok<'a>], i: usize, start: usize) -> Option<Cow<'a, str>> {
    match &kept[i] {
        Tok::Word(w) => {
            let canon = crate::memory::contradiction::antonym(w).0;
            let preposition = crate::memory::contradiction::is_preposition(w);
            ((i < start && !preposition) || SCOPES.contains(w)).then(|| Cow::Borrowed(stem(canon)))
        }
        Tok::Value(v) => (i < start).then(|| Cow::Owned(format!("#{v}"))),
        Tok::Negator | Tok::Verb | Tok::Filler => None,
    }
}

/// Where the first verb is: an auxiliary or `=`, a verb cue, a verb of [`VERBS`], or a
/// plain word ending in -s or -ed that follows a noun (after an article or a preposition
/// it is a plural: "the runners", "for admins"). Everything before it, a prepositional
/// qualifier included ("the rate limit for admins"), is what the claim is about.
pub(super) fn verb_start(toks: &[Tok]) -> usize {
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
                VERBS.contains(w) || (after_noun && verbish(w))
            }
            _ => false,
        })
        .unwrap_or(toks.len())
}

fn kept_ends_with(kept: &[Tok], w: &str) -> bool {
    matches!(kept.last(), Some(Tok::Word(l)) if *l == w)
}

/// The bucket a claim's probable updates can come from, as its whole `shape` names it
/// (the tests hold `bucket_of` to it).
#[cfg(test)]
pub(crate) fn bucket(subject: &str, ty: ClaimType, shape: &super::Shape) -> u64 {
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
