//! Who is acting, and in which fleet: flag > env > config > default, with ids
//! validated so that an id can never become a path.

use crate::config::{Config, DEFAULT_FLEET};
use crate::error::{Error, Result};
use crate::paths::{env, var};

/// The session of CLI commands run without `CTXLAKE_SESSION_ID`.
pub const DEFAULT_SESSION: &str = "cli";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scope {
    pub fleet: String,
    pub agent: String,
    pub session: String,
}

/// `--fleet` / `--agent` as given on the command line (or by the MCP launcher).
#[derive(Debug, Clone, Default)]
pub struct ScopeFlags {
    pub fleet: Option<String>,
    pub agent: Option<String>,
}

impl Scope {
    pub fn resolve(flags: &ScopeFlags, config: &Config) -> Result<Scope> {
        let fleet = pick("fleet", &flags.fleet, env::FLEET_ID, &config.fleet)
            .unwrap_or_else(|| (DEFAULT_FLEET.to_string(), None));
        let agent = pick("agent", &flags.agent, env::AGENT_ID, &config.agent)
            .unwrap_or_else(|| (default_agent(), None));
        // A person at the terminal is one stable claimant per agent, so a `release`
        // frees what an earlier `claim` took; `ctxlake mcp` mints a session per process.
        let session = match var(env::SESSION_ID) {
            Some(s) => (session_id(&s), Some(env::SESSION_ID.to_string())),
            None => (DEFAULT_SESSION.to_string(), None),
        };
        for (what, (id, from)) in [("fleet", &fleet), ("agent", &agent), ("session", &session)] {
            validate_id(what, id).map_err(|e| naming_the_setting(e, from.as_deref()))?;
        }
        Ok(Scope {
            fleet: fleet.0,
            agent: agent.0,
            session: session.0,
        })
    }
}

/// flag > env > config, with the setting the value came from (clap fills the flag from
/// the env variable, so a flag value may come from either).
fn pick(
    what: &str,
    flag: &Option<String>,
    env_var: &str,
    config: &Option<String>,
) -> Option<(String, Option<String>)> {
    if let Some(v) = flag {
        return Some((v.clone(), Some(format!("`--{what}` or {env_var}"))));
    }
    if let Some(v) = var(env_var) {
        return Some((v, Some(env_var.to_string())));
    }
    config
        .clone()
        .map(|v| (v, Some(format!("`{what}` in config.toml"))))
}

/// An invalid id says which setting to fix.
fn naming_the_setting(mut e: Error, from: Option<&str>) -> Error {
    if let Some(from) = from {
        e.message = format!("{} (set by {from})", e.message);
        e.hint = e.hint.map(|h| format!("fix {from}: {h}"));
    }
    e
}

/// Ids become file names and lake keys: refuse anything that could escape a directory
/// or hide in a listing.
pub fn validate_id(what: &str, id: &str) -> Result<()> {
    let problem = if id.is_empty() {
        Some("is empty")
    } else if id.len() > 128 {
        Some("is longer than 128 bytes")
    } else if id.contains('/') || id.contains('\\') {
        Some("contains a path separator")
    } else if id.contains("..") {
        Some("contains `..`")
    } else if id.starts_with('.') || id.starts_with('-') {
        Some("starts with `.` or `-`")
    } else if let Some(p) = hidden(id) {
        return Err(refuse_id(what, id, &p));
    } else if id.chars().any(|c| c.is_control() || c.is_whitespace()) {
        Some("contains whitespace or control characters")
    } else if id
        .chars()
        .any(|c| matches!(c, ':' | '*' | '?' | '"' | '<' | '>' | '|'))
    {
        Some("contains one of `: * ? \" < > |`")
    } else {
        None
    };
    match problem {
        None => Ok(()),
        Some(p) => Err(refuse_id(what, id, p)),
    }
}

/// What a hashed session id starts with (see [`session_id`]).
pub const HASHED_SESSION: &str = "sh-";

/// A session id from outside ctxlake (`CTXLAKE_SESSION_ID`, a runtime's hook payload) as
/// it may name spool files and lake keys (`sessions/<fleet>/<agent>/<session>/`). Kept as
/// given when it is id-shaped (`[A-Za-z0-9._@-]`, at most 128 bytes, not starting with `.`
/// or `-`, no `..`) and the redactor sees no secret in it; anything else becomes `sh-` and
/// 32 hex digits of its SHA-256. A key name is never redacted afterwards, and a runtime's
/// ids are opaque: hashing keeps one session one key for all its events (so history still
/// groups them) without a secret or a stray character ever becoming a name.
pub fn session_id(raw: &str) -> String {
    let shaped = !raw.is_empty()
        && raw.len() <= 128
        && !raw.starts_with(['.', '-'])
        && !raw.contains("..")
        && raw
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'@' | b'-'));
    if shaped && crate::redact::Redactor::global().find(raw).is_empty() {
        return raw.to_string();
    }
    let digest = crate::digest::sha256_hex(raw.as_bytes());
    format!("{HASHED_SESSION}{}", &digest[..32])
}

fn refuse_id(what: &str, id: &str, problem: &str) -> Error {
    Error::bad_arguments(
        "invalid_id",
        format!("{what} id `{}` {problem}", id.escape_debug()),
    )
    .hint(format!(
        "use letters, digits, `-`, `_`, `.` and `@` (e.g. `--{what} my-{what}`)"
    ))
}

/// A subject is free text, but it groups claims and is matched exactly: refuse what the
/// sanitizer would change (an invisible character would split one subject into two).
pub fn validate_subject(subject: &str) -> Result<()> {
    match hidden(subject) {
        None => Ok(()),
        Some(p) => Err(Error::bad_arguments(
            "invalid_id",
            format!("subject `{}` {p}", subject.escape_debug()),
        )
        .hint("type the subject again without invisible characters")),
    }
}

/// Why `text` would not survive the sanitizer unchanged, naming the first culprit.
fn hidden(text: &str) -> Option<String> {
    let c = crate::sanitize::first_hidden(text)?;
    Some(format!(
        "contains {}, an invisible or control character that hides in a listing",
        code_point(c)
    ))
}

/// `U+202E RIGHT-TO-LEFT OVERRIDE`, or `U+XXXX` for a code point not in the table.
fn code_point(c: char) -> String {
    let cp = c as u32;
    let name = match cp {
        0xFE00..=0xFE0F => Some(format!("VARIATION SELECTOR-{}", cp - 0xFE00 + 1)),
        0xE0100..=0xE01EF => Some(format!("VARIATION SELECTOR-{}", cp - 0xE0100 + 17)),
        0xE0020..=0xE007E => tag_name(cp - 0xE0000),
        _ => NAMES
            .iter()
            .find(|(n, _)| *n == cp)
            .map(|(_, name)| name.to_string()),
    };
    match name {
        Some(n) => format!("U+{cp:04X} {n}"),
        None => format!("U+{cp:04X}"),
    }
}

/// Tag characters mirror ASCII: `U+E0041 TAG LATIN CAPITAL LETTER A`.
fn tag_name(ascii: u32) -> Option<String> {
    let c = char::from_u32(ascii)?;
    let what = match c {
        'A'..='Z' => format!("LATIN CAPITAL LETTER {c}"),
        'a'..='z' => format!("LATIN SMALL LETTER {}", c.to_ascii_uppercase()),
        '0'..='9' => format!("DIGIT {}", DIGITS[(ascii - 0x30) as usize]),
        ' ' => "SPACE".into(),
        _ => return None,
    };
    Some(format!("TAG {what}"))
}

const DIGITS: [&str; 10] = [
    "ZERO", "ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE",
];

/// Names of the code points the sanitizer removes that are likeliest in a pasted id.
const NAMES: &[(u32, &str)] = &[
    (0x0000, "NULL"),
    (0x0007, "BELL"),
    (0x0008, "BACKSPACE"),
    (0x000D, "CARRIAGE RETURN"),
    (0x001B, "ESCAPE"),
    (0x007F, "DELETE"),
    (0x00AD, "SOFT HYPHEN"),
    (0x034F, "COMBINING GRAPHEME JOINER"),
    (0x061C, "ARABIC LETTER MARK"),
    (0x180E, "MONGOLIAN VOWEL SEPARATOR"),
    (0x200B, "ZERO WIDTH SPACE"),
    (0x200C, "ZERO WIDTH NON-JOINER"),
    (0x200D, "ZERO WIDTH JOINER"),
    (0x200E, "LEFT-TO-RIGHT MARK"),
    (0x200F, "RIGHT-TO-LEFT MARK"),
    (0x2028, "LINE SEPARATOR"),
    (0x2029, "PARAGRAPH SEPARATOR"),
    (0x202A, "LEFT-TO-RIGHT EMBEDDING"),
    (0x202B, "RIGHT-TO-LEFT EMBEDDING"),
    (0x202C, "POP DIRECTIONAL FORMATTING"),
    (0x202D, "LEFT-TO-RIGHT OVERRIDE"),
    (0x202E, "RIGHT-TO-LEFT OVERRIDE"),
    (0x2060, "WORD JOINER"),
    (0x2061, "FUNCTION APPLICATION"),
    (0x2062, "INVISIBLE TIMES"),
    (0x2063, "INVISIBLE SEPARATOR"),
    (0x2064, "INVISIBLE PLUS"),
    (0x2066, "LEFT-TO-RIGHT ISOLATE"),
    (0x2067, "RIGHT-TO-LEFT ISOLATE"),
    (0x2068, "FIRST STRONG ISOLATE"),
    (0x2069, "POP DIRECTIONAL ISOLATE"),
    (0xFEFF, "ZERO WIDTH NO-BREAK SPACE"),
    (0xE0001, "LANGUAGE TAG"),
    (0xE007F, "CANCEL TAG"),
];

/// `user@host`, from the environment and the kernel's host name, made id-safe.
pub fn default_agent() -> String {
    let user = var("USER")
        .or_else(|| var("LOGNAME"))
        .unwrap_or_else(|| "agent".into());
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .or_else(|| var("HOSTNAME"))
        .unwrap_or_else(|| "localhost".into());
    let id: String = format!("{user}@{host}")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '@') {
                c
            } else {
                '-'
            }
        })
        .collect();
    let id = id.trim_start_matches(['.', '-']).replace("..", ".");
    if validate_id("agent", &id).is_ok() {
        id
    } else {
        "agent".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_that_could_become_paths_are_refused() {
        for bad in [
            "", "a/b", "..", "a..b", "../x", ".hidden", "a\nb", "a b", "a\\b", "x:y", "-f",
        ] {
            let e = validate_id("fleet", bad).unwrap_err();
            assert_eq!(e.code, "invalid_id", "{bad:?}");
            assert!(e.hint.is_some());
        }
        for good in ["default", "team-a", "me@host.local", "a_b.c", "01J0ABC"] {
            validate_id("fleet", good).unwrap();
        }
        assert!(validate_id("agent", &"x".repeat(129)).is_err());
    }

    /// Anything the sanitizer would change hides in a listing: refused, naming the code point.
    #[test]
    fn ids_with_invisible_characters_are_refused_by_name() {
        for (bad, named) in [
            ("a\u{202E}b", "U+202E RIGHT-TO-LEFT OVERRIDE"),
            ("a\u{200B}b", "U+200B ZERO WIDTH SPACE"),
            ("a\u{E0041}", "U+E0041 TAG LATIN CAPITAL LETTER A"),
            ("\u{E0001}x", "U+E0001 LANGUAGE TAG"),
            ("x\u{E007F}", "U+E007F CANCEL TAG"),
            ("x\u{FE0F}", "U+FE0F VARIATION SELECTOR-16"),
            ("x\u{1b}", "U+001B ESCAPE"),
            ("x\u{2028}", "U+2028 LINE SEPARATOR"),
            ("x\u{115F}", "U+115F"),
        ] {
            for what in ["agent", "fleet", "session"] {
                let e = validate_id(what, bad).unwrap_err();
                assert_eq!(e.code, "invalid_id", "{bad:?}");
                assert!(e.message.contains(named), "{bad:?}: {}", e.message);
            }
            let e = validate_subject(bad).unwrap_err();
            assert!(e.message.contains(named), "{bad:?}: {}", e.message);
        }
        // Subjects are free text otherwise: spaces and slashes are fine.
        validate_subject("src/auth login").unwrap();
    }

    #[test]
    fn default_agent_is_valid() {
        validate_id("agent", &default_agent()).unwrap();
    }

    #[test]
    fn flag_beats_config() {
        let cfg = Config {
            fleet: Some("cfg".into()),
            agent: Some("cfga".into()),
            ..Config::default()
        };
        let flags = ScopeFlags {
            fleet: Some("flag".into()),
            agent: None,
        };
        let s = Scope::resolve(&flags, &cfg).unwrap();
        assert_eq!(s.fleet, "flag");
    }
}
