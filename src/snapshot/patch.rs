//! Incremental snapshot build: patch a copy of the previous snapshot this host built into
//! the file a full build would hold, touching only what changed: claim rows (with their
//! FTS entries, hash and model vectors) and the timeline of each subject whose events
//! changed. It declines (the caller builds in full) whenever a patch could answer a query
//! differently: another mode, fleet or embedder, or claims no longer in the base's order.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use rusqlite::{Connection, OptionalExtension, params};
use sha2::{Digest, Sha256};

use super::build::{self, sql};
use super::rows::{ClaimRow, EventRow};
use super::vectors::Vectors;
use crate::error::{Error, Result};

/// Patching more than this share (1/n) of the claims costs about a full build and leaves
/// a less compact file: build in full instead.
const MAX_CHANGED_SHARE: usize = 4;

/// What a snapshot is built from: the folded state and how it is presented.
pub(crate) struct Target<'a> {
    pub snapshot_id: &'a str,
    pub fleet: &'a str,
    pub mode: &'a str,
    pub claims: &'a [ClaimRow],
    pub events: &'a [EventRow],
    pub vectors: &'a Vectors,
}

/// Build `t` into `tmp` (which must not exist): by patching a copy of `base` when there
/// is one a patch applies to, else in full. `true`: it was patched.
pub(crate) fn build_from(base: &Path, tmp: &Path, t: &Target) -> Result<bool> {
    // A base left mid-patch by a killed `maint` (patched in place, `snapshot::delta`) has
    // a hot journal beside it: opening it rolls that back before the copy (which would
    // leave the journal behind).
    if journal(base).exists() {
        let _ = Connection::open(base)
            .and_then(|c| c.query_row("SELECT count(*) FROM meta", [], |r| r.get::<_, i64>(0)));
    }
    if base.exists() && std::fs::copy(base, tmp).is_ok() {
        // A base that cannot be patched (another state's shape, or damaged) only costs
        // the full build below.
        if let Ok(true) = patch(tmp, t) {
            return Ok(true);
        }
        for p in [tmp.to_path_buf(), journal(tmp)] {
            let _ = std::fs::remove_file(p);
        }
    }
    build::build_with(
        tmp,
        t.snapshot_id,
        t.fleet,
        t.mode,
        t.claims,
        t.events,
        t.vectors,
    )?;
    Ok(false)
}

fn journal(p: &Path) -> std::path::PathBuf {
    let mut s = p.as_os_str().to_owned();
    s.push("-journal");
    s.into()
}

/// Patch the snapshot at `path` to hold exactly `t`; `Ok(false)`: declined.
pub(crate) fn patch(path: &Path, t: &Target) -> Result<bool> {
    let mut conn = Connection::open(path).map_err(sql)?;
    conn.execute_batch("PRAGMA journal_mode=DELETE; PRAGMA synchronous=OFF;")
        .map_err(sql)?;
    if !same_kind(&conn, t)? {
        return Ok(false);
    }
    let Some(changed) = diff_claims(&conn, t)? else {
        return Ok(false);
    };
    if changed.len() > t.claims.len() / MAX_CHANGED_SHARE + 64 {
        return Ok(false);
    }
    let visible: Vec<usize> = changed
        .iter()
        .map(|&(i, _)| i)
        .filter(|&i| t.claims[i].visible(t.mode))
        .collect();
    let model = t
        .vectors
        .embed_changed(t.claims, &visible)
        .map_err(|why| Error::internal("embed", format!("cannot embed the claims: {why}")))?;
    let tx = conn.transaction().map_err(sql)?;
    claims(&tx, t, &changed, &model)?;
    timeline(&tx, t)?;
    build::stamp(&tx, t.snapshot_id)?;
    tx.commit().map_err(sql)?;
    build::seal(conn, path)?;
    Ok(true)
}

/// The base was built for the same fleet, mode and embedders as `t`.
fn same_kind(conn: &Connection, t: &Target) -> Result<bool> {
    let meta = |k: &str| -> Result<Option<String>> {
        conn.query_row("SELECT value FROM meta WHERE key = ?1", [k], |r| r.get(0))
            .optional()
            .map_err(sql)
    };
    let model = t.vectors.embedder.as_ref().map(|e| e.id().to_string());
    // A full build names the model only when some claim is visible: patch only alike files.
    let any_visible = t.claims.iter().any(|c| c.visible(t.mode));
    Ok(meta("fleet")?.as_deref() == Some(t.fleet)
        && meta("mode")?.as_deref() == Some(t.mode)
        && meta("embedder")?.as_deref() == Some(super::embed::hash::ID)
        && meta("model_embedder")? == model
        && (model.is_none() || any_visible))
}

/// The claims that differ from the base's rows, each with whether its base row was
/// visible (none past the base). `None` when the base's rows are not exactly a prefix of
/// `t.claims` as rows 1..=n: then only a full build matches. Compared in place: reading
/// every row into owned strings cost more than the rest of the patch.
fn diff_claims(conn: &Connection, t: &Target) -> Result<Option<Vec<(usize, bool)>>> {
    let mut st = conn
        .prepare(
            "SELECT rowid, id, text, type, subject, scope, status, independent_sessions, confidence,
                    created_at, promoted_at, agent, session, visible FROM claims ORDER BY rowid",
        )
        .map_err(sql)?;
    let mut rows = st.query([]).map_err(sql)?;
    let (mut n, mut changed) = (0usize, Vec::new());
    while let Some(r) = rows.next().map_err(sql)? {
        let s = |i: usize| {
            r.get_ref(i)
                .ok()
                .and_then(|v| v.as_str_or_null().ok().flatten())
        };
        let Some(c) = t.claims.get(n) else {
            return Ok(None);
        };
        if r.get::<_, i64>(0).ok() != Some(n as i64 + 1) || s(1) != Some(c.id.as_str()) {
            return Ok(None);
        }
        let Some(was_visible) = r.get::<_, bool>(13).ok() else {
            return Ok(None);
        };
        let same = s(2) == Some(c.text.as_str())
            && s(3) == Some(c.claim_type.as_str())
            && s(4) == Some(c.subject.as_str())
            && s(5) == Some(c.scope.as_str())
            && s(6) == Some(c.status.as_str())
            && r.get::<_, i64>(7).ok() == Some(i64::from(c.independent_sessions))
            && r.get::<_, f64>(8).ok() == Some(c.confidence)
            && s(9) == Some(c.created_at.as_str())
            && s(10) == c.promoted_at.as_deref()
            && s(11) == Some(c.agent.as_str())
            && s(12) == Some(c.session.as_str())
            && was_visible == c.visible(t.mode);
        if !same {
            changed.push((n, was_visible));
        }
        n += 1;
    }
    changed.extend((n..t.claims.len()).map(|i| (i, false)));
    Ok(Some(changed))
}

/// Replace each changed claim's row, FTS entry and vectors (or add it past the base).
fn claims(
    tx: &rusqlite::Transaction,
    t: &Target,
    changed: &[(usize, bool)],
    model: &[(usize, Vec<u8>)],
) -> Result<()> {
    let mut ins = tx.prepare(build::INSERT_CLAIM).map_err(sql)?;
    let mut fts = tx.prepare(build::INSERT_FTS).map_err(sql)?;
    let mut vec = tx.prepare(build::INSERT_VECTOR).map_err(sql)?;
    let mut del = tx
        .prepare("DELETE FROM claims WHERE rowid = ?1")
        .map_err(sql)?;
    let mut del_fts = tx
        .prepare("DELETE FROM claims_fts WHERE rowid = ?1")
        .map_err(sql)?;
    let mut del_vec = tx
        .prepare("DELETE FROM claim_vectors WHERE rowid = ?1")
        .map_err(sql)?;
    for &(i, was_visible) in changed {
        let rowid = i as i64 + 1;
        // Rows past the base do not exist yet; deleting them is a no-op. The FTS entry
        // is deleted only when it exists (a contentless index cannot check).
        del.execute([rowid]).map_err(sql)?;
        del_vec.execute([rowid]).map_err(sql)?;
        if was_visible {
            del_fts.execute([rowid]).map_err(sql)?;
        }
        build::insert_claim(&mut ins, &mut fts, rowid, &t.claims[i], t.mode)?;
    }
    if let Some(e) = &t.vectors.embedder {
        for (i, v) in model {
            vec.execute(params![e.id(), *i as i64 + 1, v])
                .map_err(sql)?;
        }
    }
    Ok(())
}

/// A digest per timeline group, keyed as the reader selects rows (`subject = ?
/// COLLATE NOCASE`, which folds ASCII case only), over the group's rows in table order.
type Groups = HashMap<Vec<u8>, Sha256>;

/// Add one row (its text fields, then `visible`) to its group's digest. Each field is
/// length-prefixed, so no two different rows hash the same bytes.
fn add(groups: &mut Groups, key: &mut Vec<u8>, fields: [&[u8]; 7], visible: bool) {
    key.clear();
    key.extend(fields[1].iter().map(u8::to_ascii_lowercase));
    if !groups.contains_key(key.as_slice()) {
        groups.insert(key.clone(), Sha256::new());
    }
    if let Some(h) = groups.get_mut(key.as_slice()) {
        for f in fields {
            h.update((f.len() as u64).to_le_bytes());
            h.update(f);
        }
        h.update([u8::from(visible)]);
    }
}

/// Rewrite the timeline of each subject whose rows changed. Within a subject the rows
/// keep a full build's relative order, which is all its reader can observe.
fn timeline(tx: &rusqlite::Transaction, t: &Target) -> Result<()> {
    let (mut base, mut key) = (Groups::new(), Vec::new());
    {
        let mut st = tx
            .prepare("SELECT at, subject, kind, claim_id, agent, session, text, visible FROM events ORDER BY rowid")
            .map_err(sql)?;
        let mut rows = st.query([]).map_err(sql)?;
        while let Some(r) = rows.next().map_err(sql)? {
            let f = |i: usize| {
                r.get_ref(i)
                    .ok()
                    .and_then(|v| v.as_bytes().ok())
                    .unwrap_or_default()
            };
            let visible = r.get::<_, bool>(7).unwrap_or(true);
            add(
                &mut base,
                &mut key,
                [f(0), f(1), f(2), f(3), f(4), f(5), f(6)],
                visible,
            );
        }
    }
    let mut want = Groups::new();
    let mut rows: HashMap<Vec<u8>, Vec<&EventRow>> = HashMap::new();
    for e in t.events {
        let fields = [
            &e.at,
            &e.subject,
            &e.kind,
            &e.claim_id,
            &e.agent,
            &e.session,
            &e.text,
        ]
        .map(|s| s.as_bytes());
        add(&mut want, &mut key, fields, t.mode == "on");
        rows.entry(key.clone()).or_default().push(e);
    }
    let digest = |g: &Groups, k: &Vec<u8>| g.get(k).map(|h| h.clone().finalize());
    let mut del = tx
        .prepare("DELETE FROM events WHERE subject = ?1 COLLATE NOCASE")
        .map_err(sql)?;
    let mut ins = tx.prepare(build::INSERT_EVENT).map_err(sql)?;
    let subjects: BTreeSet<&Vec<u8>> = base.keys().chain(want.keys()).collect();
    for s in subjects {
        if digest(&base, s) == digest(&want, s) {
            continue;
        }
        // Bound as text: a blob never equals the text column.
        let subject = std::str::from_utf8(s)
            .map_err(|_| Error::internal("snapshot", "a timeline subject is not UTF-8"))?;
        del.execute([subject]).map_err(sql)?;
        for e in rows.get(s).into_iter().flatten() {
            build::insert_event(&mut ins, e, t.mode)?;
        }
    }
    Ok(())
}

#[cfg(test)]
#[path = "patch_tests.rs"]
mod tests;
