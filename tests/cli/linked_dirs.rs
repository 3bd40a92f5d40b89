//! A local lake never reads, lists or writes through a symlinked directory inside it
//! (`fleets/x/batches -> ~/.ssh`): only the lake root itself may be a symlink, because
//! the user configured it. What is refused is counted in `sync --json` `skipped`.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::Env;

/// A host of the lake at `lake`, as `agent`.
fn host(lake: &Path, agent: &str) -> Env {
    let mut env = Env::new();
    env.as_agent(agent, &format!("sess-{agent}"));
    env.extra
        .push(("CTXLAKE_STORE".into(), format!("file://{}", lake.display())));
    env
}

/// Every file below `dir` whose bytes hold `needle`.
fn holding(dir: &Path, needle: &[u8]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if e.file_type().unwrap().is_dir() {
                stack.push(p);
            } else if std::fs::read(&p)
                .unwrap_or_default()
                .windows(needle.len())
                .any(|w| w == needle)
            {
                out.push(p);
            }
        }
    }
    out
}

/// A handoffs folder swapped for a symlink to a directory outside the lake (here holding
/// a real handoff batch, so a build that followed it would mirror it): another host's
/// sync neither lists nor reads it, and counts what it refused.
#[test]
fn sync_does_not_read_through_a_symlinked_directory() {
    let root = tempfile::tempdir().unwrap();
    let lake = root.path().join("lake");
    let a = host(&lake, "agent-a");
    let words = "handoff-behind-a-linked-directory";
    a.cmd()
        .args(["fleet", "handoff", words, "--status", "done"])
        .assert()
        .success();
    a.cmd().arg("sync").assert().success();
    let handoffs = lake.join("handoffs/default");
    let outside = root.path().join("outside");
    std::fs::rename(&handoffs, &outside).unwrap();
    std::os::unix::fs::symlink(&outside, &handoffs).unwrap();
    let b = host(&lake, "agent-b");
    let v: Value = b.json(&["sync"]);
    assert!(
        v["skipped"]["not_regular"].as_u64().unwrap_or(0) >= 1,
        "{v}"
    );
    let read = holding(&b.ctxlake_home(), words.as_bytes());
    assert!(read.is_empty(), "read through the symlink: {read:?}");
}

/// `lake copy` uploads nothing from behind a symlinked directory of the source, and
/// writes nothing through one in the destination (it stops and says which).
#[test]
fn lake_copy_neither_uploads_nor_writes_through_a_symlinked_directory() {
    let root = tempfile::tempdir().unwrap();
    let (src, dst) = (root.path().join("src"), root.path().join("dst"));
    let a = host(&src, "agent-a");
    a.cmd()
        .args(["fleet", "handoff", "done here", "--status", "done"])
        .assert()
        .success();
    a.cmd().arg("sync").assert().success();
    let ssh = root.path().join("ssh");
    std::fs::create_dir_all(&ssh).unwrap();
    std::fs::write(ssh.join("id_rsa"), "PRIVATE-KEY-BYTES").unwrap();
    std::fs::create_dir_all(src.join("fleets/x")).unwrap();
    std::os::unix::fs::symlink(&ssh, src.join("fleets/x/batches")).unwrap();
    let url = |p: &Path| format!("file://{}", p.display());
    a.cmd()
        .args(["lake", "copy", &url(&src), &url(&dst)])
        .assert()
        .success();
    let leaked = holding(&dst, b"PRIVATE-KEY");
    assert!(leaked.is_empty(), "uploaded: {leaked:?}");

    // A destination whose handoffs folder leads out of it.
    let dst2 = root.path().join("dst2");
    let elsewhere = root.path().join("elsewhere");
    std::fs::create_dir_all(dst2.join("handoffs")).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, dst2.join("handoffs/default")).unwrap();
    a.cmd()
        .args(["lake", "copy", &url(&src), &url(&dst2)])
        .assert()
        .code(3);
    let written: Vec<_> = std::fs::read_dir(&elsewhere).unwrap().collect();
    assert!(
        written.is_empty(),
        "written through the symlink: {written:?}"
    );
}
