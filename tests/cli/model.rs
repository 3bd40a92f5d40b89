//! `ctxlake memory model install` downloading from a loopback server (never the
//! internet): a good mirror, one that drops the connection halfway (resumed with
//! `Range`), one that stops short every time (refused, resumed by the next run), one that
//! serves another file or an HTML error page (refused, the previous model kept). The
//! refusals need no model; the downloads that must succeed serve the real files from
//! `CTXLAKE_TEST_MODEL_DIR` and are `#[ignore]`d (`.ci/run` runs them with the model).

use std::path::PathBuf;

use crate::common::Env;
use crate::model_server::{Mode, serve};

/// The real model's files: the download tests that must succeed serve them.
fn model_files() -> PathBuf {
    std::env::var_os("CTXLAKE_TEST_MODEL_DIR")
        .map(PathBuf::from)
        .expect("this test needs all-MiniLM-L6-v2: set CTXLAKE_TEST_MODEL_DIR, or run .ci/run")
}

fn model_dir(env: &Env) -> PathBuf {
    env.ctxlake_home().join("models/all-MiniLM-L6-v2")
}

/// A stand-in "previous model": the refusals must leave it byte for byte.
fn previous(env: &Env) -> Vec<(String, Vec<u8>)> {
    let dir = model_dir(env);
    std::fs::create_dir_all(&dir).unwrap();
    let files = ["config.json", "tokenizer.json", "model.safetensors"];
    for f in files {
        std::fs::write(dir.join(f), format!("previous {f}")).unwrap();
    }
    snapshot(&dir)
}

fn snapshot(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

fn install(env: &Env, url: &str) -> std::process::Output {
    env.cmd()
        .env("CTXLAKE_MODEL_URL", url)
        .args(["memory", "model", "install", "--json"])
        .output()
        .unwrap()
}

#[test]
fn an_html_error_page_is_refused_and_the_previous_model_kept() {
    let env = Env::new();
    let before = previous(&env);
    let s = serve(PathBuf::from("/nonexistent"), Mode::Html, Vec::new());
    let out = install(&env, &s.url);
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("HTML page"), "{err}");
    assert!(err.contains("previous model"), "{err}");
    assert_eq!(snapshot(&model_dir(&env)), before);
}

#[test]
fn a_wrong_file_is_refused_by_its_hash_and_the_previous_model_kept() {
    let env = Env::new();
    let before = previous(&env);
    // The published size, other bytes: only the sha256 can tell.
    let forged = vec![("config.json".to_string(), vec![b' '; 612])];
    let s = serve(PathBuf::from("/nonexistent"), Mode::Good, forged);
    let out = install(&env, &s.url);
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("sha256") && err.contains("refused"), "{err}");
    assert_eq!(snapshot(&model_dir(&env)), before);
    // Nothing wrong is kept to be resumed from.
    let staged = env.ctxlake_home().join("models/.all-MiniLM-L6-v2.download");
    assert!(!staged.join("config.json.part").exists() && !staged.join("config.json").exists());
}

#[test]
fn a_file_larger_than_published_or_a_missing_one_is_refused() {
    let env = Env::new();
    let before = previous(&env);
    let big = vec![("config.json".to_string(), vec![b'x'; 5000])];
    let s = serve(PathBuf::from("/nonexistent"), Mode::Good, big);
    let out = install(&env, &s.url);
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("larger than the published"));
    let s = serve(PathBuf::from("/nonexistent"), Mode::Good, Vec::new());
    let out = install(&env, &s.url);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("HTTP 404"),
        "{out:?}"
    );
    assert_eq!(snapshot(&model_dir(&env)), before);
}

#[test]
#[ignore = "needs the MiniLM model: run .ci/run"]
fn a_download_dropped_halfway_resumes_and_installs_a_model_that_loads() {
    let files = model_files();
    let env = Env::new();
    let s = serve(files, Mode::DropHalfway(2), Vec::new());
    let out = install(&env, &s.url);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["source"], s.url.as_str());
    let ranged: Vec<_> = s
        .log
        .lock()
        .unwrap()
        .iter()
        .filter_map(|(_, r)| r.clone())
        .collect();
    assert!(
        !ranged.is_empty(),
        "the dropped files were resumed with Range: {:?}",
        s.log.lock().unwrap()
    );
    let check = env.json(&["memory", "model", "check"]);
    assert_eq!(
        (check["loaded"].as_bool(), check["dim"].as_u64()),
        (Some(true), Some(384))
    );
    assert_eq!(check["embedder"], "auto");
}

#[test]
#[ignore = "needs the MiniLM model: run .ci/run"]
fn a_truncated_download_is_refused_then_resumed_by_the_next_run() {
    let files = model_files();
    let env = Env::new();
    let cut = serve(files.clone(), Mode::AlwaysHalf, Vec::new());
    let out = install(&env, &cut.url);
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("run the command again to resume"), "{err}");
    assert!(!model_dir(&env).exists(), "nothing half-done is installed");
    let part = env
        .ctxlake_home()
        .join("models/.all-MiniLM-L6-v2.download/config.json.part");
    let had = std::fs::metadata(&part).map(|m| m.len()).unwrap_or(0);
    assert!(had > 0, "the partial file is kept");
    let good = serve(files, Mode::Good, Vec::new());
    let out = install(&env, &good.url);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let first = good.log.lock().unwrap()[0].clone();
    assert_eq!(
        first.1,
        Some(format!("bytes={had}-")),
        "resumed where it stopped"
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["fetched"]["resumed"].as_u64(), Some(had));
    assert_eq!(env.json(&["memory", "model", "check"])["loaded"], true);
}
