//! What the HTTP layer answers, before it becomes a hyper response: a status, a few headers
//! and a JSON body, an SSE stream opened by one event, or nothing.

use serde_json::{Value, json};

use crate::mcp::jsonrpc;

pub(crate) enum Payload {
    Empty,
    Json(Value),
    /// `text/event-stream`: this message as the first event, then held open (subscriptions).
    Stream(Value),
    /// A dashboard page or asset: its content type and bytes.
    Raw(&'static str, hyper::body::Bytes),
}

pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(&'static str, String)>,
    pub(crate) payload: Payload,
    /// What a stream holds while open: its token's slot, and whether the token still exists.
    pub(crate) held: Option<Box<Held>>,
}

/// A stream's hold on its token: the slot goes back when the stream closes, and the stream
/// closes once `alive` says the token is gone.
pub(crate) struct Held {
    pub(crate) _slot: super::limits::Slot,
    pub(crate) alive: Box<dyn Fn() -> bool + Send + Sync>,
}

impl Reply {
    pub(crate) fn json(status: u16, body: Value) -> Reply {
        Reply {
            status,
            headers: Vec::new(),
            payload: Payload::Json(body),
            held: None,
        }
    }

    pub(crate) fn empty(status: u16) -> Reply {
        Reply {
            status,
            headers: Vec::new(),
            payload: Payload::Empty,
            held: None,
        }
    }

    pub(crate) fn stream(first: Value) -> Reply {
        Reply {
            status: 200,
            headers: vec![("x-accel-buffering", "no".into())],
            payload: Payload::Stream(first),
            held: None,
        }
    }

    /// A dashboard page or asset, with its content type.
    pub(crate) fn raw(
        status: u16,
        content_type: &'static str,
        body: impl Into<hyper::body::Bytes>,
    ) -> Reply {
        Reply {
            status,
            headers: Vec::new(),
            payload: Payload::Raw(content_type, body.into()),
            held: None,
        }
    }

    /// A JSON-RPC error frame as the body of an HTTP error status.
    pub(crate) fn rpc_error(status: u16, id: Value, code: i64, message: &str) -> Reply {
        Reply::json(status, jsonrpc::error(id, code, message, None))
    }

    /// A transport-level refusal that is not about any JSON-RPC message (403, 401, 413, 404).
    pub(crate) fn refusal(status: u16, code: &str, message: &str) -> Reply {
        Reply::json(status, json!({"error": {"code": code, "message": message}}))
    }

    pub(crate) fn header(mut self, name: &'static str, value: impl Into<String>) -> Reply {
        self.headers.push((name, value.into()));
        self
    }

    /// The message a reply carries (tests look into it).
    #[cfg(test)]
    pub(crate) fn body(&self) -> Option<&Value> {
        match &self.payload {
            Payload::Json(v) | Payload::Stream(v) => Some(v),
            Payload::Empty | Payload::Raw(..) => None,
        }
    }
}

/// What the dispatch owed becomes the HTTP answer: nothing (a notification or a response
/// from the client) is 202 with no body, anything else is one JSON body.
pub(crate) fn respond(reply: Option<Value>) -> Reply {
    match reply {
        None => Reply::empty(202),
        Some(v) => Reply::json(200, v),
    }
}
