//! `ctxlake install` / `uninstall`: plan, apply and undo ctxlake's entries in each runtime's
//! own config files. Never prints; the command layer renders the typed reports.

pub mod diff;
mod edit;
pub mod env;
mod guard;
pub mod jsonc;
mod lazy;
pub(crate) mod plan;
#[cfg(test)]
mod props;
pub mod remote;
pub mod render;
pub mod runtimes;
pub mod shape;
pub mod state;
pub mod toml;
pub(crate) mod validate;
pub mod yaml;

use std::path::{Path, PathBuf};

use serde::Serialize;

pub(crate) use edit::commands as hook_commands;
pub use env::Env;
pub use runtimes::{ALL, EntryOpts, Format, Runtime, detect};
use state::{Record, Store, sha256};

use crate::error::{Error, Result};
use crate::fsutil::write_atomic;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Install: the file did not exist and is created.
    Create,
    /// Install: our entries are added or refreshed.
    Update,
    /// Install: already installed, the file is not touched.
    Unchanged,
    /// Uninstall: nothing changed since install, the prior bytes are put back.
    Restore,
    /// Uninstall: the file changed since install; only our entries are taken out.
    Remove,
    /// Uninstall: we created the file and nothing else is in it.
    Delete,
    /// Uninstall: nothing of ours is there.
    Absent,
}

/// One file's planned change. `after: None` with `Delete` removes the file.
#[derive(Debug, Clone)]
pub struct FilePlan {
    pub runtime: Runtime,
    pub path: PathBuf,
    /// `path` with symlinks resolved: where the bytes are read and written.
    pub target: PathBuf,
    pub action: Action,
    pub before: Option<String>,
    pub after: Option<String>,
    created: edit::Created,
    /// The file had none of our entries before (so its bytes are worth keeping for restore).
    clean: bool,
}

impl FilePlan {
    pub fn diff(&self) -> String {
        let name = self.target.display().to_string();
        let (a, an) = match &self.before {
            Some(b) => (b.as_str(), name.as_str()),
            None => ("", "/dev/null"),
        };
        let (b, bn) = match (&self.after, self.action) {
            (_, Action::Delete) | (None, _) => ("", "/dev/null"),
            (Some(s), _) => (s.as_str(), name.as_str()),
        };
        diff::unified(a, b, an, bn)
    }
}

/// What happened to one file, for `--json` and the summary.
#[derive(Debug, Clone, Serialize)]
pub struct FileReport {
    pub runtime: Runtime,
    pub path: PathBuf,
    pub action: Action,
    pub backup: Option<PathBuf>,
}

pub struct Installer {
    pub env: Env,
    pub store: Store,
}

impl Installer {
    pub fn new(env: Env, paths: &crate::paths::Paths) -> Installer {
        Installer {
            env,
            store: Store::new(paths.install_state()),
        }
    }

    pub fn plan_install(&self, rts: &[Runtime], o: &EntryOpts) -> Result<Vec<FilePlan>> {
        plan::install(&self.env, rts, o)
    }

    pub fn plan_uninstall(&self, rts: &[Runtime], o: &EntryOpts) -> Result<Vec<FilePlan>> {
        plan::uninstall(&self.env, &self.store, rts, o)
    }

    /// Write every planned change. Unchanged files are not opened for writing (mtime kept).
    pub fn apply(&self, plans: &[FilePlan]) -> Result<Vec<FileReport>> {
        plans.iter().map(|p| self.apply_one(p)).collect()
    }

    fn apply_one(&self, p: &FilePlan) -> Result<FileReport> {
        let mut backup = None;
        match p.action {
            Action::Unchanged => {}
            Action::Absent => self.store.forget(&p.target),
            Action::Create | Action::Update => backup = self.write_install(p)?,
            Action::Restore | Action::Remove => {
                let after = p.after.as_deref().unwrap_or_default();
                write_atomic(&p.target, after.as_bytes(), 0o600)?;
                let bak = bak_path(&p.target);
                if p.action == Action::Restore
                    && std::fs::read(&bak).is_ok_and(|b| b == after.as_bytes())
                {
                    let _ = std::fs::remove_file(&bak);
                }
                self.store.forget(&p.target);
            }
            Action::Delete => {
                std::fs::remove_file(&p.target)
                    .map_err(|e| Error::io("cannot remove", &p.target, e))?;
                self.store.forget(&p.target);
            }
        }
        Ok(FileReport {
            runtime: p.runtime,
            path: p.path.clone(),
            action: p.action,
            backup,
        })
    }

    /// Back up, write, and record. A record chains across re-installs as long as the file is
    /// still exactly what we last wrote, so uninstall restores the bytes from before the first.
    fn write_install(&self, p: &FilePlan) -> Result<Option<PathBuf>> {
        let after = p.after.as_deref().unwrap_or_default();
        let before = p.before.as_deref();
        let prev = self.store.load(&p.target)?;
        let chained =
            prev.filter(|r| before.is_some_and(|b| sha256(b.as_bytes()) == r.post_sha256));
        let mut backup = None;
        let (existed, original, mut created, orig, orig_sha) = match chained {
            Some(r) => (r.existed, r.original, r.created, None, r.original_sha256),
            None => {
                if let Some(b) = before {
                    let bak = bak_path(&p.target);
                    write_atomic(&bak, b.as_bytes(), file_mode(&p.target))?;
                    backup = Some(bak);
                }
                let keep = p.clean && before.is_some();
                let orig = before.filter(|_| keep);
                let digest = orig.map(|b| sha256(b.as_bytes()));
                (before.is_some(), keep, Vec::new(), orig, digest)
            }
        };
        for c in &p.created {
            if !created.contains(c) {
                created.push(c.clone());
            }
        }
        write_atomic(&p.target, after.as_bytes(), 0o600)?;
        let rec = Record {
            path: p.target.clone(),
            runtime: p.runtime.name().into(),
            existed,
            original,
            post_sha256: sha256(after.as_bytes()),
            original_sha256: orig_sha,
            created,
        };
        self.store
            .save(&rec, orig.map(str::as_bytes), backup.as_deref())?;
        Ok(backup)
    }
}

/// Take other server entries that run ctxlake (`names`, found by `ctxlake doctor`) out of a
/// planned JSON/JSONC file, under the servers object `key`; the rest of the file is spliced
/// byte for byte as install does. Returns whether anything was dropped.
pub(crate) fn drop_servers(p: &mut FilePlan, format: Format, key: &str, names: &[String]) -> bool {
    let (Format::Json | Format::Jsonc) = format else {
        return false;
    };
    let Some(mut doc) = p.after.as_deref().and_then(|t| jsonc::Doc::parse(t).ok()) else {
        return false;
    };
    let mut dropped = false;
    for n in names {
        dropped |= doc.remove(&jsonc::keys(&[key, n]));
    }
    let text = doc.into_text();
    // The same guard as every install edit: the result must still parse as its format.
    if dropped && validate::parse(format, &text).is_ok() {
        p.after = Some(text);
        if p.action == Action::Unchanged {
            p.action = Action::Update;
        }
        return true;
    }
    false
}

/// `<file>.ctxlake.bak`, beside the real file.
pub fn bak_path(target: &Path) -> PathBuf {
    let mut s = target.as_os_str().to_os_string();
    s.push(".ctxlake.bak");
    PathBuf::from(s)
}

fn file_mode(p: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).map_or(0o600, |m| m.permissions().mode() & 0o7777)
}

mod list;
pub use list::{RuntimeStatus, list};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drop_servers_takes_out_only_the_named_entries() {
        let text = "{\n  // mine\n  \"mcpServers\": {\n    \"ctxlake\": {\"command\": \"/x/ctxlake\"},\n    \"ctxlake-2\": {\"command\": \"/x/ctxlake\", \"args\": [\"mcp\"]},\n    \"other\": {\"command\": \"npx\"}\n  }\n}\n";
        let mut p = FilePlan {
            runtime: Runtime::Cursor,
            path: PathBuf::from("/m.json"),
            target: PathBuf::from("/m.json"),
            action: Action::Unchanged,
            before: Some(text.into()),
            after: Some(text.into()),
            created: Vec::new(),
            clean: false,
        };
        assert!(!drop_servers(
            &mut p,
            Format::Toml,
            "mcpServers",
            &["ctxlake-2".into()]
        ));
        assert!(!drop_servers(
            &mut p,
            Format::Jsonc,
            "mcpServers",
            &["absent".into()]
        ));
        assert_eq!(p.action, Action::Unchanged);
        assert!(drop_servers(
            &mut p,
            Format::Jsonc,
            "mcpServers",
            &["ctxlake-2".into()]
        ));
        assert_eq!(p.action, Action::Update);
        let after = p.after.unwrap();
        assert_eq!(
            after,
            text.replace(
                "    \"ctxlake-2\": {\"command\": \"/x/ctxlake\", \"args\": [\"mcp\"]},\n",
                ""
            )
        );
    }
}
