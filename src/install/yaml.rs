//! A targeted, line-based editor for Hermes's `config.yaml`: it adds or removes one child of a
//! top-level block mapping (`mcp_servers:`, `hooks:`) and leaves every other byte alone.
//! Shapes it cannot edit safely (flow style, tabs, anchors on our keys) are refused.

use serde_json::Value;

use super::jsonc::ParseError;

#[derive(Debug, Clone, Copy)]
struct Line<'a> {
    start: usize,
    /// The line including its newline.
    text: &'a str,
    indent: usize,
}

impl Line<'_> {
    fn body(&self) -> &str {
        self.text.trim_end_matches(['\n', '\r'])[self.indent..].trim_end()
    }
    fn content(&self) -> bool {
        !self.body().is_empty() && !self.body().starts_with('#')
    }
    fn end(&self) -> usize {
        self.start + self.text.len()
    }
}

fn lines(text: &str) -> Vec<Line<'_>> {
    let mut at = 0;
    text.split_inclusive('\n')
        .map(|t| {
            at += t.len();
            let indent = t.len() - t.trim_start_matches(' ').len();
            Line {
                start: at - t.len(),
                text: t,
                indent,
            }
        })
        .collect()
}

/// A key and the lines that belong to it: `key` at line `at`, children in `body`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Block {
    at: usize,
    indent: usize,
    body_end: usize,
}

/// Refuse what this editor does not understand: tab indentation anywhere.
pub fn check(text: &str) -> Result<(), ParseError> {
    for (n, l) in lines(text).iter().enumerate() {
        if l.text[l.indent..].starts_with('\t') && l.content() {
            return Err(err(
                n,
                l.indent,
                "tab used for indentation (YAML forbids it)",
            ));
        }
    }
    Ok(())
}

fn err(line: usize, col: usize, msg: &str) -> ParseError {
    ParseError {
        line: line + 1,
        column: col + 1,
        message: msg.to_string(),
    }
}

/// Find `key:` among the children at `indent` of the lines `from..to`.
fn find(ls: &[Line], from: usize, to: usize, key: &str) -> Result<Option<Block>, ParseError> {
    let Some(indent) = ls[from..to].iter().find(|l| l.content()).map(|l| l.indent) else {
        return Ok(None);
    };
    for n in from..to {
        let l = &ls[n];
        if !l.content() || l.indent != indent {
            continue;
        }
        let Some(rest) = l.body().strip_prefix(key).and_then(|r| r.strip_prefix(':')) else {
            continue;
        };
        let value = rest.split(" #").next().unwrap_or("").trim();
        if !value.is_empty() {
            let what = format!(
                "`{key}: {value}` is not a block mapping or list this editor can change safely"
            );
            return Err(err(n, l.indent + key.len() + 2, &what));
        }
        return Ok(Some(Block {
            at: n,
            indent,
            body_end: body_end(ls, n, to),
        }));
    }
    Ok(None)
}

/// One past the last content line under the key at line `at` (sequences may sit at its indent).
fn body_end(ls: &[Line], at: usize, to: usize) -> usize {
    let indent = ls[at].indent;
    let mut end = at + 1;
    for (n, l) in ls.iter().enumerate().take(to).skip(at + 1) {
        if !l.content() {
            continue;
        }
        let seq_item = l.indent == indent && l.body().starts_with('-');
        if l.indent <= indent && !seq_item {
            break;
        }
        end = n + 1;
    }
    end
}

fn child_indent(ls: &[Line], b: &Block, unit: usize) -> usize {
    ls[b.at + 1..b.body_end]
        .iter()
        .find(|l| l.content())
        .map_or(b.indent + unit, |l| l.indent)
}

/// The file's indent unit: the first child indent under any top-level key, else 2.
fn unit(ls: &[Line]) -> usize {
    ls.windows(2)
        .find(|w| {
            w[0].indent == 0
                && w[0].content()
                && w[0].body().ends_with(':')
                && w[1].content()
                && w[1].indent > 0
        })
        .map_or(2, |w| w[1].indent)
}

/// The text of `top.name` (the key line and its body), if present.
pub fn get(text: &str, top: &str, name: &str) -> Result<Option<String>, ParseError> {
    let ls = lines(text);
    let Some(t) = find(&ls, 0, ls.len(), top)? else {
        return Ok(None);
    };
    let Some(c) = find(&ls, t.at + 1, t.body_end, name)? else {
        return Ok(None);
    };
    Ok(Some(
        text[ls[c.at].start..ls[c.body_end - 1].end()].to_string(),
    ))
}

/// Make `top.name` equal `entry`; returns the new text and whether `top` was created.
pub fn set(text: &str, top: &str, name: &str, entry: &Value) -> Result<(String, bool), ParseError> {
    check(text)?;
    let base = remove(text, top, name, false)?;
    let ls = lines(&base);
    let u = unit(&ls);
    match find(&ls, 0, ls.len(), top)? {
        Some(t) => {
            let ci = child_indent(&ls, &t, u);
            let at = ls[t.body_end - 1].end();
            let mut out = base.clone();
            let sep = if base[..at].ends_with('\n') { "" } else { "\n" };
            out.insert_str(at, &format!("{sep}{}", render_key(name, entry, ci, u)));
            Ok((out, false))
        }
        None => {
            let block = format!("{top}:\n{}", render_key(name, entry, u, u));
            Ok((append_top(&base, &block), true))
        }
    }
}

/// Remove `top.name`; remove `top:` too when `drop_top` and nothing else is left under it.
pub fn remove(text: &str, top: &str, name: &str, drop_top: bool) -> Result<String, ParseError> {
    let ls = lines(text);
    let Some(t) = find(&ls, 0, ls.len(), top)? else {
        return Ok(text.to_string());
    };
    let Some(c) = find(&ls, t.at + 1, t.body_end, name)? else {
        return Ok(text.to_string());
    };
    let mut out = text.to_string();
    out.replace_range(ls[c.at].start..ls[c.body_end - 1].end(), "");
    if drop_top {
        out = drop_if_empty(&out, &[top])?;
    }
    Ok(out)
}

/// Remove the key at `path` (one or two levels) if it has no content left under it.
pub fn drop_if_empty(text: &str, path: &[&str]) -> Result<String, ParseError> {
    let ls = lines(text);
    let Some(mut b) = find(&ls, 0, ls.len(), path[0])? else {
        return Ok(text.to_string());
    };
    if let Some(child) = path.get(1) {
        let Some(c) = find(&ls, b.at + 1, b.body_end, child)? else {
            return Ok(text.to_string());
        };
        b = c;
    }
    if b.body_end != b.at + 1 {
        return Ok(text.to_string());
    }
    let mut out = text.to_string();
    let mut start = ls[b.at].start;
    if path.len() == 1 && out[..start].ends_with("\n\n") {
        start -= 1;
    }
    out.replace_range(start..ls[b.at].end(), "");
    Ok(out)
}

/// Append a top-level block at the end, after a blank line (removed again by `drop_if_empty`).
fn append_top(text: &str, block: &str) -> String {
    let mut out = text.to_string();
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    // Always one blank line of our own, even after the user's: `drop_if_empty` takes one.
    if !out.is_empty() {
        out.push('\n');
    }
    out.push_str(block);
    out
}

#[path = "yaml_hooks.rs"]
mod hooks;
pub use hooks::{add_hook, remove_hooks};

fn render_key(key: &str, v: &Value, indent: usize, unit: usize) -> String {
    let pad = " ".repeat(indent);
    match v {
        Value::Object(m) if m.is_empty() => format!("{pad}{key}: {{}}\n"),
        Value::Object(m) => {
            let inner: String = m
                .iter()
                .map(|(k, v)| render_key(k, v, indent + unit, unit))
                .collect();
            format!("{pad}{key}:\n{inner}")
        }
        Value::Array(a) if a.is_empty() => format!("{pad}{key}: []\n"),
        Value::Array(a) => {
            let items: String = a
                .iter()
                .map(|v| format!("{pad}{}- {}\n", " ".repeat(unit), scalar(v)))
                .collect();
            format!("{pad}{key}:\n{items}")
        }
        _ => format!("{pad}{key}: {}\n", scalar(v)),
    }
}

/// A YAML scalar: plain when unambiguous, else a JSON string (valid YAML double-quoted).
fn scalar(v: &Value) -> String {
    let Value::String(s) = v else {
        return v.to_string();
    };
    let safe = s
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "_./@+- ".contains(c));
    let lower = s.to_ascii_lowercase();
    let keyword = matches!(
        lower.as_str(),
        "true" | "false" | "yes" | "no" | "on" | "off" | "null" | "~" | "y" | "n"
    );
    let ambiguous =
        s.is_empty() || s.starts_with(['-', ' ']) || s.ends_with(' ') || s.parse::<f64>().is_ok();
    if safe && !keyword && !ambiguous {
        s.clone()
    } else {
        v.to_string()
    }
}

#[cfg(test)]
#[path = "yaml_tests.rs"]
mod tests;
