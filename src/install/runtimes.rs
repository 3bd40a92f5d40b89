//! The ten runtimes: how each is detected, which files it reads for user and project scope,
//! and the shape of ctxlake's MCP entry and hook entries in each (see reference/runtimes.md).

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::{Value, json};

use super::env::Env;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Runtime {
    ClaudeCode,
    Codex,
    Cursor,
    Gemini,
    Opencode,
    Hermes,
    ClaudeDesktop,
    Windsurf,
    Zed,
    Vscode,
}

pub const ALL: [Runtime; 10] = [
    Runtime::ClaudeCode,
    Runtime::Codex,
    Runtime::Cursor,
    Runtime::Gemini,
    Runtime::Opencode,
    Runtime::Hermes,
    Runtime::ClaudeDesktop,
    Runtime::Windsurf,
    Runtime::Zed,
    Runtime::Vscode,
];

impl Runtime {
    pub fn name(self) -> &'static str {
        match self {
            Runtime::ClaudeCode => "claude-code",
            Runtime::Codex => "codex",
            Runtime::Cursor => "cursor",
            Runtime::Gemini => "gemini",
            Runtime::Opencode => "opencode",
            Runtime::Hermes => "hermes",
            Runtime::ClaudeDesktop => "claude-desktop",
            Runtime::Windsurf => "windsurf",
            Runtime::Zed => "zed",
            Runtime::Vscode => "vscode",
        }
    }

    /// The programs whose presence on PATH means the runtime is installed.
    fn bins(self) -> &'static [&'static str] {
        match self {
            Runtime::ClaudeCode => &["claude"],
            Runtime::Codex => &["codex"],
            Runtime::Cursor => &["cursor", "cursor-agent"],
            Runtime::Gemini => &["gemini"],
            Runtime::Opencode => &["opencode"],
            Runtime::Hermes => &["hermes"],
            Runtime::ClaudeDesktop => &["claude-desktop"],
            Runtime::Windsurf => &["windsurf"],
            Runtime::Zed => &["zed", "zeditor"],
            Runtime::Vscode => &["code"],
        }
    }

    /// The runtime's own config directory (user scope).
    pub fn config_dir(self, env: &Env) -> PathBuf {
        let h = &env.home;
        let xdg = env.xdg_config();
        match self {
            Runtime::ClaudeCode => env
                .var("CLAUDE_CONFIG_DIR")
                .map_or_else(|| h.join(".claude"), PathBuf::from),
            Runtime::Codex => env
                .var("CODEX_HOME")
                .map_or_else(|| h.join(".codex"), PathBuf::from),
            Runtime::Cursor => h.join(".cursor"),
            Runtime::Gemini => env
                .var("GEMINI_CLI_HOME")
                .map_or_else(|| h.clone(), PathBuf::from)
                .join(".gemini"),
            Runtime::Opencode => xdg.join("opencode"),
            Runtime::Hermes => env
                .var("HERMES_HOME")
                .map_or_else(|| h.join(".hermes"), PathBuf::from),
            Runtime::ClaudeDesktop if cfg!(target_os = "macos") => {
                h.join("Library/Application Support/Claude")
            }
            Runtime::ClaudeDesktop => xdg.join("Claude"),
            Runtime::Windsurf => h.join(".codeium/windsurf"),
            Runtime::Zed => xdg.join("zed"),
            Runtime::Vscode if cfg!(target_os = "macos") => {
                h.join("Library/Application Support/Code/User")
            }
            Runtime::Vscode => xdg.join("Code/User"),
        }
    }

    pub fn has_hooks(self) -> bool {
        matches!(
            self,
            Runtime::ClaudeCode
                | Runtime::Codex
                | Runtime::Cursor
                | Runtime::Gemini
                | Runtime::Hermes
        )
    }
}

/// Whether a runtime is on this machine, and the evidence either way.
#[derive(Debug, Clone, Serialize)]
pub struct Detection {
    pub detected: bool,
    pub reason: String,
}

pub fn detect(rt: Runtime, env: &Env) -> Detection {
    let dir = rt.config_dir(env);
    let mut found = Vec::new();
    if dir.is_dir() {
        found.push(format!("`{}`", env.show(&dir)));
    }
    if rt == Runtime::ClaudeCode && env.home.join(".claude.json").is_file() {
        found.push("`~/.claude.json`".into());
    }
    found.extend(
        rt.bins()
            .iter()
            .filter(|b| env.on_path(b))
            .map(|b| format!("`{b}` on PATH")),
    );
    if found.is_empty() {
        let bins: Vec<String> = rt.bins().iter().map(|b| format!("`{b}`")).collect();
        let reason = format!(
            "no `{}` and no {} on PATH",
            env.show(&dir),
            bins.join(" or ")
        );
        Detection {
            detected: false,
            reason,
        }
    } else {
        Detection {
            detected: true,
            reason: format!("found {}", found.join(", ")),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Strict JSON: the runtime parses it with a plain JSON parser.
    Json,
    /// JSON with comments and trailing commas, as VS Code-style editors and Gemini read it.
    Jsonc,
    Toml,
    Yaml,
}

/// One file ctxlake edits, and what goes into it.
#[derive(Debug, Clone)]
pub struct Target {
    pub runtime: Runtime,
    pub path: PathBuf,
    pub format: Format,
    /// Key path of the servers object (`mcpServers`, `context_servers`, …) and our entry.
    pub mcp: Option<(Vec<&'static str>, Value)>,
    /// `(event, element)` pairs appended under `hooks`.
    pub hooks: Vec<(&'static str, Value)>,
}

/// What the entries say: this binary, the scope, and whether they are project-pinned.
#[derive(Debug, Clone)]
pub struct EntryOpts {
    pub exe: String,
    pub fleet: String,
    pub agent: String,
    pub project: bool,
    pub hooks: bool,
    /// `install --http`: write the runtime's remote entry for this server instead.
    pub http: Option<super::remote::Remote>,
}

impl EntryOpts {
    fn args(&self) -> Vec<String> {
        let mut a = vec!["mcp".to_string()];
        if self.project {
            a.extend(["--fleet".to_string(), self.fleet.clone()]);
        }
        a
    }

    /// Ids only, never secrets. A project file is shared, so it names no agent.
    fn env(&self) -> Value {
        if self.project {
            json!({ "CTXLAKE_FLEET_ID": self.fleet })
        } else {
            json!({ "CTXLAKE_FLEET_ID": self.fleet, "CTXLAKE_AGENT_ID": self.agent })
        }
    }

    pub fn hook_command(&self, rt: Runtime) -> String {
        format!("{} hook {}", shell_quote(&self.exe), rt.name())
    }
}

/// Quote for a POSIX shell (Claude runs hooks through `sh`; Hermes shlex-splits).
fn shell_quote(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+@".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// Is this hook command one of ours? Any ctxlake binary's `hook` subcommand counts, so an
/// entry written by an older install at another path is still found.
pub fn is_ours(cmd: &str, exe: &str) -> bool {
    // The program is the first shell word: a quoted one (a path with spaces) runs to its
    // closing quote, not to the first space.
    let first = match cmd.chars().next() {
        Some(q @ ('\'' | '"')) => cmd[1..].split(q).next().unwrap_or(""),
        _ => cmd
            .split_whitespace()
            .next()
            .unwrap_or("")
            .trim_matches(['\'', '"']),
    };
    let base = Path::new(first)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("");
    cmd.contains(" hook ") && (cmd.starts_with(exe) || base.contains("ctxlake"))
}

#[path = "targets.rs"]
mod targets;
pub use targets::targets;
