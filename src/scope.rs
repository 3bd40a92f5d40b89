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
        let fleet = flags
            .fleet
            .clone()
            .or_else(|| var(env::FLEET_ID))
            .or_else(|| config.fleet.clone())
            .unwrap_or_else(|| DEFAULT_FLEET.to_string());
        let agent = flags
            .agent
            .clone()
            .or_else(|| var(env::AGENT_ID))
            .or_else(|| config.agent.clone())
            .unwrap_or_else(default_agent);
        // A person at the terminal is one stable claimant per agent, so a `release`
        // frees what an earlier `claim` took; `ctxlake mcp` mints a session per process.
        let session = var(env::SESSION_ID).unwrap_or_else(|| DEFAULT_SESSION.to_string());
        validate_id("fleet", &fleet)?;
        validate_id("agent", &agent)?;
        validate_id("session", &session)?;
        Ok(Scope {
            fleet,
            agent,
            session,
        })
    }
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
        Some(p) => Err(Error::bad_arguments(
            "invalid_id",
            format!("{what} id `{}` {p}", id.escape_debug()),
        )
        .hint(format!(
            "use letters, digits, `-`, `_`, `.` and `@` (e.g. `--{what} my-{what}`)"
        ))),
    }
}

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
