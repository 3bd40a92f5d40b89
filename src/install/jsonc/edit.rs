//! The editor: find a path, then splice one member or item in or out. Insertions go after
//! the last member in the container's own style; removal undoes exactly what insertion did.

use crate::install::shape::Shape;

use serde_json::Value;

use super::parse::{Node, NodeKind, ParseError, Slot, parse, parse_members, to_value};
use super::render::{Style, inline, pretty};
use super::splice::{Edit, detect_unit, end_of_line, line_indent, line_start, own_line, removal};

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(untagged)]
pub enum Seg {
    Key(String),
    Index(usize),
}

/// A parsed document. Every edit re-parses, so spans are always fresh.
#[derive(Debug, Clone)]
pub struct Doc {
    text: String,
    root: Node,
    style: Style,
    /// The top-level members parsed in full (`None`: all of them); the rest are `Lazy`.
    members: Option<Vec<String>>,
}

impl Doc {
    pub fn parse(text: &str) -> Result<Doc, ParseError> {
        Doc::build(text, parse(text)?, None)
    }

    /// The document with only the top-level members `keys` parsed (and every path this Doc
    /// is asked about starts at one of them): an edit of `mcpServers` does not parse
    /// `projects`. The text it skips is checked for syntax by the guard's real parser.
    pub fn parse_members(text: &str, keys: &[&str]) -> Result<Doc, ParseError> {
        let members = keys.iter().map(|k| (*k).to_string()).collect();
        Doc::build(text, parse_members(text, keys)?, Some(members))
    }

    fn build(text: &str, root: Node, members: Option<Vec<String>>) -> Result<Doc, ParseError> {
        let nl = if text.contains("\r\n") { "\r\n" } else { "\n" };
        let unit = detect_unit(text, &root);
        Ok(Doc {
            text: text.to_string(),
            root,
            style: Style { unit, nl },
            members,
        })
    }

    /// Is `path` inside what was parsed? A path into a skipped member is a bug of the
    /// caller's (it must name the member to `parse_members`); tests catch it.
    fn parsed(&self, path: &[Seg]) -> bool {
        match (&self.members, path.first()) {
            (Some(keys), Some(Seg::Key(k))) => keys.contains(k),
            _ => true,
        }
    }

    /// How many members (or items) the top level has.
    pub fn top_len(&self) -> usize {
        match &self.root.kind {
            NodeKind::Object(s) | NodeKind::Array(s) => s.len(),
            NodeKind::Scalar | NodeKind::Lazy => 0,
        }
    }

    #[cfg(test)]
    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn into_text(self) -> String {
        self.text
    }

    pub fn get(&self, path: &[Seg]) -> Option<&Node> {
        debug_assert!(self.parsed(path), "{} was not parsed", super::show(path));
        let mut node = &self.root;
        for seg in path {
            node = &find(node, seg)?.value;
        }
        Some(node)
    }

    pub fn value(&self, path: &[Seg]) -> Option<Value> {
        self.get(path).map(|n| to_value(&self.text, n))
    }

    /// Set `path` to `v`, creating missing parent objects. Returns the containers created.
    pub fn set(&mut self, path: &[Seg], v: &Value) -> Result<Vec<Vec<Seg>>, Shape> {
        debug_assert!(self.parsed(path), "{} was not parsed", super::show(path));
        let mut node = &self.root;
        for (i, seg) in path.iter().enumerate() {
            let Seg::Key(key) = seg else {
                return Err(Shape::Missing(super::show(&path[..=i])));
            };
            let NodeKind::Object(slots) = &node.kind else {
                return Err(Shape::NotObject(show_parent(path, i)));
            };
            match slots.iter().find(|s| s.key.as_deref() == Some(key)) {
                Some(slot) if i + 1 == path.len() => {
                    let base = line_indent(&self.text, slot.start).to_string();
                    let text = self.render(v, &base, node);
                    let r = slot.value.start..slot.value.end;
                    return self.apply(vec![(r, text)]).map(|_| Vec::new());
                }
                Some(slot) => node = &slot.value,
                None => {
                    let wrapped = wrap(&path[i + 1..], v)?;
                    let edits = self.insert(node, slots, Some(key), &wrapped);
                    self.apply(edits)?;
                    return Ok((i + 1..path.len()).map(|j| path[..j].to_vec()).collect());
                }
            }
        }
        Err(Shape::WholeDocument)
    }

    /// Append `v` to the array at `path`, creating it (and its parents) when missing.
    pub fn push(&mut self, path: &[Seg], v: &Value) -> Result<Vec<Vec<Seg>>, Shape> {
        match self.get(path) {
            None => {
                let mut created = self.set(path, &Value::Array(vec![v.clone()]))?;
                created.push(path.to_vec());
                Ok(created)
            }
            Some(node) => {
                let NodeKind::Array(slots) = &node.kind else {
                    return Err(Shape::NotArray(super::show(path)));
                };
                let edits = self.insert(node, slots, None, v);
                self.apply(edits).map(|_| Vec::new())
            }
        }
    }

    /// Remove the member or item at `path`; false when it is not there.
    pub fn remove(&mut self, path: &[Seg]) -> bool {
        let Some((last, parent)) = path.split_last() else {
            return false;
        };
        let Some(node) = self.get(parent) else {
            return false;
        };
        let slots = match &node.kind {
            NodeKind::Object(s) | NodeKind::Array(s) => s,
            NodeKind::Scalar | NodeKind::Lazy => return false,
        };
        let Some(i) = index_of(slots, last) else {
            return false;
        };
        let edits = removal(&self.text, node, slots, i);
        self.apply(edits).is_ok()
    }

    fn render(&self, v: &Value, base: &str, container: &Node) -> String {
        if self.text[container.start..container.end].contains('\n') || is_empty(container) {
            pretty(v, base, &self.style)
        } else {
            inline(v, self.text[container.start..container.end].contains(": "))
        }
    }

    fn insert(&self, node: &Node, slots: &[Slot], key: Option<&str>, v: &Value) -> Vec<Edit> {
        let (t, nl) = (&self.text, self.style.nl);
        let outer = line_indent(t, node.start).to_string();
        let span = &t[node.start..node.end];
        let colon = if span.contains('\n') || slots.is_empty() || span.contains(": ") {
            ": "
        } else {
            ":"
        };
        let entry = |indent: &str| match key {
            Some(k) => format!(
                "{}{colon}{}",
                inline(&Value::String(k.into()), false),
                self.render(v, indent, node)
            ),
            None => self.render(v, indent, node),
        };
        let Some(last) = slots.last() else {
            let inner = format!("{outer}{}", self.style.unit);
            let body = &t[node.start + 1..node.end - 1];
            if body.trim().is_empty() {
                return vec![(
                    node.start + 1..node.end - 1,
                    format!("{nl}{inner}{}{nl}{outer}", entry(&inner)),
                )];
            }
            // Only comments inside: keep them and add the entry before the closing bracket.
            let close = node.end - 1;
            let ls = line_start(t, close);
            if t[ls..close].trim().is_empty() {
                return vec![(ls..ls, format!("{inner}{}{nl}", entry(&inner)))];
            }
            return vec![(
                close..close,
                format!("{nl}{inner}{}{nl}{outer}", entry(&inner)),
            )];
        };
        if !t[node.start..node.end].contains('\n') {
            let spaced =
                t[node.start..node.end].contains(", ") || t[node.start..node.end].contains(": ");
            let sp = if spaced { " " } else { "" };
            return match last.comma {
                Some(c) => vec![(c + 1..c + 1, format!("{sp}{},", entry("")))],
                None => vec![(
                    last.value.end..last.value.end,
                    format!(",{sp}{}", entry("")),
                )],
            };
        }
        let indent = if own_line(t, last.start) {
            line_indent(t, last.start).to_string()
        } else {
            format!("{outer}{}", self.style.unit)
        };
        let after = last.comma.map_or(last.value.end, |c| c + 1);
        let eol = end_of_line(t, after);
        let trailing = if last.comma.is_some() { "," } else { "" };
        let mut edits = vec![(
            eol..eol,
            format!("{nl}{indent}{}{trailing}", entry(&indent)),
        )];
        if last.comma.is_none() {
            edits.push((last.value.end..last.value.end, ",".into()));
        }
        edits
    }

    fn apply(&mut self, mut edits: Vec<Edit>) -> Result<(), Shape> {
        edits.sort_by_key(|e| std::cmp::Reverse(e.0.start));
        let mut text = self.text.clone();
        for (r, s) in edits {
            text.replace_range(r, &s);
        }
        let root = match &self.members {
            None => parse(&text),
            Some(keys) => {
                parse_members(&text, &keys.iter().map(String::as_str).collect::<Vec<_>>())
            }
        };
        self.root = root.map_err(|e| {
            Shape::Unparsable(format!(
                "internal edit produced invalid JSON: {}",
                e.message
            ))
        })?;
        self.text = text;
        Ok(())
    }
}

fn find<'a>(node: &'a Node, seg: &Seg) -> Option<&'a Slot> {
    match &node.kind {
        NodeKind::Object(s) | NodeKind::Array(s) => index_of(s, seg).map(|i| &s[i]),
        NodeKind::Scalar | NodeKind::Lazy => None,
    }
}

fn index_of(slots: &[Slot], seg: &Seg) -> Option<usize> {
    match seg {
        Seg::Key(k) => slots.iter().position(|s| s.key.as_deref() == Some(k)),
        Seg::Index(i) => (*i < slots.len() && slots[*i].key.is_none()).then_some(*i),
    }
}

fn wrap(rest: &[Seg], v: &Value) -> Result<Value, Shape> {
    let mut v = v.clone();
    for seg in rest.iter().rev() {
        let Seg::Key(k) = seg else {
            return Err(Shape::ArrayIndex);
        };
        v = Value::Object([(k.clone(), v)].into_iter().collect());
    }
    Ok(v)
}

fn show_parent(path: &[Seg], i: usize) -> String {
    if i == 0 {
        "the top level".into()
    } else {
        super::show(&path[..i])
    }
}

fn is_empty(node: &Node) -> bool {
    matches!(&node.kind, NodeKind::Object(s) | NodeKind::Array(s) if s.is_empty())
}

#[cfg(test)]
#[path = "edit_tests.rs"]
mod tests;
