//! `ctxlake install` / `uninstall`: plan, apply and undo ctxlake's entries in each runtime's
//! own config files. Never prints; the command layer renders the typed reports.

pub mod jsonc;
pub mod toml;
pub mod yaml;
