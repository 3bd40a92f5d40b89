//! `ctxlake mcp`: the eight tools behind MCP over newline-delimited JSON-RPC on stdio.
//! `serve` owes each input line at most one output line, and stdout carries nothing else.

use std::io::{self, BufRead, Read, Write};
use std::time::Instant;

use serde_json::{Map, Value, json};

use crate::error::Error;
use crate::tools::Ctx;
use jsonrpc::{INVALID_REQUEST, Incoming, METHOD_NOT_FOUND, PARSE_ERROR, RpcError};
use protocol::{Era, Version};

pub mod args;
pub mod http;
pub mod jsonrpc;
pub mod log;
pub mod protocol;
pub mod schema;
pub mod status;
#[cfg(test)]
pub(crate) mod tests;
pub mod tools;

/// Longer lines are answered with a parse error and skipped, never buffered whole.
pub const MAX_FRAME_BYTES: usize = 1024 * 1024;

/// One connection's state: the handshake era and the context every tool call gets.
pub struct Server<'a> {
    ctx: &'a Ctx,
    era: Era,
    /// A setting that could not be loaded: every tool call reports it (the server stays up).
    setup: Option<&'a Error>,
}

impl<'a> Server<'a> {
    pub fn new(ctx: &'a Ctx) -> Self {
        Self::with_era(ctx, Era::Fresh)
    }

    /// Resume a connection whose era is already known (an HTTP session's, one per request).
    pub fn with_era(ctx: &'a Ctx, era: Era) -> Self {
        Server {
            ctx,
            era,
            setup: None,
        }
    }

    /// The era settled so far (after `initialize`: the negotiated version).
    pub fn era(&self) -> Era {
        self.era
    }

    /// The reply owed to one input line, if any.
    pub fn handle_line(&mut self, line: &[u8]) -> Option<Value> {
        let Ok(text) = std::str::from_utf8(line) else {
            return Some(jsonrpc::error(
                Value::Null,
                PARSE_ERROR,
                "Parse error: not UTF-8",
                None,
            ));
        };
        let text = text.trim();
        if text.is_empty() {
            return None;
        }
        match serde_json::from_str::<Value>(text) {
            Ok(v) => self.handle_message(v),
            Err(e) => Some(jsonrpc::error(
                Value::Null,
                PARSE_ERROR,
                "Parse error",
                Some(json!({"detail": e.to_string()})),
            )),
        }
    }

    /// The reply owed to one decoded message (a batch array included), if any.
    pub fn handle_message(&mut self, v: Value) -> Option<Value> {
        match v {
            Value::Array(batch) => self.handle_batch(batch),
            v => self.handle_value(v),
        }
    }

    /// Batches exist only in 2025-03-26; elsewhere an array is one invalid request.
    fn handle_batch(&mut self, batch: Vec<Value>) -> Option<Value> {
        let batching = matches!(self.era, Era::Handshake(v) if v.batches());
        if !batching || batch.is_empty() {
            let why = if batching {
                "an empty batch is invalid"
            } else {
                "batches are accepted only on protocol 2025-03-26"
            };
            return Some(jsonrpc::error(Value::Null, INVALID_REQUEST, why, None));
        }
        let replies: Vec<Value> = batch
            .into_iter()
            .filter_map(|v| match v {
                Value::Array(_) => Some(jsonrpc::error(
                    Value::Null,
                    INVALID_REQUEST,
                    "batches do not nest",
                    None,
                )),
                Value::Object(ref o) if o.get("method") == Some(&json!("initialize")) => {
                    let id = o.get("id").cloned().unwrap_or(Value::Null);
                    // An unusable id is answered as null, as `classify` does for the rest.
                    let reply = if jsonrpc::valid_id(&id) {
                        id.clone()
                    } else {
                        Value::Null
                    };
                    (!id.is_null()).then(|| {
                        jsonrpc::error(
                            reply,
                            INVALID_REQUEST,
                            "initialize must not be batched",
                            None,
                        )
                    })
                }
                v => self.handle_value(v),
            })
            .collect();
        (!replies.is_empty()).then_some(Value::Array(replies))
    }

    fn handle_value(&mut self, v: Value) -> Option<Value> {
        match jsonrpc::classify(v) {
            Incoming::Request { id, method, params } => Some(self.request(id, &method, params)),
            // Never answered, whatever they say (cancellation included: we finish each
            // request before reading the next, so there is never one in flight).
            Incoming::Notification { .. } | Incoming::Response => None,
            Incoming::Invalid { id: None, .. } => None,
            Incoming::Invalid {
                id: Some(id),
                reason,
            } => Some(jsonrpc::error(id, INVALID_REQUEST, &reason, None)),
        }
    }

    fn request(&mut self, id: Value, method: &str, params: Map<String, Value>) -> Value {
        let pinned = self.ctx.pinned_fleet.as_deref();
        if method == "initialize" {
            let requested = params.get("protocolVersion").and_then(Value::as_str);
            let v = protocol::negotiate(requested);
            self.era = Era::Handshake(v);
            return jsonrpc::result(id, protocol::initialize_result(v, pinned));
        }
        if method == "server/discover" {
            return match protocol::check_discover(&params) {
                Ok(()) => {
                    let mut r = protocol::discover_result(pinned);
                    protocol::stamp_modern(&mut r);
                    jsonrpc::result(id, r)
                }
                Err(e) => e.frame(id),
            };
        }
        let version = match protocol::request_version(self.era, &params) {
            Ok(v) => v,
            Err(e) => return e.frame(id),
        };
        let outcome = match method {
            "ping" if !version.stateless() => Ok(json!({})),
            "tools/list" => Ok(tools::list(version)),
            "tools/call" => self.call(version, &params),
            "subscriptions/listen" if version.stateless() => return listen_ack(id),
            _ => Err(RpcError::new(
                METHOD_NOT_FOUND,
                format!(
                    "Method not found: {}",
                    method.chars().take(64).collect::<String>()
                ),
            )),
        };
        match outcome {
            Ok(mut r) => {
                if version.stateless() {
                    protocol::stamp_modern(&mut r);
                }
                jsonrpc::result(id, r)
            }
            Err(e) => e.frame(id),
        }
    }

    fn call(&mut self, version: Version, params: &Map<String, Value>) -> Result<Value, RpcError> {
        let started = Instant::now();
        let called = match self.setup {
            Some(e) => tools::refuse(e, params),
            None => tools::call(self.ctx, version, params)?,
        };
        let args = params.get("arguments").cloned().unwrap_or(Value::Null);
        log::append(
            &self.ctx.paths,
            &log::CallLine {
                ts: crate::time::now_rfc3339(),
                fleet: self.logged_fleet(&args),
                tool: called.tool.into(),
                args_hash: log::args_hash(&args),
                latency_ms: started.elapsed().as_millis() as u64,
                ok: called.code.is_none(),
                session: Some(self.ctx.scope.session.clone()),
                code: called.code.map(String::from),
            },
        );
        called.outcome
    }

    /// The fleet a call asked for, if it is a valid id; else the one it ran in by default.
    fn logged_fleet(&self, args: &Value) -> String {
        match args.get("fleet").and_then(Value::as_str) {
            Some(f) if crate::scope::validate_id("fleet", f).is_ok() => f.to_string(),
            Some(_) => "(invalid)".into(),
            None => self.ctx.fleet(None).unwrap_or_default(),
        }
    }
}

/// Our lists never change, so a `subscriptions/listen` stream is acknowledged with nothing
/// honoured and then simply stays open until the client goes away (no reply is owed before).
fn listen_ack(id: Value) -> Value {
    json!({
        "jsonrpc": "2.0",
        "method": "notifications/subscriptions/acknowledged",
        "params": {"notifications": {}, "_meta": {protocol::META_SUBSCRIPTION: id}},
    })
}

/// Serve one connection until `input` ends. A reader that went away ends it quietly.
#[cfg(test)]
pub fn serve(ctx: &Ctx, input: impl BufRead, output: impl Write) -> io::Result<()> {
    serve_with(ctx, None, input, output)
}

/// [`serve`], refusing every tool call with `setup` when a setting is broken.
pub fn serve_with(
    ctx: &Ctx,
    setup: Option<&Error>,
    mut input: impl BufRead,
    mut output: impl Write,
) -> io::Result<()> {
    let mut server = Server::new(ctx);
    server.setup = setup;
    let mut buf = Vec::new();
    loop {
        let reply = match read_frame(&mut input, &mut buf)? {
            Frame::Eof => return Ok(()),
            Frame::TooLarge => Some(jsonrpc::error(
                Value::Null,
                PARSE_ERROR,
                &format!("frame exceeds {MAX_FRAME_BYTES} bytes"),
                None,
            )),
            Frame::Line => server.handle_line(&buf),
        };
        if let Some(frame) = reply {
            match write_frame(&mut output, &frame) {
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
                r => r?,
            }
        }
    }
}

enum Frame {
    Eof,
    Line,
    TooLarge,
}

fn read_frame(input: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<Frame> {
    buf.clear();
    let n = Read::take(&mut *input, MAX_FRAME_BYTES as u64 + 1).read_until(b'\n', buf)?;
    if n == 0 {
        return Ok(Frame::Eof);
    }
    if buf.len() <= MAX_FRAME_BYTES || buf.ends_with(b"\n") {
        return Ok(Frame::Line);
    }
    // Skip the rest of the oversized line without holding it.
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        if let Some(i) = chunk.iter().position(|b| *b == b'\n') {
            input.consume(i + 1);
            break;
        }
        let len = chunk.len();
        input.consume(len);
    }
    buf.clear();
    Ok(Frame::TooLarge)
}

/// One frame, one line, one write, then flush: a client reads as soon as we answer.
fn write_frame(output: &mut impl Write, frame: &Value) -> io::Result<()> {
    let mut line = serde_json::to_vec(frame).map_err(io::Error::other)?;
    line.push(b'\n');
    output.write_all(&line)?;
    output.flush()
}
