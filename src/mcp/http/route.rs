//! From a hyper request to a `Reply`: the guards every request passes (Host/Origin 403, the
//! caller's token 401, the per-token cap 429, body cap 413, body deadline 408), the URL map,
//! and the hand-off of each POST to the blocking pool, where the synchronous tools run under
//! the call deadline.

use std::sync::Arc;
use std::time::Duration;

use http_body_util::{BodyExt, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::{HeaderMap, Method, Request};
use serde_json::{Value, json};

use super::gate::{Caller, Denied};
use super::limits::{self, Kind};
use super::reply::{Held, Payload, Reply};
use super::request::{header, id_of};
use super::{Endpoint, Shared, exchange};
use crate::mcp::MAX_FRAME_BYTES;

/// The same cap as one stdio frame.
pub(crate) const MAX_BODY_BYTES: usize = MAX_FRAME_BYTES;
/// Once its headers are in, a request's body must arrive within this long (a client that
/// stalls mid-body is answered 408 and cut off, never held open).
pub(crate) const BODY_DEADLINE: Duration = Duration::from_secs(10);
/// The JSON-RPC error a request gets when its work outlives the call deadline
/// (implementation-defined range, -32000 … -32019).
pub(crate) const REQUEST_TIMEOUT: i64 = -32001;
/// The JSON-RPC error of a `subscriptions/listen` over its token's stream cap.
pub(crate) const TOO_MANY_STREAMS: i64 = -32003;

enum Target {
    /// `/health`: liveness, no authentication.
    Health,
    /// `/mcp` or `/mcp/<fleet>`, or its `/health`.
    Mcp { fleet: Option<String>, health: bool },
}

fn target(path: &str) -> Option<Target> {
    if path == "/health" {
        return Some(Target::Health);
    }
    let rest = path.strip_prefix("/mcp")?;
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    if rest.is_empty() {
        return Some(Target::Mcp {
            fleet: None,
            health: false,
        });
    }
    let rest = rest.strip_prefix('/')?;
    let (fleet, health) = match rest.strip_suffix("/health") {
        Some(f) => (f, true),
        None => (rest, false),
    };
    (!fleet.contains('/')).then(|| Target::Mcp {
        fleet: Some(fleet.to_string()),
        health,
    })
}

/// Whether a request is the liveness probe (the one thing the reserve lane serves).
pub(crate) fn is_health(path: &str) -> bool {
    path == "/health"
}

pub(crate) async fn answer(sh: Arc<Shared>, req: Request<Incoming>) -> Reply {
    let (parts, body) = req.into_parts();
    let h = &parts.headers;
    if !sh.hosts.host_ok(header(h, "host")) || !sh.hosts.origin_ok(header(h, "origin")) {
        return Reply::refusal(
            403,
            "forbidden_origin",
            "Forbidden: the Host or Origin header names a site that is not this server",
        );
    }
    if let Some(page) = super::dash::target(parts.uri.path()) {
        return super::dash::answer(sh, &parts, page).await;
    }
    let Some(target) = target(parts.uri.path()) else {
        return Reply::refusal(
            404,
            "not_found",
            "no such endpoint: use /mcp or /mcp/<fleet> (or / for the dashboard)",
        );
    };
    let (fleet, health) = match target {
        Target::Health => return health_reply(&parts.method, &sh),
        Target::Mcp { fleet, health } => (fleet, health),
    };
    let caller = match sh.gate.caller(header(h, "authorization")) {
        Ok(c) => c,
        Err(d) => return unauthorized(d),
    };
    let ep = match endpoint(&sh, &caller, fleet) {
        Ok(ep) => ep,
        Err(r) => return r,
    };
    match (&parts.method, health) {
        (&Method::GET, true) => Reply::json(
            200,
            json!({"status": "ok", "fleet": ep.ctx.scope.fleet, "pinned": ep.ctx.pinned_fleet.is_some()}),
        ),
        (&Method::POST, false) => post(sh, ep, parts.headers, body).await,
        (&Method::DELETE, false) => exchange::delete(&sh, &ep, h),
        // No server-initiated stream is offered: the spec allows 405 for GET.
        _ => Reply::refusal(
            405,
            "method_not_allowed",
            "use POST (or DELETE to end a session)",
        )
        .header("allow", if health { "GET" } else { "POST, DELETE" }),
    }
}

fn health_reply(method: &Method, sh: &Shared) -> Reply {
    if method != Method::GET {
        return Reply::refusal(405, "method_not_allowed", "use GET").header("allow", "GET");
    }
    if sh.sessions.sweep(sh.gate.live()) {
        sh.sessions_changed();
    }
    Reply::json(
        200,
        json!({"status": "ok", "name": "ctxlake", "version": env!("CARGO_PKG_VERSION"),
               "sessions": sh.sessions.len()}),
    )
}

fn unauthorized(d: Denied) -> Reply {
    let why = match d {
        Denied::NoToken => {
            "Unauthorized: send `Authorization: Bearer <token>` with a token from `ctxlake mcp token new NAME`"
        }
        Denied::Broken => "Unauthorized: the server cannot read its token store",
    };
    Reply::refusal(401, "unauthorized", why).header("www-authenticate", "Bearer realm=\"ctxlake\"")
}

/// `/mcp` acts in the caller's context; `/mcp/<fleet>` pins it to `<fleet>`, which the
/// server's own pin (if it was started with `--fleet`) and the caller's token must allow.
fn endpoint(sh: &Shared, caller: &Caller, fleet: Option<String>) -> Result<Endpoint, Reply> {
    let mut ctx = caller.ctx(&sh.base);
    let who = caller.who();
    let Some(fleet) = fleet else {
        return Ok(Endpoint {
            path: "/mcp".into(),
            ctx,
            who,
        });
    };
    match ctx.fleet(Some(&fleet)) {
        Ok(f) => {
            ctx.scope.fleet = f.clone();
            ctx.pinned_fleet = Some(f);
            Ok(Endpoint {
                path: format!("/mcp/{fleet}"),
                ctx,
                who,
            })
        }
        Err(e) if e.code == "fleet_not_accessible" => Err(Reply::refusal(403, e.code, &e.message)),
        Err(e) => Err(Reply::refusal(404, e.code, &e.message)),
    }
}

async fn post(sh: Arc<Shared>, ep: Endpoint, h: HeaderMap, body: Incoming) -> Reply {
    // Taken before the body is read: a token's stalled bodies count against its own cap.
    let Some(_slot) = sh.limits.take(&ep.who, Kind::Request) else {
        return Reply::refusal(
            429,
            "too_many_requests",
            &format!(
                "this token already has {} requests in flight",
                super::limits::REQUESTS_PER_TOKEN
            ),
        )
        .header("retry-after", "1");
    };
    let bytes = match read_body(&h, body).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let deadline = sh.call_deadline;
    let (sh2, who) = (sh.clone(), ep.who.clone());
    let sent = bytes.clone();
    let work = move || exchange::post(&sh2, &ep, &h, &sent);
    // Work waits for a call worker (`limits::CALL_WORKERS`) within its deadline, and holds
    // it until the work ends, even when the deadline answered first.
    let gate = limits::is_work(&bytes).then(|| sh.limits.work.clone());
    let run = async move {
        let permit = match gate {
            Some(g) => g.acquire_owned().await.ok(),
            None => None,
        };
        tokio::task::spawn_blocking(move || {
            let _held = permit;
            work()
        })
        .await
    };
    let reply = match tokio::time::timeout(deadline, run).await {
        Ok(Ok(r)) => r,
        Ok(Err(_)) => Reply::refusal(500, "internal", "the request failed inside the server"),
        Err(_) => return timed_out(&bytes, deadline),
    };
    match reply.payload {
        Payload::Stream(_) => hold_stream(&sh, reply, who),
        _ => reply,
    }
}

/// The body, whole, within the size cap and the body deadline; else the refusal. A refusal
/// here also closes the connection: the rest of a stalled or oversized body is never read.
async fn read_body(h: &HeaderMap, body: Incoming) -> Result<Bytes, Reply> {
    let too_large = || {
        Reply::refusal(
            413,
            "body_too_large",
            &format!("the request body exceeds {MAX_BODY_BYTES} bytes"),
        )
        .header("connection", "close")
    };
    let declared = header(h, "content-length").and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY_BYTES as u64) {
        return Err(too_large());
    }
    let read = tokio::time::timeout(BODY_DEADLINE, Limited::new(body, MAX_BODY_BYTES).collect());
    match read.await {
        Ok(Ok(c)) => Ok(c.to_bytes()),
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => Err(too_large()),
        Ok(Err(_)) => Err(Reply::refusal(
            400,
            "bad_body",
            "the request body could not be read",
        )),
        Err(_) => Err(Reply::refusal(
            408,
            "body_timeout",
            &format!(
                "the request body did not arrive within {} s",
                BODY_DEADLINE.as_secs()
            ),
        )
        .header("connection", "close")),
    }
}

/// The answer to a request whose work outlived the deadline: a JSON-RPC error for its id.
/// The work itself cannot be stopped mid-way; a write may still land, and the message says so.
fn timed_out(body: &[u8], deadline: Duration) -> Reply {
    let id = serde_json::from_slice::<Value>(body)
        .map(|v| id_of(&v))
        .unwrap_or(Value::Null);
    let message = format!(
        "Request timed out: no answer within {} s (`[mcp] call_timeout_secs`); a write may still be queued, check with fleet_status before retrying",
        deadline.as_secs()
    );
    let frame = crate::mcp::jsonrpc::error(
        id,
        REQUEST_TIMEOUT,
        &message,
        Some(json!({"timeout_ms": deadline.as_millis() as u64})),
    );
    Reply::json(200, frame)
}

/// A `subscriptions/listen` stream takes one of its token's stream slots and ends when the
/// token is revoked; at the cap it is refused instead.
fn hold_stream(sh: &Arc<Shared>, mut reply: Reply, who: crate::auth::Who) -> Reply {
    let Some(slot) = sh.limits.take(&who, Kind::Stream) else {
        let id = match &reply.payload {
            Payload::Stream(v) => v
                .pointer("/params/_meta")
                .and_then(|m| m.get(crate::mcp::protocol::META_SUBSCRIPTION))
                .cloned(),
            _ => None,
        }
        .unwrap_or(Value::Null);
        let message = format!(
            "Too many open streams: this token holds {} on this server; close one first",
            super::limits::STREAMS_PER_TOKEN
        );
        let frame = crate::mcp::jsonrpc::error(id, TOO_MANY_STREAMS, &message, None);
        return Reply::json(429, frame).header("retry-after", "5");
    };
    let shared = sh.clone();
    reply.held = Some(Box::new(Held {
        _slot: slot,
        alive: Box::new(move || shared.gate.holds(&who)),
    }));
    reply
}
