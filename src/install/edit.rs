//! Text in, text out: put ctxlake's entries into one file, take them out again, or report
//! what is there — dispatched on the file's format. No I/O here.

use super::shape::Shape;
use serde_json::Value;

use super::jsonc::{self, Doc, ParseError, Seg};
use super::runtimes::{Format, Target};
use super::{toml, yaml};

pub const NAME: &str = "ctxlake";

/// What an edit did besides the text: the containers it created, so uninstall can drop them.
pub type Created = Vec<Vec<Seg>>;

pub enum Problem {
    /// The file is not valid for its format, by the format's real parser.
    Syntax(ParseError),
    /// Valid, but laid out in a way the hand editor will not splice (e.g. YAML flow style).
    Parse(ParseError),
    Shape(Shape),
}

impl From<ParseError> for Problem {
    fn from(e: ParseError) -> Self {
        Problem::Parse(e)
    }
}

/// Where a missing file starts from.
pub fn empty(format: Format) -> &'static str {
    match format {
        Format::Json | Format::Jsonc => "{}\n",
        Format::Toml | Format::Yaml => "",
    }
}

pub fn install(
    t: &Target,
    text: &str,
    ours: &dyn Fn(&str) -> bool,
) -> Result<(String, Created), Problem> {
    match t.format {
        Format::Json | Format::Jsonc => install_json(t, text, ours),
        Format::Toml => {
            let doc = toml::parse(text)?;
            let Some((path, entry)) = &t.mcp else {
                return Ok((text.into(), Vec::new()));
            };
            if toml::get(&doc, path[0], NAME).as_ref() == Some(entry) {
                return Ok((text.into(), Vec::new()));
            }
            Ok((
                toml::set(text, path[0], NAME, entry).map_err(Problem::Shape)?,
                Vec::new(),
            ))
        }
        Format::Yaml => {
            let mut out = text.to_string();
            let mut created = Vec::new();
            if let Some((path, entry)) = &t.mcp {
                let (s, made) = yaml::set(&out, path[0], NAME, entry)?;
                out = s;
                if made {
                    created.push(jsonc::keys(&[path[0]]));
                }
            }
            for (event, item) in &t.hooks {
                let (s, made) = yaml::add_hook(&out, event, item, ours)?;
                out = s;
                created.extend(made);
            }
            Ok((out, created))
        }
    }
}

fn install_json(
    t: &Target,
    text: &str,
    ours: &dyn Fn(&str) -> bool,
) -> Result<(String, Created), Problem> {
    let mut doc = json_doc(t, text)?;
    let mut created = Vec::new();
    if let Some((path, entry)) = &t.mcp {
        let mut p = jsonc::keys(path);
        p.push(Seg::Key(NAME.into()));
        if doc.value(&p).as_ref() != Some(entry) {
            created.extend(doc.set(&p, entry).map_err(Problem::Shape)?);
        }
    }
    if !t.hooks.is_empty()
        && t.runtime == super::Runtime::Cursor
        && doc.get(&jsonc::keys(&["version"])).is_none()
    {
        created.extend(
            doc.set(&jsonc::keys(&["version"]), &Value::from(1))
                .map_err(Problem::Shape)?,
        );
        created.push(jsonc::keys(&["version"]));
    }
    for (event, element) in &t.hooks {
        let p = jsonc::keys(&["hooks", event]);
        let existing = match doc.value(&p) {
            Some(Value::Array(a)) => a,
            Some(_) => return Err(Problem::Shape(Shape::NotArray(format!("hooks.{event}")))),
            None => Vec::new(),
        };
        let mine: Vec<usize> = (0..existing.len())
            .filter(|&i| all_ours(&existing[i], ours))
            .collect();
        if mine.len() == 1 && &existing[mine[0]] == element {
            continue;
        }
        for &i in mine.iter().rev() {
            doc.remove(&with_index(&p, i));
        }
        created.extend(doc.push(&p, element).map_err(Problem::Shape)?);
    }
    Ok((doc.into_text(), created))
}

/// The document as the JSON editor reads it: of the top level, only the members it can
/// touch are parsed (the servers object, `hooks`, Cursor's `version`); the rest (all of a
/// big `~/.claude.json`'s `projects`) is skipped text, spliced back byte for byte.
fn json_doc(t: &Target, text: &str) -> Result<Doc, ParseError> {
    let mut keys = vec!["hooks", "version"];
    keys.extend(t.mcp.as_ref().and_then(|(path, _)| path.first()));
    Doc::parse_members(text, &keys)
}

/// Remove our entries; `created` containers go too when nothing else is left in them.
pub fn uninstall(
    t: &Target,
    text: &str,
    created: &Created,
    ours: &dyn Fn(&str) -> bool,
) -> Result<String, Problem> {
    let drops = |name: &str| {
        created
            .iter()
            .any(|c| c.len() == 1 && c[0] == Seg::Key(name.into()))
    };
    match t.format {
        Format::Toml => {
            toml::parse(text)?;
            let Some((path, _)) = &t.mcp else {
                return Ok(text.into());
            };
            toml::remove(text, path[0], NAME).map_err(Problem::Shape)
        }
        // In the reverse order of `install`, so each block's separating blank line goes too.
        Format::Yaml => {
            let mut out = yaml::remove_hooks(text, ours, created)?;
            if let Some((path, _)) = &t.mcp {
                out = yaml::remove(&out, path[0], NAME, drops(path[0]))?;
            }
            Ok(out)
        }
        Format::Json | Format::Jsonc => uninstall_json(t, text, created, ours),
    }
}

fn uninstall_json(
    t: &Target,
    text: &str,
    created: &Created,
    ours: &dyn Fn(&str) -> bool,
) -> Result<String, Problem> {
    let mut doc = json_doc(t, text)?;
    if let Some((path, _)) = &t.mcp {
        let mut p = jsonc::keys(path);
        p.push(Seg::Key(NAME.into()));
        doc.remove(&p);
    }
    let had_hooks =
        matches!(doc.value(&jsonc::keys(&["hooks"])), Some(Value::Object(m)) if !m.is_empty());
    // With a record of what install created, `prune` drops exactly that and a container the
    // user had (even an empty one) stays. Without one (state lost), containers our removal
    // empties go too.
    let unrecorded = created.is_empty();
    if !t.hooks.is_empty() {
        let events: Vec<String> = match doc.value(&jsonc::keys(&["hooks"])) {
            Some(Value::Object(m)) => m.keys().cloned().collect(),
            _ => Vec::new(),
        };
        for event in events {
            let p = jsonc::keys(&["hooks", &event]);
            let Some(Value::Array(items)) = doc.value(&p) else {
                continue;
            };
            // Unrecorded, an event list that held only our entries goes with them.
            if unrecorded && !items.is_empty() && items.iter().all(|i| all_ours(i, ours)) {
                doc.remove(&p);
                continue;
            }
            for (i, item) in items.iter().enumerate().rev() {
                if all_ours(item, ours) {
                    doc.remove(&with_index(&p, i));
                } else if let Some(Value::Array(inner)) = item.get("hooks") {
                    for (j, h) in inner.iter().enumerate().rev() {
                        if h.get("command").and_then(Value::as_str).is_some_and(ours) {
                            let mut q = with_index(&p, i);
                            q.push(Seg::Key("hooks".into()));
                            doc.remove(&with_index(&q, j));
                        }
                    }
                }
            }
        }
    }
    let now_empty =
        matches!(doc.value(&jsonc::keys(&["hooks"])), Some(Value::Object(m)) if m.is_empty());
    if unrecorded && had_hooks && now_empty {
        doc.remove(&jsonc::keys(&["hooks"]));
    }
    prune(&mut doc, created);
    Ok(doc.into_text())
}

/// Drop the containers we created, deepest first, when they are empty (a created scalar
/// such as Cursor's `version` goes only when it is the last thing left).
fn prune(doc: &mut Doc, created: &Created) {
    let mut paths: Vec<&Vec<Seg>> = created.iter().collect();
    paths.sort_by_key(|p| std::cmp::Reverse(p.len()));
    for p in paths {
        let empty = match doc.value(p) {
            Some(Value::Object(m)) => m.is_empty(),
            Some(Value::Array(a)) => a.is_empty(),
            Some(_) => p.len() == 1 && doc.top_len() == 1,
            None => false,
        };
        if empty {
            doc.remove(p);
        }
    }
}

/// Is the MCP entry there, and how many hook elements of ours?
pub fn status(
    t: &Target,
    text: &str,
    ours: &dyn Fn(&str) -> bool,
) -> Result<(bool, usize), Problem> {
    match t.format {
        Format::Json | Format::Jsonc => {
            let doc = json_doc(t, text)?;
            let mcp = t.mcp.as_ref().is_some_and(|(path, _)| {
                let mut p = jsonc::keys(path);
                p.push(Seg::Key(NAME.into()));
                doc.get(&p).is_some()
            });
            let hooks = match doc.value(&jsonc::keys(&["hooks"])) {
                Some(Value::Object(m)) => m
                    .values()
                    .filter_map(Value::as_array)
                    .flatten()
                    .filter(|v| any_ours(v, ours))
                    .count(),
                _ => 0,
            };
            Ok((mcp, hooks))
        }
        Format::Toml => {
            let doc = toml::parse(text)?;
            Ok((
                t.mcp
                    .as_ref()
                    .is_some_and(|(p, _)| toml::get(&doc, p[0], NAME).is_some()),
                0,
            ))
        }
        Format::Yaml => {
            let mcp = match &t.mcp {
                Some((p, _)) => yaml::get(text, p[0], NAME)?.is_some(),
                None => false,
            };
            let value = |l: &str| {
                let b = l
                    .trim_start()
                    .trim_start_matches("- ")
                    .strip_prefix("command:")?;
                Some(b.trim().trim_matches(['"', '\'']).to_string())
            };
            let hooks = text.lines().filter_map(value).filter(|c| ours(c)).count();
            Ok((mcp, hooks))
        }
    }
}

/// The commands a hook element runs (`command`, or `hooks[].command` for grouped shapes).
pub(crate) fn commands(v: &Value) -> Vec<&str> {
    if let Some(c) = v.get("command").and_then(Value::as_str) {
        return vec![c];
    }
    v.get("hooks")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|h| h.get("command").and_then(Value::as_str))
                .collect()
        })
        .unwrap_or_default()
}

pub(super) fn all_ours(v: &Value, ours: &dyn Fn(&str) -> bool) -> bool {
    let c = commands(v);
    !c.is_empty() && c.iter().all(|c| ours(c))
}

pub(super) fn any_ours(v: &Value, ours: &dyn Fn(&str) -> bool) -> bool {
    commands(v).iter().any(|c| ours(c))
}

fn with_index(p: &[Seg], i: usize) -> Vec<Seg> {
    let mut q = p.to_vec();
    q.push(Seg::Index(i));
    q
}
