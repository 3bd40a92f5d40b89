//! HTML by hand, with one escaping helper: every value from the cache or the snapshot is
//! written through [`Esc`], which drops invisible and bidi code points (again: the read
//! boundary already did) and escapes `& < > " '`, so text is inert in content and attributes.

use std::fmt;

/// Text made safe for HTML content and quoted attribute values.
pub(crate) struct Esc<'a>(pub(crate) &'a str);

impl fmt::Display for Esc<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // No bound here: the read boundary bounded every field already.
        let visible = crate::sanitize::clean_cow(self.0, usize::MAX);
        let mut rest: &str = &visible;
        while let Some(i) = rest.find(['&', '<', '>', '"', '\'']) {
            f.write_str(&rest[..i])?;
            f.write_str(match rest.as_bytes()[i] {
                b'&' => "&amp;",
                b'<' => "&lt;",
                b'>' => "&gt;",
                b'"' => "&quot;",
                _ => "&#39;",
            })?;
            rest = &rest[i + 1..];
        }
        f.write_str(rest)
    }
}

/// Append formatted HTML to a `String` (writing to a `String` cannot fail).
macro_rules! w {
    ($out:expr, $($arg:tt)*) => {{
        use std::fmt::Write as _;
        let _ = write!($out, $($arg)*);
    }};
}
pub(crate) use w;

/// A path segment for an `href`: unreserved bytes stay, every other byte is `%XX`.
pub(crate) fn segment(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            w!(out, "%{b:02X}");
        }
    }
    out
}

/// The inverse of [`segment`] for a request path; `None` when malformed or not UTF-8.
pub(crate) fn unsegment(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// `90` → `1m 30s`-style ages and time spans, coarse on purpose (a glance, not a log).
pub(crate) fn span(secs: i64) -> String {
    let s = secs.abs();
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m", s / 60),
        3600..86400 => format!("{}h {}m", s / 3600, s % 3600 / 60),
        _ => format!("{}d {}h", s / 86400, s % 86400 / 3600),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_quotes_and_hidden_code_points_are_neutralized() {
        let evil = "<script>alert('x')</script> & \"q\" <img src=x onerror=alert(1)>";
        let out = Esc(evil).to_string();
        assert_eq!(
            out,
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot; &lt;img src=x onerror=alert(1)&gt;"
        );
        let bidi = "a\u{202E}b\u{2066}c\u{200B}d\u{E0041}e\u{1b}[2J";
        assert_eq!(Esc(bidi).to_string(), "abcde[2J");
        assert_eq!(Esc("plain, é ✓").to_string(), "plain, é ✓");
    }

    #[test]
    fn segments_round_trip_and_spans_read_well() {
        for s in ["team", "a b/c?d#e%", "é"] {
            let enc = segment(s);
            assert!(enc.bytes().all(|b| b.is_ascii_graphic() && b != b'/'));
            assert_eq!(unsegment(&enc).as_deref(), Some(s));
        }
        assert_eq!(unsegment("%zz"), None);
        assert_eq!(span(5), "5s");
        assert_eq!(span(-125), "2m");
        assert_eq!(span(3 * 3600 + 120), "3h 2m");
        assert_eq!(span(90000), "1d 1h");
    }
}
