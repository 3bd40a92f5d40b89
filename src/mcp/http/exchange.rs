//! One POST or DELETE on an MCP endpoint, after the guards passed: the handshake era's
//! sessions (2025-03-26 … 2025-11-25) here, the stateless era in `stateless.rs`. Every
//! message goes through the stdio server's dispatch (`Server::handle_message`) in the
//! caller's context; only the framing, the session and the headers are HTTP's.

use std::sync::Arc;

use hyper::HeaderMap;
use serde_json::{Value, json};

use super::reply::{Reply, respond};
use super::request::{header, id_of, method_of};
use super::session::Refused;
use super::{Endpoint, Shared, stateless};
use crate::mcp::Server;
use crate::mcp::jsonrpc::{self, INVALID_REQUEST, PARSE_ERROR};
use crate::mcp::protocol::{Era, META_VERSION, Version};

pub(crate) fn post(sh: &Shared, ep: &Endpoint, h: &HeaderMap, body: &[u8]) -> Reply {
    let msg = match serde_json::from_slice::<Value>(body) {
        Ok(v) => v,
        Err(e) => {
            let detail = json!({"detail": e.to_string()});
            let frame = jsonrpc::error(Value::Null, PARSE_ERROR, "Parse error", Some(detail));
            return Reply::json(400, frame);
        }
    };
    let version = header(h, "mcp-protocol-version");
    if let Some(sid) = header(h, "mcp-session-id") {
        return in_session(sh, ep, sid, version, msg);
    }
    let handshake_header = version.and_then(Version::parse).filter(|v| !v.stateless());
    let modern = (version.is_some() && handshake_header.is_none())
        || msg
            .get("params")
            .and_then(|p| p.get("_meta"))
            .is_some_and(|m| m.get(META_VERSION).is_some())
        || method_of(&msg) == Some("server/discover");
    if modern {
        return stateless::post(ep, h, msg);
    }
    if method_of(&msg) == Some("initialize") {
        return open(sh, ep, msg);
    }
    Reply::rpc_error(
        400,
        id_of(&msg),
        INVALID_REQUEST,
        "Bad Request: the `Mcp-Session-Id` header is missing: send `initialize` first (or speak 2026-07-28 with its headers)",
    )
}

/// `initialize` without a session: run it, and when it settled a version open a session
/// bound to the caller's token.
fn open(sh: &Shared, ep: &Endpoint, msg: Value) -> Reply {
    let mut ctx = ep.ctx.clone();
    // Each HTTP session is its own session in the spool and the call log.
    ctx.scope.session = format!("mcp-{}", crate::ulid::new());
    let id = id_of(&msg);
    let mut server = Server::new(&ctx);
    let reply = server.handle_message(msg);
    let era = server.era();
    if era == Era::Fresh {
        return respond(reply);
    }
    match sh.sessions.open(&ep.path, era, Arc::new(ctx), &ep.who, sh.gate.live()) {
        Ok(sid) => {
            sh.sessions_changed();
            respond(reply).header("mcp-session-id", sid)
        }
        Err(Refused::Full) => Reply::rpc_error(
            503,
            id,
            jsonrpc::INTERNAL_ERROR,
            "Service Unavailable: the server holds as many sessions as it may; end one (DELETE) or retry later",
        )
        .header("retry-after", "5"),
        Err(Refused::NoId) => Reply::rpc_error(
            500,
            id,
            jsonrpc::INTERNAL_ERROR,
            "cannot mint a session id",
        ),
    }
}

fn in_session(sh: &Shared, ep: &Endpoint, sid: &str, version: Option<&str>, msg: Value) -> Reply {
    let id = id_of(&msg);
    let Some(session) = sh.sessions.get(sid, &ep.path, &ep.who) else {
        return Reply::rpc_error(
            404,
            id,
            INVALID_REQUEST,
            "Session not found: it ended or never existed here; send `initialize` for a new one",
        );
    };
    let Era::Handshake(negotiated) = session.era else {
        return Reply::rpc_error(
            400,
            id,
            INVALID_REQUEST,
            "Bad Request: session not initialized",
        );
    };
    // The header arrived in 2025-06-18. Without it the session's negotiated version is the
    // "other way to identify the version" the spec allows: Gemini CLI 0.61 posts its
    // `notifications/initialized` without the header. A different version is refused.
    if let Some(v) = version
        && v != negotiated.as_str()
    {
        let message = format!(
            "Bad Request: the `MCP-Protocol-Version` header `{v}` is not this session's version (negotiated: {})",
            negotiated.as_str()
        );
        return Reply::rpc_error(400, id, INVALID_REQUEST, &message);
    }
    respond(Server::with_era(&session.ctx, session.era).handle_message(msg))
}

/// DELETE ends the session it names, on the endpoint it was opened on.
pub(crate) fn delete(sh: &Shared, ep: &Endpoint, h: &HeaderMap) -> Reply {
    match header(h, "mcp-session-id") {
        None => Reply::refusal(
            400,
            "session_missing",
            "the `Mcp-Session-Id` header is missing",
        ),
        Some(sid) if sh.sessions.end(sid, &ep.path, &ep.who) => {
            sh.sessions_changed();
            Reply::empty(204)
        }
        Some(_) => Reply::refusal(404, "session_not_found", "no such session"),
    }
}
