//! The bytes from before the first install are kept twice, as the user's `.bak` and as the
//! install state's `.orig`, but written once: the `.orig` is a link to the `.bak`. An edit
//! of the `.bak` in place must then never be "restored" into the user's config.

use std::fs;
use std::io::Write;
use std::os::unix::fs::MetadataExt;
use std::path::PathBuf;

use super::super::common::Env;
use super::ok;

fn orig_file(env: &Env) -> PathBuf {
    let dir = env.ctxlake_home().join("state/install");
    let mut origs: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "orig"))
        .collect();
    assert_eq!(origs.len(), 1, "{origs:?}");
    origs.remove(0)
}

/// A home whose small `~/.claude.json` ctxlake was installed into: (env, the config, its
/// text before, the `.bak`).
fn installed() -> (Env, PathBuf, &'static str, PathBuf) {
    let env = Env::new();
    let p = env.home().join(".claude.json");
    let text = "{\n  \"numStartups\": 1\n}\n";
    fs::write(&p, text).unwrap();
    ok(&env, &["install", "claude-code", "--no-hooks"]);
    let bak = env.home().join(".claude.json.ctxlake.bak");
    (env, p, text, bak)
}

#[test]
fn the_kept_original_is_the_backup_linked_not_a_second_copy() {
    let (env, p, text, bak) = installed();
    let orig = orig_file(&env);
    assert_eq!(fs::read_to_string(&orig).unwrap(), text);
    assert_eq!(
        fs::metadata(&bak).unwrap().ino(),
        fs::metadata(&orig).unwrap().ino(),
        "the .orig is a copy, not a link"
    );
    ok(&env, &["uninstall", "claude-code"]);
    assert_eq!(fs::read_to_string(&p).unwrap(), text);
}

/// The user rewrites the `.bak` in place (same inode, so the linked `.orig` changes too):
/// uninstall must not put those bytes into the config, but take ctxlake's entry out.
#[test]
fn a_backup_edited_in_place_is_not_restored() {
    let (env, p, text, bak) = installed();
    let mut f = fs::OpenOptions::new().append(true).open(&bak).unwrap();
    f.write_all(b"not json any more").unwrap();
    drop(f);
    ok(&env, &["uninstall", "claude-code"]);
    assert_eq!(fs::read_to_string(&p).unwrap(), text);
}
