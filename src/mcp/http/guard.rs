//! Which sites may talk to the HTTP server: the `Host` and `Origin` checks against DNS
//! rebinding. (Who may: the token gate, `gate.rs`.)

use std::net::{IpAddr, SocketAddr};

/// Hosts every server accepts, on any port: the loopback names a local client uses.
const LOOPBACK_HOSTS: [&str; 3] = ["localhost", "127.0.0.1", "[::1]"];

/// The host names this server answers to: loopback, the address it is bound to (unless it
/// is the wildcard) and the names given with `--allow-host`.
#[derive(Debug, Clone)]
pub(crate) struct Hosts {
    names: Vec<String>,
}

impl Hosts {
    pub(crate) fn new(bound: SocketAddr, extra: &[String]) -> Hosts {
        let mut names: Vec<String> = LOOPBACK_HOSTS.iter().map(|h| h.to_string()).collect();
        if !bound.ip().is_unspecified() {
            names.push(match bound.ip() {
                IpAddr::V4(ip) => ip.to_string(),
                IpAddr::V6(ip) => format!("[{ip}]"),
            });
        }
        names.extend(extra.iter().map(|h| h.to_ascii_lowercase()));
        Hosts { names }
    }

    fn allows(&self, host: &str) -> bool {
        let host = host.to_ascii_lowercase();
        self.names.contains(&host)
    }

    /// A request's `Host` must name us; HTTP/1.1 requires the header, so absent is refused.
    pub(crate) fn host_ok(&self, header: Option<&str>) -> bool {
        header.and_then(strip_port).is_some_and(|h| self.allows(h))
    }

    /// A present `Origin` must be ours; absent is fine (not a browser). `null` is refused.
    pub(crate) fn origin_ok(&self, header: Option<&str>) -> bool {
        let Some(origin) = header else { return true };
        let Some((scheme, rest)) = origin.split_once("://") else {
            return false;
        };
        let authority = rest.split('/').next().unwrap_or("");
        matches!(scheme, "http" | "https")
            && !authority.contains('@')
            && strip_port(authority).is_some_and(|h| self.allows(h))
    }
}

/// `host[:port]` → `host`, keeping IPv6 brackets; `None` when malformed.
fn strip_port(authority: &str) -> Option<&str> {
    let a = authority.trim();
    if a.starts_with('[') {
        let end = a.find(']')?;
        let (host, rest) = a.split_at(end + 1);
        return (rest.is_empty() || port_ok(rest.strip_prefix(':')?)).then_some(host);
    }
    match a.rsplit_once(':') {
        Some((host, port)) if port_ok(port) && !host.is_empty() => Some(host),
        Some(_) => None,
        None => (!a.is_empty()).then_some(a),
    }
}

fn port_ok(p: &str) -> bool {
    !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hosts() -> Hosts {
        Hosts::new("127.0.0.1:8719".parse().unwrap(), &[])
    }

    #[test]
    fn loopback_names_pass_on_any_port_and_foreign_ones_fail() {
        let h = hosts();
        for ok in [
            "localhost",
            "localhost:1",
            "127.0.0.1:8719",
            "[::1]:9",
            "[::1]",
            "LOCALHOST:80",
        ] {
            assert!(h.host_ok(Some(ok)), "{ok}");
        }
        for bad in [
            "evil.example",
            "evil.example:8719",
            "127.0.0.1.evil:80",
            "",
            ":80",
            "localhost:x",
        ] {
            assert!(!h.host_ok(Some(bad)), "{bad}");
        }
        assert!(!h.host_ok(None));
    }

    #[test]
    fn origins_are_checked_when_present() {
        let h = hosts();
        assert!(h.origin_ok(None));
        for ok in [
            "http://localhost:3000",
            "https://127.0.0.1",
            "http://[::1]:1/x",
        ] {
            assert!(h.origin_ok(Some(ok)), "{ok}");
        }
        for bad in [
            "null",
            "http://evil.example",
            "http://localhost@evil.example",
            "file://localhost",
            "localhost",
        ] {
            assert!(!h.origin_ok(Some(bad)), "{bad}");
        }
    }

    #[test]
    fn the_bound_address_and_allowed_names_are_ours_too() {
        let h = Hosts::new("10.1.2.3:80".parse().unwrap(), &["box.tailnet".into()]);
        assert!(h.host_ok(Some("10.1.2.3:80")));
        assert!(h.host_ok(Some("box.tailnet:80")));
        let any = Hosts::new("0.0.0.0:80".parse().unwrap(), &[]);
        assert!(!any.host_ok(Some("0.0.0.0:80")));
    }
}
