//! Invisible-text sanitizer: strips code points that hide or reorder text (prompt-injection
//! smuggling, Trojan Source, terminal escapes) and bounds field length with a visible marker.
//! Applied to every string written to or read from the lake (reference §2.4, DESIGN §4).

use std::borrow::Cow;

use serde_json::Value;

/// Default per-field bound in characters for text read from the lake.
pub const MAX_FIELD_CHARS: usize = 4000;

/// Appended when a field is cut. It counts toward the bound (see [`clean`]).
pub const TRUNCATED_MARKER: &str = "…[truncated]";

/// How many code points of each class were removed, for provenance.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Removed {
    /// Unicode Tags block U+E0000–E007F ("ASCII smuggling").
    pub tags: usize,
    /// Bidi controls (`\p{Bidi_Control}`: U+061C, U+200E–200F, U+202A–202E, U+2066–2069).
    pub bidi: usize,
    /// Zero-width spaces and joiners, word joiner and invisible operators, BOM, Mongolian vowel separator.
    pub zero_width: usize,
    /// Variation selectors (U+FE00–FE0F, U+E0100–E01EF, Mongolian FVS U+180B–180D, U+180F).
    pub variation_selectors: usize,
    /// C0 controls other than tab and newline (ESC and CR included), DEL, C1 controls.
    pub controls: usize,
    /// Every other Default_Ignorable code point, plus U+FFF9–FFFB (interlinear annotation)
    /// and the line and paragraph separators U+2028/2029.
    pub other: usize,
}

impl Removed {
    /// Total code points removed.
    pub fn total(&self) -> usize {
        self.tags
            + self.bidi
            + self.zero_width
            + self.variation_selectors
            + self.controls
            + self.other
    }

    fn add(&mut self, class: Class) {
        match class {
            Class::Tag => self.tags += 1,
            Class::Bidi => self.bidi += 1,
            Class::ZeroWidth => self.zero_width += 1,
            Class::VariationSelector => self.variation_selectors += 1,
            Class::Control => self.controls += 1,
            Class::Other => self.other += 1,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Tag,
    Bidi,
    ZeroWidth,
    VariationSelector,
    Control,
    Other,
}

/// What to do with one code point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Action {
    Keep,
    Remove(Class),
}

/// `\p{Default_Ignorable_Code_Point}` as shipped by the `regex` crate this build uses.
/// Hand-written so the hot path is a branch on ranges, not a regex; the test
/// `di_table_matches_regex` compares it with `regex` over every code point so it cannot drift.
const DEFAULT_IGNORABLE: &[(u32, u32)] = &[
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
];

fn is_default_ignorable(cp: u32) -> bool {
    DEFAULT_IGNORABLE
        .iter()
        .any(|&(lo, hi)| (lo..=hi).contains(&cp))
}

fn action(c: char) -> Action {
    let cp = c as u32;
    if cp < 0x80 {
        return match c {
            '\t' | '\n' => Action::Keep,
            _ if cp < 0x20 || cp == 0x7F => Action::Remove(Class::Control),
            _ => Action::Keep,
        };
    }
    // Everything below U+00AD is either C1 (removed) or ordinary Latin-1 (kept), and
    // nothing else is removed below U+034F (Latin, IPA, the first combining marks, and the
    // `«…»` that labels peer text).
    if cp < 0xAD {
        return if cp <= 0x9F {
            Action::Remove(Class::Control)
        } else {
            Action::Keep
        };
    }
    if cp < 0x34F && cp != 0xAD {
        return Action::Keep;
    }
    match cp {
        // Removed, not mapped to `\n`: a line break inside an id or a one-line field lets
        // peer text forge a line of its own in what an agent reads (DESIGN §4).
        0x2028 | 0x2029 | 0xFFF9..=0xFFFB => Action::Remove(Class::Other),
        _ if !is_default_ignorable(cp) => Action::Keep,
        0xE0000..=0xE007F => Action::Remove(Class::Tag),
        0x061C | 0x200E | 0x200F | 0x202A..=0x202E | 0x2066..=0x2069 => Action::Remove(Class::Bidi),
        0x200B..=0x200D | 0x2060..=0x2064 | 0xFEFF | 0x180E => Action::Remove(Class::ZeroWidth),
        0xFE00..=0xFE0F | 0xE0100..=0xE01EF | 0x180B..=0x180D | 0x180F => {
            Action::Remove(Class::VariationSelector)
        }
        _ => Action::Remove(Class::Other),
    }
}

/// The first code point [`clean`] would remove, if any: an id must carry none.
pub fn first_hidden(text: &str) -> Option<char> {
    text.chars().find(|&c| action(c) != Action::Keep)
}

/// True when `text` needs no change at all (nothing to strip or map, within the bound).
fn untouched(text: &str, max_chars: usize) -> bool {
    // Most lake text is ASCII: a byte scan decides it without decoding chars.
    if let Some(plain) = plain_ascii(text.as_bytes()) {
        return plain && text.len() <= max_chars;
    }
    // Mostly ASCII (a line with a few `«…»` labels): bytes for the ASCII, chars only for the
    // rest; chars are counted by their first bytes.
    let b = text.as_bytes();
    let mut n = 0usize;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        n += 1;
        if n > max_chars {
            return false;
        }
        if c < 0x80 {
            if c < 0x20 && c != b'\t' && c != b'\n' || c == 0x7F {
                return false;
            }
            i += 1;
            continue;
        }
        let Some(ch) = text[i..].chars().next() else {
            return false;
        };
        if action(ch) != Action::Keep {
            return false;
        }
        i += ch.len_utf8();
    }
    true
}

/// For ASCII text, whether every byte is printable or a tab or newline; `None` when a byte
/// is not ASCII (or a control byte sits beside one: the char-wise path then decides).
/// Eight bytes at a time, since the hook cleans a whole roster on every edit; a word with
/// anything unusual in it is looked at byte by byte.
fn plain_ascii(b: &[u8]) -> Option<bool> {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    let byte_ok = |c: u8| c >= 0x20 && c != 0x7F || c == b'\t' || c == b'\n';
    let mut words = b.chunks_exact(8);
    for w in &mut words {
        let mut a = [0u8; 8];
        a.copy_from_slice(w);
        let x = u64::from_ne_bytes(a);
        // With no high bit set, `(x - 0x20..) & !x & 0x80..` is non-zero exactly when some
        // byte is below 0x20, and the same on `x ^ 0x7F..` when some byte is 0x7F.
        let del = x ^ (ONES * 0x7F);
        let unusual = x & HIGH
            | x.wrapping_sub(ONES * 0x20) & !x & HIGH
            | del.wrapping_sub(ONES) & !del & HIGH;
        if unusual != 0 {
            if w.iter().any(|c| !c.is_ascii()) {
                return None;
            }
            if !w.iter().all(|&c| byte_ok(c)) {
                return Some(false);
            }
        }
    }
    let rest = words.remainder();
    if !rest.is_ascii() {
        return None;
    }
    Some(rest.iter().all(|&c| byte_ok(c)))
}

/// Remove invisible/dangerous code points and bound the length.
///
/// The bound: the result never has more than `max_chars` chars (Unicode scalar values),
/// marker included. When the cleaned text is longer, it is cut to
/// `max_chars - TRUNCATED_MARKER.chars().count()` chars followed by [`TRUNCATED_MARKER`];
/// if `max_chars` is smaller than the marker itself, the result is the marker's first
/// `max_chars` chars, so a cut is still visible whenever anything at all fits.
/// Idempotent: `clean(&clean(x, n), n) == clean(x, n)`.
pub fn clean(text: &str, max_chars: usize) -> String {
    clean_cow(text, max_chars).into_owned()
}

/// [`clean`] that borrows when nothing changes (the common case).
pub fn clean_cow(text: &str, max_chars: usize) -> Cow<'_, str> {
    clean_counting(text, max_chars).0
}

fn clean_counting(text: &str, max_chars: usize) -> (Cow<'_, str>, Removed) {
    let mut removed = Removed::default();
    if untouched(text, max_chars) {
        return (Cow::Borrowed(text), removed);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = 0usize;
    for c in text.chars() {
        match action(c) {
            Action::Keep => out.push(c),
            Action::Remove(class) => {
                removed.add(class);
                continue;
            }
        }
        chars += 1;
    }
    if chars > max_chars {
        truncate_with_marker(&mut out, max_chars);
    }
    (Cow::Owned(out), removed)
}

fn truncate_with_marker(out: &mut String, max_chars: usize) {
    let marker_chars = TRUNCATED_MARKER.chars().count();
    if max_chars < marker_chars {
        *out = TRUNCATED_MARKER.chars().take(max_chars).collect();
        return;
    }
    let keep = max_chars - marker_chars;
    let cut = out.char_indices().nth(keep).map_or(out.len(), |(i, _)| i);
    out.truncate(cut);
    out.push_str(TRUNCATED_MARKER);
}

/// Cut `s` to `max_chars` with the visible marker; `Some(original length)` when it cut.
pub fn bound(s: &mut String, max_chars: usize) -> Option<usize> {
    if s.len() <= max_chars {
        return None;
    }
    let chars = s.chars().count();
    if chars <= max_chars {
        return None;
    }
    truncate_with_marker(s, max_chars);
    Some(chars)
}

/// Clean every string in `value` (object keys and values, array items, any depth) in place.
/// Returns how many code points were removed in total.
pub fn clean_value(value: &mut Value, max_chars: usize) -> usize {
    match value {
        Value::String(s) => {
            let (cleaned, removed) = clean_counting(s, max_chars);
            if let Cow::Owned(new) = cleaned {
                *s = new;
            }
            removed.total()
        }
        Value::Array(items) => items.iter_mut().map(|v| clean_value(v, max_chars)).sum(),
        Value::Object(map) => {
            let mut n = 0;
            let keys_clean = map.keys().all(|k| untouched(k, max_chars));
            if keys_clean {
                for v in map.values_mut() {
                    n += clean_value(v, max_chars);
                }
                return n;
            }
            // Rebuild to rename keys while keeping their order; two keys that clean to the
            // same string collapse (last wins), which is the only sane outcome for a map.
            let old = std::mem::take(map);
            for (k, mut v) in old {
                let (ck, removed) = clean_counting(&k, max_chars);
                n += removed.total() + clean_value(&mut v, max_chars);
                map.insert(ck.into_owned(), v);
            }
            n
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => 0,
    }
}

/// Count, by class, what [`clean`] would remove from `text`.
#[cfg(test)]
pub fn removed_counts(text: &str) -> Removed {
    let mut removed = Removed::default();
    if text.is_ascii()
        && !text
            .bytes()
            .any(|b| b < 0x20 && b != b'\t' && b != b'\n' || b == 0x7F)
    {
        return removed;
    }
    for c in text.chars() {
        if let Action::Remove(class) = action(c) {
            removed.add(class);
        }
    }
    removed
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
#[path = "sanitize_tests.rs"]
mod tests;
