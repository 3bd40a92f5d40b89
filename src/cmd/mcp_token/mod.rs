//! `ctxlake mcp token new|list|show|revoke`: the principals of `ctxlake mcp --http`. A
//! secret is printed once by `new`; the store keeps its SHA-256 only. How a token is shown:
//! `show.rs`; the dashboard login link: `link.rs`.

mod link;
mod show;

use clap::{Args, Subcommand};

use super::GlobalArgs;
use crate::auth::store::{self, NewToken};
use crate::auth::{OWNER, Role, Store};
use crate::error::{Error, Result};
use crate::paths::Paths;

/// Manage the tokens of `ctxlake mcp --http`: each client gets its own
#[derive(Debug, Subcommand)]
pub enum TokenCmd {
    New(NewArgs),
    /// List the tokens: name, agent, fleets, role, creation time (secrets are never kept)
    List,
    /// Show one token (default: the owner), or with --link a one-time dashboard login link
    Show {
        /// The token to show
        #[arg(default_value = OWNER)]
        name: String,
        /// Print a login link for the dashboard instead (single use, valid 10 minutes, signed
        /// with the owner token) that opens PAGE (`/` or `/fleet/<fleet>`); the host is the
        /// running server's, else the default
        #[arg(long, value_name = "PAGE", num_args = 0..=1, default_missing_value = "/")]
        link: Option<String>,
    },
    /// Remove a token: its calls, sessions, streams and dashboard logins stop at once
    Revoke {
        /// The token to remove (`token list` names them)
        name: String,
    },
}

/// Make a token for one client and print its secret (shown this once; only its hash is kept)
///
/// Calls made with it act as its agent (default: the token's name), in its fleets only
/// (default: every fleet), and write only without --read-only. Clients send it as
/// `Authorization: Bearer <token>`; the entries `ctxlake install <runtime> --http` writes
/// read it from CTXLAKE_MCP_TOKEN.
///
/// Examples:
///   ctxlake mcp token new laptop-claude
///   ctxlake mcp token new ci --agent ci-bot --fleet team-a --fleet team-b --read-only
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct NewArgs {
    /// The token's name: letters, digits, `.`, `_`, `-`
    pub name: String,
    /// The agent its calls act as (default: NAME; the owner token: the server's agent)
    // Same id as the global `--agent`, so clap takes this one here (and `typed` ignores the
    // value the global hands down from CTXLAKE_AGENT_ID).
    #[arg(long, id = "agent", value_name = "ID")]
    pub agent: Option<String>,
    /// A fleet it may use (repeatable; default: every fleet)
    #[arg(long = "fleet", id = "fleet", value_name = "FLEET")]
    pub fleets: Vec<String>,
    /// Reads only: every write tool is refused, naming the token
    #[arg(long)]
    pub read_only: bool,
}

pub fn run(cmd: &TokenCmd, g: &GlobalArgs) -> Result<()> {
    let paths = Paths::from_env()?;
    let path = paths.mcp_tokens();
    let out = g.output();
    let printed = match cmd {
        TokenCmd::New(a) => {
            let (agent, fleets) = typed(std::env::args_os());
            let new = NewToken {
                name: a.name.clone(),
                agent,
                fleets,
                role: if a.read_only {
                    Role::ReadOnly
                } else {
                    Role::ReadWrite
                },
            };
            let (p, secret) = store::add(&path, new, &crate::time::now_rfc3339())?;
            let made = show::Made {
                token: &secret,
                shown: show::Shown::from(&p),
                path: &path,
            };
            let r = out.emit(&made, |_| format!("{secret}\n"));
            out.note(&format!(
                "token `{}` ({}): shown this once; send it as `Authorization: Bearer <token>` (for `ctxlake install <runtime> --http` entries: in {})",
                p.name,
                show::describe(&p),
                crate::paths::env::MCP_TOKEN
            ));
            r
        }
        TokenCmd::List => {
            let s = Store::load(&path)?.unwrap_or_default();
            let rows: Vec<show::Shown> = s.tokens.iter().map(show::Shown::from).collect();
            let v = serde_json::json!({"tokens": rows, "path": path});
            out.emit(&v, |_| show::table(&s.tokens))
        }
        TokenCmd::Show { name, link: None } => {
            let s = Store::load(&path)?.unwrap_or_default();
            let p = s.get(name).ok_or_else(|| no_such(name))?;
            out.emit(&show::Shown::from(p), |_| {
                show::table(std::slice::from_ref(p))
            })
        }
        TokenCmd::Show {
            name,
            link: Some(page),
        } => {
            let link = link::login_link(&paths, name, page)?;
            out.emit(&serde_json::json!({ "link": link }), |_| {
                format!("{link}\n")
            })
        }
        TokenCmd::Revoke { name } => {
            let p = store::revoke(&path, name)?;
            let v = serde_json::json!({"revoked": show::Shown::from(&p), "path": path});
            out.emit(&v, |_| format!("revoked `{name}`\n"))
        }
    };
    super::printed(printed)
}

/// `--agent` and `--fleet` as typed on the command line. The global flags of the same names
/// also read `CTXLAKE_AGENT_ID` / `CTXLAKE_FLEET_ID`, and clap hands those values down to
/// `token new`; a variable set in the shell must never shape a token, so only typed values
/// count (clap knows where each came from).
fn typed(argv: impl IntoIterator<Item = std::ffi::OsString>) -> (Option<String>, Vec<String>) {
    use clap::CommandFactory;
    use clap::parser::ValueSource;
    let Ok(m) = super::Cli::command().try_get_matches_from(argv) else {
        return (None, Vec::new());
    };
    let Some(new) = ["mcp", "token", "new"]
        .iter()
        .try_fold(&m, |m, name| m.subcommand_matches(name))
    else {
        return (None, Vec::new());
    };
    let on_line = |id: &str| new.value_source(id) == Some(ValueSource::CommandLine);
    let agent = on_line("agent")
        .then(|| new.get_one::<String>("agent").cloned())
        .flatten();
    let fleets = if on_line("fleet") {
        new.get_many::<String>("fleet")
            .map(|v| v.cloned().collect())
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    (agent, fleets)
}

fn no_such(name: &str) -> Error {
    Error::refused("no_such_token", format!("there is no token named `{name}`"))
        .hint("`ctxlake mcp token list` shows them; `ctxlake mcp token new NAME` makes one")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(a: &[&str]) -> Vec<std::ffi::OsString> {
        a.iter().map(std::ffi::OsString::from).collect()
    }

    #[test]
    fn only_typed_agent_and_fleets_shape_a_token() {
        let got = typed(argv(&[
            "ctxlake", "mcp", "token", "new", "ci", "--fleet", "a", "--fleet", "b", "--agent",
            "bot",
        ]));
        assert_eq!(got, (Some("bot".into()), vec!["a".into(), "b".into()]));
        assert_eq!(
            typed(argv(&["ctxlake", "mcp", "token", "new", "ci"])),
            (None, vec![])
        );
    }
}
