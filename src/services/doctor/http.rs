//! The HTTP group, when `ctxlake service install --http` configured a server: its `/health`
//! answers, and its token store holds tokens for clients (every request needs one).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::time::Duration;

use super::report::{Check, Group};
use crate::paths::Paths;

const G: Group = Group::Http;
const TIMEOUT: Duration = Duration::from_secs(2);

pub(crate) fn check(paths: &Paths, unit: &Path) -> Vec<Check> {
    let Ok(text) = std::fs::read_to_string(unit) else {
        return Vec::new(); // not configured: nothing to check
    };
    let Some(addr) = addr_in(&text) else {
        return vec![
            Check::warn(
                G,
                "http server",
                format!("`{}` names no `--http ADDR`", unit.display()),
            )
            .fix("ctxlake service install --http"),
        ];
    };
    vec![
        health(addr),
        tokens(paths, addr, text.contains("--no-auth")),
    ]
}

/// Whether clients can get in: a store holding tokens (a missing one is made by the
/// server's first start), or `--no-auth` on loopback, which is said as a warning.
fn tokens(paths: &Paths, addr: SocketAddr, no_auth: bool) -> Check {
    let name = "http tokens";
    if no_auth {
        return Check::warn(
            G,
            name,
            format!("serves {addr} with --no-auth: every process on this host acts as its agent"),
        )
        .fix("ctxlake service install --http   (without --no-auth; then `ctxlake mcp token new NAME` per client)");
    }
    match crate::auth::Store::load(&paths.mcp_tokens()) {
        Err(e) => Check::fail(G, name, e.message).fix("ctxlake mcp token list"),
        Ok(None) => Check::ok(
            G,
            name,
            format!("serves {addr}; its first start makes the owner token"),
        ),
        Ok(Some(s)) if s.tokens.is_empty() => Check::warn(
            G,
            name,
            format!("serves {addr} but holds no token: every request is refused"),
        )
        .fix("ctxlake mcp token new NAME"),
        Ok(Some(s)) => Check::ok(
            G,
            name,
            format!("serves {addr}; {} token(s): {}", s.tokens.len(), names(&s)),
        ),
    }
}

fn names(s: &crate::auth::Store) -> String {
    let n: Vec<&str> = s.tokens.iter().map(|t| t.name.as_str()).collect();
    n.join(", ")
}

/// The address after `--http` on the unit's command line (systemd or launchd).
fn addr_in(text: &str) -> Option<SocketAddr> {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == '<' || c == '>')
        .filter(|w| !w.is_empty() && *w != "string" && *w != "/string")
        .collect();
    let i = words.iter().position(|w| *w == "--http")?;
    crate::addr::parse_addr(words.get(i + 1)?).ok()
}

fn health(addr: SocketAddr) -> Check {
    let name = "http /health";
    let fix = "systemctl --user restart ctxlake-mcp-http   (or: ctxlake service install --http)";
    let answer = (|| -> std::io::Result<String> {
        let mut s = TcpStream::connect_timeout(&addr, TIMEOUT)?;
        s.set_read_timeout(Some(TIMEOUT))?;
        write!(
            s,
            "GET /health HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
        )?;
        let mut out = String::new();
        s.read_to_string(&mut out)?;
        Ok(out)
    })();
    match answer {
        Ok(a) if a.starts_with("HTTP/1.1 200") => {
            Check::ok(G, name, format!("http://{addr}/health answered 200"))
        }
        Ok(a) => Check::fail(
            G,
            name,
            format!(
                "http://{addr}/health answered `{}`",
                a.lines().next().unwrap_or("")
            ),
        )
        .fix(fix),
        Err(e) => Check::fail(G, name, format!("http://{addr}/health: {e}")).fix(fix),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_address_in_both_unit_kinds() {
        let systemd = "[Service]\nExecStart=/x/ctxlake mcp --http 127.0.0.1:8719\n";
        assert_eq!(addr_in(systemd), Some("127.0.0.1:8719".parse().unwrap()));
        let plist = "<array><string>/x/ctxlake</string><string>mcp</string><string>--http</string><string>0.0.0.0:9000</string></array>";
        assert_eq!(addr_in(plist), Some("0.0.0.0:9000".parse().unwrap()));
        assert_eq!(addr_in("ExecStart=/x/ctxlake sync --watch"), None);
    }
}
