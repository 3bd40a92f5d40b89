//! Ranking strategies that fuse the lexical (FTS5 BM25) and vector (cosine) evidence for
//! one query. Which one ships for each embedder was chosen by measurement on the
//! labelled set in `tests/data/retrieval/` (see `eval.rs`), not by habit: reciprocal-rank
//! fusion, for one, made MiniLM worse there.

use std::collections::HashMap;

/// How hits are ordered.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Ranking {
    /// Cosine similarity alone.
    Cosine,
    /// BM25 alone (lexical passes in order).
    Bm25,
    /// Reciprocal-rank fusion `1/(k+rank_bm25) + 1/(k+rank_cosine)`.
    Rrf(u32),
    /// `cosine + w · bm25/max_bm25`: cosine with a lexical boost.
    Weighted(f32),
    /// Claims holding every query word first, then the rest; cosine orders each group.
    Cascade,
}

/// The ranking that measured best for an embedder (`eval.rs` prints the comparison).
pub fn shipped(embedder_id: &str) -> Ranking {
    match embedder_id {
        // R@5 0.945, MRR 0.863 (RRF k=60: 0.805 / 0.752).
        super::embed::minilm::ID => Ranking::Weighted(0.05),
        // BM25 alone beat every fusion with the hash's cosine (MRR 0.657 vs 0.631 for
        // RRF k=60), and its prefix pass still finds every typo'd query.
        _ => Ranking::Bm25,
    }
}

/// A lexical candidate: its BM25 score (higher is better) and whether it holds every word.
#[derive(Debug, Clone, Copy)]
pub struct Lexical {
    pub rowid: i64,
    pub bm25: f64,
    pub all_words: bool,
    /// The pass that found it (0 all words, 1 any word, 2 prefixes): BM25 compares within one.
    pub pass: u8,
}

/// (rowid, score) best first. `lexical` is in lexical order; `cosine` covers every
/// candidate the vector side may rank (those below `min_cosine` rank only lexically).
pub fn fuse(
    r: Ranking,
    lexical: &[Lexical],
    cosine: &[(i64, f32)],
    min_cosine: f32,
) -> Vec<(i64, f64)> {
    let lex: HashMap<i64, (usize, Lexical)> = lexical
        .iter()
        .enumerate()
        .map(|(i, l)| (l.rowid, (i, *l)))
        .collect();
    let mut by_cos: Vec<(i64, f32)> = cosine
        .iter()
        .copied()
        .filter(|(id, c)| *c >= min_cosine || lex.contains_key(id))
        .collect();
    by_cos.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let max_bm25 = lexical.iter().map(|l| l.bm25).fold(0f64, f64::max);
    let mut out: Vec<(i64, f64)> = match r {
        Ranking::Bm25 => lexical
            .iter()
            .enumerate()
            .map(|(i, l)| (l.rowid, 1.0 / (1.0 + i as f64)))
            .collect(),
        Ranking::Cosine => by_cos.iter().map(|(id, c)| (*id, f64::from(*c))).collect(),
        Ranking::Rrf(k) => by_cos
            .iter()
            .enumerate()
            .map(|(i, (id, _))| {
                let k = f64::from(k);
                let l = lex
                    .get(id)
                    .map_or(0.0, |(j, _)| 1.0 / (k + *j as f64 + 1.0));
                (*id, 1.0 / (k + i as f64 + 1.0) + l)
            })
            .collect(),
        Ranking::Weighted(w) => by_cos
            .iter()
            .map(|(id, c)| {
                let b = lex
                    .get(id)
                    .filter(|_| max_bm25 > 0.0)
                    .map_or(0.0, |(_, l)| l.bm25 / max_bm25);
                (*id, f64::from(*c) + f64::from(w) * b)
            })
            .collect(),
        Ranking::Cascade => by_cos
            .iter()
            .map(|(id, c)| {
                let first = lex.get(id).is_some_and(|(_, l)| l.all_words);
                (*id, f64::from(*c) + if first { 2.0 } else { 0.0 })
            })
            .collect(),
    };
    out.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    out
}
