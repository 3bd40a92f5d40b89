//! Tokens wrapped across lines. A terminal, a log or a pasted note breaks a long token into
//! pieces that no rule matches alone (`ghp_` + 16 characters, then the rest on the next
//! line), or that a rule matches only in part, leaving the other piece in the clear. The
//! redactor scans a second view of such a text with every line break between two token
//! characters removed, and keeps the findings that cross a removed break, mapped back so
//! both pieces and the break between them are redacted as one.

/// A text with its line breaks between token characters removed, and the way back.
pub(super) struct Joined {
    pub text: String,
    /// Byte `i` of `text` is byte `map[i]` of the original.
    map: Vec<usize>,
    /// Offsets in `text` where a break was removed (between `text[b - 1]` and `text[b]`).
    breaks: Vec<usize>,
}

/// Bytes a token is made of, on both sides of a break worth joining.
fn token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'+' | b'/' | b'=' | b'.')
}

/// The break starting at `i`, if there is one: an optional `\` (shell continuation), an
/// optional `\r`, `\n`, then the next line's indentation. Returns its length.
fn break_at(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i;
    if b.get(j) == Some(&b'\\') {
        j += 1;
    }
    if b.get(j) == Some(&b'\r') {
        j += 1;
    }
    if b.get(j) != Some(&b'\n') {
        return None;
    }
    j += 1;
    while matches!(b.get(j), Some(b' ' | b'\t')) {
        j += 1;
    }
    Some(j - i)
}

/// The joined view of `text`, or `None` when no break sits between two token characters
/// (the common case costs one scan for `\n`).
pub(super) fn joined(text: &str) -> Option<Joined> {
    let b = text.as_bytes();
    if !b.contains(&b'\n') {
        return None;
    }
    let mut out = Vec::with_capacity(b.len());
    let mut map = Vec::with_capacity(b.len());
    let mut breaks = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let joinable = i > 0 && token_byte(b[i - 1]);
        if joinable
            && let Some(n) = break_at(b, i)
            && b.get(i + n).is_some_and(|&c| token_byte(c))
        {
            breaks.push(out.len());
            i += n;
            continue;
        }
        out.push(b[i]);
        map.push(i);
        i += 1;
    }
    if breaks.is_empty() {
        return None;
    }
    map.push(b.len());
    // Only ASCII bytes between two ASCII bytes were removed: still valid UTF-8.
    let text = String::from_utf8(out).ok()?;
    Some(Joined { text, map, breaks })
}

impl Joined {
    /// A finding `[s, e)` of the joined text that crosses a removed break, as a range of
    /// the original text (covering both pieces and the break); `None` for one that does
    /// not cross a break (the scan of the original text finds those).
    pub(super) fn across_a_break(&self, s: usize, e: usize) -> Option<(usize, usize)> {
        let crosses = self.breaks.iter().any(|&at| s < at && at < e);
        crosses.then(|| (self.map[s], self.map[e - 1] + 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_only_between_token_characters() {
        assert!(joined("no break here").is_none());
        assert!(joined("one line.\n\nnext paragraph: here").is_none());
        assert!(joined("ends with a colon:\nnext").is_none());
        let j = joined("key ghp_abc\n   def tail").unwrap();
        assert_eq!(j.text, "key ghp_abcdef tail");
        let s = j.text.find("ghp_").unwrap();
        let e = s + "ghp_abcdef".len();
        assert_eq!(j.across_a_break(s, e), Some((4, 18)));
        assert_eq!(j.across_a_break(0, 3), None);
        let j = joined("a\\\r\nb").unwrap();
        assert_eq!(j.text, "ab");
        assert_eq!(j.across_a_break(0, 2), Some((0, 5)));
    }
}
