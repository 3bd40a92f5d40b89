//! A span-keeping JSONC parser: `//` and `/* */` comments, trailing commas. It builds just
//! enough of a tree (byte offsets of every member and comma) for the editor to splice text,
//! of the whole document or (`parse_members`) of the top level and the members it names.

use serde_json::Value;

/// A value and where it sits in the text.
#[derive(Debug, Clone)]
pub struct Node {
    pub start: usize,
    /// One past the last byte of the value.
    pub end: usize,
    pub kind: NodeKind,
}

#[derive(Debug, Clone)]
pub enum NodeKind {
    Object(Vec<Slot>),
    Array(Vec<Slot>),
    Scalar,
    /// A container of the top level that `parse_members` skipped, its end found by
    /// `scan::container_end`: only its span is known, nothing inside it is parsed.
    Lazy,
}

/// An object member (`key` set) or an array item, with the comma that follows it, if any.
#[derive(Debug, Clone)]
pub struct Slot {
    pub key: Option<String>,
    /// Start of the key (members) or of the value (items).
    pub start: usize,
    pub value: Node,
    pub comma: Option<usize>,
}

/// Where and why the text is not JSON(C). Line and column are 1-based; column counts chars.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

pub fn parse(text: &str) -> Result<Node, ParseError> {
    top(text, false)
}

/// The top level, with only the members named `keys` parsed in full: every other container
/// member is `Lazy`. Falls back to the whole-document parse when the scan cannot delimit a
/// member or a named member does not parse, so an error is the full parser's, at its place.
pub fn parse_members(text: &str, keys: &[&str]) -> Result<Node, ParseError> {
    shallow(text, keys).or_else(|_| parse(text))
}

fn shallow(text: &str, keys: &[&str]) -> Result<Node, ParseError> {
    let mut root = top(text, true)?;
    if let NodeKind::Object(slots) = &mut root.kind {
        for slot in slots {
            let named = slot.key.as_deref().is_some_and(|k| keys.contains(&k));
            if named && matches!(slot.value.kind, NodeKind::Lazy) {
                let end = slot.value.end;
                slot.value = value_at(text, slot.value.start)?;
                if slot.value.end != end {
                    return Err(ParseError {
                        line: 1,
                        column: 1,
                        message: "the scan and the parser disagree on a member's end".into(),
                    });
                }
            }
        }
    }
    Ok(root)
}

/// The value starting at byte `at`, a member of the top level, parsed in full.
fn value_at(text: &str, at: usize) -> Result<Node, ParseError> {
    let mut p = Parser::new(text, false);
    p.i = at;
    p.depth = 1;
    p.value()
}

fn top(text: &str, lazy: bool) -> Result<Node, ParseError> {
    let mut p = Parser::new(text, lazy);
    p.skip_trivia()?;
    let node = p.value()?;
    p.skip_trivia()?;
    if p.i < p.s.len() {
        return Err(p.err("unexpected text after the top-level value"));
    }
    Ok(node)
}

/// The JSON value of a node (comments and trailing commas dropped).
pub fn to_value(text: &str, node: &Node) -> Value {
    match &node.kind {
        NodeKind::Object(slots) => Value::Object(
            slots
                .iter()
                .map(|s| (s.key.clone().unwrap_or_default(), to_value(text, &s.value)))
                .collect(),
        ),
        NodeKind::Array(slots) => {
            Value::Array(slots.iter().map(|s| to_value(text, &s.value)).collect())
        }
        NodeKind::Scalar => {
            serde_json::from_str(&text[node.start..node.end]).unwrap_or(Value::Null)
        }
        // Not parsed yet: parse it now (the editor reads only the members it named, so
        // this is the rare path, e.g. a whole-document value).
        NodeKind::Lazy => value_at(text, node.start).map_or(Value::Null, |n| to_value(text, &n)),
    }
}

/// 1-based line and char column of byte `at`.
pub fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    text: &'a str,
    depth: usize,
    /// Skip the containers of the top level instead of parsing them (`Lazy`).
    lazy: bool,
}

pub(super) const MAX_DEPTH: usize = 512;

impl<'a> Parser<'a> {
    fn new(text: &'a str, lazy: bool) -> Parser<'a> {
        Parser {
            s: text.as_bytes(),
            i: 0,
            text,
            depth: 0,
            lazy,
        }
    }

    fn err(&self, msg: &str) -> ParseError {
        let (line, column) = line_col(self.text, self.i);
        ParseError {
            line,
            column,
            message: msg.to_string(),
        }
    }

    fn skip_trivia(&mut self) -> Result<(), ParseError> {
        loop {
            match self.s.get(self.i) {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.i += 1,
                // A byte-order mark is not JSON, but editors write it; keep it as trivia.
                Some(0xEF) if self.s[self.i..].starts_with(&[0xEF, 0xBB, 0xBF]) => self.i += 3,
                Some(b'/') if self.s.get(self.i + 1) == Some(&b'/') => {
                    while self.i < self.s.len() && self.s[self.i] != b'\n' {
                        self.i += 1;
                    }
                }
                Some(b'/') if self.s.get(self.i + 1) == Some(&b'*') => {
                    match self.text[self.i + 2..].find("*/") {
                        Some(n) => self.i += n + 4,
                        None => return Err(self.err("unterminated `/*` comment")),
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    fn value(&mut self) -> Result<Node, ParseError> {
        let start = self.i;
        match self.s.get(self.i) {
            Some(b'{' | b'[') if self.lazy && self.depth == 1 => {
                match super::scan::container_end(self.s, start, self.depth) {
                    Some(end) => {
                        self.i = end;
                        Ok(Node {
                            start,
                            end,
                            kind: NodeKind::Lazy,
                        })
                    }
                    None => Err(self.err("cannot find where this value ends")),
                }
            }
            Some(b'{') => self.container(b'}', true),
            Some(b'[') => self.container(b']', false),
            Some(b'"') => {
                self.string()?;
                Ok(Node {
                    start,
                    end: self.i,
                    kind: NodeKind::Scalar,
                })
            }
            Some(_) => self.bare(start),
            None => Err(self.err("unexpected end of file, expected a value")),
        }
    }

    fn bare(&mut self, start: usize) -> Result<Node, ParseError> {
        while self.i < self.s.len()
            && matches!(self.s[self.i], b'a'..=b'z' | b'0'..=b'9' | b'-' | b'+' | b'.' | b'E')
        {
            self.i += 1;
        }
        let word = &self.text[start..self.i];
        let ok = matches!(word, "true" | "false" | "null")
            || (!word.is_empty() && serde_json::from_str::<serde_json::Number>(word).is_ok());
        if !ok {
            self.i = start;
            return Err(
                self.err("expected a value (object, array, string, number, true, false or null)")
            );
        }
        Ok(Node {
            start,
            end: self.i,
            kind: NodeKind::Scalar,
        })
    }

    fn string(&mut self) -> Result<String, ParseError> {
        let start = self.i;
        self.i += 1;
        while let Some(&b) = self.s.get(self.i) {
            match b {
                b'\\' => self.i += 2,
                b'"' => {
                    self.i += 1;
                    return serde_json::from_str(&self.text[start..self.i]).map_err(|_| {
                        self.i = start;
                        self.err("invalid string (bad escape or control character)")
                    });
                }
                b'\n' => return Err(self.err("newline inside a string")),
                _ => self.i += 1,
            }
        }
        self.i = start;
        Err(self.err("unterminated string"))
    }

    fn container(&mut self, close: u8, object: bool) -> Result<Node, ParseError> {
        let start = self.i;
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err("nesting is too deep"));
        }
        self.i += 1;
        let mut slots: Vec<Slot> = Vec::new();
        loop {
            self.skip_trivia()?;
            match self.s.get(self.i) {
                Some(&b) if b == close => break,
                None => {
                    return Err(self.err(&format!(
                        "unexpected end of file, expected `{}`",
                        close as char
                    )));
                }
                _ => {}
            }
            if slots.last().is_some_and(|s| s.comma.is_none()) {
                return Err(self.err(&format!("expected `,` or `{}`", close as char)));
            }
            let slot_start = self.i;
            let key = if object {
                if self.s.get(self.i) != Some(&b'"') {
                    return Err(self.err("expected a quoted member name"));
                }
                let k = self.string()?;
                self.skip_trivia()?;
                if self.s.get(self.i) != Some(&b':') {
                    return Err(self.err("expected `:` after the member name"));
                }
                self.i += 1;
                self.skip_trivia()?;
                Some(k)
            } else {
                None
            };
            let value = self.value()?;
            self.skip_trivia()?;
            let comma = (self.s.get(self.i) == Some(&b',')).then(|| {
                self.i += 1;
                self.i - 1
            });
            slots.push(Slot {
                key,
                start: slot_start,
                value,
                comma,
            });
        }
        self.i += 1;
        self.depth -= 1;
        let kind = if object {
            NodeKind::Object(slots)
        } else {
            NodeKind::Array(slots)
        };
        Ok(Node {
            start,
            end: self.i,
            kind,
        })
    }
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;
