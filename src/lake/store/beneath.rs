//! The local lake's one rule for directories: below the lake root, every directory a key
//! passes through must be a real directory, never a symlink. `O_NOFOLLOW` guards only a
//! path's last component; this guards the ones before it.

use std::fs;
use std::path::{Path, PathBuf};

/// What the directories on the way to a key are.
#[derive(Debug, PartialEq)]
pub(super) enum Dirs {
    /// All real directories: the key's path may be opened.
    Real(PathBuf),
    /// One does not exist yet: nothing is there to read (a write creates it).
    Missing(PathBuf),
    /// One is a symlink (or a file, a FIFO…): whatever it leads to is outside the lake's
    /// contents, never read, listed or written through.
    Refused(PathBuf),
}

/// Check each directory of `rel` (a `/`-separated folder below `root`, `""` for the root
/// itself) with `lstat`, from the top. The root is not checked: a root that is a
/// symlink was configured by the user. A checked directory swapped for a symlink between
/// this check and the open that follows is not caught (a local lake's writers are the
/// host's own users); a planted one is.
pub(super) fn dirs(root: &Path, rel: &str) -> Dirs {
    let mut p = root.to_path_buf();
    for part in rel.split('/').filter(|c| !c.is_empty()) {
        p.push(part);
        match fs::symlink_metadata(&p) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => return Dirs::Refused(p),
            Err(_) => return Dirs::Missing(p),
        }
    }
    Dirs::Real(p)
}

/// The folder part of `key` (`""` for a key at the root).
pub(super) fn folder(key: &str) -> &str {
    key.rfind('/').map_or("", |i| &key[..i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_symlinked_directory_below_the_root_is_refused_and_the_root_itself_is_not() {
        let d = tempfile::tempdir().unwrap();
        let real = d.path().join("real");
        fs::create_dir_all(real.join("a/b")).unwrap();
        let outside = d.path().join("outside");
        fs::create_dir_all(&outside).unwrap();
        std::os::unix::fs::symlink(&outside, real.join("a/evil")).unwrap();
        let root = d.path().join("root-link");
        std::os::unix::fs::symlink(&real, &root).unwrap();
        assert_eq!(dirs(&root, "a/b"), Dirs::Real(root.join("a/b")));
        assert_eq!(dirs(&root, ""), Dirs::Real(root.clone()));
        assert_eq!(dirs(&root, "a/evil"), Dirs::Refused(root.join("a/evil")));
        assert_eq!(dirs(&root, "a/evil/x"), Dirs::Refused(root.join("a/evil")));
        assert_eq!(dirs(&root, "a/nope/x"), Dirs::Missing(root.join("a/nope")));
        assert_eq!(folder("a/b/c.json"), "a/b");
        assert_eq!(folder("c.json"), "");
    }
}
