//! Planning: read each target file (through symlinks), compute the text after install or
//! uninstall, and classify the change. Nothing is written here; refusals name file:line:col.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::edit::{self, Created, Problem};
use super::guard::{self, Direction, Parsed};
use super::jsonc::ParseError;
use super::runtimes::{EntryOpts, Format, Runtime, Target, is_ours, targets};
use super::state::{Store, sha256};
use super::validate;
use super::{Action, FilePlan};
use crate::error::{Error, Result};
use crate::install::env::Env;

pub fn install(env: &Env, rts: &[Runtime], o: &EntryOpts) -> Result<Vec<FilePlan>> {
    let ours = |c: &str| is_ours(c, &o.exe);
    let mut plans = Vec::new();
    for &rt in rts {
        for t in targets(rt, env, o)? {
            let target = resolve(&t.path)?;
            let before = read(&target)?;
            let text = before.as_deref().unwrap_or(edit::empty(t.format));
            let old = Parsed::parse(t.format, text)
                .map_err(|e| refuse(&target, &t, Problem::Syntax(e)))?;
            let (after, created) =
                edit::install(&t, text, &ours).map_err(|p| refuse(&target, &t, p))?;
            let clean = match &before {
                None => true,
                Some(b) => holds_none_of_ours(&t, &old, &ours)
                    .unwrap_or_else(|| edit::status(&t, b, &ours).is_ok_and(|s| s == (false, 0))),
            };
            guard::verify(&target, &t, old, &after, Direction::Install, &ours)?;
            let action = match &before {
                None => Action::Create,
                Some(b) if *b == after => Action::Unchanged,
                Some(_) => Action::Update,
            };
            plans.push(FilePlan {
                runtime: rt,
                path: t.path.clone(),
                target,
                action,
                before,
                after: Some(after),
                created,
                clean,
            });
        }
    }
    Ok(plans)
}

pub fn uninstall(
    env: &Env,
    store: &Store,
    rts: &[Runtime],
    o: &EntryOpts,
) -> Result<Vec<FilePlan>> {
    let ours = |c: &str| is_ours(c, &o.exe);
    let mut plans = Vec::new();
    for &rt in rts {
        for t in targets(rt, env, o)? {
            let target = resolve(&t.path)?;
            let before = read(&target)?;
            let (action, after) = match before.as_deref() {
                None => (Action::Absent, None),
                Some(text) => {
                    let old = Parsed::parse(t.format, text)
                        .map_err(|e| refuse(&target, &t, Problem::Syntax(e)))?;
                    let (action, after) = undo(store, &t, &target, text, &ours)?;
                    // A deleted file is checked as the empty document it leaves behind.
                    let left = after.as_deref().unwrap_or(edit::empty(t.format));
                    guard::verify(&target, &t, old, left, Direction::Uninstall, &ours)?;
                    (action, after)
                }
            };
            plans.push(FilePlan {
                runtime: rt,
                path: t.path.clone(),
                target,
                action,
                before,
                after,
                created: Vec::new(),
                clean: false,
            });
        }
    }
    Ok(plans)
}

/// For JSON and JSONC, whether the document (already parsed for the guard) holds no entry
/// of ours, as `edit::status` would say, read from the parse the guard already made instead
/// of parsing the whole text once more (a 5 MB `~/.claude.json` was parsed three times by
/// two parsers for one install). `None` for the formats whose status reads the text itself.
fn holds_none_of_ours(t: &Target, old: &Parsed, ours: &dyn Fn(&str) -> bool) -> Option<bool> {
    if !matches!(t.format, Format::Json | Format::Jsonc) {
        return None;
    }
    let mcp = t.mcp.as_ref().is_some_and(|(path, _)| {
        let Some((first, rest)) = path.split_first() else {
            return old.top(edit::NAME).is_some();
        };
        old.top(first).is_some_and(|top| {
            rest.iter()
                .try_fold(&top, |v, k| v.get(k))
                .and_then(|m| m.get(edit::NAME))
                .is_some()
        })
    });
    let hooks = old.top("hooks");
    let hooks = hooks
        .as_ref()
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|m| m.values())
        .filter_map(Value::as_array)
        .flatten()
        .any(|v| edit::any_ours(v, ours));
    Some(!mcp && !hooks)
}

/// What uninstall does to an existing file: restore the recorded bytes when nothing changed
/// since our write, else take out our entries (and delete a file we created, if now blank).
fn undo(
    store: &Store,
    t: &Target,
    target: &Path,
    text: &str,
    ours: &dyn Fn(&str) -> bool,
) -> Result<(Action, Option<String>)> {
    let rec = store.load(target)?;
    if let Some(r) = rec
        .as_ref()
        .filter(|r| r.post_sha256 == sha256(text.as_bytes()))
    {
        if !r.existed {
            return Ok((Action::Delete, None));
        }
        if let Some(orig) = store.original(r).and_then(|b| String::from_utf8(b).ok()) {
            return Ok((Action::Restore, Some(orig)));
        }
    }
    let created: Created = rec.as_ref().map(|r| r.created.clone()).unwrap_or_default();
    let after = edit::uninstall(t, text, &created, ours).map_err(|p| refuse(target, t, p))?;
    let created_file = rec.as_ref().is_some_and(|r| !r.existed);
    Ok(if after == text {
        (Action::Absent, Some(after))
    } else if created_file && blank(t.format, &after) {
        (Action::Delete, None)
    } else {
        (Action::Remove, Some(after))
    })
}

fn blank(f: Format, text: &str) -> bool {
    match f {
        Format::Json | Format::Jsonc => text.trim() == "{}",
        Format::Toml | Format::Yaml => text.trim().is_empty(),
    }
}

/// Follow symlinks so the edit lands on the real file (and the link stays a link).
pub fn resolve(path: &Path) -> Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = fs::read_link(&p).map_err(|e| Error::io("cannot read link", &p, e))?;
                p = match p.parent() {
                    Some(dir) => dir.join(link),
                    None => link,
                };
            }
            _ => return Ok(p),
        }
    }
    Err(Error::refused(
        "config_symlink_loop",
        format!("too many symlinks at `{}`", path.display()),
    )
    .hint("point the link at a real file"))
}

pub fn read(path: &Path) -> Result<Option<String>> {
    match fs::read(path) {
        Ok(b) => String::from_utf8(b).map(Some).map_err(|_| {
            Error::refused(
                "config_malformed",
                format!("`{}` is not UTF-8 text", path.display()),
            )
            .hint("fix or move the file aside, then run the command again; nothing was written")
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::refused(
            "config_unreadable",
            format!("cannot read `{}`", path.display()),
        )
        .source(e)
        .hint(format!(
            "check the permissions of `{}`; nothing was written",
            path.display()
        ))),
    }
}

fn refuse(path: &Path, t: &Target, p: Problem) -> Error {
    let fmt = validate::name(t.format);
    let at = |e: &ParseError| format!("line {}, column {}: {}", e.line, e.column, e.message);
    let fix = |e: &ParseError| {
        format!(
            "fix line {} of `{}` (or move the file aside) and run the command again; nothing was written",
            e.line,
            path.display()
        )
    };
    match p {
        Problem::Syntax(e) => Error::refused(
            "config_malformed",
            format!("`{}` is not valid {fmt}: {}", path.display(), at(&e)),
        )
        .hint(fix(&e)),
        Problem::Parse(e) => Error::refused(
            "config_malformed",
            format!(
                "`{}` is not {fmt} ctxlake can edit: {}",
                path.display(),
                at(&e)
            ),
        )
        .hint(fix(&e)),
        Problem::Shape(m) => Error::refused(
            "config_unsupported",
            format!("cannot edit `{}` safely: {m}", path.display()),
        )
        .hint(format!(
            "edit `{}` by hand or move it aside; nothing was written",
            path.display()
        )),
    }
}
