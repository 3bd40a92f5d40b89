//! How `ctxlake mcp token` shows a token: never its hash, never a kept secret.

use serde::Serialize;

use crate::auth::{Principal, Role};

/// A token as `list`, `show` and `new` print it: never its hash, never a kept secret.
#[derive(Serialize)]
pub(super) struct Shown<'a> {
    name: &'a str,
    /// `null`: the server's own agent.
    agent: Option<&'a str>,
    /// Empty: every fleet.
    fleets: &'a [String],
    role: Role,
    created: &'a str,
}

/// `token new --json`: the token with its secret, the one time it is ever shown.
#[derive(Serialize)]
pub(super) struct Made<'a> {
    pub(super) token: &'a str,
    #[serde(flatten)]
    pub(super) shown: Shown<'a>,
    pub(super) path: &'a std::path::Path,
}

impl<'a> From<&'a Principal> for Shown<'a> {
    fn from(p: &'a Principal) -> Self {
        Shown {
            name: &p.name,
            agent: p.agent.as_deref(),
            fleets: &p.fleets,
            role: p.role,
            created: &p.created,
        }
    }
}

pub(super) fn describe(p: &Principal) -> String {
    let agent = p
        .agent
        .as_deref()
        .map_or("the server's agent".to_string(), |a| format!("agent `{a}`"));
    let fleets = if p.fleets.is_empty() {
        "every fleet".to_string()
    } else {
        format!("fleets {}", p.fleets.join(", "))
    };
    let role = match p.role {
        Role::ReadWrite => "read-write",
        Role::ReadOnly => "read-only",
    };
    format!("{agent}, {fleets}, {role}")
}

pub(super) fn table(tokens: &[Principal]) -> String {
    if tokens.is_empty() {
        return "no tokens: `ctxlake mcp token new NAME` makes one\n".into();
    }
    let mut t = crate::output::table(&["name", "agent", "fleets", "role", "created"]);
    for p in tokens {
        t.add_row([
            p.name.clone(),
            p.agent.clone().unwrap_or_else(|| "(the server's)".into()),
            if p.fleets.is_empty() {
                "(every fleet)".into()
            } else {
                p.fleets.join(", ")
            },
            match p.role {
                Role::ReadWrite => "read-write".into(),
                Role::ReadOnly => "read-only".into(),
            },
            p.created.clone(),
        ]);
    }
    format!("{t}\n")
}
