//! JSON-RPC 2.0 framing: sorting one decoded value into request, notification, stray
//! response or invalid frame, and building the reply frames. No MCP semantics here.

use serde_json::{Map, Value, json};

pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;
pub const INTERNAL_ERROR: i64 = -32603;
/// 2026-07-28 `UnsupportedProtocolVersionError`: a probing client fails over on it at once.
pub const UNSUPPORTED_VERSION: i64 = -32022;

/// One decoded frame, sorted by what the server owes it.
#[derive(Debug, PartialEq)]
pub enum Incoming {
    /// Has an id: exactly one reply is owed.
    Request {
        id: Value,
        method: String,
        params: Map<String, Value>,
    },
    /// No id: never answered, whatever happens.
    Notification { method: String },
    /// A `result`/`error` frame: addressed to a client, not to us; ignored.
    Response,
    /// Malformed: answered with -32600 when it carries a usable id (else `null`),
    /// dropped when it has no method and no id (it could only be a notification).
    Invalid { id: Option<Value>, reason: String },
}

/// MCP ids are strings or integers, never null (JSON-RPC allows more; MCP narrows it).
pub(crate) fn valid_id(id: &Value) -> bool {
    id.is_string() || id.is_i64() || id.is_u64()
}

/// Sort one decoded JSON value (already known not to be a batch array).
pub fn classify(v: Value) -> Incoming {
    let Value::Object(mut o) = v else {
        return Incoming::Invalid {
            id: Some(Value::Null),
            reason: "a JSON-RPC frame must be an object".into(),
        };
    };
    let id = o.remove("id");
    let method = o.remove("method");
    if method.is_none() && (o.contains_key("result") || o.contains_key("error")) {
        return Incoming::Response;
    }
    let invalid = |id: Option<Value>, reason: &str| {
        let id = id.map(|i| if valid_id(&i) { i } else { Value::Null });
        Incoming::Invalid {
            id,
            reason: reason.into(),
        }
    };
    if o.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return invalid(Some(id.unwrap_or(Value::Null)), "`jsonrpc` must be \"2.0\"");
    }
    let method = match method {
        Some(Value::String(m)) => m,
        // No method and no id: could only have been meant as a notification; drop it.
        None => return invalid(id, "missing `method`"),
        Some(_) => return invalid(Some(id.unwrap_or(Value::Null)), "`method` must be a string"),
    };
    let params = match o.remove("params") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(p)) => p,
        Some(_) => {
            return match id {
                None => Incoming::Notification { method },
                Some(id) => invalid(Some(id), "`params` must be an object"),
            };
        }
    };
    match id {
        None => Incoming::Notification { method },
        Some(id) if valid_id(&id) => Incoming::Request { id, method, params },
        Some(_) => invalid(Some(Value::Null), "`id` must be a string or an integer"),
    }
}

pub fn result(id: Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

pub fn error(id: Value, code: i64, message: &str, data: Option<Value>) -> Value {
    let mut e = json!({"code": code, "message": message});
    if let Some(d) = data {
        e["data"] = d;
    }
    json!({"jsonrpc": "2.0", "id": id, "error": e})
}

/// An error a method handler returns; becomes an error frame for the request's id.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
    pub data: Option<Value>,
}

impl RpcError {
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        RpcError {
            code,
            message: message.into(),
            data: None,
        }
    }
    pub fn data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }
    pub fn frame(self, id: Value) -> Value {
        error(id, self.code, &self.message, self.data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Incoming {
        classify(serde_json::from_str(s).unwrap())
    }

    #[test]
    fn sorts_frames() {
        assert!(matches!(
            c(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
            Incoming::Request { .. }
        ));
        assert!(matches!(
            c(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
            Incoming::Notification { .. }
        ));
        assert_eq!(
            c(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
            Incoming::Response
        );
        assert_eq!(
            c(r#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x"}}"#),
            Incoming::Response
        );
    }

    #[test]
    fn invalid_frames_keep_a_usable_id_only() {
        let id_of = |s: &str| match c(s) {
            Incoming::Invalid { id, .. } => id,
            other => panic!("{other:?}"),
        };
        assert_eq!(id_of("3"), Some(Value::Null));
        assert_eq!(id_of(r#"{"jsonrpc":"2.0","id":7}"#), Some(json!(7)));
        assert_eq!(id_of(r#"{"jsonrpc":"2.0"}"#), None);
        assert_eq!(
            id_of(r#"{"jsonrpc":"2.0","id":{},"method":"x"}"#),
            Some(Value::Null)
        );
        assert_eq!(
            id_of(r#"{"jsonrpc":"2.0","id":1.5,"method":"x"}"#),
            Some(Value::Null)
        );
        assert_eq!(id_of(r#"{"id":"a","method":"x"}"#), Some(json!("a")));
        assert_eq!(
            id_of(r#"{"jsonrpc":"2.0","id":2,"method":3}"#),
            Some(json!(2))
        );
        assert_eq!(
            id_of(r#"{"jsonrpc":"2.0","id":2,"method":"x","params":[1]}"#),
            Some(json!(2))
        );
    }
}
