//! Do sentence embeddings help the contradiction test? Measured on the labelled set
//! (`tests/data/contradictions.tsv`) with all-MiniLM-L6-v2: the heuristic alone against
//! the heuristic OR "similar but not the same statement" (cosine in a band), for several
//! bands. Not adopted: this test fails if a band ever beats the heuristic's F1, which is
//! the signal to adopt it.

use std::io::Write;

use super::contradicts;

const SET: &str = include_str!("../../../tests/data/contradictions.tsv");

fn f1(tp: usize, fp: usize, fneg: usize) -> (f64, f64, f64) {
    let p = tp as f64 / (tp + fp).max(1) as f64;
    let r = tp as f64 / (tp + fneg).max(1) as f64;
    (
        p,
        r,
        if p + r > 0.0 {
            2.0 * p * r / (p + r)
        } else {
            0.0
        },
    )
}

#[test]
#[ignore = "needs the MiniLM model: run .ci/run"]
fn embeddings_do_not_beat_the_heuristic() {
    let dir = crate::snapshot::embed::tests::model_dir();
    let t = tempfile::tempdir().unwrap();
    let m = crate::snapshot::embed::minilm::MiniLm::load(&dir, &t.path().join("m")).unwrap();
    let pairs: Vec<(bool, &str, &str)> = SET
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0] == "contradicts", f[2], f[3])
        })
        .collect();
    let texts: Vec<&str> = pairs.iter().flat_map(|p| [p.1, p.2]).collect();
    let v = m.embed_batch(&texts).unwrap();
    let cos: Vec<f32> = (0..pairs.len())
        .map(|i| v[2 * i].iter().zip(&v[2 * i + 1]).map(|(a, b)| a * b).sum())
        .collect();
    let score = |pred: &dyn Fn(usize) -> bool| {
        let (mut tp, mut fp, mut fneg) = (0, 0, 0);
        for (i, p) in pairs.iter().enumerate() {
            match (p.0, pred(i)) {
                (true, true) => tp += 1,
                (false, true) => fp += 1,
                (true, false) => fneg += 1,
                _ => {}
            }
        }
        f1(tp, fp, fneg)
    };
    let base = score(&|i| contradicts(pairs[i].1, pairs[i].2));
    let mut out = format!(
        "\ncontradictions: heuristic alone P {:.3} R {:.3} F1 {:.3}\n",
        base.0, base.1, base.2
    );
    let mut best = (0.0, 0.0, 0.0, 0.0f32, 0.0f32);
    for lo in [0.80f32, 0.85, 0.90, 0.93, 0.95] {
        for hi in [0.97f32, 0.99, 1.01] {
            let s =
                score(&|i| contradicts(pairs[i].1, pairs[i].2) || (cos[i] >= lo && cos[i] < hi));
            out.push_str(&format!(
                "  heuristic OR cosine in [{lo:.2}, {hi:.2}): P {:.3} R {:.3} F1 {:.3}\n",
                s.0, s.1, s.2
            ));
            if s.2 > best.2 {
                best = (s.0, s.1, s.2, lo, hi);
            }
        }
    }
    let _ = writeln!(std::io::stderr(), "{out}");
    assert!(
        best.2 <= base.2,
        "a cosine band now beats the heuristic (F1 {:.3} > {:.3} in [{}, {})): adopt it{out}",
        best.2,
        base.2,
        best.3,
        best.4
    );
}
