//! `ctxlake mcp --http [ADDR]`: the eight tools over MCP Streamable HTTP. The runtime (tokio)
//! and the HTTP stack (hyper) start only here, so stdio `mcp`, `hook` and the tool commands
//! never pay for them. Every request needs a token (loopback too, unless `--no-auth`), and
//! runs as that token's principal: its agent, its fleets, its role.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::auth::Who;
use crate::error::Result;
use crate::mcp::status::{self, ServerEntry};
use crate::tools::Ctx;

mod dash;
mod exchange;
mod gate;
pub(crate) mod guard;
mod limits;
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

/// How `ctxlake mcp --http` was asked to run.
#[derive(Debug, Clone)]
pub struct Options {
    pub addr: SocketAddr,
    /// Extra names clients may use in `Host`/`Origin` (a tailnet name, say).
    pub allow_hosts: Vec<String>,
    /// `--no-auth` (loopback only): no token needed, every caller is the server's agent.
    pub no_auth: bool,
}

/// What every request handler shares: the process context, the sessions, the guards.
pub(crate) struct Shared {
    /// The process context (pinned when the server was started with `--fleet`).
    pub(crate) base: Ctx,
    pub(crate) sessions: session::Sessions,
    pub(crate) hosts: guard::Hosts,
    /// The token store and who a request's token names.
    pub(crate) gate: gate::Gate,
    /// Per-token requests in flight and open streams.
    pub(crate) limits: Arc<limits::Limits>,
    /// The run file `mcp status` reads, rewritten when the session count changes.
    pub(crate) registration: Mutex<ServerEntry>,
    /// The dashboard's used login links and cookie sessions.
    pub(crate) logins: crate::dashboard::login::Logins,
    /// How long one request's work (a tool call) may take before the client is answered.
    pub(crate) call_deadline: Duration,
}

/// One MCP endpoint as one caller sees it: `/mcp` (open mode) or `/mcp/<fleet>` (pinned).
pub(crate) struct Endpoint {
    pub(crate) path: String,
    /// The caller's context: its token's agent and grant, and the URL's pin. Stateless
    /// requests run in it (with their own session id); sessions derive theirs from it.
    pub(crate) ctx: Ctx,
    /// The token the request came with: sessions and streams are bound to it.
    pub(crate) who: Who,
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

/// Serve until SIGTERM or SIGINT. Without a token store yet, the first start makes one with
/// the owner token, and says how clients get theirs.
pub fn run(ctx: Ctx, opts: &Options) -> Result<()> {
    let store = ctx.paths.mcp_tokens();
    let mut notes = Vec::new();
    if opts.no_auth {
        notes.push(format!(
            "warning: --no-auth: no token is asked for; every process on this host can call this server as agent `{}` in every fleet",
            ctx.scope.agent
        ));
    } else if crate::auth::store::init(&store, &ctx.now_rfc3339())? {
        notes.push(format!(
            "made the owner token in `{}` (mode 0600, only its hash is kept); every client needs a token of its own: `ctxlake mcp token new NAME [--agent ID] [--fleet F]… [--read-only]` prints one, sent as `Authorization: Bearer <token>` (`ctxlake install <runtime> --http` entries read it from {}); the dashboard: `ctxlake mcp token show --link`",
            store.display(),
            crate::paths::env::MCP_TOKEN
        ));
    }
    let call_deadline = Duration::from_secs(ctx.config.mcp_call_timeout_secs);
    let shared = Shared {
        hosts: guard::Hosts::new(opts.addr, &opts.allow_hosts),
        sessions: session::Sessions::default(),
        gate: gate::Gate::new(store, opts.no_auth),
        limits: Default::default(),
        registration: Mutex::new(status::entry(&ctx)),
        logins: crate::dashboard::login::Logins::open(ctx.paths.mcp_login_nonces()),
        call_deadline,
        base: ctx,
    };
    serve::run(Arc::new(shared), opts.addr, &notes)
}
