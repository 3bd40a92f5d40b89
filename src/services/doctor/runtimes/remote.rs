//! A runtime's remote entry (`install <runtime> --http`): the variable its token comes from is
//! set where doctor runs (and so, normally, where the runtime starts), and names a token the
//! server knows: this host's token store for a loopback URL, else the server itself, asked.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::time::Duration;

use serde_json::Value;

use super::G;
use crate::auth::Store;
use crate::error::{Error, Result};
use crate::install::Runtime;
use crate::services::doctor::Inputs;
use crate::services::doctor::report::Check;

const TIMEOUT: Duration = Duration::from_secs(2);

pub(super) fn check(i: &Inputs, rt: Runtime, entry: &Value, shown: &str) -> Check {
    let name = format!("{}: remote token", rt.name());
    let new = "ctxlake mcp token new NAME   (then export the variable where the runtime starts)";
    let url = ["url", "httpUrl", "serverUrl"]
        .iter()
        .find_map(|k| entry.get(*k).and_then(Value::as_str))
        .unwrap_or_default();
    let Some(var) = token_var(entry) else {
        return Check::fail(
            G,
            name,
            format!("the remote entry in `{shown}` sends no token from a variable: the server answers 401"),
        )
        .fix(format!("ctxlake install {} --http {url}", rt.name()));
    };
    // Any variable an entry names (a person may have edited it), read as every env var is.
    let Some(secret) = crate::paths::var(&var) else {
        return Check::fail(
            G,
            name,
            format!("the remote entry in `{shown}` sends ${var}, which is not set here: the runtime sends no token"),
        )
        .fix(new);
    };
    let Some(addr) = socket_of(url) else {
        return Check::skip(
            G,
            name,
            format!("`{url}` is not a plain http URL: not checked"),
        );
    };
    let known = if addr.ip().is_loopback() {
        match Store::load(&i.paths.mcp_tokens()) {
            Ok(store) => Ok(store.and_then(|s| s.find(&secret).map(|p| p.name.clone()))),
            Err(e) => Err(e),
        }
    } else {
        probe(addr, url, &secret)
    };
    match known {
        Ok(Some(token)) => Check::ok(
            G,
            name,
            format!("${var} holds token `{token}`, which {url} accepts"),
        ),
        Ok(None) => Check::fail(
            G,
            name,
            format!("${var} holds a token {url} does not know: revoked, or never made there"),
        )
        .fix(new),
        Err(why) => Check::warn(
            G,
            name,
            format!("cannot check ${var} against {url}: {}", why.message),
        ),
    }
}

/// The variable an entry's token comes from: Codex's `bearer_token_env_var`, or the variable
/// the `Authorization` header expands (`${V}`, `$V`, `{env:V}`, `${env:V}`).
fn token_var(entry: &Value) -> Option<String> {
    if let Some(v) = entry.get("bearer_token_env_var").and_then(Value::as_str) {
        return Some(v.to_string());
    }
    let header = entry
        .get("headers")?
        .as_object()?
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("authorization"))?
        .1
        .as_str()?;
    let rest = header.trim().strip_prefix("Bearer ")?.trim();
    let inner = rest
        .strip_prefix("${env:")
        .or_else(|| rest.strip_prefix("{env:"))
        .or_else(|| rest.strip_prefix("${"))
        .map(|r| r.strip_suffix('}'))
        .unwrap_or_else(|| rest.strip_prefix('$'))?;
    let plain = !inner.is_empty()
        && inner
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_');
    plain.then(|| inner.to_string())
}

fn socket_of(url: &str) -> Option<SocketAddr> {
    let rest = url.strip_prefix("http://")?;
    let authority = rest.split('/').next()?;
    let with_port = if authority
        .rsplit_once(':')
        .is_some_and(|(_, p)| p.parse::<u16>().is_ok())
    {
        authority.to_string()
    } else {
        format!("{authority}:80")
    };
    with_port.to_socket_addrs().ok()?.next()
}

/// Ask the server itself: an authenticated `server/discover` answered 401 means the token
/// is not one it knows. `Ok(Some(_))` carries no name (another host's store is not ours).
fn probe(addr: SocketAddr, url: &str, secret: &str) -> Result<Option<String>> {
    let path = url
        .strip_prefix("http://")
        .and_then(|r| r.find('/').map(|i| &r[i..]))
        .unwrap_or("/mcp");
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}"#;
    let answer = (|| -> std::io::Result<String> {
        let mut s = TcpStream::connect_timeout(&addr, TIMEOUT)?;
        s.set_read_timeout(Some(TIMEOUT))?;
        write!(
            s,
            "POST {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {secret}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )?;
        let mut out = String::new();
        s.read_to_string(&mut out)?;
        Ok(out)
    })()
    // The check's line says why in the OS's words, as the token store's error does.
    .map_err(|e| Error::storage("token_probe", e.to_string()))?;
    match answer.split_whitespace().nth(1) {
        Some("401") => Ok(None),
        Some("200") => Ok(Some("(the server's)".into())),
        other => Err(Error::refused(
            "token_probe",
            format!("it answered {}", other.unwrap_or("nothing")),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_token_variable_is_read_from_every_runtimes_syntax() {
        let h = |v: &str| json!({"url": "u", "headers": {"Authorization": v}});
        for (entry, want) in [
            (h("Bearer ${CTXLAKE_MCP_TOKEN}"), Some("CTXLAKE_MCP_TOKEN")),
            (h("Bearer $CTXLAKE_MCP_TOKEN"), Some("CTXLAKE_MCP_TOKEN")),
            (
                h("Bearer {env:CTXLAKE_MCP_TOKEN}"),
                Some("CTXLAKE_MCP_TOKEN"),
            ),
            (h("Bearer ${env:MY_T}"), Some("MY_T")),
            (h("Bearer 0123abcd"), None),
            (json!({"url": "u", "bearer_token_env_var": "T"}), Some("T")),
            (json!({"url": "u"}), None),
        ] {
            assert_eq!(token_var(&entry).as_deref(), want, "{entry}");
        }
        assert_eq!(
            socket_of("http://127.0.0.1:8719/mcp"),
            Some("127.0.0.1:8719".parse().unwrap())
        );
        assert_eq!(socket_of("https://x/mcp"), None);
    }
}
