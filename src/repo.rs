//! Which repository a path belongs to, and its repo-relative form. A repo is named by
//! its normalized git remote (credentials stripped), else its root path. Read from
//! `.git/config` directly: no `git` subprocess on the hot path.

use std::path::{Component, Path, PathBuf};

use crate::error::{Error, Result};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repo {
    /// `github.com/o/r`, or the root's absolute path when there is no remote.
    pub id: String,
    pub root: PathBuf,
}

/// The repo containing `dir` (walking up to a `.git`), if any.
pub fn discover(dir: &Path) -> Option<Repo> {
    let mut cur = Some(dir);
    while let Some(d) = cur {
        let git = d.join(".git");
        if git.exists() {
            let config = if git.is_dir() {
                std::fs::read_to_string(git.join("config")).ok()
            } else {
                // A worktree or submodule: `.git` is a file naming the real git dir.
                std::fs::read_to_string(&git).ok().and_then(|t| {
                    let p = t.trim().strip_prefix("gitdir:")?.trim().to_string();
                    let gd = d.join(p);
                    std::fs::read_to_string(gd.join("config"))
                        .or_else(|_| std::fs::read_to_string(gd.join("../../config")))
                        .ok()
                })
            };
            let id = config
                .as_deref()
                .and_then(origin_url)
                .map(|u| normalize_remote(&u));
            return Some(Repo {
                id: id.unwrap_or_else(|| d.display().to_string()),
                root: d.to_path_buf(),
            });
        }
        cur = d.parent();
    }
    None
}

/// The `origin` remote's url (or the first remote's) from a git config file.
fn origin_url(config: &str) -> Option<String> {
    let mut section = String::new();
    let mut first: Option<String> = None;
    for line in config.lines() {
        let l = line.trim();
        if l.starts_with('[') {
            section = l.to_string();
        } else if let Some(v) = l
            .strip_prefix("url")
            .map(str::trim_start)
            .and_then(|r| r.strip_prefix('='))
            && section.starts_with("[remote ")
        {
            let v = v.trim().to_string();
            if section == "[remote \"origin\"]" {
                return Some(v);
            }
            first.get_or_insert(v);
        }
    }
    first
}

/// `git@github.com:o/r.git`, `https://tok@github.com/o/r` → `github.com/o/r`.
pub fn normalize_remote(url: &str) -> String {
    let mut s = url.trim();
    if let Some(i) = s.find("://") {
        s = &s[i + 3..];
    }
    if let Some(at) = s.find('@')
        && !s[..at].contains('/')
    {
        s = &s[at + 1..];
    }
    let mut out = s.replacen(':', "/", 1);
    if url.contains("://") {
        out = s.to_string();
    }
    let out = out
        .trim_end_matches('/')
        .trim_end_matches(".git")
        .to_lowercase();
    out.split('/')
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("/")
}

/// A path as given (absolute, or relative to `cwd`) in repo-relative, normalized form.
/// Globs pass through; `.` and `..` are resolved lexically and may not escape the repo.
pub fn relative_path(input: &str, cwd: &Path, repo: Option<&Repo>) -> Result<String> {
    let refused =
        |m: String| Error::refused("bad_path", m).hint("claim paths inside the current repository");
    let trimmed = input.trim();
    if trimmed.is_empty() {
        return Err(refused("a path is empty".into()));
    }
    let base = repo.map(|r| r.root.as_path()).unwrap_or(cwd);
    let joined = if Path::new(trimmed).is_absolute() {
        PathBuf::from(trimmed)
    } else {
        cwd.join(trimmed)
    };
    let mut parts: Vec<String> = Vec::new();
    for c in joined.components() {
        match c {
            Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
            Component::ParentDir => {
                parts.pop();
            }
            _ => {}
        }
    }
    let base_parts: Vec<String> = base
        .components()
        .filter_map(|c| match c {
            Component::Normal(p) => Some(p.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    if !parts.starts_with(&base_parts) {
        return Err(refused(format!(
            "`{trimmed}` is outside the repository `{}`",
            base.display()
        )));
    }
    Ok(parts[base_parts.len()..].join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remotes_normalize_and_lose_credentials() {
        assert_eq!(
            normalize_remote("git@github.com:Org/Repo.git"),
            "github.com/org/repo"
        );
        assert_eq!(
            normalize_remote("https://x-token:abc@github.com/org/repo.git"),
            "github.com/org/repo"
        );
        assert_eq!(normalize_remote("ssh://git@host:22/a/b/"), "host:22/a/b");
    }

    #[test]
    fn paths_become_repo_relative() {
        let repo = Repo {
            id: "r".into(),
            root: PathBuf::from("/w/repo"),
        };
        let cwd = Path::new("/w/repo/src");
        assert_eq!(
            relative_path("lib.rs", cwd, Some(&repo)).unwrap(),
            "src/lib.rs"
        );
        assert_eq!(
            relative_path("../README.md", cwd, Some(&repo)).unwrap(),
            "README.md"
        );
        assert_eq!(
            relative_path("/w/repo/src/a/", cwd, Some(&repo)).unwrap(),
            "src/a"
        );
        assert_eq!(
            relative_path("**/*.rs", cwd, Some(&repo)).unwrap(),
            "src/**/*.rs"
        );
        assert_eq!(
            relative_path(".", Path::new("/w/repo"), Some(&repo)).unwrap(),
            ""
        );
        assert!(relative_path("../../etc/passwd", cwd, Some(&repo)).is_err());
    }

    #[test]
    fn origin_wins() {
        let cfg = "[core]\n\tbare = false\n[remote \"up\"]\n\turl = git@a:x/y\n[remote \"origin\"]\n\turl = https://b/z/w.git\n";
        assert_eq!(origin_url(cfg).as_deref(), Some("https://b/z/w.git"));
    }
}
