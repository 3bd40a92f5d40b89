//! What each runtime reads on a hook's stdout. Shapes checked against the runtimes'
//! own parsers where we could read them (Codex `output_parser.rs`, the Gemini CLI 0.61
//! bundle, Hermes 0.19 `agent/shell_hooks.py`) and against `claude` 2.1.332 itself.

use serde_json::{Value, json};

use super::payload::Runtime;

/// Something to say to the runtime.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// Put this text into the model's context (the session-start briefing).
    Context(String),
    /// Let the tool run, but tell the model (and, where possible, the person).
    Warn(String),
    /// Stop the tool call, with this reason for the model.
    Block(String),
}

/// The single JSON object for `runtime`. `event` is the runtime's own event name,
/// echoed where the runtime requires it.
pub fn render(runtime: Runtime, event: &str, reply: &Reply) -> String {
    let v = match runtime {
        Runtime::ClaudeCode | Runtime::Codex => claude_like(event, reply),
        Runtime::Gemini => gemini(event, reply),
        Runtime::Hermes => hermes(reply),
        Runtime::Cursor => cursor(reply),
    };
    v.to_string()
}

/// Claude Code and Codex share one schema. Codex rejects `permissionDecision: allow`
/// without `updatedInput`, so a warning carries no decision at all: the runtime's own
/// permission flow stays in charge.
fn claude_like(event: &str, reply: &Reply) -> Value {
    match reply {
        Reply::Context(t) => {
            json!({"hookSpecificOutput": {"hookEventName": event, "additionalContext": t}})
        }
        Reply::Warn(t) => json!({
            "systemMessage": first_line(t),
            "hookSpecificOutput": {"hookEventName": event, "additionalContext": t},
        }),
        Reply::Block(t) => json!({"hookSpecificOutput": {
            "hookEventName": event,
            "permissionDecision": "deny",
            "permissionDecisionReason": t,
        }}),
    }
}

/// Gemini reads `additionalContext` on SessionStart/BeforeAgent/AfterTool but not on
/// BeforeTool, so a warning also goes in `systemMessage`; `decision: deny` blocks.
fn gemini(event: &str, reply: &Reply) -> Value {
    match reply {
        Reply::Context(t) => {
            json!({"hookSpecificOutput": {"hookEventName": event, "additionalContext": t}})
        }
        Reply::Warn(t) => json!({
            "systemMessage": t,
            "hookSpecificOutput": {"hookEventName": event, "additionalContext": t},
        }),
        Reply::Block(t) => json!({"decision": "deny", "reason": t}),
    }
}

/// Hermes injects `context` only from `pre_llm_call` and can only block
/// `pre_tool_call`; a warning's `context` is ignored there (0.19) but harmless.
fn hermes(reply: &Reply) -> Value {
    match reply {
        Reply::Context(t) | Reply::Warn(t) => json!({"context": t}),
        Reply::Block(t) => json!({"decision": "block", "reason": t}),
    }
}

/// Cursor (documented shapes only: no Cursor runs here). `sessionStart` takes
/// `additional_context`; the `before*` events take `permission` plus messages.
fn cursor(reply: &Reply) -> Value {
    match reply {
        Reply::Context(t) => json!({"additional_context": t}),
        Reply::Warn(t) => json!({"user_message": first_line(t), "agent_message": t}),
        Reply::Block(t) => json!({
            "permission": "deny",
            "decision": "deny",
            "reason": t,
            "user_message": first_line(t),
            "agent_message": t,
        }),
    }
}

fn first_line(t: &str) -> &str {
    t.lines().next().unwrap_or(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(r: Runtime, ev: &str, reply: &Reply) -> Value {
        serde_json::from_str(&render(r, ev, reply)).unwrap()
    }

    #[test]
    fn claude_and_codex_shapes() {
        for r in [Runtime::ClaudeCode, Runtime::Codex] {
            let v = parse(r, "SessionStart", &Reply::Context("hi".into()));
            assert_eq!(v["hookSpecificOutput"]["hookEventName"], "SessionStart");
            assert_eq!(v["hookSpecificOutput"]["additionalContext"], "hi");
            let w = parse(r, "PreToolUse", &Reply::Warn("held\nmore".into()));
            assert_eq!(w["systemMessage"], "held");
            assert!(w["hookSpecificOutput"].get("permissionDecision").is_none());
            let b = parse(r, "PreToolUse", &Reply::Block("no".into()));
            assert_eq!(b["hookSpecificOutput"]["permissionDecision"], "deny");
            assert_eq!(b["hookSpecificOutput"]["permissionDecisionReason"], "no");
        }
    }

    #[test]
    fn gemini_hermes_cursor_shapes() {
        let g = parse(Runtime::Gemini, "BeforeTool", &Reply::Block("no".into()));
        assert_eq!(
            (g["decision"].as_str(), g["reason"].as_str()),
            (Some("deny"), Some("no"))
        );
        let h = parse(Runtime::Hermes, "pre_llm_call", &Reply::Context("b".into()));
        assert_eq!(h, json!({"context": "b"}));
        let hb = parse(Runtime::Hermes, "pre_tool_call", &Reply::Block("no".into()));
        assert_eq!(hb, json!({"decision": "block", "reason": "no"}));
        let c = parse(Runtime::Cursor, "sessionStart", &Reply::Context("b".into()));
        assert_eq!(c, json!({"additional_context": "b"}));
        let cb = parse(Runtime::Cursor, "preToolUse", &Reply::Block("no".into()));
        assert_eq!(cb["permission"], "deny");
    }
}
