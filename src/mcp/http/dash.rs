//! The dashboard's routes on the MCP HTTP server: `/` and `/fleet/<fleet>` (token via
//! bearer header or login cookie), `/login` (redeems a one-time link), and the two embedded
//! assets. Every answer carries the strict CSP, `nosniff` and `no-referrer`.

use std::sync::Arc;

use hyper::http::request::Parts;
use hyper::{HeaderMap, Method};

use super::Shared;
use super::reply::Reply;
use super::request::header;
use crate::auth::token;
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
        Page::Fleets | Page::Fleet(_) => match allowed(&sh, &parts.headers) {
            Err(why) => page(401, dashboard::unauthorized(why))
                .header("www-authenticate", "Bearer realm=\"ctxlake\""),
            Ok(()) => render(sh, target).await,
        },
    };
    secured(reply, "no-store")
}

/// Render on the blocking pool: the readers do file and SQLite I/O.
async fn render(sh: Arc<Shared>, target: Page) -> Reply {
    let work = move || match target {
        Page::Fleet(f) => match dashboard::fleet_page(&sh.base, &f) {
            Ok(html) => page(200, html),
            Err(e) if e.code == "fleet_not_accessible" => {
                page(403, dashboard::refusal("Forbidden", &e.message))
            }
            Err(e) => page(404, dashboard::refusal("Not found", &e.message)),
        },
        _ => page(200, dashboard::fleets_page(&sh.base)),
    };
    tokio::task::spawn_blocking(work).await.unwrap_or_else(|_| {
        page(
            500,
            dashboard::refusal("Internal error", "the page failed inside the server"),
        )
    })
}

/// Open when no token is configured (loopback only); otherwise the bearer token or a live
/// login cookie. An unreadable token file fails closed.
fn allowed(sh: &Shared, h: &HeaderMap) -> Result<(), &'static str> {
    let token = match token::read(&sh.token_file) {
        Ok(Some(t)) => t,
        Ok(None) if !sh.token_required => return Ok(()),
        Ok(None) => return Err("this server needs a token, and none is configured"),
        Err(_) => return Err("the server cannot read its token"),
    };
    if token::bearer(header(h, "authorization")).is_some_and(|p| token::matches(p, &token)) {
        return Ok(());
    }
    let now = crate::time::now_ms() / 1000;
    match login::cookie_session(header(h, "cookie")) {
        Some(sid) if sh.logins.session_ok(sid, &token, now) => Ok(()),
        Some(_) => Err("your login has expired or the token changed"),
        None => Err("this dashboard needs the server's token"),
    }
}

/// `/login?to=…&exp=…&n=…&sig=…`: a valid, unused link sets the session cookie and
/// redirects to its page; anything else is refused without saying which part failed.
fn login_reply(sh: &Shared, query: &str) -> Reply {
    let token = match token::read(&sh.token_file) {
        Ok(Some(t)) => t,
        Ok(None) if !sh.token_required => return Reply::empty(303).header("location", "/"),
        _ => {
            return page(
                401,
                dashboard::unauthorized("the server has no usable token"),
            );
        }
    };
    let now = crate::time::now_ms() / 1000;
    let redeemed = login::parse_query(query).and_then(|q| {
        sh.logins
            .redeem(&token, &q, now)
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
