//! Comment- and byte-preserving edits of JSON/JSONC files: insert, replace or remove one
//! member or array item, splicing text so every other byte (comments, order, indent) stays.

mod edit;
mod parse;
mod render;
mod scan;
mod splice;

pub use edit::{Doc, Seg};
pub use parse::{ParseError, line_col};

/// A path of keys from the root, e.g. `mcpServers.ctxlake`.
pub fn keys(path: &[&str]) -> Vec<Seg> {
    path.iter().map(|k| Seg::Key((*k).to_string())).collect()
}

/// `a.b[2]` for messages.
pub fn show(path: &[Seg]) -> String {
    let mut s = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) if s.is_empty() => s.push_str(k),
            Seg::Key(k) => {
                s.push('.');
                s.push_str(k);
            }
            Seg::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}
