//! `install --project` writes files meant to be committed: the bare command `ctxlake` when PATH
//! finds this very binary, else this machine's absolute path and a warning that says so.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::super::common::Env;

/// A PATH of one directory holding `ctxlake` as `make` makes it (or nothing).
fn sealed_path(env: &Env, make: impl FnOnce(&Path)) -> PathBuf {
    let bin = env.home().join("sealed-bin");
    fs::create_dir_all(&bin).unwrap();
    make(&bin.join("ctxlake"));
    fs::create_dir_all(env.home().join(".claude")).unwrap();
    bin
}

fn install_project(env: &Env, path: &Path) -> (String, Value, Value) {
    let out = env
        .cmd()
        .env("PATH", path)
        .args(["install", "claude-code", "--project", "--fleet", "team-a"])
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{err}");
    let read = |rel: &str| -> Value {
        serde_json::from_slice(&fs::read(env.work().join(rel)).unwrap()).unwrap()
    };
    (err, read(".mcp.json"), read(".claude/settings.json"))
}

#[test]
fn this_binary_on_path_is_written_as_the_bare_command() {
    let env = Env::new();
    let me = assert_cmd::cargo::cargo_bin("ctxlake");
    let path = sealed_path(&env, |p| std::os::unix::fs::symlink(&me, p).unwrap());
    let (err, mcp, settings) = install_project(&env, &path);
    assert_eq!(mcp["mcpServers"]["ctxlake"]["command"], "ctxlake", "{mcp}");
    let hook = &settings["hooks"]["SessionStart"][0]["hooks"][0]["command"];
    assert_eq!(hook, "ctxlake hook claude-code");
    assert!(!err.contains("warning"), "{err}");
    let out = env
        .cmd()
        .env("PATH", &path)
        .args(["uninstall", "claude-code", "--project"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(!env.work().join(".mcp.json").exists());
}

#[test]
fn another_or_no_ctxlake_on_path_writes_the_absolute_path_and_warns() {
    let other = |p: &Path| {
        fs::write(p, "#!/bin/sh\nexit 0\n").unwrap();
        fs::set_permissions(p, fs::Permissions::from_mode(0o755)).unwrap();
    };
    for make in [&other as &dyn Fn(&Path), &|_: &Path| {}] {
        let env = Env::new();
        let path = sealed_path(&env, make);
        let (err, mcp, settings) = install_project(&env, &path);
        let cmd = mcp["mcpServers"]["ctxlake"]["command"].as_str().unwrap();
        assert!(Path::new(cmd).is_absolute(), "{cmd}");
        let hook = settings["hooks"]["Stop"][0]["hooks"][0]["command"]
            .as_str()
            .unwrap();
        assert!(hook.starts_with(cmd), "{hook}");
        assert!(
            err.contains("warning: ") && err.contains("not portable") && err.contains(".mcp.json"),
            "{err}"
        );
        assert!(err.contains("PATH"), "{err}");
    }
}
