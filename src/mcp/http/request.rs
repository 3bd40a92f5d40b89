//! What every exchange reads off a request: a header's trimmed value, and a JSON-RPC
//! message's method and answerable id.

use hyper::HeaderMap;
use serde_json::Value;

/// A request header's value with surrounding whitespace removed (RFC 9110 §5.5).
pub(crate) fn header<'h>(h: &'h HeaderMap, name: &str) -> Option<&'h str> {
    h.get(name).and_then(|v| v.to_str().ok()).map(str::trim)
}

pub(crate) fn method_of(msg: &Value) -> Option<&str> {
    msg.get("method").and_then(Value::as_str)
}

/// The id to answer an error with: the request's when it has a usable one, else null.
pub(crate) fn id_of(msg: &Value) -> Value {
    match msg.get("id") {
        Some(id) if id.is_string() || id.is_i64() || id.is_u64() => id.clone(),
        _ => Value::Null,
    }
}
