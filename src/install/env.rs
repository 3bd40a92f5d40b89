//! The parts of the process environment install looks at, captured once so tests can build
//! one by hand instead of mutating the real environment.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

const VARS: &[&str] = &[
    "CLAUDE_CONFIG_DIR",
    "CODEX_HOME",
    "GEMINI_CLI_HOME",
    "HERMES_HOME",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
];

#[derive(Debug, Clone)]
pub struct Env {
    pub home: PathBuf,
    pub cwd: PathBuf,
    pub vars: BTreeMap<String, String>,
    pub path: Vec<PathBuf>,
}

impl Env {
    pub fn from_process() -> Result<Env> {
        let home = crate::paths::var("HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .ok_or_else(|| {
                Error::usage("no_home", "cannot find your home directory")
                    .hint("set `HOME` to an absolute path")
            })?;
        let cwd =
            std::env::current_dir().map_err(|e| Error::io("cannot read", Path::new("."), e))?;
        let vars = VARS
            .iter()
            .filter_map(|k| crate::paths::var(k).map(|v| (k.to_string(), v)))
            .collect();
        let path = std::env::var_os("PATH")
            .map(|p| std::env::split_paths(&p).collect())
            .unwrap_or_default();
        Ok(Env {
            home,
            cwd,
            vars,
            path,
        })
    }

    pub fn var(&self, k: &str) -> Option<&str> {
        self.vars.get(k).map(String::as_str)
    }

    pub fn xdg_config(&self) -> PathBuf {
        self.var("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .unwrap_or_else(|| self.home.join(".config"))
    }

    /// `$XDG_DATA_HOME`, else `~/.local/share` (where opencode keeps its database).
    pub fn xdg_data(&self) -> PathBuf {
        self.var("XDG_DATA_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .unwrap_or_else(|| self.home.join(".local/share"))
    }

    pub fn on_path(&self, bin: &str) -> bool {
        self.which(bin).is_some()
    }

    /// The first executable `bin` on PATH, as a shell would run it.
    pub(crate) fn which(&self, bin: &str) -> Option<PathBuf> {
        use std::os::unix::fs::PermissionsExt;
        self.path.iter().map(|d| d.join(bin)).find(|p| {
            std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
    }

    /// What a committed project file should run: the bare `ctxlake` when PATH finds this very
    /// binary (`exe`, canonical), so the file works on every teammate's machine; else `None`.
    pub(crate) fn portable_command(&self, exe: &Path) -> Option<&'static str> {
        let found = self.which("ctxlake")?.canonicalize().ok()?;
        (found == exe).then_some("ctxlake")
    }

    /// `~/…` for paths under the home directory, for messages.
    pub fn show(&self, p: &Path) -> String {
        match p.strip_prefix(&self.home) {
            Ok(rest) if rest.as_os_str().is_empty() => "~".into(),
            Ok(rest) => format!("~/{}", rest.display()),
            Err(_) => p.display().to_string(),
        }
    }
}
