//! The only place that prints. stdout carries data (JSON or tables), stderr carries
//! notes and errors. A closed stdout pipe is reported as `BrokenPipe` and ends quietly.

use std::io::{self, IsTerminal, Write};

use comfy_table::{ContentArrangement, Table, presets};
use serde::Serialize;

use crate::error::Error;

#[derive(Debug, Clone, Copy, Default)]
pub struct Output {
    pub json: bool,
    pub quiet: bool,
}

impl Output {
    /// Print `value` as JSON (with `--json`) or run `human` to render text.
    pub fn emit<T: Serialize>(
        &self,
        value: &T,
        human: impl FnOnce(&T) -> String,
    ) -> io::Result<()> {
        let text = if self.json {
            let mut s = serde_json::to_string_pretty(value).map_err(io::Error::other)?;
            s.push('\n');
            s
        } else {
            human(value)
        };
        stdout(&text)
    }

    /// A message for the person, on stderr; silenced by `-q`.
    pub fn note(&self, msg: &str) {
        if !self.quiet {
            stderr(&format!("{msg}\n"));
        }
    }
}

pub fn stdout(text: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()
}

pub fn stderr(text: &str) {
    let _ = io::stderr().lock().write_all(text.as_bytes());
}

/// `error: …`, each cause on `  caused by: …`, then `hint: …`.
pub fn render_error(e: &Error) -> String {
    let mut s = format!("error: {}\n", e.message);
    let mut cause: Option<&(dyn std::error::Error + 'static)> = std::error::Error::source(e);
    while let Some(c) = cause {
        s.push_str(&format!("  caused by: {c}\n"));
        cause = c.source();
    }
    if let Some(h) = &e.hint {
        s.push_str(&format!("hint: {h}\n"));
    }
    s
}

/// Colour only on a terminal, and never when `NO_COLOR` is set.
pub fn use_color() -> bool {
    io::stdout().is_terminal() && crate::paths::var(crate::paths::env::NO_COLOR).is_none()
}

/// A table that fits the terminal (or `COLUMNS`), plain when not on a terminal.
pub fn table(header: &[&str]) -> Table {
    let mut t = Table::new();
    t.load_preset(presets::UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic);
    if let Some(w) = crate::paths::var("COLUMNS").and_then(|c| c.parse::<u16>().ok()) {
        t.set_width(w);
    } else if !io::stdout().is_terminal() {
        t.set_width(120);
    }
    if !use_color() {
        t.force_no_tty();
    }
    t.set_header(header.iter().copied());
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_render_with_causes_and_hint() {
        let e = Error::refused("x", "cannot do `it`")
            .source(io::Error::other("because"))
            .hint("try `that`");
        assert_eq!(
            render_error(&e),
            "error: cannot do `it`\n  caused by: because\nhint: try `that`\n"
        );
    }
}
