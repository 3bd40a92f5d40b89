//! Listen addresses for `ctxlake mcp --http`: the default, and the parser that reads a
//! bare port (or `:PORT`, `localhost:PORT`) as loopback.

use std::net::SocketAddr;

use crate::error::{Error, Result};

/// Where `ctxlake mcp --http` listens when no address is given: loopback only. The port:
/// 8719 ("ctx" has no digits; it was free in the IANA registry).
pub const DEFAULT_ADDR: &str = "127.0.0.1:8719";

/// Parse `ADDR` (`host:port`, `:port` or a bare port); `localhost` means 127.0.0.1.
pub fn parse_addr(s: &str) -> Result<SocketAddr> {
    let s = s.trim();
    let full = if s.bytes().all(|b| b.is_ascii_digit()) {
        format!("127.0.0.1:{s}")
    } else if let Some(port) = s.strip_prefix(':') {
        format!("127.0.0.1:{port}")
    } else if let Some(port) = s.strip_prefix("localhost:") {
        format!("127.0.0.1:{port}")
    } else {
        s.to_string()
    };
    full.parse().map_err(|_| {
        Error::usage("bad_address", format!("`{s}` is not a listen address")).hint(format!(
            "give `IP:PORT`, e.g. `{DEFAULT_ADDR}` or `127.0.0.1:0`"
        ))
    })
}
