//! A claim's text as classified tokens: lower-cased words, negators, fillers, values
//! with their units merged (`30 seconds` is `30s`), and where the claim's predicate starts.
//! The contradiction test and the probable-update test (`memory::supersede::update`)
//! both read claims through it.

use std::borrow::Cow;

use super::words::{AUXILIARIES, FILLERS, PREPOSITIONS, UNITS, VERBS};

/// A claim's text as `tokens` reads it: lowercased, contractions spelled out, and `=`
/// or `: ` a token of its own. The caller keeps it while the tokens borrow from it.
pub(crate) fn lower(text: &str) -> String {
    let mut s = text.to_lowercase();
    // Each rewrite in this order; most claims hold none, and a rewrite that finds nothing
    // to replace would still copy the whole text.
    for (from, to) in [
        ("can't", "can not"),
        ("won't", "will not"),
        ("n't", " not"),
        ("cannot", "can not"),
        ("=", " = "),
        (": ", " = "),
    ] {
        if s.contains(from) {
            s = s.replace(from, to);
        }
    }
    s
}

/// The classified tokens of a `lower`ed text, a value and its unit merged (`30s`). They
/// borrow from it: the fold places every claim it reads by its tokens, and a `String`
/// per token was a tenth of that. The probable-update test (`memory::supersede::update`)
/// reads claims the same way.
pub(crate) fn tokens(lowered: &str) -> Vec<Tok<'_>> {
    let mut out = Vec::with_capacity(16);
    lex(lowered, |t| push_merging_units(&mut out, classify(t)));
    out
}

/// Where the predicate of `toks` starts (its length when nothing starts one).
pub(crate) fn predicate_start(toks: &[Tok]) -> usize {
    toks.iter()
        .enumerate()
        .position(|(i, t)| starts_predicate(t, i))
        .unwrap_or(toks.len())
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok<'a> {
    Negator,
    /// Articles and fillers: no content.
    Filler,
    /// Auxiliaries and `=`: no content, but the predicate starts here.
    Verb,
    Word(&'a str),
    /// Owned only when normalized (`30 seconds` is `30s`).
    Value(Cow<'a, str>),
}

/// Each token of a `lower`ed text, in order; `-j8` is `j` then `8`.
fn lex<'a>(s: &'a str, mut each: impl FnMut(&'a str)) {
    let keep = |c: char| c.is_alphanumeric() || "._-/#%=".contains(c);
    for raw in s.split(|c: char| !keep(c)) {
        let flag = raw.starts_with('-');
        let t = raw.trim_end_matches('.').trim_matches('-');
        match t.char_indices().nth(1) {
            // A short option with its value glued on: `-j8`, `-n4`.
            Some((i, _)) if flag && t[i..].bytes().all(|b| b.is_ascii_digit()) => {
                each(&t[..i]);
                each(&t[i..]);
            }
            _ if t.is_empty() => {}
            _ => each(t),
        }
    }
}

fn classify(t: &str) -> Tok<'_> {
    match t {
        "not" | "no" | "never" | "none" | "without" => Tok::Negator,
        "=" => Tok::Verb,
        w if AUXILIARIES.contains(&w) => Tok::Verb,
        w if FILLERS.contains(&w) => Tok::Filler,
        w => value(w).map_or(Tok::Word(w), Tok::Value),
    }
}

/// A number or version (`20`, `v1.2.3`, `20.x`), with an optional unit glued on (`512mb`,
/// `30s`, `80%`), normalized so that `30 seconds` and `30s` are one value. Anything else
/// holding a digit (`alpha3`, `x86_64`, `e0502`, `1.0.0-beta`) is an identifier, not a value.
fn value(t: &str) -> Option<Cow<'_, str>> {
    let t = match t.strip_prefix('v') {
        Some(rest) if rest.starts_with(|c: char| c.is_ascii_digit()) => rest,
        _ => t,
    };
    if !t.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    if is_date(t) {
        return Some(Cow::Borrowed(t));
    }
    let end = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, suffix) = t.split_at(end);
    match suffix {
        "" => Some(Cow::Borrowed(num.trim_end_matches('.'))),
        // `20.x`: any 20, which `refines` treats as the prefix it is.
        "x" | "*" if num.ends_with('.') => Some(Cow::Borrowed(num.trim_end_matches('.'))),
        _ if num.ends_with('.') => None,
        u => unit(u).map(|u| Cow::Owned(format!("{num}{u}"))),
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
fn push_merging_units<'a>(out: &mut Vec<Tok<'a>>, tok: Tok<'a>) {
    if let (Some(Tok::Value(v)), Tok::Word(w)) = (out.last_mut(), &tok)
        && v.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && let Some(u) = unit(w)
    {
        v.to_mut().push_str(u);
        return;
    }
    out.push(tok);
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
        Tok::Word(w) => is_preposition(w) || VERBS.contains(w) || (i > 0 && verbish(w)),
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
