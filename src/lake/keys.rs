//! Every lake key is built here, and nowhere else, and checked here before any store
//! sees it.

use crate::error::{Error, Result};

/// Refuse a key no store may be asked for: empty, absolute, an empty, `.` or `..`
/// segment, or a control character. Keys embed ids read from the lake and the spool, so
/// a hostile id must never become a path outside the lake or an odd object name.
pub fn validate(key: &str) -> Result<()> {
    let bad = key.is_empty()
        || key.starts_with('/')
        || key.chars().any(char::is_control)
        || key
            .split('/')
            .any(|p| p.is_empty() || p == "." || p == "..");
    if bad {
        return Err(Error::storage(
            "bad_key",
            format!("refusing lake key `{}`", key.escape_debug()),
        ));
    }
    Ok(())
}

/// The size cap of `key`'s kind (`rules::cap`): what a reader takes at most.
pub fn cap(key: &str) -> u64 {
    use crate::rules::cap;
    let mut parts = key.split('/');
    let (top, third) = (parts.next().unwrap_or(""), parts.nth(1).unwrap_or(""));
    match top {
        FORMAT_MARKER | "fleets" => cap::MARKER,
        "live" => cap::ROSTER,
        "sessions" => cap::SEGMENT,
        "handoffs" => cap::BATCH,
        "claims" if third == "events" => cap::BATCH,
        "claims" if third == "checkpoints" => cap::CHECKPOINT,
        "feed" => cap::FEED,
        "snapshot" if third == "manifest" => cap::MANIFEST,
        "snapshot" => cap::SNAPSHOT,
        _ => cap::OTHER,
    }
}

/// `lake.json`: the lake's format marker (see `lake::format`).
pub const FORMAT_MARKER: &str = "lake.json";

pub fn fleet_marker(fleet: &str) -> String {
    format!("fleets/{fleet}")
}
pub const FLEETS: &str = "fleets/";

/// `live/<fleet>/hosts/<host-id>.json`: one host's roster of the fleet's sessions.
pub(crate) fn roster(fleet: &str, host: &str) -> String {
    format!("live/{fleet}/hosts/{host}.json")
}
pub(crate) fn rosters(fleet: &str) -> String {
    format!("live/{fleet}/hosts/")
}

/// `sessions/<fleet>/<host>/<first>-<last>.ndjson`: one host's hook history, every
/// session's records of one history write (see `services::drain::history`).
pub fn history(fleet: &str, host: &str, first: &str, last: &str) -> String {
    format!("sessions/{fleet}/{host}/{first}-{last}.ndjson")
}
pub fn sessions(fleet: &str) -> String {
    format!("sessions/{fleet}/")
}
/// `sessions/<fleet>/<host>/`: the history objects host `host` wrote.
pub fn host_history(fleet: &str, host: &str) -> String {
    format!("sessions/{fleet}/{host}/")
}

/// `handoffs/<fleet>/<first-id>.ndjson`: a drain's batch of handoffs (see `lake::batch`).
pub fn handoff_batch(fleet: &str, first: &str) -> String {
    format!("handoffs/{fleet}/{first}.ndjson")
}
pub fn handoffs(fleet: &str) -> String {
    format!("handoffs/{fleet}/")
}

/// `claims/<fleet>/events/<first-id>.ndjson`: a drain's batch of claim events.
pub fn claim_event_batch(fleet: &str, first: &str) -> String {
    format!("claims/{fleet}/events/{first}.ndjson")
}
pub fn claim_events(fleet: &str) -> String {
    format!("claims/{fleet}/events/")
}

/// `claims/<fleet>/checkpoints/<lake-time ULID>.json`: `maint`'s folded inputs so far.
pub fn checkpoint(fleet: &str, id: &str) -> String {
    format!("claims/{fleet}/checkpoints/{id}.json")
}
pub fn checkpoints(fleet: &str) -> String {
    format!("claims/{fleet}/checkpoints/")
}

/// `feed/<fleet>/<lake-time ULID>.json`: keys a watermark listing could miss (see
/// `lake::watermark`).
pub fn feed_entry(fleet: &str, id: &str) -> String {
    format!("feed/{fleet}/{id}.json")
}
pub fn feed(fleet: &str) -> String {
    format!("feed/{fleet}/")
}

/// Content-addressed snapshot file.
pub fn snapshot(fleet: &str, sha256: &str) -> String {
    format!("snapshot/{fleet}/{sha256}.sqlite")
}
/// `snapshot/<fleet>/manifest/<20-digit seq>.json`: readers take the highest.
pub fn manifest(fleet: &str, seq: u64) -> String {
    format!("snapshot/{fleet}/manifest/{seq:020}.json")
}
pub fn manifests(fleet: &str) -> String {
    format!("snapshot/{fleet}/manifest/")
}

/// The sequence number in a manifest key.
pub fn manifest_seq(key: &str) -> Option<u64> {
    key.rsplit('/').next()?.strip_suffix(".json")?.parse().ok()
}

/// What a key a feed entry names is, checked as untrusted input: a key of `fleet`
/// that a reader may GET, in its kind's exact shape. Anything else (another fleet's,
/// another kind's, a refused key, a name no batch has) is `None`, and never read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fed {
    /// `sessions/<fleet>/<host>/<name>.ndjson`.
    History,
    /// `handoffs/<fleet>/<id>.ndjson`.
    Handoff,
    /// `claims/<fleet>/events/<id>.ndjson`: `maint`'s, not the mirror's.
    Events,
    /// `snapshot/<fleet>/manifest/<20-digit seq>.json`, and its number.
    Manifest(u64),
}

/// Classify `key`, named in `fleet`'s feed (see [`Fed`]).
pub fn fed(fleet: &str, key: &str) -> Option<Fed> {
    if validate(key).is_err() {
        return None;
    }
    let one = |prefix: String| {
        key.strip_prefix(&prefix)
            .is_some_and(|rest| !rest.contains('/'))
    };
    if let Some(rest) = key.strip_prefix(&sessions(fleet)) {
        let (host, name) = rest.split_once('/')?;
        let ok = crate::scope::validate_id("host", host).is_ok()
            && !name.contains('/')
            && name.ends_with(".ndjson");
        return ok.then_some(Fed::History);
    }
    if one(handoffs(fleet)) && super::batch::is_batch(key) {
        return Some(Fed::Handoff);
    }
    if one(claim_events(fleet)) && super::batch::is_batch(key) {
        return Some(Fed::Events);
    }
    let seq = manifest_seq(key)?;
    (manifest(fleet, seq) == key).then_some(Fed::Manifest(seq))
}

/// The last path component without extension (record ids in create-only areas).
pub fn stem(key: &str) -> &str {
    let name = key.rsplit('/').next().unwrap_or(key);
    name.split('.').next().unwrap_or(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifests_sort_by_sequence() {
        assert_eq!(
            manifest("f", 42),
            "snapshot/f/manifest/00000000000000000042.json"
        );
        assert!(manifest("f", 9) < manifest("f", 10));
        assert_eq!(manifest_seq(&manifest("f", 42)), Some(42));
        assert_eq!(stem("claims/f/events/01ABC.ndjson"), "01ABC");
    }

    /// A key a feed entry names is read only in its kind's exact shape, of its own fleet.
    #[test]
    fn a_fed_key_is_read_only_in_its_kinds_shape() {
        let id = "01KDVDNWA3000000000000000F";
        let h = handoff_batch("f", id);
        assert_eq!(fed("f", &h), Some(Fed::Handoff));
        assert_eq!(fed("g", &h), None, "another fleet's");
        assert_eq!(fed("f", &manifest("f", 7)), Some(Fed::Manifest(7)));
        assert_eq!(fed("f", &history("f", "host1", id, id)), Some(Fed::History));
        assert_eq!(fed("f", &claim_event_batch("f", id)), Some(Fed::Events));
        for bad in [
            "handoffs/f/../../etc/x.ndjson".to_string(),
            "handoffs/f/x/01KDVDNWA3000000000000000F.ndjson".into(),
            "handoffs/f/.hidden.ndjson".into(),
            "handoffs/f/a.json".into(),
            "snapshot/f/manifest/7.json".into(),
            "snapshot/g/manifest/00000000000000000007.json".into(),
            "snapshot/f/abc.sqlite".into(),
            "sessions/f/.h/x.ndjson".into(),
            "sessions/f/h/x/y.ndjson".into(),
            "claims/f/checkpoints/x.json".into(),
            "live/f/hosts/h.json".into(),
            format!("handoffs/f/{id}.ndjson\n"),
        ] {
            assert_eq!(fed("f", &bad), None, "{bad:?}");
        }
    }

    #[test]
    fn keys_with_traversal_or_empty_segments_are_refused() {
        for bad in ["", "/abs", "a//b", "a/../b", "..", "a/./b", "a/b/", "a\nb"] {
            assert!(validate(bad).is_err(), "{bad:?}");
        }
        validate(&handoff_batch("f", "01ABC")).unwrap();
    }
}
