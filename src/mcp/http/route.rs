//! From a hyper request to a `Reply`: the guards every request passes (Host/Origin 403,
//! bearer token 401, body cap 413), the URL map, and the hand-off of each POST to the
//! blocking pool, where the synchronous tools run.

use std::sync::Arc;

use http_body_util::{BodyExt, Limited};
use hyper::body::Incoming;
use hyper::{HeaderMap, Method, Request};
use serde_json::json;

use super::exchange;
use super::reply::Reply;
use super::request::header;
use super::{Endpoint, Shared};
use crate::auth::token;
use crate::mcp::MAX_FRAME_BYTES;

/// The same cap as one stdio frame.
pub(crate) const MAX_BODY_BYTES: usize = MAX_FRAME_BYTES;

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
    if let Err(r) = authorize(&sh, h) {
        return r;
    }
    let ep = match endpoint(&sh, fleet) {
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
    Reply::json(
        200,
        json!({"status": "ok", "name": "ctxlake", "version": env!("CARGO_PKG_VERSION"),
               "sessions": sh.sessions.len()}),
    )
}

/// With a token configured (always, off loopback), the request must present it.
pub(crate) fn authorize(sh: &Shared, h: &HeaderMap) -> Result<(), Reply> {
    let presented = token::bearer(header(h, "authorization"));
    let ok = match token::read(&sh.token_file) {
        Ok(Some(t)) => presented.is_some_and(|p| token::matches(p, &t)),
        Ok(None) => !sh.token_required,
        // An unreadable token file fails closed.
        Err(_) => false,
    };
    if ok {
        return Ok(());
    }
    Err(Reply::refusal(
        401,
        "unauthorized",
        "Unauthorized: send `Authorization: Bearer <token>` (see `ctxlake mcp token show`)",
    )
    .header("www-authenticate", "Bearer realm=\"ctxlake\""))
}

/// `/mcp` acts with the server's context; `/mcp/<fleet>` pins to `<fleet>`, which the
/// server's own pin (if it was started with `--fleet`) must allow.
fn endpoint(sh: &Shared, fleet: Option<String>) -> Result<Endpoint, Reply> {
    let Some(fleet) = fleet else {
        return Ok(Endpoint {
            path: "/mcp".into(),
            ctx: sh.base.clone(),
        });
    };
    match sh.base.fleet(Some(&fleet)) {
        Ok(f) => {
            let mut ctx = sh.base.clone();
            ctx.scope.fleet = f.clone();
            ctx.pinned_fleet = Some(f);
            Ok(Endpoint {
                path: format!("/mcp/{fleet}"),
                ctx,
            })
        }
        Err(e) if e.code == "fleet_not_accessible" => Err(Reply::refusal(403, e.code, &e.message)),
        Err(e) => Err(Reply::refusal(404, e.code, &e.message)),
    }
}

async fn post(sh: Arc<Shared>, ep: Endpoint, h: HeaderMap, body: Incoming) -> Reply {
    let too_large = || {
        Reply::refusal(
            413,
            "body_too_large",
            &format!("the request body exceeds {MAX_BODY_BYTES} bytes"),
        )
    };
    let declared = header(&h, "content-length").and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY_BYTES as u64) {
        return too_large();
    }
    let bytes = match Limited::new(body, MAX_BODY_BYTES).collect().await {
        Ok(c) => c.to_bytes(),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => return too_large(),
        Err(_) => return Reply::refusal(400, "bad_body", "the request body could not be read"),
    };
    let work = move || exchange::post(&sh, &ep, &h, &bytes);
    tokio::task::spawn_blocking(work)
        .await
        .unwrap_or_else(|_| Reply::refusal(500, "internal", "the request failed inside the server"))
}
