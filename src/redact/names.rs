//! Secret-named assignments: how strongly a name says "secret" (`Tier`), and whether the
//! value assigned to it is one. Keeps the assignment rules quiet on ordinary code and prose
//! (reference §1.2).

use super::checks::{entropy, is_placeholder};

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
