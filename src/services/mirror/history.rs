//! Hook history into the mirror: the history objects a pass reads (one host's records of
//! every session, `sessions/<fleet>/<host>/<first>-<last>.ndjson`), split by session into
//! the local copies the digests are folded from; and this host's own history, handed over
//! by its drain when it writes it, so a host never reads its own history back.

use std::collections::BTreeMap;

use super::plan::Listed;
use super::state::{self, Session, State};
use crate::cache::SessionDigest;
use crate::error::Result;
use crate::lake::keys;
use crate::paths::Paths;
use crate::spool::Record;

/// The history objects to read: a first pass's whole listing (this host's own included:
/// its mirror starts from nothing), else those the feed names, except this host's own
/// (`own`: its host id), which its drain already gave the mirror.
pub(super) fn keys(fleet: &str, listed: &Listed, fed: &[String], own: Option<&str>) -> Vec<String> {
    match &listed.sessions {
        Some(all) => all.iter().map(|o| o.key.clone()).collect(),
        None => {
            let prefix = keys::sessions(fleet);
            let mine = own.map(|h| keys::host_history(fleet, h));
            fed.iter()
                .filter(|k| k.starts_with(&prefix))
                .filter(|k| mine.as_ref().is_none_or(|m| !k.starts_with(m.as_str())))
                .cloned()
                .collect()
        }
    }
}

/// A history object read (stored at lake time `mtime`): its records join their sessions'
/// local copies. A line that is torn, of another fleet, not a hook record or with a bad id
/// is skipped and counted. Returns the sessions (`<agent>/<session>`) to refold, and the
/// lines skipped.
pub(super) fn object(
    paths: &Paths,
    fleet: &str,
    st: &mut State,
    bytes: &[u8],
    mtime: i64,
) -> Result<(Vec<String>, usize)> {
    let (recs, bad) = crate::lake::batch::decode_where(bytes, fleet, |k| k.is_hook());
    Ok((add(paths, fleet, st, &recs, mtime)?, bad))
}

/// Add `recs` to their sessions' local copies, seen at lake time `at`; the sessions.
fn add(
    paths: &Paths,
    fleet: &str,
    st: &mut State,
    recs: &[Record],
    at: i64,
) -> Result<Vec<String>> {
    let mut by: BTreeMap<String, Vec<&Record>> = BTreeMap::new();
    for r in recs {
        by.entry(format!("{}/{}", r.agent, r.session))
            .or_default()
            .push(r);
    }
    for (s, recs) in &by {
        state::append(
            paths,
            fleet,
            s,
            &crate::spool::encode_all(recs.iter().copied())?,
        )?;
        let e = st.sessions.entry(s.clone()).or_insert_with(|| Session {
            seen_ms: at,
            digest: SessionDigest::default(),
        });
        e.seen_ms = e.seen_ms.max(at);
    }
    Ok(by.into_keys().collect())
}

/// This host's drain wrote `recs` as `fleet`'s history at lake time `at`: the mirror of
/// `url` takes them as if it had read them, and refolds their sessions at its next pass.
/// A fleet never mirrored from `url` is left alone: its first pass lists everything.
pub(crate) fn own_history(
    paths: &Paths,
    url: &str,
    fleet: &str,
    recs: &[Record],
    at: i64,
) -> Result<()> {
    let Some(mut st) = state::read(paths, fleet, url) else {
        return Ok(());
    };
    let touched = add(paths, fleet, &mut st, recs, at)?;
    st.refold.extend(touched);
    state::write(paths, fleet, &st)
}
