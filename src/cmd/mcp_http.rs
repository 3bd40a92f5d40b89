//! The HTTP side of `ctxlake mcp`: the `--http`/`--bind`/`--allow-host` flags and
//! `ctxlake mcp token new|show|revoke`.

use clap::{Args, Subcommand};
use serde::Serialize;

use super::GlobalArgs;
use crate::addr::DEFAULT_ADDR;
use crate::auth::token;
use crate::error::{Error, Result};
use crate::mcp::http;
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
            addr: crate::addr::parse_addr(addr)?,
            allow_hosts: self.allow_hosts.clone(),
        }))
    }
}

/// Manage the bearer token of `ctxlake mcp --http` (a 0600 file under CTXLAKE_HOME)
#[derive(Debug, Subcommand)]
pub enum TokenCmd {
    /// Mint a new 32-byte random token (replacing any old one) and print it
    New,
    /// Print the current token, or with --link a one-time dashboard login link
    Show {
        /// Print a login link for the dashboard instead (single use, valid 10 minutes) that
        /// opens PAGE (`/` or `/fleet/<fleet>`); the host is the running server's, else the default
        #[arg(long, value_name = "PAGE", num_args = 0..=1, default_missing_value = "/")]
        link: Option<String>,
    },
    /// Delete the token: loopback servers then need none, others refuse every request
    Revoke,
}

#[derive(Serialize)]
struct TokenOutput {
    token: Option<String>,
    path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    link: Option<String>,
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
            link: None,
        },
        TokenCmd::Show { link } => {
            let t = token::read(&path)?.ok_or_else(|| {
                Error::refused("no_token", "no MCP HTTP token is configured")
                    .hint("run `ctxlake mcp token new`")
            })?;
            let link = link
                .as_deref()
                .map(|page| login_link(&paths, &t, page))
                .transpose()?;
            TokenOutput {
                token: Some(t),
                path: shown,
                link,
            }
        }
        TokenCmd::Revoke => {
            if !token::revoke(&path)? {
                g.output().note("no token was configured");
            }
            TokenOutput {
                token: None,
                path: shown,
                link: None,
            }
        }
    };
    let printed = g.output().emit(&out, |o| match (&o.link, &o.token) {
        (Some(l), _) => format!("{l}\n"),
        (None, Some(t)) => format!("{t}\n"),
        (None, None) => format!("revoked (removed `{}`)\n", o.path),
    });
    super::printed(printed)
}

/// A one-time login link to `page` on the HTTP server running on this host (the first one
/// `mcp status` lists), else on the default address.
fn login_link(paths: &crate::paths::Paths, token: &str, page: &str) -> Result<String> {
    use crate::dashboard::login;
    if !login::landing_ok(page) {
        return Err(
            Error::usage("bad_page", format!("`{page}` is not a dashboard page"))
                .hint("give `/` or `/fleet/<fleet>` (letters, digits, `.`, `_`, `-`)"),
        );
    }
    let base = crate::mcp::status::status(paths)
        .servers
        .into_iter()
        .find_map(|s| s.url)
        .map(|u| u.trim_end_matches("/mcp").to_string())
        .unwrap_or_else(|| format!("http://{DEFAULT_ADDR}"));
    let query = login::link_query(token, page, crate::time::now_ms() / 1000)?;
    Ok(format!("{base}/login?{query}"))
}
