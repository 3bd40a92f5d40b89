//! Planning: read each target file (through symlinks), compute the text after install or
//! uninstall, and classify the change. Nothing is written here; refusals name file:line:col.

use std::fs;
use std::path::{Path, PathBuf};

use super::edit::{self, Created, Problem};
use super::runtimes::{EntryOpts, Format, Runtime, Target, is_ours, targets};
use super::state::{Store, sha256};
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
            let (after, created) =
                edit::install(&t, text, &ours).map_err(|p| refuse(&target, &t, p))?;
            let action = match &before {
                None => Action::Create,
                Some(b) if *b == after => Action::Unchanged,
                Some(_) => Action::Update,
            };
            let clean = match &before {
                None => true,
                Some(b) => edit::status(&t, b, &ours).is_ok_and(|s| s == (false, 0)),
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
            let rec = store.load(&target)?;
            let plan = |action, after| FilePlan {
                runtime: rt,
                path: t.path.clone(),
                target: target.clone(),
                action,
                before: before.clone(),
                after,
                created: Vec::new(),
                clean: false,
            };
            let Some(text) = before.as_deref() else {
                plans.push(plan(Action::Absent, None));
                continue;
            };
            // Nothing changed since our write: put back exactly what was there before.
            if let Some(r) = rec
                .as_ref()
                .filter(|r| r.post_sha256 == sha256(text.as_bytes()))
            {
                if !r.existed {
                    plans.push(plan(Action::Delete, None));
                    continue;
                }
                if let Some(orig) = store.original(r).and_then(|b| String::from_utf8(b).ok()) {
                    plans.push(plan(Action::Restore, Some(orig)));
                    continue;
                }
            }
            let created: Created = rec.as_ref().map(|r| r.created.clone()).unwrap_or_default();
            let after =
                edit::uninstall(&t, text, &created, &ours).map_err(|p| refuse(&target, &t, p))?;
            let created_file = rec.as_ref().is_some_and(|r| !r.existed);
            plans.push(if after == text {
                plan(Action::Absent, Some(after))
            } else if created_file && blank(t.format, &after) {
                plan(Action::Delete, None)
            } else {
                plan(Action::Remove, Some(after))
            });
        }
    }
    Ok(plans)
}

fn blank(f: Format, text: &str) -> bool {
    match f {
        Format::Json => text.trim() == "{}",
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
    let fmt = match t.format {
        Format::Json => "JSON",
        Format::Toml => "TOML",
        Format::Yaml => "YAML ctxlake can edit",
    };
    match p {
        Problem::Parse(e) => Error::refused(
            "config_malformed",
            format!("`{}` is not valid {fmt}: line {}, column {}: {}", path.display(), e.line, e.column, e.message),
        )
        .hint(format!(
            "fix line {} of `{}` (or move the file aside) and run the command again; nothing was written",
            e.line,
            path.display()
        )),
        Problem::Shape(m) => Error::refused("config_unsupported", format!("cannot edit `{}` safely: {m}", path.display()))
            .hint(format!("edit `{}` by hand or move it aside; nothing was written", path.display())),
    }
}
