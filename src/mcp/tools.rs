//! `tools/list` and `tools/call` over `crate::tools::registry()`: definitions shaped per
//! negotiated version, results as `structuredContent` plus the same JSON as text.

use std::sync::OnceLock;

use serde_json::{Map, Value, json};

use super::jsonrpc::{INTERNAL_ERROR, INVALID_PARAMS, RpcError};
use super::protocol::{TTL_MS, Version};
use crate::error::{Error, Mcp};
use crate::tools::{Ctx, Tool, registry};

/// Arguments larger than this are refused before any tool sees them (a DoS bound).
pub const MAX_ARGS_BYTES: usize = 256 * 1024;

/// Honest hints, each left out where it is the spec's default (`readOnlyHint` and
/// `idempotentHint` default to false, `destructiveHint` and `openWorldHint` to true). A
/// read only touches the local cache, but what it returns was written by other agents on
/// other hosts, which is the outside world the default `openWorldHint` warns of. A write
/// only appends to the local spool: not destructive, not open-world.
fn annotations(t: &Tool) -> Value {
    if t.read_only {
        json!({"readOnlyHint": true})
    } else {
        json!({"destructiveHint": false, "openWorldHint": false})
    }
}

/// Every definition at the newest revision, built once per schema form (inlined, or with
/// `$ref` into `$defs`): schema generation is the costliest thing a session does, and it
/// never changes within a binary.
fn definitions(refs: bool) -> &'static [Value] {
    static INLINED: OnceLock<Vec<Value>> = OnceLock::new();
    static HOISTED: OnceLock<Vec<Value>> = OnceLock::new();
    let cell = if refs { &HOISTED } else { &INLINED };
    cell.get_or_init(|| registry().iter().map(|t| definition(t, refs)).collect())
}

fn definition(t: &Tool, refs: bool) -> Value {
    let mut input = (t.input_schema)();
    super::schema::portable_input(&mut input);
    let mut output = (t.output_schema)();
    super::schema::portable_output(&mut output);
    // Output schemas only: an input schema goes on to a model provider's function-calling
    // dialect, and some of those (Gemini's) resolve no `$ref`.
    if refs {
        super::schema::hoist(&mut output);
    }
    json!({
        "name": t.name,
        "description": t.description,
        "inputSchema": input,
        "outputSchema": output,
        "annotations": annotations(t),
    })
}

/// `tools/list`: one page holds all eight, always in `registry()` order (2026-07-28 asks
/// for a deterministic order, and a stable list is what lets a client cache it).
pub fn list(version: Version) -> Value {
    let tools: Vec<Value> = definitions(version.schema_refs())
        .iter()
        .map(|d| {
            let mut d = d.clone();
            if let Some(o) = d.as_object_mut() {
                if !version.structured() {
                    o.remove("outputSchema");
                }
                if !version.annotations() {
                    o.remove("annotations");
                }
            }
            d
        })
        .collect();
    let mut r = json!({"tools": tools});
    if version.stateless() {
        r["ttlMs"] = json!(TTL_MS);
        r["cacheScope"] = json!("private");
    }
    r
}

/// The outcome of one `tools/call`, before the log line is written.
pub struct Called {
    pub tool: &'static str,
    pub outcome: Result<Value, RpcError>,
    /// The tool error's code, for the log; `None` when it succeeded.
    pub code: Option<&'static str>,
}

/// `tools/call`: an unknown tool or a malformed request is a protocol error in every
/// revision; arguments that fail to decode are one only before 2025-11-25.
pub fn call(ctx: &Ctx, version: Version, params: &Map<String, Value>) -> Result<Called, RpcError> {
    let name = params
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| RpcError::new(INVALID_PARAMS, "`name` must be a string"))?;
    let Some(tool) = crate::tools::find(name) else {
        let available: Vec<&str> = registry().iter().map(|t| t.name).collect();
        return Err(RpcError::new(
            INVALID_PARAMS,
            format!("Unknown tool: {}", truncate(name, 64)),
        )
        .data(json!({"available": available})));
    };
    let args = match params.get("arguments") {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(a @ Value::Object(_)) => a.clone(),
        Some(_) => {
            return Err(RpcError::new(
                INVALID_PARAMS,
                "`arguments` must be an object",
            ));
        }
    };
    if args.to_string().len() > MAX_ARGS_BYTES {
        return Err(RpcError::new(
            INVALID_PARAMS,
            format!("arguments exceed {MAX_ARGS_BYTES} bytes"),
        ));
    }
    // Refused before the arguments are even decoded: a read-only token learns that first.
    let ran = match ctx.check_write(tool.name) {
        Err(e) if !tool.read_only => Err(e),
        _ => (tool.call)(ctx, args.clone()),
    };
    let (outcome, code) = match ran {
        Ok(v) => (Ok(success(version, tool, v)), None),
        Err(e) => {
            let code = e.code;
            (failure(version, e, tool, &args), Some(code))
        }
    };
    Ok(Called {
        tool: tool.name,
        outcome,
        code,
    })
}

/// A tool call while a setting is broken: the setting's error, as a tool error the model
/// can relay, whatever was asked.
pub fn refuse(e: &Error, params: &Map<String, Value>) -> Called {
    let tool = params
        .get("name")
        .and_then(Value::as_str)
        .and_then(crate::tools::find)
        .map_or("(unknown)", |t| t.name);
    Called {
        tool,
        outcome: Ok(error_result(e, &e.one_line())),
        code: Some(e.code),
    }
}

fn success(version: Version, tool: &Tool, value: Value) -> Value {
    let mut r = json!({
        "content": [{"type": "text", "text": text_of(tool, &value)}],
        "isError": false,
    });
    if version.structured() {
        r["structuredContent"] = value;
    }
    r
}

fn failure(version: Version, e: Error, tool: &Tool, args: &Value) -> Result<Value, RpcError> {
    let mcp = e.kind.mcp();
    let message = if mcp == Mcp::InvalidParams {
        super::args::explain(&(tool.input_schema)(), args).unwrap_or_else(|| e.one_line())
    } else {
        e.one_line()
    };
    match mcp {
        Mcp::InvalidParams if !version.bad_arguments_as_result() => {
            return Err(RpcError::new(INVALID_PARAMS, message).data(json!({"code": e.code})));
        }
        // A bug on our side, not something the model can fix.
        Mcp::InternalError => return Err(RpcError::new(INTERNAL_ERROR, e.one_line())),
        Mcp::InvalidParams | Mcp::ToolError => {}
    }
    Ok(error_result(&e, &message))
}

/// The text block: the output's JSON, with every peer-written field labelled (`«…»`) and,
/// when any was, the legend first (`peer_text`). `structuredContent` keeps raw values: the
/// label is for the model reading text, not for a program reading fields.
fn text_of(tool: &Tool, value: &Value) -> String {
    if tool.peer_fields.is_empty() {
        return value.to_string();
    }
    let mut labelled = value.clone();
    if crate::peer::label_paths(&mut labelled, tool.peer_fields) == 0 {
        return value.to_string();
    }
    let Value::Object(fields) = labelled else {
        return labelled.to_string();
    };
    let mut out = Map::with_capacity(fields.len() + 1);
    out.insert("peer_text".into(), json!(crate::peer::LEGEND));
    out.extend(fields);
    Value::Object(out).to_string()
}

/// `isError: true` with the message and the hint, as text and in `_meta`.
fn error_result(e: &Error, message: &str) -> Value {
    let mut text = format!("error ({}): {message}", e.code);
    if let Some(h) = &e.hint {
        text.push_str(&format!("\nhint: {h}"));
    }
    json!({
        "content": [{"type": "text", "text": text}],
        "isError": true,
        "_meta": {"ctxlake/error": {"code": e.code, "hint": e.hint}},
    })
}

fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(max).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_output_that_fails_to_encode_is_an_internal_error() {
        let tool = crate::tools::find("fleet_status").unwrap();
        let e = Error::internal("output_encode", "cannot encode the tool output");
        let r = failure(Version::V2025_11_25, e, tool, &json!({}));
        assert_eq!(r.unwrap_err().code, INTERNAL_ERROR);
        // Storage trouble the caller can see and act on stays a tool error.
        let e = Error::storage("spool_full", "the spool is full").hint("run `ctxlake sync`");
        let r = failure(Version::V2025_11_25, e, tool, &json!({})).unwrap();
        assert_eq!(r["isError"], true);
        assert!(
            r["content"][0]["text"]
                .as_str()
                .unwrap()
                .ends_with("hint: run `ctxlake sync`")
        );
    }

    #[test]
    fn definitions_are_built_once() {
        for refs in [false, true] {
            let a = definitions(refs).as_ptr();
            assert_eq!(a, definitions(refs).as_ptr());
            assert_eq!(definitions(refs).len(), registry().len());
        }
    }
}
