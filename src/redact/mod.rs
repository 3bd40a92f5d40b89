//! Secret redactor: finds credentials in free text and JSON and replaces them with
//! `[REDACTED:<rule-id>]` before anything reaches the spool or the lake (DESIGN §4).
//! Cheap to build (keywords only); each rule's regex compiles on the first keyword hit.

mod accept;
mod checks;
mod keywords;
mod names;
mod rules;
mod spans;
mod wrap;

#[cfg(test)]
mod tests;

use std::borrow::Cow;
use std::sync::OnceLock;

use regex::bytes::{Regex, RegexBuilder};
use serde_json::Value;

#[cfg(test)]
use checks::entropy;
use rules::{RULES, Rule};
use spans::{
    apply, marker_ranges, merge, raw_to_findings, subtract_markers, widen_to_char_boundaries,
};

/// One secret found in a text: which rule, and its byte range (on char boundaries).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Finding {
    pub rule: &'static str,
    pub start: usize,
    pub end: usize,
}

/// The rule table, for tests: (id, description).
#[cfg(test)]
pub fn rules() -> impl Iterator<Item = (&'static str, &'static str)> {
    RULES.iter().map(|r| (r.id, r.description))
}

struct Compiled {
    re: Regex,
    /// Capture groups whose name starts with `s`, in order; empty means "whole match".
    secret_groups: Vec<usize>,
    name_group: Option<usize>,
    op_group: Option<usize>,
    tail_group: Option<usize>,
}

/// Keyword-prefiltered, lazily compiled secret scanner.
pub struct Redactor {
    keywords: keywords::KeywordSet,
    /// AC pattern id -> indices into `RULES` that own that keyword.
    keyword_rules: Vec<Vec<usize>>,
    compiled: Vec<OnceLock<Option<Compiled>>>,
}

impl Default for Redactor {
    fn default() -> Self {
        Self::new()
    }
}

/// Replacement passes after the first; a replacement can only ever shrink what the next
/// pass sees, so one extra pass is the norm and the bound is never reached in practice.
const MAX_EXTRA_PASSES: usize = 3;

impl Redactor {
    /// Build the keyword automaton; no regex is compiled here.
    pub fn new() -> Self {
        let mut words: Vec<String> = Vec::new();
        let mut keyword_rules: Vec<Vec<usize>> = Vec::new();
        for (i, rule) in RULES.iter().enumerate() {
            for &k in rule.keywords {
                let k = k.to_ascii_lowercase();
                match words.iter().position(|w| *w == k) {
                    Some(p) => keyword_rules[p].push(i),
                    None => {
                        words.push(k);
                        keyword_rules.push(vec![i]);
                    }
                }
            }
        }
        let keywords =
            keywords::KeywordSet::new(words.into_iter().map(String::into_bytes).collect());
        Redactor {
            keywords,
            keyword_rules,
            compiled: RULES.iter().map(|_| OnceLock::new()).collect(),
        }
    }

    /// The process-wide redactor (built once, cheap: keywords only; each rule's regex
    /// compiles lazily on first keyword hit).
    pub fn global() -> &'static Redactor {
        static GLOBAL: OnceLock<Redactor> = OnceLock::new();
        GLOBAL.get_or_init(Redactor::new)
    }

    fn compiled(&self, i: usize) -> Option<&Compiled> {
        self.compiled[i].get_or_init(|| compile(&RULES[i])).as_ref()
    }

    #[cfg(test)]
    fn compiled_count(&self) -> usize {
        self.compiled.iter().filter(|c| c.get().is_some()).count()
    }

    /// Findings without modifying (rule id + byte range), merged so they never overlap,
    /// sorted by position. A token wrapped across lines is found whole (see `wrap`).
    pub fn find(&self, text: &str) -> Vec<Finding> {
        let mut raw = self.find_raw(text);
        if let Some(j) = wrap::joined(text) {
            for (s, e, r) in self.find_raw(&j.text) {
                if let Some((s, e)) = j.across_a_break(s, e) {
                    raw.push((s, e, r));
                }
            }
        }
        if raw.is_empty() {
            return Vec::new();
        }
        // Text already redacted by an earlier pass must not be redacted again (idempotence).
        let markers = marker_ranges(text.as_bytes());
        if !markers.is_empty() {
            raw = subtract_markers(raw, &markers);
        }
        raw_to_findings(merge(raw))
    }

    /// Every rule's accepted matches in `text`: (start, end, rule index), unmerged.
    fn find_raw(&self, text: &str) -> Vec<(usize, usize, usize)> {
        let hay = text.as_bytes();
        let mut hit = vec![false; RULES.len()];
        let mut any = false;
        let lower = hay.to_ascii_lowercase(); // same length: offsets are unchanged
        self.keywords.each_in(&lower, |w| {
            for &r in &self.keyword_rules[w] {
                hit[r] = true;
                any = true;
            }
        });
        let mut raw: Vec<(usize, usize, usize)> = Vec::new();
        if !any {
            return raw;
        }
        for (i, rule) in RULES.iter().enumerate() {
            if !hit[i] {
                continue;
            }
            let Some(c) = self.compiled(i) else { continue };
            for caps in c.re.captures_iter(hay) {
                if let Some((s, e)) = accept::accept(rule, c, &caps, hay) {
                    let (s, e) = widen_to_char_boundaries(text, s, e);
                    raw.push((s, e, i));
                }
            }
        }
        raw
    }

    /// Replace every secret in `text` with `[REDACTED:<rule-id>]`. Borrowed when nothing matched.
    #[cfg(test)]
    pub fn redact_str<'a>(&self, text: &'a str) -> Cow<'a, str> {
        self.redact_counting(text).0
    }

    fn redact_counting<'a>(&self, text: &'a str) -> (Cow<'a, str>, usize) {
        let found = self.find(text);
        if found.is_empty() {
            return (Cow::Borrowed(text), 0);
        }
        let mut count = found.len();
        let mut out = apply(text, &found);
        // Merged or context-dependent matches can leave a rule that only fires on the
        // rewritten text; re-scan until stable so redact(redact(x)) == redact(x).
        for _ in 0..MAX_EXTRA_PASSES {
            let more = self.find(&out);
            if more.is_empty() {
                break;
            }
            count += more.len();
            out = apply(&out, &more);
        }
        (Cow::Owned(out), count)
    }

    /// Recursively redact every string (object values AND keys, array items, any depth) in
    /// place; returns how many secrets were replaced.
    pub fn redact_value(&self, value: &mut Value) -> usize {
        match value {
            Value::String(s) => {
                let (out, n) = self.redact_counting(s);
                if let Cow::Owned(new) = out {
                    *s = new;
                }
                n
            }
            Value::Array(items) => items.iter_mut().map(|v| self.redact_value(v)).sum(),
            Value::Object(map) => {
                let mut n = 0;
                if map.keys().any(|k| !self.find(k).is_empty()) {
                    // Rebuild to rewrite keys in place (serde_json's map keeps insertion order).
                    let old = std::mem::take(map);
                    for (k, v) in old {
                        let (nk, kn) = self.redact_counting(&k);
                        n += kn;
                        map.insert(nk.into_owned(), v);
                    }
                }
                for (k, v) in map.iter_mut() {
                    n += self.redact_value(v);
                    // `{"password": "hunter2!"}`: the key is the assignment's name, which a
                    // scan of the value alone never sees.
                    if let Value::String(s) = v
                        && accept::named_value_is_secret(k, s)
                    {
                        *s = format!("[REDACTED:{}]", accept::NAMED_VALUE_RULE);
                        n += 1;
                    }
                }
                n
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => 0,
        }
    }
}

fn compile(rule: &Rule) -> Option<Compiled> {
    let re = RegexBuilder::new(rule.pattern)
        .unicode(false)
        .build()
        .inspect_err(|_| debug_assert!(false, "rule {} does not compile", rule.id))
        .ok()?;
    let mut secret_groups = Vec::new();
    let (mut name_group, mut op_group, mut tail_group) = (None, None, None);
    for (i, name) in re.capture_names().enumerate() {
        match name {
            Some("n") => name_group = Some(i),
            Some("o") => op_group = Some(i),
            Some("t") => tail_group = Some(i),
            Some(n) if n.starts_with('s') => secret_groups.push(i),
            _ => {}
        }
    }
    Some(Compiled {
        re,
        secret_groups,
        name_group,
        op_group,
        tail_group,
    })
}
