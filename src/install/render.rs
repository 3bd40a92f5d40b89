//! Text for the command layer: the `--list` table and the per-runtime follow-up notes.
//! Strings only; printing stays in `crate::output`.

use super::{Installer, Runtime, RuntimeStatus};

pub fn render_list(inst: &Installer, rows: &[RuntimeStatus]) -> String {
    let mut t = crate::output::table(&["runtime", "detected", "installed", "files"]);
    for r in rows {
        let files: Vec<String> = r
            .files
            .iter()
            .map(|f| {
                let state = match (&f.error, f.exists, f.mcp, f.hooks) {
                    (Some(e), _, _, _) => format!("unreadable: {e}"),
                    (None, false, _, _) => "absent".into(),
                    (None, true, Some(true), 0) => "ctxlake".into(),
                    (None, true, Some(true), n) => format!("ctxlake + {n} hooks"),
                    (None, true, _, 0) => "no ctxlake".into(),
                    (None, true, _, n) => format!("{n} hooks"),
                };
                format!("{} ({state})", inst.env.show(&f.path))
            })
            .collect();
        let files = if files.is_empty() {
            r.note.clone().unwrap_or_default()
        } else {
            files.join("\n")
        };
        let detected = if r.detected { "yes" } else { "no" };
        t.add_row(vec![
            r.runtime.name().to_string(),
            format!("{detected}: {}", r.reason),
            yes_no(r.installed).into(),
            files,
        ]);
    }
    format!("{t}\n")
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// What the person still has to do in the runtime itself.
pub fn notes(rts: &[Runtime], project: bool, hooks: bool) -> Vec<String> {
    let mut out = Vec::new();
    for rt in rts {
        match rt {
            Runtime::ClaudeCode if project => out.push(
                "note: Claude Code connects project servers only once approved: run `claude` in this folder, or set `enableAllProjectMcpServers` in ~/.claude/settings.json".into(),
            ),
            Runtime::Gemini => out.push("note: Gemini connects MCP servers only in trusted folders (`/permissions` in gemini)".into()),
            Runtime::Codex if hooks => out.push("note: Codex asks you to review new hooks before it runs them".into()),
            Runtime::Hermes if hooks => out.push(
                "note: Hermes asks consent on first use of each hook (`hermes hooks list`; or `--accept-hooks`)".into(),
            ),
            Runtime::ClaudeDesktop | Runtime::Windsurf | Runtime::Zed | Runtime::Vscode => {
                out.push(format!("note: restart {} to load the new server", rt.name()));
            }
            _ => {}
        }
    }
    out
}
