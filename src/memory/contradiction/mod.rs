//! Contradiction detection between two claims on one subject (DESIGN §4): the gate makes both
//! claims CONTESTED when a new claim contradicts a promoted one, so a false alarm costs a fleet
//! a fact. The test is therefore conservative, and explainable in two rules:
//!
//! 1. **Negation flip**: the same content words and values, one negated and one not
//!    ("tests need network" / "tests do not need network"; "strict mode is enabled" /
//!    "strict mode is disabled", through a short list of antonyms).
//! 2. **Changed value**: the same content words and negation, with a different value
//!    ("uses Node 20" / "uses Node 22"; "listens on port 8080" / "… 3000"; "30 seconds" /
//!    "60 seconds"). A more precise version is no change ("Node 20" / "Node 20.11.1").
//!
//! What a claim is *about* is part of its words, never a value: identifier-like tokens
//! (`alpha3`, `v2-api`, `#123`, `x86_64`), a number after an id noun ("issue 42", "job 12"),
//! and a number before the claim's verb ("widget 3 requires …", "migration 0042 adds …").
//! So "widget 3 requires flag alpha3" and "widget 4 requires flag alpha4" are two facts.
//! Measured on `tests/data/contradictions.tsv` by the tests beside this module.

mod tokens;
mod words;

use std::borrow::Cow;
use std::collections::BTreeSet;

pub(crate) use tokens::{Tok, is_preposition, lower, predicate_start, tokens, verbish};
use words::ID_NOUNS;
pub(crate) use words::{antonym, has_antonym, stem};

/// A claim's text prepared once for many comparisons.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Statement {
    /// Content words, crudely singularized, antonyms folded; entity numbers as `#N`.
    words: BTreeSet<String>,
    /// Values in the claim's predicate (numbers and versions, with their unit).
    values: BTreeSet<String>,
    negated: bool,
}

impl Statement {
    pub(crate) fn parse(text: &str) -> Self {
        Statement::of_tokens(&tokens(&lower(text)))
    }

    /// The statement of a text already tokenized (`tokens`): a caller that also reads
    /// the text's `Shape` tokenizes it once.
    pub(crate) fn of_tokens(toks: &[Tok]) -> Self {
        let verb = predicate_start(toks);
        let mut s = Statement {
            words: BTreeSet::new(),
            values: BTreeSet::new(),
            negated: false,
        };
        for (i, tok) in toks.iter().enumerate() {
            match tok {
                Tok::Negator => s.negated = !s.negated,
                Tok::Verb | Tok::Filler => {}
                Tok::Word(w) => {
                    let (canon, flip) = antonym(w);
                    s.negated ^= flip;
                    s.words.insert(stem(canon).to_string());
                }
                Tok::Value(v) => {
                    match value_word(toks, i, verb) {
                        Some(w) => s.words.insert(w),
                        None => s.values.insert(v.to_string()),
                    };
                }
            }
        }
        s
    }

    /// The words `of_tokens` would find in `toks`, sorted and each once, borrowed where
    /// they can be: the fold names a claim's group from them without building the rest.
    pub(crate) fn words_of<'a>(toks: &[Tok<'a>]) -> Vec<Cow<'a, str>> {
        let verb = predicate_start(toks);
        let mut words: Vec<Cow<str>> = (toks.iter().enumerate())
            .filter_map(|(i, tok)| match tok {
                Tok::Word(w) => Some(Cow::Borrowed(stem(antonym(w).0))),
                Tok::Value(_) => value_word(toks, i, verb).map(Cow::Owned),
                Tok::Negator | Tok::Verb | Tok::Filler => None,
            })
            .collect();
        words.sort_unstable();
        words.dedup();
        words
    }

    /// Two statements can contradict only when this is equal and `Some` (the content
    /// words): the gate indexes promoted claims by it instead of comparing every pair.
    pub(crate) fn words(&self) -> Option<&BTreeSet<String>> {
        Some(&self.words).filter(|w| !w.is_empty())
    }

    /// The content words, empty or not: half of the gate's group key.
    #[cfg(test)]
    pub(crate) fn all_words(&self) -> &BTreeSet<String> {
        &self.words
    }

    /// Rule 1 or rule 2 of the module header; symmetric.
    pub(crate) fn contradicts(&self, other: &Statement) -> bool {
        if self.words.is_empty() || self.words != other.words {
            return false;
        }
        if self.negated != other.negated {
            return self.values == other.values;
        }
        let only_a: Vec<&String> = self.values.difference(&other.values).collect();
        let only_b: Vec<&String> = other.values.difference(&self.values).collect();
        match (only_a.as_slice(), only_b.as_slice()) {
            ([], _) | (_, []) => false,
            ([a], [b]) => !refines(a, b),
            (a, b) => a.len() == b.len(),
        }
    }
}

/// The value `toks[i]` as a word (`#42`) when it names the thing, before the predicate
/// (`verb`) or after an id noun; `None` when it is a value of the predicate.
fn value_word(toks: &[Tok], i: usize, verb: usize) -> Option<String> {
    let Tok::Value(v) = &toks[i] else {
        return None;
    };
    let named = matches!(i.checked_sub(1).map(|p| &toks[p]),
        Some(Tok::Word(w)) if ID_NOUNS.contains(w));
    (i < verb || named).then(|| format!("#{v}"))
}

/// Whether two claim texts contradict (tests; the gate parses each claim once).
#[cfg(test)]
pub(crate) fn contradicts(a: &str, b: &str) -> bool {
    Statement::parse(a).contradicts(&Statement::parse(b))
}

/// `20` and `20.11.1` (or `20.x` and `20.11`) are the same version said more or less precisely.
fn refines(a: &str, b: &str) -> bool {
    a.split('.').zip(b.split('.')).all(|(x, y)| x == y)
}

#[cfg(test)]
mod embed_eval;
#[cfg(test)]
mod tests;
