//! The HTTP side of `ctxlake mcp`: the `--http`/`--bind`/`--allow-host`/`--no-auth` flags.
//! Tokens are managed by `ctxlake mcp token` (`mcp_token.rs`).

use clap::Args;

use crate::addr::DEFAULT_ADDR;
use crate::error::{Error, Result};
use crate::mcp::http;
use crate::tools::Ctx;

#[derive(Debug, Args)]
pub struct HttpArgs {
    /// Serve over MCP Streamable HTTP instead of stdio, on ADDR (default 127.0.0.1:8719;
    /// port 0 picks a free port). Runs until SIGTERM or SIGINT
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = DEFAULT_ADDR)]
    pub http: Option<String>,
    /// Listen address for --http (same as its ADDR)
    #[arg(long, value_name = "ADDR")]
    pub bind: Option<String>,
    /// Another host name clients may use in Host/Origin (e.g. a tailnet name); repeatable
    #[arg(long = "allow-host", value_name = "HOST")]
    pub allow_hosts: Vec<String>,
    /// Serve without tokens: every caller acts as this server's agent in every fleet.
    /// Loopback addresses only; anyone on this host can then use it
    #[arg(long)]
    pub no_auth: bool,
}

impl HttpArgs {
    /// The options when HTTP was asked for (`--http` or `--bind`), else `None` (stdio).
    pub fn options(&self) -> Result<Option<http::Options>> {
        let addr = match (&self.bind, &self.http) {
            (Some(b), _) => b,
            (None, Some(a)) => a,
            (None, None) if self.allow_hosts.is_empty() && !self.no_auth => return Ok(None),
            (None, None) => DEFAULT_ADDR,
        };
        let addr = crate::addr::parse_addr(addr)?;
        if self.no_auth && !addr.ip().is_loopback() {
            return Err(Error::usage(
                "no_auth_not_loopback",
                format!("`--no-auth` is for a loopback address only, not {addr}"),
            )
            .hint("drop `--no-auth` and give each client a token (`ctxlake mcp token new NAME`)"));
        }
        Ok(Some(http::Options {
            addr,
            allow_hosts: self.allow_hosts.clone(),
            no_auth: self.no_auth,
        }))
    }
}

pub fn serve(ctx: Ctx, opts: &http::Options) -> Result<()> {
    http::run(ctx, opts)
}
