//! Secret redactor: finds credentials in free text and JSON and replaces them with
//! `[REDACTED:<rule-id>]` before anything reaches the spool or the lake (DESIGN §4).
//! Cheap to build (keywords only); each rule's regex compiles on the first keyword hit.

mod checks;
mod keywords;
mod rules;
mod spans;

#[cfg(test)]
mod tests;

use std::borrow::Cow;
use std::sync::OnceLock;

use regex::bytes::{Captures, Regex, RegexBuilder};
use serde_json::Value;

use checks::{Quote, assignment_is_secret, base64_prefix, classify_name, entropy, is_placeholder};
use rules::{Check, RULES, Rule};
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
    /// sorted by position.
    pub fn find(&self, text: &str) -> Vec<Finding> {
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
        if !any {
            return Vec::new();
        }
        // (start, end, rule index)
        let mut raw: Vec<(usize, usize, usize)> = Vec::new();
        for (i, rule) in RULES.iter().enumerate() {
            if !hit[i] {
                continue;
            }
            let Some(c) = self.compiled(i) else { continue };
            for caps in c.re.captures_iter(hay) {
                if let Some((s, e)) = accept(rule, c, &caps, hay) {
                    let (s, e) = widen_to_char_boundaries(text, s, e);
                    raw.push((s, e, i));
                }
            }
        }
        if raw.is_empty() {
            return raw_to_findings(raw);
        }
        // Text already redacted by an earlier pass must not be redacted again (idempotence).
        let markers = marker_ranges(hay);
        if !markers.is_empty() {
            raw = subtract_markers(raw, &markers);
        }
        raw_to_findings(merge(raw))
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
                if map.keys().all(|k| self.find(k).is_empty()) {
                    for v in map.values_mut() {
                        n += self.redact_value(v);
                    }
                    return n;
                }
                // Rebuild to rewrite keys in place of order (serde_json's map keeps insertion order).
                let old = std::mem::take(map);
                for (k, mut v) in old {
                    let (nk, kn) = self.redact_counting(&k);
                    n += kn + self.redact_value(&mut v);
                    map.insert(nk.into_owned(), v);
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

/// Decide whether one regex match is a secret; returns the byte range to redact.
fn accept(rule: &Rule, c: &Compiled, caps: &Captures<'_>, hay: &[u8]) -> Option<(usize, usize)> {
    let (group, m) = if c.secret_groups.is_empty() {
        (0, caps.get(0)?)
    } else {
        c.secret_groups
            .iter()
            .find_map(|&g| caps.get(g).map(|m| (g, m)))?
    };
    let secret = m.as_bytes();
    if secret.is_empty() {
        return None;
    }
    if rule.min_entropy > 0.0 && entropy(secret) <= rule.min_entropy {
        return None;
    }
    if checks::obviously_fake(secret) {
        return None;
    }
    // Patterns are ASCII-only around the secret, but the secret itself may hold UTF-8.
    let text = String::from_utf8_lossy(secret);
    let ok = match rule.check {
        Check::None => true,
        Check::NotAwsExample => !secret.ends_with(b"EXAMPLE"),
        Check::PemBase64 => {
            let head = base64_prefix(secret, 96);
            head.windows(11).any(|w| w == b"PRIVATE KEY")
        }
        Check::Literal => !is_placeholder(&text),
        Check::NotPlaceholder => {
            // A short bare word after `Bearer`/`Basic` is a scheme or prose, not a credential.
            !is_placeholder(&text)
                && (secret.len() >= 16 || !secret.iter().all(u8::is_ascii_alphabetic))
        }
        Check::UrlUserinfo => {
            let bare_token = c.secret_groups.get(1).is_some_and(|&g| g == group);
            if bare_token {
                entropy(secret) > 3.0
                    && secret.iter().any(u8::is_ascii_digit)
                    && secret.iter().any(u8::is_ascii_alphabetic)
            } else {
                !is_template_or_mask(&text)
            }
        }
        Check::Assignment => {
            let name = c
                .name_group
                .and_then(|g| caps.get(g))
                .map(|m| String::from_utf8_lossy(m.as_bytes()))
                .unwrap_or_default();
            let op = c
                .op_group
                .and_then(|g| caps.get(g))
                .map_or(" ", |m| std::str::from_utf8(m.as_bytes()).unwrap_or(" "));
            let followed_by_call = c
                .tail_group
                .and_then(|g| caps.get(g))
                .is_some_and(|m| !m.is_empty());
            let quoted = m.start() > 0
                && matches!(hay[m.start() - 1], b'"' | b'\'' | b'`')
                && hay.get(m.end()) == Some(&hay[m.start() - 1]);
            let quote = if quoted { Quote::Quoted } else { Quote::None };
            classify_name(&name).is_some_and(|tier| {
                assignment_is_secret(&name, tier, op, quote, &text, followed_by_call)
            })
        }
    };
    ok.then(|| (m.start(), m.end()))
}

/// URL passwords are often plain words (`user:secret@host`), so only templates and masks
/// are exempt there, not the word lists.
fn is_template_or_mask(v: &str) -> bool {
    let b = v.as_bytes();
    v.starts_with("%s")
        || v.starts_with("%(")
        || v.contains("${")
        || v.contains("{{")
        || (b.first() == Some(&b'$')
            && b.get(1)
                .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_'))
        || (b.first() == Some(&b'{') && b.last() == Some(&b'}'))
        || (b.first() == Some(&b'<') && b.last() == Some(&b'>'))
        || v.to_ascii_lowercase().contains("[redacted")
        || b.iter()
            .all(|&c| c == b[0] && matches!(c, b'*' | b'x' | b'X' | b'.'))
}
