//! The 2026-07-28 era over HTTP: no session; every POST carries `MCP-Protocol-Version`,
//! `Mcp-Method` and (for calls) `Mcp-Name`, which must agree with the body. Checked here in
//! the order the conformance suite expects: `_meta` fields (-32602), header agreement
//! (-32020), version support (-32022), then removed and unknown methods (404, -32601).

use hyper::HeaderMap;
use serde_json::{Map, Value, json};

use super::Endpoint;
use super::reply::{Reply, respond};
use super::request::{header, id_of};
use crate::mcp::Server;
use crate::mcp::jsonrpc::{
    INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR, RpcError, UNSUPPORTED_VERSION,
};
use crate::mcp::protocol::{META_CLIENT_CAPS, META_SESSION, META_VERSION, Version};

/// 2026-07-28 `HeaderMismatchError`: a routing header disagrees with the body.
pub(crate) const HEADER_MISMATCH: i64 = -32020;

/// Methods of the handshake era that no longer exist statelessly (the dispatch still
/// knows `initialize`, for stdio's dual-era connections).
const REMOVED: [&str; 1] = ["initialize"];

/// Which methods name their target in `Mcp-Name`, and which parameter holds it.
fn named_param(method: &str) -> Option<&'static str> {
    match method {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" => Some("uri"),
        _ => None,
    }
}

pub(crate) fn post(ep: &Endpoint, h: &HeaderMap, msg: Value) -> Reply {
    let Value::Object(o) = &msg else {
        let why = "Bad Request: batches do not exist in 2026-07-28";
        return Reply::rpc_error(400, Value::Null, INVALID_REQUEST, why);
    };
    let id = id_of(&msg);
    if !o.contains_key("id") {
        // A notification is never answered, whatever it carries.
        return Reply::empty(202);
    }
    let method = o.get("method").and_then(Value::as_str).unwrap_or_default();
    let empty = Map::new();
    let params = o.get("params").and_then(Value::as_object).unwrap_or(&empty);
    if let Err(e) = check(h, method, params) {
        return Reply::json(400, e.frame(id));
    }
    if REMOVED.contains(&method) {
        return Reply::json(404, not_found(method).frame(id));
    }
    let ctx = match session_ctx(ep, params) {
        Ok(c) => c,
        Err(e) => return Reply::json(400, e.frame(id)),
    };
    let reply = Server::new(&ctx).handle_message(msg);
    match reply {
        // `subscriptions/listen`: the acknowledgement opens a stream that stays open.
        Some(v) if v.get("method").is_some() => Reply::stream(v),
        Some(v) => {
            let status = match v.pointer("/error/code").and_then(Value::as_i64) {
                Some(METHOD_NOT_FOUND) => 404,
                Some(INVALID_REQUEST | PARSE_ERROR) => 400,
                _ => 200,
            };
            Reply::json(status, v)
        }
        None => respond(None),
    }
}

/// A stateless client's session identity, so one client's `fleet_release {}` never drops
/// another's leases: one per token (`http-<token>`), or one per session key the client sends
/// in `_meta["ctxlake/session"]` (`http-<token>-<key>`). Keyed under the token, a client can
/// never name another token's session.
fn session_ctx(ep: &Endpoint, params: &Map<String, Value>) -> Result<crate::ctx::Ctx, RpcError> {
    let key = params.get("_meta").and_then(|m| m.get(META_SESSION));
    let session = match key {
        None => format!("http-{}", ep.who.name),
        Some(Value::String(k)) if plain_key(k) => format!("http-{}-{k}", ep.who.name),
        Some(_) => {
            return Err(RpcError::new(
                INVALID_PARAMS,
                format!(
                    "`_meta[\"{META_SESSION}\"]` must be 1 to 64 letters, digits, `.`, `_` or `-`"
                ),
            ));
        }
    };
    let mut ctx = ep.ctx.clone();
    ctx.scope.session = session;
    Ok(ctx)
}

fn plain_key(k: &str) -> bool {
    (1..=64).contains(&k.len())
        && !k.starts_with(['.', '-'])
        && k.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
}

fn not_found(method: &str) -> RpcError {
    let shown: String = method.chars().take(64).collect();
    RpcError::new(METHOD_NOT_FOUND, format!("Method not found: {shown}"))
}

fn check(h: &HeaderMap, method: &str, params: &Map<String, Value>) -> Result<(), RpcError> {
    let meta = params.get("_meta").and_then(Value::as_object);
    let version = meta
        .and_then(|m| m.get(META_VERSION))
        .and_then(Value::as_str);
    let caps = meta.and_then(|m| m.get(META_CLIENT_CAPS));
    let (Some(version), Some(Value::Object(_))) = (version, caps) else {
        return Err(RpcError::new(
            INVALID_PARAMS,
            format!("`_meta` must carry `{META_VERSION}` and `{META_CLIENT_CAPS}`"),
        ));
    };
    let header_version = header(h, "mcp-protocol-version");
    if header_version != Some(version) {
        return Err(mismatch("MCP-Protocol-Version", header_version, version));
    }
    if !Version::parse(version).is_some_and(Version::stateless) {
        return Err(
            RpcError::new(UNSUPPORTED_VERSION, "Unsupported protocol version")
                .data(json!({"supported": [Version::V2026_07_28.as_str()], "requested": version})),
        );
    }
    let header_method = header(h, "mcp-method");
    if header_method != Some(method) {
        return Err(mismatch("Mcp-Method", header_method, method));
    }
    if let Some(key) = named_param(method)
        && let Some(target) = params.get(key).and_then(Value::as_str)
    {
        let named = header(h, "mcp-name").map(decode);
        if named.as_ref().and_then(|n| n.as_deref()) != Some(target) {
            let shown = header(h, "mcp-name");
            return Err(mismatch("Mcp-Name", shown, target));
        }
    }
    Ok(())
}

fn mismatch(name: &str, got: Option<&str>, want: &str) -> RpcError {
    let got = got.map_or("missing".to_string(), |g| {
        format!("`{}`", g.chars().take(64).collect::<String>())
    });
    let want: String = want.chars().take(64).collect();
    RpcError::new(
        HEADER_MISMATCH,
        format!("Header mismatch: `{name}` is {got}, the body says `{want}`"),
    )
}

/// A header value as sent: literal, or `=?base64?…?=` for non-ASCII text. `None` when
/// the base64 form is malformed (which must be refused, never taken literally).
fn decode(v: &str) -> Option<String> {
    match v
        .strip_prefix("=?base64?")
        .and_then(|r| r.strip_suffix("?="))
    {
        Some(b64) => String::from_utf8(base64(b64)?).ok(),
        None => Some(v.to_string()),
    }
}

/// Strict standard base64 (RFC 4648 §4): padded to a multiple of 4, no stray characters.
fn base64(s: &str) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    if !b.len().is_multiple_of(4) {
        return None;
    }
    let pad = b.iter().rev().take_while(|&&c| c == b'=').count();
    if pad > 2 {
        return None;
    }
    let mut out = Vec::with_capacity(b.len() / 4 * 3);
    let mut acc: u32 = 0;
    for (i, &c) in b[..b.len() - pad].iter().enumerate() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        if i % 4 == 3 {
            out.extend_from_slice(&acc.to_be_bytes()[1..]);
            acc = 0;
        }
    }
    match pad {
        1 => out.extend_from_slice(&(acc << 6).to_be_bytes()[1..3]),
        2 => out.push((acc << 12).to_be_bytes()[1]),
        _ => {}
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_keys_are_plain() {
        for ok in ["a", "laptop-1", "A.b_c", &"x".repeat(64)] {
            assert!(plain_key(ok), "{ok}");
        }
        for bad in ["", "-a", ".a", "a b", "a/b", "é", &"x".repeat(65)] {
            assert!(!plain_key(bad), "{bad}");
        }
    }

    #[test]
    fn base64_is_strict() {
        assert_eq!(base64("SGVsbG8=").as_deref(), Some(&b"Hello"[..]));
        assert_eq!(base64("SGk=").as_deref(), Some(&b"Hi"[..]));
        assert_eq!(base64("SGVs").as_deref(), Some(&b"Hel"[..]));
        assert_eq!(base64("").as_deref(), Some(&b""[..]));
        assert_eq!(base64("SGVsbG8"), None, "padding is required");
        assert_eq!(base64("SGVs!!!bG8="), None);
        assert_eq!(decode("=?base64?w6lj?="), Some("éc".into()));
        assert_eq!(decode("=?base64?SGVsbG8"), Some("=?base64?SGVsbG8".into()));
        assert_eq!(decode("=?base64?SGVsbG8?="), None);
    }
}
