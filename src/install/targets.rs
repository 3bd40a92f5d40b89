//! Per runtime: the files for user or project scope, the MCP entry, and the hook elements
//! in that runtime's own event names and shape.

use std::path::PathBuf;

use serde_json::{Value, json};

use super::{EntryOpts, Format, Runtime, Target};
use crate::error::{Error, Result};
use crate::install::env::Env;

const CLAUDE_TOOLS: &str = "Bash|Edit|MultiEdit|Write|NotebookEdit";
const CODEX_TOOLS: &str = "Bash|apply_patch|Edit|Write";
const GEMINI_TOOLS: &str = "run_shell_command|replace|write_file";
const HERMES_TOOLS: &str = "terminal|write_file|patch";

/// The files to edit for `rt`; `--project` on a runtime with no project file is a usage error.
pub fn targets(rt: Runtime, env: &Env, o: &EntryOpts) -> Result<Vec<Target>> {
    let dir = rt.config_dir(env);
    let cwd = &env.cwd;
    let p = o.project;
    let std_entry = json!({ "command": o.exe, "args": o.args(), "env": o.env() });
    let typed = json!({ "type": "stdio", "command": o.exe, "args": o.args(), "env": o.env() });
    let json = |path: PathBuf, key: &'static str, entry: &Value| Target {
        runtime: rt,
        path,
        format: json_dialect(rt),
        mcp: Some((vec![key], entry.clone())),
        hooks: Vec::new(),
    };
    let mut out = match rt {
        Runtime::ClaudeCode => {
            let mcp = match (p, env.var("CLAUDE_CONFIG_DIR")) {
                (true, _) => cwd.join(".mcp.json"),
                (false, Some(_)) => dir.join(".claude.json"),
                (false, None) => env.home.join(".claude.json"),
            };
            vec![json(mcp, "mcpServers", &typed)]
        }
        Runtime::Codex if !p => vec![Target {
            runtime: rt,
            path: dir.join("config.toml"),
            format: Format::Toml,
            mcp: Some((vec!["mcp_servers"], std_entry.clone())),
            hooks: Vec::new(),
        }],
        Runtime::Cursor => vec![json(
            base(p, cwd, ".cursor", &dir).join("mcp.json"),
            "mcpServers",
            &std_entry,
        )],
        Runtime::Gemini => vec![json(
            base(p, cwd, ".gemini", &dir).join("settings.json"),
            "mcpServers",
            &std_entry,
        )],
        Runtime::Opencode => {
            let d = if p { cwd.clone() } else { dir.clone() };
            let command: Vec<String> = std::iter::once(o.exe.clone()).chain(o.args()).collect();
            let entry = json!({ "type": "local", "command": command, "environment": o.env() });
            vec![json(opencode_file(&d), "mcp", &entry)]
        }
        Runtime::Hermes if !p => {
            let entry =
                json!({ "command": o.exe, "args": o.args(), "env": o.env(), "enabled": true });
            vec![Target {
                runtime: rt,
                path: dir.join("config.yaml"),
                format: Format::Yaml,
                mcp: Some((vec!["mcp_servers"], entry)),
                hooks: Vec::new(),
            }]
        }
        Runtime::ClaudeDesktop if !p => vec![json(
            dir.join("claude_desktop_config.json"),
            "mcpServers",
            &std_entry,
        )],
        Runtime::Windsurf if !p => {
            vec![json(dir.join("mcp_config.json"), "mcpServers", &std_entry)]
        }
        Runtime::Zed => vec![json(
            base(p, cwd, ".zed", &dir).join("settings.json"),
            "context_servers",
            &std_entry,
        )],
        Runtime::Vscode => vec![json(
            base(p, cwd, ".vscode", &dir).join("mcp.json"),
            "servers",
            &typed,
        )],
        _ => {
            return Err(Error::usage(
                "no_project_scope",
                format!("`{}` has no project-scoped MCP file", rt.name()),
            )
            .hint(format!(
                "drop `--project` to install `{}` for your user",
                rt.name()
            )));
        }
    };
    if let Some(remote) = &o.http {
        for t in &mut out {
            if let Some((_, entry)) = &mut t.mcp {
                *entry = crate::install::remote::entry(rt, remote)?;
            }
        }
    }
    if o.hooks {
        add_hooks(rt, env, o, &mut out);
    }
    Ok(out)
}

/// Strict JSON where the runtime reads its files with a plain JSON parser (Claude's files,
/// Codex's `hooks.json`); JSONC for the editors and CLIs that keep comments (Zed, VS Code,
/// Cursor, Windsurf, opencode, Gemini), so a comment there is not refused.
fn json_dialect(rt: Runtime) -> Format {
    match rt {
        Runtime::ClaudeCode | Runtime::Codex | Runtime::ClaudeDesktop => Format::Json,
        _ => Format::Jsonc,
    }
}

fn base(project: bool, cwd: &std::path::Path, sub: &str, user: &std::path::Path) -> PathBuf {
    if project {
        cwd.join(sub)
    } else {
        user.to_path_buf()
    }
}

/// `opencode.json` or `opencode.jsonc`: whichever exists (`.json` if both), else `.json`.
fn opencode_file(dir: &std::path::Path) -> PathBuf {
    let json = dir.join("opencode.json");
    let jsonc = dir.join("opencode.jsonc");
    if !json.exists() && jsonc.exists() {
        jsonc
    } else {
        json
    }
}

fn add_hooks(rt: Runtime, env: &Env, o: &EntryOpts, out: &mut Vec<Target>) {
    let cmd = o.hook_command(rt);
    let group = |matcher: Option<&str>, timeout: u64, named: bool| {
        let mut h = json!({ "type": "command", "command": cmd, "timeout": timeout });
        if named {
            h = json!({ "type": "command", "name": "ctxlake", "command": cmd, "timeout": timeout });
        }
        match matcher {
            Some(m) => json!({ "matcher": m, "hooks": [h] }),
            None => json!({ "hooks": [h] }),
        }
    };
    let dir = rt.config_dir(env);
    let p = o.project;
    let (path, hooks): (PathBuf, Vec<(&'static str, Value)>) = match rt {
        Runtime::ClaudeCode => {
            let path = if p {
                env.cwd.join(".claude/settings.json")
            } else {
                dir.join("settings.json")
            };
            let ev = [
                ("SessionStart", None),
                ("UserPromptSubmit", None),
                ("PreToolUse", Some(CLAUDE_TOOLS)),
                ("PostToolUse", Some(CLAUDE_TOOLS)),
                ("Stop", None),
                ("SessionEnd", None),
            ];
            (
                path,
                ev.into_iter()
                    .map(|(e, m)| (e, group(m, 10, false)))
                    .collect(),
            )
        }
        Runtime::Codex => {
            let ev = [
                ("SessionStart", None),
                ("UserPromptSubmit", None),
                ("PreToolUse", Some(CODEX_TOOLS)),
                ("PostToolUse", Some(CODEX_TOOLS)),
                ("Stop", None),
            ];
            (
                dir.join("hooks.json"),
                ev.into_iter()
                    .map(|(e, m)| (e, group(m, 10, false)))
                    .collect(),
            )
        }
        Runtime::Cursor => {
            let ev = [
                "sessionStart",
                "beforeSubmitPrompt",
                "preToolUse",
                "postToolUse",
                "stop",
                "sessionEnd",
            ];
            let path = base(p, &env.cwd, ".cursor", &dir).join("hooks.json");
            (
                path,
                ev.into_iter()
                    .map(|e| (e, json!({ "command": cmd })))
                    .collect(),
            )
        }
        Runtime::Gemini => {
            let ev = [
                ("SessionStart", None),
                ("BeforeAgent", None),
                ("BeforeTool", Some(GEMINI_TOOLS)),
                ("AfterTool", Some(GEMINI_TOOLS)),
                ("AfterAgent", None),
                ("SessionEnd", None),
            ];
            // Same file as the MCP entry; Gemini's timeout is in milliseconds.
            out[0].hooks = ev
                .into_iter()
                .map(|(e, m)| (e, group(m, 10_000, true)))
                .collect();
            return;
        }
        Runtime::Hermes => {
            let item = |m: Option<&str>| match m {
                Some(m) => json!({ "command": cmd, "matcher": m, "timeout": 10 }),
                None => json!({ "command": cmd, "timeout": 10 }),
            };
            let ev = [
                ("on_session_start", None),
                ("pre_llm_call", None),
                ("pre_tool_call", Some(HERMES_TOOLS)),
                ("post_tool_call", Some(HERMES_TOOLS)),
                ("post_llm_call", None),
                ("on_session_end", None),
            ];
            out[0].hooks = ev.into_iter().map(|(e, m)| (e, item(m))).collect();
            return;
        }
        _ => return,
    };
    out.push(Target {
        runtime: rt,
        path,
        format: json_dialect(rt),
        mcp: None,
        hooks,
    });
}
