//! A token principal: who a call made with a token is (its agent), where it may act (its
//! fleets) and what it may do (its role). [`Principal::ctx`] turns the server's context into
//! the one every call with that token runs in, so the tools enforce it without knowing HTTP.

use serde::{Deserialize, Serialize};

use crate::ctx::{Ctx, Grant};
use crate::error::{Error, Result};

/// The token the store is created with: the server's own agent, every fleet, read-write.
/// It signs the dashboard's login links (`ctxlake mcp token show --link`).
pub const OWNER: &str = "owner";
/// Token names are short plain words: they appear in session ids and refusals.
const MAX_NAME: usize = 64;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Every tool.
    ReadWrite,
    /// The read tools only; every write tool is refused, naming the token.
    ReadOnly,
}

/// One token as the store keeps it: everything but the secret, which is only hashed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Principal {
    pub name: String,
    /// SHA-256 of the secret, hex.
    pub sha256: String,
    /// The agent its calls act as; `None`: the server's own agent (the owner token).
    pub agent: Option<String>,
    /// The fleets it may use; empty: every fleet.
    pub fleets: Vec<String>,
    pub role: Role,
    /// When it was made (RFC 3339).
    pub created: String,
}

/// What a session or a login is bound to: a token's name and hash, so a token revoked and
/// made again under the same name does not inherit what the old one opened.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Who {
    pub name: String,
    pub key: String,
}

impl Who {
    /// Every caller of a `--no-auth` server.
    pub fn anonymous() -> Who {
        Who {
            name: "no-auth".into(),
            key: String::new(),
        }
    }
}

impl Principal {
    pub fn who(&self) -> Who {
        Who {
            name: self.name.clone(),
            key: self.sha256.clone(),
        }
    }

    pub fn grant(&self) -> Grant {
        Grant {
            token: Some(self.name.clone()),
            fleets: (!self.fleets.is_empty()).then(|| self.fleets.clone()),
            read_only: self.role == Role::ReadOnly,
        }
    }

    /// The context a call with this token runs in: `base` (the server's), acting as the
    /// token's agent, narrowed to its fleets and role.
    pub fn ctx(&self, base: &Ctx) -> Ctx {
        let agent = self.agent.as_deref().unwrap_or(&base.scope.agent);
        base.granted(agent, self.grant())
    }
}

/// A token name: letters, digits, `.`, `_`, `-`, at most 64, not starting with `.` or `-`.
pub fn validate_name(name: &str) -> Result<()> {
    let plain = name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b));
    if plain && name.len() <= MAX_NAME && crate::scope::validate_id("token", name).is_ok() {
        return Ok(());
    }
    Err(Error::bad_arguments(
        "invalid_token_name",
        format!("token name `{}` is not a plain name", name.escape_debug()),
    )
    .hint("use 1 to 64 letters, digits, `.`, `_` or `-` (e.g. `laptop-claude`)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(agent: Option<&str>, fleets: &[&str], role: Role) -> Principal {
        Principal {
            name: "ci".into(),
            sha256: "00".into(),
            agent: agent.map(String::from),
            fleets: fleets.iter().map(|f| f.to_string()).collect(),
            role,
            created: "2026-01-01T00:00:00Z".into(),
        }
    }

    #[test]
    fn a_principal_narrows_the_servers_context() {
        let dir = tempfile::tempdir().unwrap();
        let base = crate::mcp::tests::ctx(dir.path(), None);
        let owner = p(None, &[], Role::ReadWrite).ctx(&base);
        assert_eq!(owner.scope.agent, base.scope.agent, "the server's agent");
        assert_eq!(owner.fleet(Some("anything")).unwrap(), "anything");
        assert!(owner.check_write("fleet_claim").is_ok());

        let bob = p(Some("bob"), &["x", "y"], Role::ReadOnly).ctx(&base);
        assert_eq!(bob.scope.agent, "bob");
        assert_eq!(bob.scope.fleet, "x", "the server's fleet is not bob's");
        assert_eq!(bob.fleet(Some("y")).unwrap(), "y");
        let e = bob.fleet(Some(&base.scope.fleet)).unwrap_err();
        assert_eq!(e.code, "fleet_not_accessible");
        assert!(e.message.contains("token `ci`"), "{}", e.message);
        let e = bob.check_write("fleet_claim").unwrap_err();
        assert_eq!(e.code, "read_only_token");
        assert!(e.message.contains("token `ci`"), "{}", e.message);

        let kept = p(None, &[&base.scope.fleet, "z"], Role::ReadWrite).ctx(&base);
        assert_eq!(kept.scope.fleet, base.scope.fleet, "ours when allowed");
    }

    #[test]
    fn names_are_plain() {
        for ok in ["owner", "laptop-claude", "ci_2", "a.b"] {
            assert!(validate_name(ok).is_ok(), "{ok}");
        }
        let long = "x".repeat(65);
        for bad in ["", "-x", ".x", "a b", "a/b", "é", "a:b", long.as_str()] {
            assert!(validate_name(bad).is_err(), "{bad}");
        }
    }
}
