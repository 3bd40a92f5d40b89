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

use std::collections::BTreeSet;

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
        let toks = tokens(text);
        let verb = predicate_start(&toks);
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
                    let named = matches!(i.checked_sub(1).map(|p| &toks[p]),
                        Some(Tok::Word(w)) if ID_NOUNS.contains(&w.as_str()));
                    if i < verb || named {
                        s.words.insert(format!("#{v}"));
                    } else {
                        s.values.insert(v.clone());
                    }
                }
            }
        }
        s
    }

    /// Two statements can contradict only when this is equal and `Some` (the content
    /// words): the gate indexes promoted claims by it instead of comparing every pair.
    pub(crate) fn words(&self) -> Option<&BTreeSet<String>> {
        Some(&self.words).filter(|w| !w.is_empty())
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

/// Whether two claim texts contradict (tests; the gate parses each claim once).
#[cfg(test)]
pub(crate) fn contradicts(a: &str, b: &str) -> bool {
    Statement::parse(a).contradicts(&Statement::parse(b))
}

/// A claim's text as lowercased, classified tokens, a value and its unit merged (`30s`).
/// The probable-update test (`memory::supersede::update`) reads claims the same way.
pub(crate) fn tokens(text: &str) -> Vec<Tok> {
    merge_units(lex(text).iter().map(|t| classify(t)).collect())
}

/// Where the predicate of `toks` starts (its length when nothing starts one).
pub(crate) fn predicate_start(toks: &[Tok]) -> usize {
    toks.iter()
        .enumerate()
        .position(|(i, t)| starts_predicate(t, i))
        .unwrap_or(toks.len())
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    Negator,
    /// Articles and fillers: no content.
    Filler,
    /// Auxiliaries and `=`: no content, but the predicate starts here.
    Verb,
    Word(String),
    Value(String),
}

/// Lower-cased tokens; `-j8` becomes `j 8`, and `=` or `: ` a token of its own.
fn lex(text: &str) -> Vec<String> {
    let s = text
        .to_lowercase()
        .replace("can't", "can not")
        .replace("won't", "will not")
        .replace("n't", " not")
        .replace("cannot", "can not")
        .replace('=', " = ")
        .replace(": ", " = ");
    let keep = |c: char| c.is_alphanumeric() || "._-/#%=".contains(c);
    let mut out = Vec::new();
    for raw in s.split(|c: char| !keep(c)) {
        let flag = raw.starts_with('-');
        let t = raw.trim_end_matches('.').trim_matches('-');
        match t.char_indices().nth(1) {
            // A short option with its value glued on: `-j8`, `-n4`.
            Some((i, _)) if flag && t[i..].bytes().all(|b| b.is_ascii_digit()) => {
                out.push(t[..i].to_string());
                out.push(t[i..].to_string());
            }
            _ if t.is_empty() => {}
            _ => out.push(t.to_string()),
        }
    }
    out
}

fn classify(t: &str) -> Tok {
    match t {
        "not" | "no" | "never" | "none" | "without" => Tok::Negator,
        "=" => Tok::Verb,
        t if AUXILIARIES.contains(&t) => Tok::Verb,
        t if FILLERS.contains(&t) => Tok::Filler,
        t => value(t).map_or_else(|| Tok::Word(t.to_string()), Tok::Value),
    }
}

/// A number or version (`20`, `v1.2.3`, `20.x`), with an optional unit glued on (`512mb`,
/// `30s`, `80%`), normalized so that `30 seconds` and `30s` are one value. Anything else
/// holding a digit (`alpha3`, `x86_64`, `e0502`, `1.0.0-beta`) is an identifier, not a value.
fn value(t: &str) -> Option<String> {
    let t = match t.strip_prefix('v') {
        Some(rest) if rest.starts_with(|c: char| c.is_ascii_digit()) => rest,
        _ => t,
    };
    if !t.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    if is_date(t) {
        return Some(t.to_string());
    }
    let end = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, suffix) = t.split_at(end);
    match suffix {
        "" => Some(num.trim_end_matches('.').to_string()),
        // `20.x`: any 20, which `refines` treats as the prefix it is.
        "x" | "*" if num.ends_with('.') => Some(num.trim_end_matches('.').to_string()),
        _ if num.ends_with('.') => None,
        u => unit(u).map(|u| format!("{num}{u}")),
    }
}

/// `2024-01-31`: a date is a value, though it is not a plain number.
fn is_date(t: &str) -> bool {
    let b = t.as_bytes();
    b.len() == 10
        && b.iter().enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                *c == b'-'
            } else {
                c.is_ascii_digit()
            }
        })
}

/// `30 seconds` → `30s`: a bare value followed by a unit word takes the unit.
fn merge_units(toks: Vec<Tok>) -> Vec<Tok> {
    let mut out: Vec<Tok> = Vec::with_capacity(toks.len());
    for tok in toks {
        if let (Some(Tok::Value(v)), Tok::Word(w)) = (out.last_mut(), &tok)
            && v.bytes().all(|b| b.is_ascii_digit() || b == b'.')
            && let Some(u) = unit(w)
        {
            v.push_str(u);
            continue;
        }
        out.push(tok);
    }
    out
}

fn unit(u: &str) -> Option<&'static str> {
    UNITS
        .iter()
        .find(|(_, spellings)| spellings.contains(&u))
        .map(|(canon, _)| *canon)
}

/// Where the predicate starts: an auxiliary or `=`, a preposition, a common claim verb, or
/// (after the first word) a plain word ending in -s or -ed ("requires", "timed").
fn starts_predicate(t: &Tok, i: usize) -> bool {
    match t {
        Tok::Verb => true,
        Tok::Word(w) => is_preposition(w) || VERBS.contains(&w.as_str()) || (i > 0 && verbish(w)),
        _ => false,
    }
}

/// A plain word ending in -s or -ed, as verbs in claims mostly do ("requires", "timed").
pub(crate) fn verbish(w: &str) -> bool {
    w.len() > 3
        && w.bytes().all(|b| b.is_ascii_alphabetic())
        && (w.ends_with("ed")
            || (w.ends_with('s') && !["ss", "us", "is"].iter().any(|e| w.ends_with(e))))
}

pub(crate) fn is_preposition(w: &str) -> bool {
    PREPOSITIONS.contains(&w)
}

/// `20` and `20.11.1` (or `20.x` and `20.11`) are the same version said more or less precisely.
fn refines(a: &str, b: &str) -> bool {
    a.split('.').zip(b.split('.')).all(|(x, y)| x == y)
}

/// Whether `w` is one side of an antonym pair ("enabled", "fails"): a state, not a verb.
pub(crate) fn has_antonym(w: &str) -> bool {
    ANTONYMS
        .iter()
        .any(|(_, same, opposite)| same.contains(&w) || opposite.contains(&w))
}

/// A word folded onto its opposite, and whether that negates the claim.
pub(crate) fn antonym(w: &str) -> (&str, bool) {
    ANTONYMS
        .iter()
        .find_map(|(canon, same, opposite)| {
            if same.contains(&w) {
                Some((*canon, false))
            } else if opposite.contains(&w) {
                Some((*canon, true))
            } else {
                None
            }
        })
        .unwrap_or((w, false))
}

pub(crate) fn stem(w: &str) -> &str {
    match w.strip_suffix('s') {
        Some(st) if w.len() > 3 && !w.ends_with("ss") => st,
        _ => w,
    }
}

/// Auxiliaries carry no content once negation is taken out ("does not need").
const AUXILIARIES: &[&str] = &[
    "do", "does", "did", "is", "are", "was", "were", "be", "been", "being", "will", "would", "can",
    "could", "should", "must", "may", "might", "has", "have", "had",
];
const FILLERS: &[&str] = &["a", "an", "the", "always", "also", "still", "currently"];
const PREPOSITIONS: &[&str] = &[
    "on", "in", "at", "to", "for", "with", "from", "by", "after", "before", "about", "under",
    "over", "behind", "via", "per", "of", "into", "inside", "than", "during", "as",
];
/// Verbs that may open a claim with no subject ("uses Node 20 for builds").
const VERBS: &[&str] = &[
    "use", "uses", "need", "needs", "require", "requires", "run", "runs", "take", "takes",
];
/// A number right after one of these names the thing ("issue 42"), whatever its position.
const ID_NOUNS: &[&str] = &[
    "issue",
    "pr",
    "pull",
    "ticket",
    "bug",
    "commit",
    "build",
    "job",
    "line",
    "step",
    "stage",
    "phase",
    "migration",
    "item",
    "case",
    "shard",
    "worker",
    "widget",
];
const UNITS: &[(&str, &[&str])] = &[
    ("ms", &["ms", "millisecond", "milliseconds"]),
    ("s", &["s", "sec", "secs", "second", "seconds"]),
    ("min", &["min", "mins", "minute", "minutes"]),
    ("h", &["h", "hr", "hrs", "hour", "hours"]),
    ("d", &["d", "day", "days"]),
    ("kb", &["kb", "kib", "kilobytes"]),
    ("mb", &["mb", "mib", "megabytes"]),
    ("gb", &["g", "gb", "gib", "gigabytes"]),
    ("tb", &["tb", "tib", "terabytes"]),
    ("%", &["%", "percent"]),
];
/// (canonical, same sense, opposite sense): "disabled" is "not enabled".
const ANTONYMS: &[(&str, &[&str], &[&str])] = &[
    ("enabled", &["enabled"], &["disabled"]),
    ("enable", &["enable"], &["disable"]),
    ("on", &["on"], &["off"]),
    ("true", &["true"], &["false"]),
    ("required", &["required"], &["optional"]),
    ("supported", &["supported"], &["unsupported"]),
    ("available", &["available"], &["unavailable"]),
    ("allowed", &["allowed"], &["disallowed", "forbidden"]),
    ("set", &["set"], &["unset"]),
    ("public", &["public"], &["private"]),
    ("case-sensitive", &["case-sensitive"], &["case-insensitive"]),
    (
        "pass",
        &[
            "pass",
            "passes",
            "passed",
            "passing",
            "succeed",
            "succeeds",
            "succeeded",
        ],
        &["fail", "fails", "failed", "failing"],
    ),
];

#[cfg(test)]
mod embed_eval;
#[cfg(test)]
mod tests;
