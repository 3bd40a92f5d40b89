//! Memory search over a snapshot. How results are ranked (documented in the README):
//! 1. lexical: FTS5 BM25 over the agent-visible claims (porter-stemmed words): claims
//!    with all query words first, then any word, then 3-letter word prefixes (of all
//!    words, then of any), each pass only while at most `k` were found; at most 200 (or
//!    `k + 1`) candidates per pass, so `truncated` is true whenever more claims matched
//!    than were returned;
//! 2. vector: cosine between the query's embedding and each candidate's, with the
//!    embedder that made the snapshot's vectors (never across embedders), from the
//!    snapshot's vectors held in memory (`matrix.rs`). With a model every visible claim
//!    is scanned (paraphrases share no words); with the hash only when the lexical
//!    passes find at most `k`; both up to 20,000 visible claims;
//! 3. fusion: per embedder, the ranking that measured best (`rank::shipped`): BM25
//!    alone with the hash, cosine + 0.05 · normalised BM25 with MiniLM.

use std::collections::HashMap;

use super::columns::Cols;
use super::embed::{Embedder, HashEmbedder, hash};
use super::matrix::{self, Filter};
use super::rank::{Lexical, Ranking, fuse};
use super::rows::{ClaimRow, EventRow};
use super::{Snapshot, decoded, query_error as sql};
use crate::error::{Error, Result};
use crate::vocab::ClaimStatus;

const LEXICAL_CANDIDATES: usize = 200;
/// Below this cosine a claim found by no lexical pass is not a hit (per embedder: model
/// similarities of unrelated sentences sit lower than hash ones).
fn min_cosine(embedder_id: &str) -> f32 {
    if embedder_id == hash::ID { 0.3 } else { 0.25 }
}
/// Above this many visible claims the cosine-only fallback scan is skipped (its cost is
/// linear in the snapshot); the prefix pass stands in for it.
const FULL_SCAN_MAX: usize = 20_000;

pub struct Query<'a> {
    pub text: &'a str,
    pub subject: Option<&'a str>,
    pub claim_type: Option<&'a str>,
    pub scope: Option<&'a str>,
    pub k: usize,
    /// Also claims newer ones replaced (status `superseded`): for history questions.
    pub include_superseded: bool,
}

pub struct Hit {
    pub claim: ClaimRow,
    pub score: f64,
}

/// Hits best first, and whether more matched than `k` (the hash vectors, shipped ranking).
pub fn search(snap: &Snapshot, q: &Query) -> Result<(Vec<Hit>, bool)> {
    search_with(snap, q, &HashEmbedder, super::rank::shipped(hash::ID))
}

/// Hits ranked by `ranking`, comparing the query with `embedder`'s stored vectors.
pub fn search_with(
    snap: &Snapshot,
    q: &Query,
    embedder: &dyn Embedder,
    ranking: Ranking,
) -> Result<(Vec<Hit>, bool)> {
    snap.arm();
    let qv = embedder
        .embed_batch(&[q.text])
        .map_err(|why| {
            Error::internal(
                "embed",
                format!("cannot embed the query: {}", why.one_line()),
            )
        })?
        .pop()
        .unwrap_or_default();
    let lexical = lexical(snap, q)?;
    let ids: Vec<i64> = lexical.iter().map(|l| l.rowid).collect();
    let filter = Filter {
        subject: q.subject,
        claim_type: q.claim_type,
        scope: q.scope,
        include_superseded: q.include_superseded,
    };
    let cosine = if ranking == Ranking::Bm25 {
        // No vector is compared: only which lexical hits pass the filters.
        filtered(snap, &filter, &ids)?
            .into_iter()
            .map(|id| (id, 0.0))
            .collect()
    } else {
        // The vectors come from memory (read once per process and snapshot), not SQLite.
        let matrix = matrix::for_snapshot(snap, embedder.id(), qv.len())?;
        let mut cands = matrix.select(&filter, Some(&ids));
        let model = embedder.id() != hash::ID;
        if (model || cands.len() <= q.k) && matrix.len() <= FULL_SCAN_MAX {
            cands = matrix.select(&filter, None);
        }
        matrix.cosines(&qv, &cands)
    };
    let mut ranked = fuse(ranking, &lexical, &cosine, min_cosine(embedder.id()));
    // Lexical hits outside the filters were never selected: they do not count.
    let passed: std::collections::HashSet<i64> = cosine.iter().map(|(id, _)| *id).collect();
    ranked.retain(|(id, _)| passed.contains(id));
    let truncated = ranked.len() > q.k;
    // Whole rows only for the best few (a scan reads just the vectors); a row this build
    // cannot decode is skipped, so a few spares are read.
    ranked.truncate(q.k + 8);
    let mut rows = claims_by_rowid(snap, &ranked.iter().map(|(id, _)| *id).collect::<Vec<_>>())?;
    // How close two hits are: when BM25 alone ranks (its scores are ranks), the BM25
    // itself within one lexical pass (a later pass is never near an earlier one).
    let bm25: HashMap<i64, (u8, f64)> = lexical
        .iter()
        .map(|l| (l.rowid, (l.pass, l.bm25)))
        .collect();
    let mut hits: Vec<((u8, f64), Hit)> = ranked
        .into_iter()
        .filter_map(|(id, score)| {
            let raw = match ranking {
                Ranking::Bm25 => bm25.get(&id).copied().unwrap_or((u8::MAX, score)),
                _ => (0, score),
            };
            rows.remove(&id).map(|claim| (raw, Hit { claim, score }))
        })
        .collect();
    by_age(&mut hits);
    let hits: Vec<Hit> = hits.into_iter().map(|(_, h)| h).take(q.k).collect();
    Ok((hits, truncated))
}

/// Age in the order (DESIGN §4): among hits whose scores are within 2% of each other the
/// fresher (newest evidence) ranks first, and a hit flagged as probably outdated by
/// another hit ranks right below it.
fn by_age(hits: &mut [((u8, f64), Hit)]) {
    let near = |(pa, a): (u8, f64), (pb, b): (u8, f64)| {
        pa == pb && (a - b).abs() <= 0.02 * a.abs().max(b.abs())
    };
    for i in 1..hits.len() {
        let mut j = i;
        while j > 0
            && near(hits[j - 1].0, hits[j].0)
            && hits[j].1.claim.last_evidence_at > hits[j - 1].1.claim.last_evidence_at
        {
            hits.swap(j - 1, j);
            j -= 1;
        }
    }
    // Each pass moves one outdated hit below its newer claim; a chain settles in as many.
    for _ in 0..hits.len() {
        let at = |id: &str| hits.iter().position(|(_, h)| h.claim.id == id);
        let moved = (0..hits.len()).find_map(|i| {
            let newer = at(hits[i].1.claim.outdated_by.as_deref()?)?;
            (newer > i).then_some((i, newer))
        });
        match moved {
            Some((i, newer)) => hits[i..=newer].rotate_left(1),
            None => break,
        }
    }
}

/// The lexical passes: all words, then any word, then the 3-letter prefixes of all words,
/// then of any, each only while at most `k` were found (one more than `k` tells whether
/// matches were dropped).
fn lexical(snap: &Snapshot, q: &Query) -> Result<Vec<Lexical>> {
    let words: Vec<String> = q
        .text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| format!("\"{w}\""))
        .collect();
    let prefixes: Vec<String> = words
        .iter()
        .map(|w| w.trim_matches('"'))
        .filter(|w| w.chars().count() >= 4)
        .map(|w| format!("\"{}\"*", w.chars().take(3).collect::<String>()))
        .collect();
    let mut out: Vec<Lexical> = Vec::new();
    // Prefixes of all words before prefixes of any: over 100k claims a 3-letter prefix
    // matches thousands, and BM25 ranks every match, so the narrower pass comes first.
    let passes = [
        words.join(" AND "),
        words.join(" OR "),
        prefixes.join(" AND "),
        prefixes.join(" OR "),
    ];
    for (pass, expr) in passes.iter().enumerate() {
        // One word's AND pass is its OR pass: the repeat would rank every match again
        // and add none (every row it finds is in `out` already).
        let repeat = pass > 0 && passes[pass - 1] == *expr;
        if expr.is_empty() || repeat || out.len() > q.k {
            continue;
        }
        for (rowid, bm25) in fts(snap, expr, LEXICAL_CANDIDATES.max(q.k + 1))? {
            if !out.iter().any(|l| l.rowid == rowid) {
                out.push(Lexical {
                    rowid,
                    bm25,
                    all_words: pass == 0,
                    pass: pass as u8,
                });
            }
        }
    }
    Ok(out)
}

/// Top lexical candidates for one FTS5 expression, best first, with BM25 (higher better).
fn fts(snap: &Snapshot, expr: &str, limit: usize) -> Result<Vec<(i64, f64)>> {
    let mut st = snap
        .conn
        .prepare_cached(
            "SELECT rowid, -rank FROM claims_fts WHERE claims_fts MATCH ?1 ORDER BY rank LIMIT ?2",
        )
        .map_err(sql)?;
    let rows = st
        .query_map(rusqlite::params![expr, limit as i64], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .map_err(sql)?;
    rows.collect::<std::result::Result<_, _>>().map_err(sql)
}

const COLUMNS: &str = "rowid, id, text, type, subject, scope, status, independent_sessions, confidence, created_at, promoted_at, agent, session, key, superseded_by, superseded_at, outdated_by, pending_by, last_evidence_at";

/// A `claims` row selected with `COLUMNS` (rowid first).
pub(super) fn claim_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<ClaimRow> {
    let r = Cols::of(r);
    Ok(ClaimRow {
        id: r.get(1)?,
        text: r.get(2)?,
        claim_type: r.get(3)?,
        subject: r.get(4)?,
        scope: r.get(5)?,
        status: r.get(6)?,
        independent_sessions: r.get(7)?,
        confidence: r.get(8)?,
        created_at: r.get(9)?,
        promoted_at: r.get(10)?,
        agent: r.get(11)?,
        session: r.get(12)?,
        key: r.get(13)?,
        superseded_by: r.get(14)?,
        superseded_at: r.get(15)?,
        outdated_by: r.get(16)?,
        pending_by: r.get(17)?,
        last_evidence_at: r.get(18)?,
    })
}

/// Whole rows for `rowids` (rows this build cannot decode are left out).
fn claims_by_rowid(snap: &Snapshot, rowids: &[i64]) -> Result<HashMap<i64, ClaimRow>> {
    if rowids.is_empty() {
        return Ok(HashMap::new());
    }
    let list: Vec<String> = rowids.iter().map(i64::to_string).collect();
    let sql_text = format!(
        "SELECT {COLUMNS} FROM claims WHERE rowid IN ({})",
        list.join(",")
    );
    let mut st = snap.conn.prepare(&sql_text).map_err(sql)?;
    let rows = st
        .query_map([], |r| Ok((Cols::of(r).get::<i64>(0)?, claim_row(r)?)))
        .map_err(sql)?;
    let mut out = HashMap::new();
    for r in rows {
        match r {
            Ok((id, c)) => {
                out.insert(id, c);
            }
            Err(rusqlite::Error::FromSqlConversionFailure(..)) => {}
            Err(e) => return Err(sql(e)),
        }
    }
    Ok(out)
}

/// The visible claims among `rowids` that pass `f`.
fn filtered(snap: &Snapshot, f: &Filter, rowids: &[i64]) -> Result<Vec<i64>> {
    if rowids.is_empty() {
        return Ok(Vec::new());
    }
    let mut where_ = vec![if f.include_superseded {
        "(visible = 1 OR status = 'superseded')".to_string()
    } else {
        "visible = 1".to_string()
    }];
    let mut args: Vec<&str> = Vec::new();
    for (col, v) in [
        ("subject", f.subject),
        ("type", f.claim_type),
        ("scope", f.scope),
    ] {
        if let Some(v) = v {
            args.push(v);
            where_.push(format!("{col} = ?{} COLLATE NOCASE", args.len()));
        }
    }
    let list: Vec<String> = rowids.iter().map(i64::to_string).collect();
    where_.push(format!("rowid IN ({})", list.join(",")));
    let sql_text = format!("SELECT rowid FROM claims WHERE {}", where_.join(" AND "));
    let mut st = snap.conn.prepare(&sql_text).map_err(sql)?;
    let rows = st
        .query_map(rusqlite::params_from_iter(args), |r| r.get::<_, i64>(0))
        .map_err(sql)?;
    rows.collect::<std::result::Result<_, _>>().map_err(sql)
}

/// Claims of `status` (any visibility), for operators; newest first. Without a status,
/// every claim but the superseded ones: those are listed only when asked for.
pub fn list(snap: &Snapshot, status: Option<ClaimStatus>, limit: usize) -> Result<Vec<ClaimRow>> {
    snap.arm();
    let where_ = if status.is_some() {
        "WHERE status = ?1"
    } else {
        "WHERE ?1 IS NULL AND status != 'superseded'"
    };
    let sql_text =
        format!("SELECT {COLUMNS} FROM claims {where_} ORDER BY created_at DESC LIMIT {limit}");
    let mut st = snap.conn.prepare(&sql_text).map_err(sql)?;
    let rows = st.query_map([status], claim_row).map_err(sql)?;
    decoded(rows)
}

/// Visible claim events about `subject` since `since`, oldest first; `limit + 1` rows to detect truncation.
pub fn timeline(
    snap: &Snapshot,
    subject: &str,
    since: Option<&str>,
    limit: usize,
) -> Result<Vec<EventRow>> {
    snap.arm();
    let mut st = snap
        .conn
        .prepare_cached(
            "SELECT at, subject, kind, claim_id, agent, session, text, related_id FROM events
             WHERE subject = ?1 COLLATE NOCASE AND visible = 1 AND at >= ?2 ORDER BY at, claim_id LIMIT ?3",
        )
        .map_err(sql)?;
    let rows = st
        .query_map(
            rusqlite::params![subject, since.unwrap_or(""), limit as i64 + 1],
            |r| {
                let r = Cols::of(r);
                Ok(EventRow {
                    at: r.get(0)?,
                    subject: r.get(1)?,
                    kind: r.get(2)?,
                    claim_id: r.get(3)?,
                    agent: r.get(4)?,
                    session: r.get(5)?,
                    text: r.get(6)?,
                    related_id: r.get(7)?,
                })
            },
        )
        .map_err(sql)?;
    decoded(rows)
}

#[cfg(test)]
#[path = "search_tests.rs"]
pub(crate) mod tests;
