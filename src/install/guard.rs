//! The one check every install and uninstall edit passes before anything is written, for
//! every format: the old and new documents, read by the format's real parser, must differ in
//! exactly ctxlake's entries (its MCP server entry and its hook items) and nothing else. The
//! hand editors splice text; this is what proves a splice did only what it meant to. A failure
//! is a bug in ctxlake, so it is an internal error, never a refusal the user should work around.

use std::path::Path;

use serde_json::Value;

use super::edit::{NAME, all_ours, any_ours};
use super::jsonc::ParseError;
use super::lazy::Members;
use super::runtimes::{Format, Runtime, Target};
use super::validate;
use crate::error::{Error, Kind, Result};

/// How an edited document differs from what the edit should have made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Drift {
    /// The edit would replace the whole document.
    Whole,
    /// It would also change this path of the user's.
    Changes(String),
    /// ctxlake's entry at this path is not the one asked for.
    WrongEntry(String),
    /// This event's hooks do not hold exactly ctxlake's one hook.
    WrongHooks(String),
    /// An uninstall left ctxlake's entry at this path.
    EntryLeft(String),
    /// An uninstall left a hook of ctxlake's.
    HookLeft,
}

impl std::fmt::Display for Drift {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Drift::Whole => f.write_str("it would replace the whole document"),
            Drift::Changes(p) => write!(f, "it would also change `{p}`"),
            Drift::WrongEntry(p) => write!(f, "`{p}.{NAME}` is not the entry asked for"),
            Drift::WrongHooks(e) => write!(f, "`hooks.{e}` does not hold exactly ctxlake's hook"),
            Drift::EntryLeft(p) => write!(f, "`{p}.{NAME}` is still there"),
            Drift::HookLeft => f.write_str("a hook of ctxlake's is still there"),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Direction {
    /// The new document must hold exactly the entries the target asks for.
    Install,
    /// The new document must hold none of ours.
    Uninstall,
}

/// A document as the guard reads it: whole, or (a strict JSON object) by top-level
/// member, each kept as its checked text until the comparison needs its value.
pub(crate) enum Parsed {
    Whole(Value),
    Members(Members),
}

impl Parsed {
    /// `text` read by the format's real parser; a syntax error is the full parser's.
    pub(crate) fn parse(format: Format, text: &str) -> std::result::Result<Parsed, ParseError> {
        if format == Format::Json
            && let Ok(Some(m)) = Members::parse(text)
        {
            return Ok(Parsed::Members(m));
        }
        validate::parse(format, text).map(Parsed::Whole)
    }

    /// The top-level member `key`, as a value.
    pub(crate) fn top(&self, key: &str) -> Option<Value> {
        match self {
            Parsed::Whole(v) => v.get(key).cloned(),
            Parsed::Members(m) => m.value(key),
        }
    }

    fn into_value(self) -> Value {
        match self {
            Parsed::Whole(v) => v,
            Parsed::Members(m) => m.into_value(),
        }
    }
}

impl From<Value> for Parsed {
    fn from(v: Value) -> Parsed {
        Parsed::Whole(v)
    }
}

/// Check the edit of `path` from `old` (already parsed) to `after`; `Err` writes nothing.
pub(crate) fn verify(
    path: &Path,
    t: &Target,
    old: impl Into<Parsed>,
    after: &str,
    dir: Direction,
    ours: &dyn Fn(&str) -> bool,
) -> Result<()> {
    let new = Parsed::parse(t.format, after).map_err(|e| {
        editor_bug(
            path,
            format!(
                "the edited text is not valid {} (line {}, column {}: {})",
                validate::name(t.format),
                e.line,
                e.column,
                e.message
            ),
        )
    })?;
    let (old, new) = comparable(t, old.into(), new);
    check(t, old, new, dir, ours).map_err(|d| editor_bug(path, d.to_string()))
}

/// The two documents as values `check` compares. Two strict JSON objects keep only the
/// members whose text differs, plus those that hold our entries or their scaffolding
/// (`check` reads and strips these): a member of equal text has an equal value in both,
/// so it can neither hold nor hide a difference.
fn comparable(t: &Target, old: Parsed, new: Parsed) -> (Value, Value) {
    match (old, new) {
        (Parsed::Members(a), Parsed::Members(b)) => {
            let mcp = t.mcp.as_ref().and_then(|(p, _)| p.first().copied());
            let keep =
                |k: &str| k == "hooks" || k == "version" || Some(k) == mcp || a.raw(k) != b.raw(k);
            (a.subset(&keep), b.subset(&keep))
        }
        (a, b) => (a.into_value(), b.into_value()),
    }
}

fn editor_bug(path: &Path, what: String) -> Error {
    // No dedicated internal kind yet: internal faults share exit 3 with storage (error.rs).
    Error::new(
        Kind::Storage,
        "install_edit_unsafe",
        format!(
            "internal error: ctxlake's edit of `{}` failed its safety check: {what}",
            path.display()
        ),
    )
    .hint("this is a bug in ctxlake's config editor; nothing was written. Please report it with the file (secrets removed), and add the entry by hand meanwhile")
}

/// The pure comparison: `Ok` when `old` and `new` differ in ctxlake's entries alone.
pub(crate) fn check(
    t: &Target,
    old: Value,
    new: Value,
    dir: Direction,
    ours: &dyn Fn(&str) -> bool,
) -> std::result::Result<(), Drift> {
    match dir {
        Direction::Install => holds_wanted(t, &new, ours)?,
        Direction::Uninstall => holds_none(t, &new, ours)?,
    }
    let mut a = strip(t, old, ours);
    let mut b = strip(t, new, ours);
    drop_scaffolding(t, &mut a, &mut b);
    match first_difference(&a, &b, String::new()) {
        None => Ok(()),
        Some(p) if p.is_empty() => Err(Drift::Whole),
        Some(p) => Err(Drift::Changes(p)),
    }
}

/// Does this target's editor touch `hooks` at all? (Hermes's YAML editor always sweeps it.)
fn touches_hooks(t: &Target) -> bool {
    !t.hooks.is_empty() || t.format == Format::Yaml
}

fn at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(v, |v, k| v.get(k))
}

fn holds_wanted(
    t: &Target,
    new: &Value,
    ours: &dyn Fn(&str) -> bool,
) -> std::result::Result<(), Drift> {
    if let Some((path, entry)) = &t.mcp {
        let got = at(new, path).and_then(|m| m.get(NAME));
        if got != Some(entry) {
            return Err(Drift::WrongEntry(path.join(".")));
        }
    }
    for (event, element) in &t.hooks {
        let mine: Vec<&Value> = at(new, &["hooks", event])
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter(|v| all_ours(v, ours))
            .collect();
        if mine != [element] {
            return Err(Drift::WrongHooks(event.to_string()));
        }
    }
    Ok(())
}

fn holds_none(
    t: &Target,
    new: &Value,
    ours: &dyn Fn(&str) -> bool,
) -> std::result::Result<(), Drift> {
    if let Some((path, _)) = &t.mcp
        && at(new, path).and_then(|m| m.get(NAME)).is_some()
    {
        return Err(Drift::EntryLeft(path.join(".")));
    }
    let left = at(new, &["hooks"])
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|h| h.values())
        .filter_map(Value::as_array)
        .flatten()
        .any(|v| any_ours(v, ours));
    if touches_hooks(t) && left {
        return Err(Drift::HookLeft);
    }
    Ok(())
}

/// `v` without ctxlake's entries: the MCP entry, hook items that are all ours, and our
/// commands inside the user's hook groups. Owned, so a large document is never copied.
fn strip(t: &Target, mut v: Value, ours: &dyn Fn(&str) -> bool) -> Value {
    if let Some((path, _)) = &t.mcp
        && let Some(Value::Object(m)) = path.iter().try_fold(&mut v, |v, k| v.get_mut(*k))
    {
        m.remove(NAME);
    }
    if !touches_hooks(t) {
        return v;
    }
    let Some(Value::Object(events)) = v.get_mut("hooks") else {
        return v;
    };
    for items in events.values_mut().filter_map(Value::as_array_mut) {
        items.retain(|i| !all_ours(i, ours));
        for inner in items.iter_mut().filter_map(|i| i.get_mut("hooks")) {
            if let Value::Array(hs) = inner {
                hs.retain(|h| !h.get("command").and_then(Value::as_str).is_some_and(ours));
            }
        }
    }
    v
}

/// The containers that hold our entries may appear or vanish (and a null `hooks:` become a
/// mapping) only while nothing else is in them; so may Cursor's `version: 1` beside its hooks.
fn drop_scaffolding(t: &Target, a: &mut Value, b: &mut Value) {
    let mut paths: Vec<Vec<String>> = Vec::new();
    if touches_hooks(t) {
        let events = |v: &Value| -> Vec<String> {
            at(v, &["hooks"])
                .and_then(Value::as_object)
                .map(|m| m.keys().cloned().collect())
                .unwrap_or_default()
        };
        for e in events(a).into_iter().chain(events(b)) {
            paths.push(vec!["hooks".into(), e]);
        }
        paths.push(vec!["hooks".into()]);
        if t.runtime == Runtime::Cursor && t.mcp.is_none() {
            paths.push(vec!["version".into()]);
        }
    }
    if let Some((path, _)) = &t.mcp {
        paths.push(path.iter().map(|s| (*s).to_string()).collect());
    }
    for p in paths {
        let empty = |v: &Value| match v {
            Value::Null => true,
            Value::Object(m) => m.is_empty(),
            Value::Array(x) => x.is_empty(),
            other => p.len() == 1 && p[0] == "version" && other.as_u64() == Some(1),
        };
        let keys: Vec<&str> = p.iter().map(String::as_str).collect();
        let (x, y) = (at(a, &keys), at(b, &keys));
        let drop_a = x.is_some_and(empty) && y.is_none_or(empty);
        let drop_b = y.is_some_and(empty) && x.is_none_or(empty);
        if drop_a {
            remove(a, &keys);
        }
        if drop_b {
            remove(b, &keys);
        }
    }
}

fn remove(v: &mut Value, path: &[&str]) {
    let Some((last, parent)) = path.split_last() else {
        return;
    };
    if let Some(Value::Object(m)) = parent.iter().try_fold(v, |v, k| v.get_mut(*k)) {
        m.remove(*last);
    }
}

/// The first path (`a.b[2]`) where two values differ, `""` for the root.
fn first_difference(a: &Value, b: &Value, path: String) -> Option<String> {
    // Descend only where the values differ: one equality pass, then one path down.
    if a == b {
        return None;
    }
    let join = |k: &str| {
        if path.is_empty() {
            k.to_string()
        } else {
            format!("{path}.{k}")
        }
    };
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => x
            .iter()
            .find_map(|(k, p)| match y.get(k) {
                Some(q) => first_difference(p, q, join(k)),
                None => Some(join(k)),
            })
            .or_else(|| y.keys().find(|k| !x.contains_key(*k)).map(|k| join(k)))
            .or(Some(path)),
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (p, q))| first_difference(p, q, format!("{path}[{i}]"))),
        _ => Some(path),
    }
}

#[cfg(test)]
#[path = "guard_tests.rs"]
mod tests;
