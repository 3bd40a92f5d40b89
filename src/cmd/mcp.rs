//! `ctxlake mcp`: serve the eight tools over MCP on stdin/stdout for one session;
//! `ctxlake mcp status`: which servers run on this host and what they were asked lately.

use std::ffi::OsString;
use std::io;

use clap::parser::ValueSource;
use clap::{ArgMatches, Args, CommandFactory, Subcommand};

use super::{Cli, GlobalArgs};
use crate::error::{Error, Result};
use crate::mcp::status::{self, StatusOutput};
use crate::paths::{self, env};
use crate::tools::Ctx;

/// Serve ctxlake's tools to an MCP client (stdio, newline-delimited JSON-RPC)
///
/// Without `--fleet` every tool takes an optional `fleet` argument (default: the
/// configured fleet). With `--fleet` on the command line the server is pinned: any
/// other fleet is refused with `fleet_not_accessible`. `CTXLAKE_FLEET_ID` sets the
/// default fleet but never pins. stdout carries JSON-RPC frames only; diagnostics go
/// to stderr. The server exits when stdin closes.
///
/// With `--http [ADDR]` the same tools are served over MCP Streamable HTTP: `POST /mcp`
/// (open mode), `POST /mcp/<fleet>` (pinned to that fleet), `GET /health`. Loopback
/// unless `--bind` names another address. Every request needs a token, loopback too
/// (`ctxlake mcp token new NAME`; the first start makes the owner token); a call acts as
/// its token's agent in its token's fleets. `--no-auth` (loopback only) turns that off.
/// `GET /` and `GET /fleet/<fleet>` serve a read-only fleet dashboard to a browser;
/// `ctxlake mcp token show --link` prints a one-time login link for it.
///
/// Examples:
///   ctxlake mcp
///   ctxlake mcp --fleet team-a
///   ctxlake mcp --http
///   ctxlake mcp --http 127.0.0.1:0
///   ctxlake mcp status --json
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct McpArgs {
    #[command(subcommand)]
    pub command: Option<McpCommand>,
    #[command(flatten)]
    pub http: super::mcp_http::HttpArgs,
}

#[derive(Debug, Subcommand)]
pub enum McpCommand {
    /// List the running servers (stdio by parent process, HTTP by URL) and the latest tool calls.
    Status,
    /// Manage the tokens of `ctxlake mcp --http` (each client gets its own).
    #[command(subcommand)]
    Token(super::mcp_token::TokenCmd),
}

pub fn run(args: &McpArgs, g: &GlobalArgs) -> Result<()> {
    match args.command {
        Some(McpCommand::Status) => show_status(g),
        Some(McpCommand::Token(ref t)) => super::mcp_token::run(t, g),
        None => serve(args, g),
    }
}

fn serve(args: &McpArgs, g: &GlobalArgs) -> Result<()> {
    let http = args.http.options()?;
    // A broken setting must not look like a dead server to every agent: serve anyway,
    // say it once here, and let every tool call report it with the fix.
    let (mut ctx, setup) = match Ctx::load(&g.scope_flags()) {
        Ok(ctx) => (ctx, None),
        // An HTTP server is started by a person or a service manager, who sees this at
        // once: refuse to start rather than answer every remote client with the error.
        Err(e) if http.is_some() => return Err(e),
        Err(e) => {
            let ctx = Ctx::fallback(crate::paths::Paths::from_env()?);
            crate::output::stderr(&format!(
                "{}note: serving anyway; every tool call reports this until it is fixed\n",
                crate::output::render_error(&e)
            ));
            (ctx, Some(e))
        }
    };
    // One process is one session; a launcher that knows better sets CTXLAKE_SESSION_ID.
    if paths::var(env::SESSION_ID).is_none() {
        ctx.scope.session = format!("mcp-{}", crate::ulid::new());
    }
    if setup.is_none() {
        if fleet_on_command_line(std::env::args_os()) {
            ctx.pinned_fleet = Some(ctx.scope.fleet.clone());
        }
        // Unknown `log_days` while the config is broken: keep every log.
        crate::mcp::log::prune(&ctx.paths, ctx.config.mcp_log_days, ctx.now_ms());
    }
    if let Some(opts) = http {
        return super::mcp_http::serve(ctx, &opts);
    }
    let _registration = status::register(&ctx);
    crate::mcp::serve_with(
        &ctx,
        setup.as_ref(),
        io::stdin().lock(),
        io::stdout().lock(),
    )
    .map_err(|e| Error::storage("io", "the MCP connection failed").source(e))
}

/// Whether `--fleet` was typed (or written by `ctxlake install`) rather than inherited from
/// `CTXLAKE_FLEET_ID`: clap knows where each value came from, so ask it.
pub fn fleet_on_command_line(argv: impl IntoIterator<Item = OsString>) -> bool {
    let Ok(m) = Cli::command().try_get_matches_from(argv) else {
        return false;
    };
    let typed = |m: &ArgMatches| m.value_source("fleet") == Some(ValueSource::CommandLine);
    typed(&m) || m.subcommand_matches("mcp").is_some_and(typed)
}

fn show_status(g: &GlobalArgs) -> Result<()> {
    let paths = crate::paths::Paths::from_env()?;
    let out = status::status(&paths);
    g.output()
        .emit(&out, render)
        .map_err(|e| Error::storage("io", "cannot write the status").source(e))
}

fn render(out: &StatusOutput) -> String {
    let mut s = String::new();
    if out.servers.is_empty() {
        s.push_str("no ctxlake mcp server is running\n");
    } else {
        let mut t = crate::output::table(&["pid", "parent", "fleet", "session", "since"]);
        for e in &out.servers {
            let parent = match &e.url {
                Some(url) => format!("{url} ({} sessions)", e.http_sessions.unwrap_or(0)),
                None => format!("{} ({})", e.parent.as_deref().unwrap_or("?"), e.ppid),
            };
            let fleet = if e.pinned {
                format!("{} (pinned)", e.fleet)
            } else {
                e.fleet.clone()
            };
            t.add_row([
                e.pid.to_string(),
                parent,
                fleet,
                e.session.clone(),
                e.started_at.clone(),
            ]);
        }
        s.push_str(&format!("{t}\n"));
    }
    if out.recent_calls.is_empty() {
        s.push_str("no tool calls logged\n");
    } else {
        let mut t = crate::output::table(&["at", "fleet", "tool", "ms", "ok"]);
        for c in &out.recent_calls {
            let ok = match &c.code {
                Some(code) if !c.ok => format!("no: {code}"),
                _ => "yes".into(),
            };
            t.add_row([
                c.ts.clone(),
                c.fleet.clone(),
                c.tool.clone(),
                c.latency_ms.to_string(),
                ok,
            ]);
        }
        s.push_str(&format!("{t}\n"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(a: &[&str]) -> Vec<OsString> {
        a.iter().map(OsString::from).collect()
    }

    #[test]
    fn only_a_typed_fleet_pins() {
        assert!(fleet_on_command_line(argv(&[
            "ctxlake", "mcp", "--fleet", "a"
        ])));
        assert!(fleet_on_command_line(argv(&[
            "ctxlake",
            "mcp",
            "--fleet=a"
        ])));
        assert!(fleet_on_command_line(argv(&[
            "ctxlake", "--fleet", "a", "mcp"
        ])));
        assert!(!fleet_on_command_line(argv(&["ctxlake", "mcp"])));
        assert!(!fleet_on_command_line(argv(&[
            "ctxlake", "mcp", "--agent", "x"
        ])));
    }
}
