//! Post-regex judgement: entropy, placeholder allowlist and the name/value classification
//! that keeps the assignment rules quiet on ordinary code and prose (reference §1.2).

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

/// How strongly a name says "the value is a secret".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tier {
    /// password, passwd, pwd, passphrase: short and low-entropy values still count.
    Password,
    /// secret, token, api key, credential, auth: values must look random.
    Secret,
    /// other `…_key` names: values must look random and be long.
    Key,
}

/// Prefixes that turn a secret-looking name into a harmless one (`public_key`,
/// `next_token`, `sort_key`, `max_tokens`…).
const HARMLESS_NAME_PARTS: &[&str] = &[
    "public",
    "publishable",
    "pubkey",
    "pub_key",
    "primary",
    "foreign",
    "sort",
    "partition",
    "cache",
    "idempot",
    "dedup",
    "hash",
    "lookup",
    "next",
    "page",
    "continuation",
    "pagination",
    "cursor",
    "max_",
    "maximum",
    "min_",
    "num_",
    "_count",
    "count_",
    "total",
    "limit",
    "usage",
    "input_token",
    "output_token",
    "prompt_token",
    "completion_token",
    "shortcut",
    "hotkey",
    "keyboard",
    "i18n",
    "translation",
    "label",
    "placeholder",
    "hint",
    "field",
    "column",
    "type",
    "kind",
    "length",
    "policy",
    "forgot",
    "reset_password_url",
    "route",
    "path",
    "file",
    "url",
    "endpoint",
    "expir",
    "ttl",
    "version",
    "name",
    "spacing",
    "_id",
    "key_id",
    "keyid",
];

fn ends_with_word(orig: &str, lower: &str, word: &str) -> bool {
    if !lower.ends_with(word) {
        return false;
    }
    let cut = lower.len() - word.len();
    if cut == 0 {
        return true;
    }
    let prev = lower.as_bytes()[cut - 1];
    if matches!(prev, b'_' | b'-' | b'.') {
        return true;
    }
    // camelCase boundary (`dbPass`, `ioKey`) or an UPPER_CASE env name (`PGPASSWORD`).
    let ob = orig.as_bytes();
    ob[cut].is_ascii_uppercase()
        && (ob[cut - 1].is_ascii_lowercase() || ob[cut - 1].is_ascii_digit())
}

/// Classify an assignment name; `None` when it does not name a secret.
pub(crate) fn classify_name(name: &str) -> Option<Tier> {
    let orig = name.trim_matches(|c: char| matches!(c, '"' | '\'' | '$' | '@' | '-' | '.'));
    let lower = orig.to_ascii_lowercase();
    if lower.is_empty() || HARMLESS_NAME_PARTS.iter().any(|p| lower.contains(p)) {
        return None;
    }
    // `addPassword`, `get_token`, `isSecret`: accessors and UI handles, not stored values.
    let last = orig.rsplit(['.', '>']).next().unwrap_or(orig);
    for verb in [
        "add", "get", "set", "show", "hide", "toggle", "validate", "check", "verify", "is", "has",
        "update", "change", "reset", "remember", "enter", "on", "handle", "use", "fetch", "load",
        "read", "parse", "generate",
    ] {
        if let Some(rest) = last.strip_prefix(verb)
            && (rest.starts_with('_') || rest.starts_with(|c: char| c.is_ascii_uppercase()))
            && last.bytes().any(|b| b.is_ascii_lowercase())
        {
            return None;
        }
    }
    let upper_env = orig.bytes().any(|b| b.is_ascii_uppercase())
        && !orig.bytes().any(|b| b.is_ascii_lowercase());
    for w in ["password", "passwd", "passphrase", "passcode", "pswd"] {
        if lower.ends_with(w) {
            return Some(Tier::Password);
        }
    }
    for w in ["pass", "pwd", "pw"] {
        if ends_with_word(orig, &lower, w) || (upper_env && w != "pw" && lower.ends_with(w)) {
            // `bypass`, `compass`, `surpass` are words, not password fields.
            if ["bypass", "compass", "surpass", "trespass"]
                .iter()
                .any(|x| lower.ends_with(x))
            {
                return None;
            }
            return Some(Tier::Password);
        }
    }
    for w in [
        "secret",
        "token",
        "credential",
        "credentials",
        "creds",
        "apikey",
        "api_key",
        "api-key",
        "secretkey",
        "privatekey",
        "accesskey",
        "authkey",
        "masterkey",
        "licensekey",
        "signingkey",
        "encryptionkey",
    ] {
        if lower.ends_with(w) {
            return Some(Tier::Secret);
        }
    }
    for w in ["auth", "pat"] {
        if ends_with_word(orig, &lower, w) {
            return Some(Tier::Secret);
        }
    }
    if lower != "key" && ends_with_word(orig, &lower, "key") {
        return Some(Tier::Key);
    }
    None
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Quote {
    None,
    Quoted,
}

/// Is `value`, assigned to a name of `tier` with operator `op`, a secret?
pub(crate) fn assignment_is_secret(
    name: &str,
    tier: Tier,
    op: &str,
    quote: Quote,
    value: &str,
    followed_by_call: bool,
) -> bool {
    let v = value.trim();
    // String-concatenation debris: `"+new Buffer(`, `'.$p['`.
    if v.starts_with(['+', '.']) || v.ends_with(['+', '(', '.']) {
        return false;
    }
    let v = v.trim_matches(|c| c == '"' || c == '\'');
    let comparison = matches!(op, "==" | "!=" | "===" | "!==");
    if comparison && tier == Tier::Key {
        return false;
    }
    // `,` and comparisons only count with a literal on the right (`env("K", "v")`, `pw == "x"`).
    if (comparison || op == ",") && quote == Quote::None {
        return false;
    }
    if quote == Quote::None && followed_by_call {
        return false;
    }
    let min_len = match tier {
        Tier::Password => 4,
        Tier::Secret => 8,
        Tier::Key => 12,
    };
    if v.len() < min_len || is_placeholder(v) {
        return false;
    }
    let lower = v.to_ascii_lowercase();
    // Paths, URLs (url-credentials handles userinfo) and code references.
    if v.starts_with('/')
        || v.starts_with("./")
        || v.starts_with("../")
        || v.starts_with("~/")
        || v.starts_with("\\\\")
        || lower.contains("://")
        || lower.contains("process.env")
        || lower.contains("os.environ")
        || lower.contains("getenv")
        || lower.contains("env(")
        || lower.contains("env[")
        || lower.contains("secrets.")
        || v.contains("::")
        || v.contains("->")
    {
        return false;
    }
    let last_name_part = name
        .rsplit(['_', '-', '.'])
        .next()
        .unwrap_or(name)
        .to_ascii_lowercase();
    if lower == name.to_ascii_lowercase() || lower == last_name_part {
        return false;
    }
    let ident_like = v
        .bytes()
        .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'$');
    if quote == Quote::None {
        // Dotted identifier paths are code (`self.password`, `config.api.token`).
        if v.split('.').count() > 1
            && v.split('.').all(|p| {
                !p.is_empty()
                    && p.bytes()
                        .next()
                        .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_' || c == b'$')
                    && p.bytes()
                        .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'$')
            })
        {
            return false;
        }
    }
    let letters_only = v.bytes().all(|c| c.is_ascii_alphabetic());
    let words_only = v
        .bytes()
        .all(|c| c.is_ascii_alphabetic() || matches!(c, b'_' | b'-' | b' ' | b'.'));
    let has_space = v.contains(' ');
    match tier {
        Tier::Password => {
            if has_space {
                // `'open sesame'` yes, `"Enter your password"` no.
                return quote == Quote::Quoted && v.split(' ').count() <= 2 && v.len() <= 40;
            }
            if quote == Quote::None && ident_like && !v.bytes().any(|c| c.is_ascii_digit()) {
                // Unquoted letters: a variable (`password = userInput`) unless it is one plain
                // lowercase word long enough to be a password (`PASSWORD=whiteduke`).
                return letters_only && v.bytes().all(|c| c.is_ascii_lowercase()) && v.len() >= 6;
            }
            true
        }
        Tier::Secret | Tier::Key => {
            if has_space || words_only || v.bytes().all(|c| c.is_ascii_digit()) {
                return false;
            }
            let floor = if tier == Tier::Key { 3.2 } else { 3.0 };
            entropy(v.as_bytes()) > floor
        }
    }
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

#[cfg(test)]
#[path = "checks_tests.rs"]
mod tests;
