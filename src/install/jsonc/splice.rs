//! Text geometry for the editor: the byte ranges a removal cuts (with the comma and the
//! line it leaves behind), where lines start and end, their indent, and a file's own
//! indent unit.

use std::ops::Range;

/// A splice: replace this byte range with this text.
pub(super) type Edit = (Range<usize>, String);

use super::parse::{Node, NodeKind, Slot};

/// The byte ranges whose removal undoes `insert` of slot `i`.
pub(super) fn removal(t: &str, node: &Node, slots: &[Slot], i: usize) -> Vec<Edit> {
    let s = &slots[i];
    let end = s.comma.map_or(s.value.end, |c| c + 1);
    if slots.len() == 1
        && t[node.start + 1..s.start].trim().is_empty()
        && t[end..node.end - 1].trim().is_empty()
    {
        return vec![(node.start + 1..node.end - 1, String::new())];
    }
    if own_line(t, s.start) {
        let ls = line_start(t, s.start);
        if s.comma.is_some() || i == 0 {
            let eol = end_of_line(t, end);
            let stop = if t[eol..].starts_with("\r\n") {
                eol + 2
            } else if t[eol..].starts_with('\n') {
                eol + 1
            } else {
                eol
            };
            return vec![(ls..stop, String::new())];
        }
        let prev = &slots[i - 1];
        let from = if ls >= 2 && &t[ls - 2..ls] == "\r\n" {
            ls - 2
        } else {
            ls.saturating_sub(1)
        };
        let mut edits = vec![(from..s.value.end, String::new())];
        if let Some(c) = prev.comma {
            edits.push((c..c + 1, String::new()));
        }
        return edits;
    }
    match (i, s.comma) {
        (i, None) if i > 0 => vec![(slots[i - 1].value.end..s.value.end, String::new())],
        // The last member before a trailing comma: `insert` put its space before it.
        (i, Some(c)) if i > 0 && i + 1 == slots.len() => {
            let from = slots[i - 1].comma.map_or(s.start, |p| p + 1);
            vec![(from..c + 1, String::new())]
        }
        _ => {
            let mut stop = end;
            while t[stop..].starts_with([' ', '\t']) {
                stop += 1;
            }
            vec![(s.start..stop, String::new())]
        }
    }
}

pub(super) fn line_start(t: &str, at: usize) -> usize {
    t[..at].rfind('\n').map_or(0, |i| i + 1)
}

pub(super) fn line_indent(t: &str, at: usize) -> &str {
    let ls = line_start(t, at);
    let line = &t[ls..];
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

pub(super) fn own_line(t: &str, at: usize) -> bool {
    t[line_start(t, at)..at].trim().is_empty()
}

/// From `at`, skip blanks and same-line comments; stop at the newline or other text.
pub(super) fn end_of_line(t: &str, mut at: usize) -> usize {
    loop {
        let rest = &t[at..];
        if rest.starts_with([' ', '\t']) {
            at += 1;
        } else if rest.starts_with("//") {
            return at + rest.find(['\r', '\n']).unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            match rest.find("*/") {
                Some(n) if !rest[..n].contains('\n') => at += n + 2,
                _ => return at,
            }
        } else {
            return at;
        }
    }
}

/// The file's indent unit, from the first member of the root; two spaces if it has none.
pub(super) fn detect_unit(t: &str, root: &Node) -> String {
    let (NodeKind::Object(s) | NodeKind::Array(s)) = &root.kind else {
        return "  ".into();
    };
    s.iter()
        .find(|s| own_line(t, s.start))
        .and_then(|first| {
            let inner = line_indent(t, first.start);
            inner
                .strip_prefix(line_indent(t, root.start))
                .filter(|u| !u.is_empty())
        })
        .map_or_else(|| "  ".into(), str::to_string)
}
