//! Post-regex judgement of a value: entropy, the placeholder allowlist, obvious fakes and a
//! base64 peek. Names and assignments are judged in `names.rs`.

/// Shannon entropy in bits per byte.
pub(crate) fn entropy(s: &[u8]) -> f64 {
    if s.is_empty() {
        return 0.0;
    }
    let mut counts = [0u32; 256];
    for &b in s {
        counts[b as usize] += 1;
    }
    let n = s.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = f64::from(c) / n;
            -p * p.log2()
        })
        .sum()
}

/// Values that obviously stand for a secret rather than being one.
pub(crate) fn is_placeholder(v: &str) -> bool {
    let v = v.trim().trim_matches(|c| c == '"' || c == '\'');
    if v.is_empty() {
        return true;
    }
    let lower = v.to_ascii_lowercase();
    let b = v.as_bytes();
    // Template and variable references: ${VAR}, $VAR, $(cmd), {{ x }}, {0}, <token>, %VAR%, #{x}.
    if lower.starts_with("${")
        || lower.starts_with("$(")
        || lower.starts_with("{{")
        || lower.starts_with("{%")
        || lower.starts_with("#{")
        || lower.starts_with("<%")
        || lower.starts_with("&lt;")
        || lower.starts_with("your")
        || (b[0] == b'<' && b[b.len() - 1] == b'>')
        || (b[0] == b'{' && b[b.len() - 1] == b'}')
        || (b[0] == b'%' && b.len() > 2 && b[b.len() - 1] == b'%')
        || (b[0] == b'[' && b[b.len() - 1] == b']' && v.contains(' '))
    {
        return true;
    }
    if b[0] == b'$' && b.len() > 1 && (b[1].is_ascii_alphabetic() || b[1] == b'_') {
        return true;
    }
    if lower.contains("[redacted") || lower.contains("redacted]") {
        return true;
    }
    // Masks: xxxx, ****, ...., or mostly mask characters.
    let masky = b
        .iter()
        .filter(|&&c| matches!(c, b'x' | b'X' | b'*' | b'.' | b'#' | b'-' | b'_'))
        .count();
    if b.len() >= 3 && masky * 10 >= b.len() * 6 {
        return true;
    }
    if b.iter().all(|&c| c == b[0]) {
        return true;
    }
    const MARKERS: &[&str] = &[
        "example",
        "changeme",
        "change_me",
        "change-me",
        "placeholder",
        "your_",
        "your-",
        "yourapi",
        "yourtoken",
        "yoursecret",
        "your api",
        "your token",
        "your password",
        "your secret",
        "insert_",
        "insert-",
        "insert your",
        "replace_me",
        "replace-me",
        "replace with",
        "redacted",
        "dummy",
        "xxxxx",
        "*****",
        "…",
        "...",
        "goes here",
        "_here",
        "-here",
        "enter your",
        "not-set",
        "not_set",
        "notset",
        "todo",
        "fixme",
    ];
    if MARKERS.iter().any(|m| lower.contains(m)) {
        return true;
    }
    STOPWORDS.contains(&lower.as_str())
}

/// Exact values that are never secrets, whatever name they are assigned to.
const STOPWORDS: &[&str] = &[
    "true",
    "false",
    "null",
    "none",
    "nil",
    "undefined",
    "empty",
    "required",
    "optional",
    "string",
    "str",
    "number",
    "int",
    "integer",
    "bool",
    "boolean",
    "bytes",
    "object",
    "any",
    "password",
    "passwd",
    "passphrase",
    "token",
    "apikey",
    "api_key",
    "api-key",
    "key",
    "value",
    "default",
    "hidden",
    "masked",
    "unset",
    "n/a",
    "tbd",
    "yes",
    "no",
    "on",
    "off",
    "env",
    "auto",
    "test",
    "testing",
    "secretstring",
    "securestring",
    "sensitive",
    "text",
    "input",
    "prompt",
    "stdin",
    "file",
    "ask",
    "random",
    "generate",
    "generated",
    "new",
    "old",
    "current",
    "confirm",
    "invalid",
    "missing",
    "unknown",
    "self",
    "this",
    "null_mut",
];

/// Sequential demo strings (`a1b2c3d4…`) that documentation uses in place of a real key.
pub(crate) fn obviously_fake(secret: &[u8]) -> bool {
    secret
        .windows(8)
        .any(|w| w.eq_ignore_ascii_case(b"a1b2c3d4") || w.eq_ignore_ascii_case(b"d4c3b2a1"))
}

/// Decode the start of a base64 string (standard alphabet) to check what it holds.
pub(crate) fn base64_prefix(s: &[u8], max_out: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(max_out);
    let mut acc = 0u32;
    let mut bits = 0;
    for &c in s {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => break,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            if out.len() >= max_out {
                break;
            }
        }
    }
    out
}

// The name checks are tested beside these value checks.
#[cfg(test)]
use super::names::{Tier, classify_name};

#[cfg(test)]
#[path = "checks_tests.rs"]
mod tests;
