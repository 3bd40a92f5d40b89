//! The HTTP side of `ctxlake mcp`: the `--http`/`--bind`/`--allow-host` flags and
//! `ctxlake mcp token new|show|revoke`.

use clap::{Args, Subcommand};
use serde::Serialize;

use super::GlobalArgs;
use crate::error::{Error, Result};
use crate::mcp::http::{self, DEFAULT_ADDR, token};
use crate::tools::Ctx;

#[derive(Debug, Args)]
pub struct HttpArgs {
    /// Serve over MCP Streamable HTTP instead of stdio, on ADDR (default 127.0.0.1:8719;
    /// port 0 picks a free port). Runs until SIGTERM or SIGINT
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = DEFAULT_ADDR)]
    pub http: Option<String>,
    /// Listen address for --http (same as its ADDR); a non-loopback address needs a token
    #[arg(long, value_name = "ADDR")]
    pub bind: Option<String>,
    /// Another host name clients may use in Host/Origin (e.g. a tailnet name); repeatable
    #[arg(long = "allow-host", value_name = "HOST")]
    pub allow_hosts: Vec<String>,
}

impl HttpArgs {
    /// The options when HTTP was asked for (`--http` or `--bind`), else `None` (stdio).
    pub fn options(&self) -> Result<Option<http::Options>> {
        let addr = match (&self.bind, &self.http) {
            (Some(b), _) => b,
            (None, Some(a)) => a,
            (None, None) if self.allow_hosts.is_empty() => return Ok(None),
            (None, None) => DEFAULT_ADDR,
        };
        Ok(Some(http::Options {
            addr: http::parse_addr(addr)?,
            allow_hosts: self.allow_hosts.clone(),
        }))
    }
}

/// Manage the bearer token of `ctxlake mcp --http` (a 0600 file under CTXLAKE_HOME)
#[derive(Debug, Subcommand)]
pub enum TokenCmd {
    /// Mint a new 32-byte random token (replacing any old one) and print it
    New,
    /// Print the current token
    Show,
    /// Delete the token: loopback servers then need none, others refuse every request
    Revoke,
}

#[derive(Serialize)]
struct TokenOutput {
    token: Option<String>,
    path: String,
}

pub fn serve(ctx: Ctx, opts: &http::Options) -> Result<()> {
    http::run(ctx, opts)
}

pub fn token(cmd: &TokenCmd, g: &GlobalArgs) -> Result<()> {
    let paths = crate::paths::Paths::from_env()?;
    let path = paths.mcp_token();
    let shown = path.display().to_string();
    let out = match cmd {
        TokenCmd::New => TokenOutput {
            token: Some(token::new(&path)?),
            path: shown,
        },
        TokenCmd::Show => {
            let t = token::read(&path)?.ok_or_else(|| {
                Error::refused("no_token", "no MCP HTTP token is configured")
                    .hint("run `ctxlake mcp token new`")
            })?;
            TokenOutput {
                token: Some(t),
                path: shown,
            }
        }
        TokenCmd::Revoke => {
            if !token::revoke(&path)? {
                g.output().note("no token was configured");
            }
            TokenOutput {
                token: None,
                path: shown,
            }
        }
    };
    let printed = g.output().emit(&out, |o| match &o.token {
        Some(t) => format!("{t}\n"),
        None => format!("revoked (removed `{}`)\n", o.path),
    });
    super::printed(printed)
}
