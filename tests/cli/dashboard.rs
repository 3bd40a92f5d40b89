//! The fleet dashboard on `ctxlake mcp --http`, as a real process over real sockets: strict
//! headers on every page, HTML and never JSON, lake text rendered escaped, and a token (bearer
//! header, or a one-time login link then a cookie) always required, showing that token's fleets.

use crate::common::Env;
use crate::http::client::{Resp, Server, new_token};

const PAYLOAD: &str = "<script>document.title='pwned'</script><img src=x onerror=\"document.title='pwned'\"> javascript:alert(1) \u{202E}rtl\u{202C}";

fn env() -> Env {
    let mut env = Env::new();
    env.extra.push(("CTXLAKE_FLEET_ID".into(), "team".into()));
    env
}

/// Two agents on overlapping paths, one handoff carrying `summary`, synced into the cache.
fn small_fleet(env: &mut Env, summary: &str) {
    env.as_agent("alice", "s-alice")
        .cmd()
        .args(["fleet", "claim", "src/auth", "--reason", "refactor auth"])
        .assert()
        .success();
    env.as_agent("bob", "s-bob")
        .cmd()
        .args(["fleet", "claim", "src/auth/login.rs", "--reason", PAYLOAD])
        .assert()
        .success();
    env.cmd()
        .args([
            "fleet",
            "handoff",
            summary,
            "--status",
            "blocked",
            "--next",
            "javascript:alert(2)",
        ])
        .assert()
        .success();
    env.cmd().arg("sync").assert().success();
}

fn assert_secured(r: &Resp) {
    let csp = r.header("content-security-policy").expect("a CSP");
    for directive in [
        "default-src 'none'",
        "style-src 'self'",
        "script-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    ] {
        assert!(csp.contains(directive), "{directive} missing from {csp}");
    }
    assert!(
        !csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"),
        "{csp}"
    );
    assert_eq!(r.header("x-content-type-options"), Some("nosniff"));
    assert_eq!(r.header("referrer-policy"), Some("no-referrer"));
}

fn assert_html_page(r: &Resp) {
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("content-type"), Some("text/html; charset=utf-8"));
    assert!(
        r.body.starts_with("<!doctype html>"),
        "{}",
        &r.body[..r.body.len().min(80)]
    );
    assert!(serde_json::from_str::<serde_json::Value>(&r.body).is_err());
    assert!(!r.body.contains("{\""), "no JSON inside the page");
    assert_secured(r);
}

#[test]
fn pages_and_assets_are_html_with_strict_headers_and_read_only() {
    let mut env = env();
    small_fleet(&mut env, "login half done");
    let s = Server::start(&env, &[]);
    let list = s.request("GET", "/", &[], b"");
    assert_html_page(&list);
    assert!(list.body.contains("href=\"/fleet/team\""), "{}", list.body);
    let page = s.request("GET", "/fleet/team", &[], b"");
    assert_html_page(&page);
    for (name, ct) in [("dash.css", "text/css"), ("dash.js", "text/javascript")] {
        let r = s.request("GET", &format!("/assets/{name}"), &[], b"");
        assert_eq!(r.status, 200);
        assert!(r.header("content-type").is_some_and(|v| v.starts_with(ct)));
        assert_secured(&r);
    }
    assert!(!page.body.contains("<form") && !page.body.contains("style="));
    let post = s.request("POST", "/fleet/team", &[], b"x");
    assert_eq!((post.status, post.header("allow")), (405, Some("GET")));
    let foreign = s.request(
        "GET",
        "/fleet/team",
        &[("Origin", "http://evil.example")],
        b"",
    );
    assert_eq!(foreign.status, 403);
    let rebound = s.request("GET", "/", &[("Host", "evil.example")], b"");
    assert_eq!(rebound.status, 403);
}

#[test]
fn lake_text_renders_escaped_and_inert() {
    let mut env = env();
    small_fleet(&mut env, &format!("handoff {PAYLOAD}"));
    let s = Server::start(&env, &[]);
    let r = s.request("GET", "/fleet/team", &[], b"");
    assert_html_page(&r);
    let b = &r.body;
    assert_eq!(
        b.matches("<script").count(),
        1,
        "only the page's own script tag"
    );
    assert!(!b.contains("<img") && !b.contains('\u{202E}'), "{b}");
    assert!(!b.contains("href=\"javascript"));
    let escaped = "&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;&lt;img src=x onerror=&quot;document.title=&#39;pwned&#39;&quot;&gt;";
    assert!(
        b.matches(escaped).count() >= 2,
        "handoff and lease reason, escaped: {b}"
    );
    assert!(
        b.contains("contended — held by <b class=\"holder\">alice</b>"),
        "{b}"
    );
}

/// `(path?query)` of the link `token show --link` prints.
fn link(env: &Env, page: &str) -> String {
    let out = env
        .cmd()
        .args(["mcp", "token", "show", "--link", page])
        .assert()
        .success();
    let url = String::from_utf8_lossy(&out.get_output().stdout)
        .trim()
        .to_string();
    let (_, path) = url
        .split_once("://")
        .and_then(|(_, r)| r.split_once('/'))
        .unwrap();
    format!("/{path}")
}

#[test]
fn only_a_token_or_a_one_time_login_link_opens_the_dashboard() {
    let mut env = env();
    small_fleet(&mut env, "login half done");
    let s = Server::bare(&env, &[]);
    let refused = s.request("GET", "/fleet/team", &[], b"");
    assert_eq!(refused.status, 401);
    assert!(
        refused
            .header("www-authenticate")
            .is_some_and(|v| v.starts_with("Bearer"))
    );
    assert!(refused.body.contains("token show --link") && !refused.body.contains("alice"));
    assert_secured(&refused);
    let wrong = format!("Bearer {}", "0".repeat(64));
    assert_eq!(
        s.request("GET", "/", &[("Authorization", &wrong)], b"")
            .status,
        401
    );
    let token = new_token(&env, "viewer", &[]);
    let good = format!("Bearer {token}");
    assert_html_page(&s.request("GET", "/fleet/team", &[("Authorization", &good)], b""));

    let login = link(&env, "/fleet/team");
    assert!(login.starts_with("/login?to=/fleet/team&"), "{login}");
    let tampered = login.replace("to=/fleet/team", "to=/");
    assert_eq!(s.request("GET", &tampered, &[], b"").status, 401);
    let r = s.request("GET", &login, &[], b"");
    assert_eq!((r.status, r.header("location")), (303, Some("/fleet/team")));
    let cookie = r.header("set-cookie").expect("a cookie").to_string();
    for attr in ["HttpOnly", "SameSite=Strict", "Path=/"] {
        assert!(cookie.contains(attr), "{attr} missing: {cookie}");
    }
    let pair = cookie.split(';').next().unwrap().to_string();
    let page = s.request("GET", "/fleet/team", &[("Cookie", &pair)], b"");
    assert_html_page(&page);
    assert!(page.body.contains("alice"));
    assert_eq!(
        s.request("GET", &login, &[], b"").status,
        401,
        "a link works once"
    );
    let bad_page = env
        .cmd()
        .args(["mcp", "token", "show", "--link", "//evil.example"])
        .output()
        .unwrap();
    assert_eq!(bad_page.status.code(), Some(2));

    // A used link stays used after a restart; a cookie does not outlive the server.
    drop(s);
    let s = Server::bare(&env, &[]);
    assert_eq!(
        s.request("GET", &login, &[], b"").status,
        401,
        "replayed after a restart"
    );
    assert_eq!(s.request("GET", "/", &[("Cookie", &pair)], b"").status, 401);
    // A cookie dies with the token it was issued under.
    let again = s.request("GET", &link(&env, "/"), &[], b"");
    let pair = again
        .header("set-cookie")
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    assert_html_page(&s.request("GET", "/", &[("Cookie", &pair)], b""));
    env.cmd()
        .args(["mcp", "token", "revoke", "owner"])
        .assert()
        .success();
    let stale = s.request("GET", "/", &[("Cookie", &pair)], b"");
    assert_eq!(
        stale.status, 401,
        "revoking the owner ends its cookie sessions"
    );
}

#[test]
fn a_token_limited_to_fleets_sees_only_those() {
    let mut env = env();
    small_fleet(&mut env, "login half done");
    env.extra.retain(|(k, _)| k != "CTXLAKE_FLEET_ID");
    env.extra.push(("CTXLAKE_FLEET_ID".into(), "other".into()));
    env.cmd()
        .args(["fleet", "claim", "x", "--reason", "r"])
        .assert()
        .success();
    env.cmd().arg("sync").assert().success();
    let only = format!(
        "Bearer {}",
        new_token(&env, "only-other", &["--fleet", "other"])
    );
    let s = Server::start(&env, &[]);
    let auth = [("Authorization", only.as_str())];
    let list = s.request("GET", "/", &auth, b"");
    assert!(
        list.body.contains("/fleet/other") && !list.body.contains("/fleet/team"),
        "{}",
        list.body
    );
    let r = s.request("GET", "/fleet/team", &auth, b"");
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(r.body.contains("only-other"), "{}", r.body);
    let all = s.request("GET", "/", &[], b"");
    assert!(all.body.contains("/fleet/team") && all.body.contains("/fleet/other"));
}

#[test]
fn a_pinned_server_shows_only_its_fleet() {
    let mut env = env();
    small_fleet(&mut env, "login half done");
    env.extra.retain(|(k, _)| k != "CTXLAKE_FLEET_ID");
    env.extra.push(("CTXLAKE_FLEET_ID".into(), "other".into()));
    env.cmd()
        .args(["fleet", "claim", "x", "--reason", "r"])
        .assert()
        .success();
    env.cmd().arg("sync").assert().success();
    let s = Server::start(&env, &["--fleet", "team"]);
    let list = s.request("GET", "/", &[], b"");
    assert!(
        list.body.contains("/fleet/team") && !list.body.contains("/fleet/other"),
        "{}",
        list.body
    );
    let r = s.request("GET", "/fleet/other", &[], b"");
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(r.body.contains("pinned to fleet"), "{}", r.body);
    assert_secured(&r);
}
