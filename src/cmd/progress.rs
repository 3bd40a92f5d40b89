//! Progress bars for long work (a download, an import, a first sync, a lake copy, a full
//! fold), drawn with `indicatif` on stderr, and only when stderr is a terminal and the
//! person did not ask for quiet or JSON: scripts and CI logs stay clean.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::GlobalArgs;

/// A bar, or nothing at all when it would not be seen.
pub struct Bar(Option<ProgressBar>);

impl Bar {
    /// A bar counting bytes (`12.3 MiB / 86.7 MiB`).
    pub fn bytes(g: &GlobalArgs, label: &str) -> Bar {
        Bar::new(g, label, "{msg} [{bar:30}] {bytes}/{total_bytes} ({eta})")
    }
    /// A bar counting items (`1,204 / 5,000 sessions`).
    pub fn items(g: &GlobalArgs, label: &str) -> Bar {
        Bar::new(g, label, "{msg} [{bar:30}] {human_pos}/{human_len}")
    }

    fn new(g: &GlobalArgs, label: &str, template: &str) -> Bar {
        if g.quiet || g.json || !std::io::stderr().is_terminal() {
            return Bar(None);
        }
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_message(label.to_string());
        Bar(Some(bar))
    }

    /// Move to `done` of `total`.
    pub fn set(&self, done: u64, total: u64) {
        if let Some(b) = &self.0 {
            if b.length() != Some(total) {
                b.set_length(total);
            }
            b.set_position(done);
        }
    }

    /// Take the bar off the screen (the command prints its summary next).
    pub fn finish(&self) {
        if let Some(b) = &self.0 {
            b.finish_and_clear();
        }
    }
}
