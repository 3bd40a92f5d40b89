//! The lake's format marker, `lake.json` at its root: `{"format": 3}`. The format is
//! the whole layout of `docs/lake-format.md` (keys, object formats, invariants); a build
//! reads exactly the formats it knows and refuses any other rather than guess. The first
//! `sync`, `maint` or `lake copy` to find no marker creates it (create-if-absent, so two
//! hosts racing agree); each reads it once per store it opens.

use serde::{Deserialize, Serialize};

use super::keys::FORMAT_MARKER;
use super::store::{Created, Store};
use crate::error::{Error, Result};

/// The one lake format this build reads and writes.
pub const FORMAT: u32 = 3;

/// The marker's body. Fields a later format adds are ignored: only `format` decides.
#[derive(Debug, Serialize, Deserialize)]
struct Marker {
    format: u32,
}

/// What a lake's marker says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    /// No marker yet: nothing has written this lake's format down.
    Absent,
    /// The format this build reads.
    Known,
}

/// The lake's marker, checked: `Err` for a marker of another format or one that does
/// not parse. One GET.
pub fn read(store: &dyn Store) -> Result<Found> {
    match store.get(FORMAT_MARKER)? {
        None => Ok(Found::Absent),
        Some((bytes, _)) => check(store, &bytes).map(|()| Found::Known),
    }
}

/// Read the marker, creating it when absent: what a `sync`, `maint` or `lake copy`
/// does once per store it opens. One GET when the marker exists (every time but the
/// first).
pub fn ensure(store: &dyn Store) -> Result<()> {
    if read(store)? == Found::Known {
        return Ok(());
    }
    let body = crate::error::Error::json(&Marker { format: FORMAT })?;
    match store.create(FORMAT_MARKER, &body)? {
        Created::Yes(_) => Ok(()),
        // Another host made it first: whatever it wrote decides.
        Created::Exists => match read(store)? {
            Found::Known => Ok(()),
            Found::Absent => Err(Error::storage(
                "lake_format_unreadable",
                format!(
                    "the lake `{}` says its format marker `{FORMAT_MARKER}` exists, but it cannot be read back",
                    store.url()
                ),
            )
            .hint("run the command again; if it keeps failing, check the store")),
        },
    }
}

fn check(store: &dyn Store, bytes: &[u8]) -> Result<()> {
    let url = store.url();
    match serde_json::from_slice::<Marker>(bytes) {
        Ok(m) if m.format == FORMAT => Ok(()),
        Ok(m) => Err(Error::refused(
            "lake_format_unknown",
            format!(
                "the lake `{url}` is in format {}, and this build of ctxlake reads only format {FORMAT}",
                m.format
            ),
        )
        .hint(format!(
            "run a ctxlake build that reads lake format {} on this host (every host of a fleet must read its lake's format), or point `store` at another lake",
            m.format
        ))),
        Err(e) => Err(Error::refused(
            "lake_format_malformed",
            format!(
                "the lake `{url}` has a format marker `{FORMAT_MARKER}` that does not parse ({e}), so its format is unknown; this build reads only format {FORMAT}"
            ),
        )
        .hint(format!(
            "if you know the lake is in format {FORMAT}, write `{{\"format\": {FORMAT}}}` to `{FORMAT_MARKER}` at its root; otherwise point `store` at another lake"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lake::logged::Logged;

    /// The first look creates the marker; later ones read it with one GET.
    #[test]
    fn the_first_look_writes_the_marker_and_later_ones_read_it() {
        let d = tempfile::tempdir().unwrap();
        let store = Logged::open(d.path());
        assert_eq!(read(&store).unwrap(), Found::Absent);
        ensure(&store).unwrap();
        let (bytes, _) = store.get(FORMAT_MARKER).unwrap().unwrap();
        assert_eq!(bytes, br#"{"format":3}"#);
        store.take();
        ensure(&store).unwrap();
        assert_eq!(store.take(), [format!("get {FORMAT_MARKER}")]);
        assert_eq!(read(&store).unwrap(), Found::Known);
    }

    /// A marker of another format, or one that does not parse, is refused with both
    /// formats named; nothing is written over it.
    #[test]
    fn another_or_a_malformed_format_is_refused() {
        let d = tempfile::tempdir().unwrap();
        let store = Logged::open(d.path());
        for (body, code, says) in [
            (
                &br#"{"format": 2, "since": "2027"}"#[..],
                "lake_format_unknown",
                "format 2",
            ),
            (
                br#"{"format": "1"}"#,
                "lake_format_malformed",
                "does not parse",
            ),
            (b"\x00garbage", "lake_format_malformed", "does not parse"),
        ] {
            store.put(FORMAT_MARKER, body).unwrap();
            for e in [read(&store).unwrap_err(), ensure(&store).unwrap_err()] {
                assert_eq!((e.code, e.kind), (code, crate::error::Kind::Refused));
                assert!(e.message.contains(says), "{}", e.message);
                assert!(e.message.contains("reads only format 3"), "{}", e.message);
                assert!(e.hint.is_some());
            }
            assert_eq!(store.get(FORMAT_MARKER).unwrap().unwrap().0, body);
        }
    }

    /// A host whose read found no marker while another host created one: the create
    /// answers `Exists`, and what the other host wrote decides.
    #[test]
    fn a_marker_created_meanwhile_decides() {
        use crate::lake::store::{LocalStore, Object};
        struct Racing(LocalStore, std::cell::Cell<bool>);
        impl Store for Racing {
            fn url(&self) -> String {
                self.0.url()
            }
            fn get(&self, key: &str) -> Result<Option<(Vec<u8>, i64)>> {
                if self.1.replace(false) {
                    // Absent as we look; another host creates it right after.
                    self.0.create(key, br#"{"format":7}"#)?;
                    return Ok(None);
                }
                self.0.get(key)
            }
            fn put(&self, key: &str, bytes: &[u8]) -> Result<i64> {
                self.0.put(key, bytes)
            }
            fn create(&self, key: &str, bytes: &[u8]) -> Result<Created> {
                self.0.create(key, bytes)
            }
            fn list(&self, prefix: &str) -> Result<Vec<Object>> {
                self.0.list(prefix)
            }
            fn delete(&self, key: &str) -> Result<()> {
                self.0.delete(key)
            }
            fn now_ms(&self) -> Result<i64> {
                self.0.now_ms()
            }
        }
        let d = tempfile::tempdir().unwrap();
        let store = Racing(LocalStore::open(d.path()).unwrap(), true.into());
        assert_eq!(ensure(&store).unwrap_err().code, "lake_format_unknown");
        let (bytes, _) = store.0.get(FORMAT_MARKER).unwrap().unwrap();
        assert_eq!(bytes, br#"{"format":7}"#, "not written over");
    }
}
