//! A fast, non-validating scan for where one JSONC container ends, so the editor can skip
//! the members it does not edit (a 6 MB `~/.claude.json` is almost all `projects`). It only
//! tracks strings, escapes, comments and bracket nesting; whatever it cannot be sure of it
//! refuses (`None`), and the caller then parses the whole document with the real parser.
//! Validating the skipped text is not its job: the install guard's parse of the whole file
//! by the format's real parser has already refused a malformed one.

use super::parse::MAX_DEPTH;

/// One past the bracket that closes the container opening at `s[start]` (`{` or `[`);
/// `None` for an unclosed or mismatched bracket, an unclosed string or comment, a newline
/// inside a string, a `/` that starts no comment, or nesting deeper than the parser allows.
pub(super) fn container_end(s: &[u8], start: usize, depth: usize) -> Option<usize> {
    let mut open: Vec<u8> = Vec::new();
    let mut i = start;
    while let Some(&b) = s.get(i) {
        match b {
            b'{' | b'[' => {
                open.push(if b == b'{' { b'}' } else { b']' });
                if depth + open.len() > MAX_DEPTH {
                    return None;
                }
                i += 1;
            }
            b'}' | b']' => {
                if open.pop() != Some(b) {
                    return None;
                }
                i += 1;
                if open.is_empty() {
                    return Some(i);
                }
            }
            b'"' => i = string_end(s, i + 1)?,
            b'/' => i = comment_end(s, i)?,
            _ => i += 1,
        }
    }
    None
}

/// One past the quote that closes the string whose body starts at `i`.
fn string_end(s: &[u8], mut i: usize) -> Option<usize> {
    loop {
        // String bodies are most of the bytes: find the next byte that matters in bulk.
        i += memchr::memchr3(b'"', b'\\', b'\n', s.get(i..)?)?;
        match s[i] {
            b'"' => return Some(i + 1),
            // An escape is two bytes (`\uXXXX` goes on as plain bytes); one cut off by the
            // end of the text leaves `i` past it, and the next look finds nothing.
            b'\\' => i += 2,
            // A raw newline is not allowed in a JSON string: not sure where this one ends.
            _ => return None,
        }
    }
}

/// One past the comment starting at `s[i]` (a `/`).
fn comment_end(s: &[u8], i: usize) -> Option<usize> {
    match s.get(i + 1) {
        Some(b'/') => Some(memchr::memchr(b'\n', &s[i..]).map_or(s.len(), |n| i + n)),
        Some(b'*') => memchr::memmem::find(&s[i + 2..], b"*/").map(|n| i + 2 + n + 2),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn end(t: &str) -> Option<usize> {
        container_end(t.as_bytes(), 0, 1)
    }

    #[test]
    fn finds_the_closing_bracket_past_strings_escapes_and_comments() {
        let t = r#"{"a}": "x\"]}", "b": [1, {"c": "\\"}], /* } */ "d": 2 // ]
}"#;
        assert_eq!(end(t), Some(t.len()));
        assert_eq!(end("[1, 2] tail"), Some(6));
        let t = "{\"\\u005d\": []}";
        assert_eq!(end(t), Some(t.len()));
    }

    #[test]
    fn refuses_what_it_cannot_be_sure_of() {
        for t in [
            "{\"a\": [1, 2}",           // mismatched bracket
            "{\"a\": [1, 2]",           // never closed
            "{\"a\": \"open}",          // string never closed
            "{\"a\": \"x\\\"}",         // the escaped quote does not close it
            "{\"a\": \"line\nbreak\"}", // raw newline in a string
            "{\"a\": 1 /* open }",      // comment never closed
            "{\"a\": 1 / 2}",           // a slash that starts no comment
            "{\"a\": \"\\",             // escape cut off by the end
        ] {
            assert_eq!(end(t), None, "{t:?}");
        }
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert_eq!(end(&deep), None);
        assert_eq!(container_end(deep.as_bytes(), 0, 0), Some(deep.len()));
    }
}
