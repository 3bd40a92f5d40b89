//! The dashboard's routes on the MCP HTTP server: `/` and `/fleet/<fleet>` (a token via the
//! bearer header, or a login cookie: the page shows what that token may see), `/login`
//! (redeems a one-time link signed with the owner token), and the two embedded assets.
//! Every answer carries the strict CSP, `nosniff` and `no-referrer`.

use std::sync::Arc;

use hyper::http::request::Parts;
use hyper::{HeaderMap, Method};

use super::Shared;
use super::reply::Reply;
use super::request::header;
use crate::auth::OWNER;
use crate::ctx::Ctx;
use crate::dashboard::{self, html::unsegment, login};

pub(crate) enum Page {
    Fleets,
    Fleet(String),
    Css,
    Js,
    Login,
}

pub(crate) fn target(path: &str) -> Option<Page> {
    match path {
        "/" => Some(Page::Fleets),
        "/assets/dash.css" => Some(Page::Css),
        "/assets/dash.js" => Some(Page::Js),
        "/login" => Some(Page::Login),
        _ => {
            let f = path.strip_prefix("/fleet/")?;
            let f = f.strip_suffix('/').unwrap_or(f);
            (!f.is_empty() && !f.contains('/'))
                .then(|| unsegment(f))
                .flatten()
                .map(Page::Fleet)
        }
    }
}

const HTML: &str = "text/html; charset=utf-8";

fn page(status: u16, body: String) -> Reply {
    Reply::raw(status, HTML, body)
}

/// The headers every dashboard answer carries, refusals included.
fn secured(r: Reply, cache: &str) -> Reply {
    r.header("content-security-policy", dashboard::CSP)
        .header("x-content-type-options", "nosniff")
        .header("referrer-policy", "no-referrer")
        .header("x-frame-options", "DENY")
        .header("cache-control", cache)
}

pub(crate) async fn answer(sh: Arc<Shared>, parts: &Parts, target: Page) -> Reply {
    if parts.method != Method::GET {
        let r = page(
            405,
            dashboard::refusal("Method not allowed", "the dashboard is read-only: use GET"),
        );
        return secured(r.header("allow", "GET"), "no-store");
    }
    let reply = match target {
        Page::Css => {
            return secured(
                Reply::raw(200, "text/css; charset=utf-8", dashboard::CSS),
                "no-cache",
            );
        }
        Page::Js => {
            let js = Reply::raw(200, "text/javascript; charset=utf-8", dashboard::JS);
            return secured(js, "no-cache");
        }
        Page::Login => login_reply(&sh, parts.uri.query().unwrap_or("")),
        Page::Fleets | Page::Fleet(_) => match viewer(&sh, &parts.headers) {
            Err(why) => page(401, dashboard::unauthorized(why))
                .header("www-authenticate", "Bearer realm=\"ctxlake\""),
            Ok(ctx) => render(ctx, target).await,
        },
    };
    secured(reply, "no-store")
}

/// Render on the blocking pool (the readers do file and SQLite I/O), as the viewer: a
/// token limited to some fleets sees only those.
async fn render(ctx: Ctx, target: Page) -> Reply {
    let work = move || match target {
        Page::Fleet(f) => match dashboard::fleet_page(&ctx, &f) {
            Ok(html) => page(200, html),
            Err(e) if e.code == "fleet_not_accessible" => {
                page(403, dashboard::refusal("Forbidden", &e.message))
            }
            Err(e) => page(404, dashboard::refusal("Not found", &e.message)),
        },
        _ => page(200, dashboard::fleets_page(&ctx)),
    };
    tokio::task::spawn_blocking(work).await.unwrap_or_else(|_| {
        page(
            500,
            dashboard::refusal("Internal error", "the page failed inside the server"),
        )
    })
}

/// Whose view a request gets: its bearer token's, or the token its login cookie was issued
/// under (while that token still exists unchanged). `--no-auth`: the server's own.
fn viewer(sh: &Shared, h: &HeaderMap) -> Result<Ctx, &'static str> {
    if sh.gate.no_auth() {
        return Ok(sh.base.clone());
    }
    if header(h, "authorization").is_some() {
        return match sh.gate.caller(header(h, "authorization")) {
            Ok(c) => Ok(c.ctx(&sh.base)),
            Err(_) => Err("this token is not valid here"),
        };
    }
    let now = crate::time::now_ms() / 1000;
    let Some(sid) = login::cookie_session(header(h, "cookie")) else {
        return Err("this dashboard needs a token");
    };
    sh.logins
        .session(sid, now)
        .and_then(|who| sh.gate.principal(&who))
        .map(|p| p.ctx(&sh.base))
        .ok_or("your login has expired, or the token it was made with was revoked")
}

/// `/login?to=…&exp=…&n=…&sig=…`: a valid, unused link sets the session cookie and
/// redirects to its page; anything else is refused without saying which part failed.
fn login_reply(sh: &Shared, query: &str) -> Reply {
    if sh.gate.no_auth() {
        return Reply::empty(303).header("location", "/");
    }
    let Some(owner) = sh.gate.store().ok().and_then(|s| s.get(OWNER).cloned()) else {
        return page(
            401,
            dashboard::unauthorized("the server has no owner token to check the link with"),
        );
    };
    let now = crate::time::now_ms() / 1000;
    let redeemed = login::parse_query(query).and_then(|q| {
        sh.logins
            .redeem(&owner.sha256, owner.who(), &q, now)
            .map(|sid| (q.to.to_string(), sid))
    });
    match redeemed {
        Some((to, sid)) => Reply::empty(303).header("location", to).header(
            "set-cookie",
            format!(
                "{}={sid}; HttpOnly; SameSite=Strict; Path=/; Max-Age={}",
                login::COOKIE,
                login::SESSION_TTL_SECS
            ),
        ),
        None => page(
            401,
            dashboard::unauthorized("this login link is invalid, expired or already used"),
        ),
    }
}
