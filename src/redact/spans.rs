//! Byte spans of findings: widened to char boundaries, minus existing `[REDACTED:…]`
//! markers, merged, and applied to the text.

use super::Finding;
use super::rules::RULES;

pub(super) fn widen_to_char_boundaries(text: &str, mut s: usize, mut e: usize) -> (usize, usize) {
    debug_assert!(
        text.is_char_boundary(s) && text.is_char_boundary(e),
        "rule matched inside a UTF-8 sequence"
    );
    // Never split a char: widening only redacts a little more.
    while !text.is_char_boundary(s) {
        s -= 1;
    }
    while !text.is_char_boundary(e) {
        e += 1;
    }
    (s, e)
}

const MARKER_OPEN: &[u8] = b"[REDACTED:";

pub(super) fn marker_ranges(hay: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(p) = find_bytes(&hay[i..], MARKER_OPEN) {
        let s = i + p;
        let body = s + MARKER_OPEN.len();
        let Some(close) = hay[body..].iter().position(|&b| b == b']') else {
            break;
        };
        let e = body + close + 1;
        out.push((s, e));
        i = e;
    }
    out
}

pub(super) fn find_bytes(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

pub(super) fn subtract_markers(
    raw: Vec<(usize, usize, usize)>,
    markers: &[(usize, usize)],
) -> Vec<(usize, usize, usize)> {
    let mut out = Vec::with_capacity(raw.len());
    for (mut s, e, r) in raw {
        for &(ms, me) in markers {
            if me <= s || ms >= e {
                continue;
            }
            if ms > s {
                out.push((s, ms, r));
            }
            s = s.max(me);
        }
        if s < e {
            out.push((s, e, r));
        }
    }
    out
}

/// Merge overlapping ranges; the merged finding keeps the most specific rule (lowest table
/// index: provider rules precede the generic ones).
pub(super) fn merge(mut raw: Vec<(usize, usize, usize)>) -> Vec<(usize, usize, usize)> {
    raw.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
    let mut out: Vec<(usize, usize, usize)> = Vec::with_capacity(raw.len());
    for (s, e, r) in raw {
        match out.last_mut() {
            Some(last) if s < last.1 => {
                last.1 = last.1.max(e);
                last.2 = last.2.min(r);
            }
            _ => out.push((s, e, r)),
        }
    }
    out
}

pub(super) fn raw_to_findings(raw: Vec<(usize, usize, usize)>) -> Vec<Finding> {
    raw.into_iter()
        .map(|(start, end, r)| Finding {
            rule: RULES[r].id,
            start,
            end,
        })
        .collect()
}

pub(super) fn apply(text: &str, findings: &[Finding]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for f in findings {
        out.push_str(&text[at..f.start]);
        out.push_str("[REDACTED:");
        out.push_str(f.rule);
        out.push(']');
        at = f.end;
    }
    out.push_str(&text[at..]);
    out
}
