//! `ctxlake mcp --http [ADDR]`: the eight tools over MCP Streamable HTTP. The runtime (tokio)
//! and the HTTP stack (hyper) start only here, so stdio `mcp`, `hook` and the tool commands
//! never pay for them. Loopback by default; any other bind needs a bearer token.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use crate::error::{Error, Result};
use crate::mcp::status::{self, ServerEntry};
use crate::tools::Ctx;

mod dash;
mod exchange;
pub(crate) mod guard;
#[cfg(test)]
mod props;
mod reply;
mod request;
mod route;
mod serve;
mod session;
mod stateless;
#[cfg(test)]
mod tests;
use crate::auth::token;

/// How `ctxlake mcp --http` was asked to run.
#[derive(Debug, Clone)]
pub struct Options {
    pub addr: SocketAddr,
    /// Extra names clients may use in `Host`/`Origin` (a tailnet name, say).
    pub allow_hosts: Vec<String>,
}

/// What every request handler shares: the process context, the sessions, the guards.
pub(crate) struct Shared {
    /// The process context (pinned when the server was started with `--fleet`).
    pub(crate) base: Ctx,
    pub(crate) sessions: session::Sessions,
    pub(crate) hosts: guard::Hosts,
    pub(crate) token_file: PathBuf,
    /// A non-loopback server must never run open: no token file means 401 for all.
    pub(crate) token_required: bool,
    /// The run file `mcp status` reads, rewritten when the session count changes.
    pub(crate) registration: Mutex<ServerEntry>,
    /// The dashboard's used login links and cookie sessions.
    pub(crate) logins: crate::dashboard::login::Logins,
}

/// One MCP endpoint: `/mcp` (open mode) or `/mcp/<fleet>` (pinned to that fleet).
pub(crate) struct Endpoint {
    pub(crate) path: String,
    /// The context of its stateless requests; sessions derive theirs from it.
    pub(crate) ctx: Ctx,
}

impl Shared {
    /// Rewrite the run file with the live session count (best effort, like the first write).
    pub(crate) fn sessions_changed(&self) {
        let n = self.sessions.len() as u64;
        let mut reg = self.registration.lock().unwrap_or_else(|p| p.into_inner());
        reg.http_sessions = Some(n);
        status::refresh(&self.base.paths, &reg);
    }
}

/// Serve until SIGTERM or SIGINT.
pub fn run(ctx: Ctx, opts: &Options) -> Result<()> {
    let token_file = ctx.paths.mcp_token();
    let token_required = guard::needs_token(opts.addr);
    if token_required && token::read(&token_file)?.is_none() {
        return Err(Error::refused(
            "token_required",
            format!(
                "refusing to serve on {}: a non-loopback address needs a bearer token",
                opts.addr
            ),
        )
        .hint("run `ctxlake mcp token new` first, or bind to 127.0.0.1"));
    }
    let shared = Shared {
        hosts: guard::Hosts::new(opts.addr, &opts.allow_hosts),
        sessions: session::Sessions::default(),
        token_file,
        token_required,
        registration: Mutex::new(status::entry(&ctx)),
        logins: Default::default(),
        base: ctx,
    };
    serve::run(Arc::new(shared), opts.addr)
}
