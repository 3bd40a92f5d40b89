//! Snapshot manifests: `snapshot/<fleet>/manifest/<20-digit seq>.json`, created with
//! create-if-absent by `maint`; readers take the highest number.

use serde::{Deserialize, Serialize};

use super::keys;
use super::store::{Object, Store};
use crate::error::Result;

/// A published snapshot's manifest.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
pub struct Manifest {
    pub seq: u64,
    /// Digest of the folded state: equal ids mean equal content.
    pub snapshot_id: String,
    pub key: String,
    pub sha256: String,
    pub writer: String,
    pub built_at: String,
    /// `on` or `shadow` as written. Another host's text: a value this build does not know
    /// reads as `off`, a mode no snapshot is published under, so it matches none of ours
    /// and the manifest is otherwise read as before.
    #[serde(deserialize_with = "mode_or_off")]
    pub mode: crate::config::MemoryMode,
    pub claims: usize,
}

fn mode_or_off<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> std::result::Result<crate::config::MemoryMode, D::Error> {
    let s = String::deserialize(d)?;
    Ok(crate::config::MemoryMode::parse(&s).unwrap_or(crate::config::MemoryMode::Off))
}

impl Manifest {
    /// Whether it names `fleet`'s snapshot by its digest: the only key a manifest may
    /// name (`snapshot/<fleet>/<sha256>.sqlite`). Any other (another fleet's, a refused
    /// key) is not read: it could fail a whole round of reads, or fetch what is not ours.
    pub fn names_its_snapshot(&self, fleet: &str) -> bool {
        let hex = self.sha256.len() == 64
            && self
                .sha256
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        hex && self.key == keys::snapshot(fleet, &self.sha256)
    }
}

/// The newest of `listed` (manifest keys, sorted, all after number `held`) whose number is
/// plausible: at most `held` + how many were listed + `rules::MANIFEST_SLACK`. Numbers are
/// gap-free in practice, so one past that bound was not made by counting up; it is ignored,
/// and how many were is returned.
pub fn newest_plausible(listed: &[Object], held: u64) -> (Option<&Object>, usize) {
    let bound = held
        .saturating_add(listed.len() as u64)
        .saturating_add(crate::rules::MANIFEST_SLACK);
    let seqs = listed
        .iter()
        .filter_map(|o| keys::manifest_seq(&o.key).map(|n| (o, n)));
    let ignored = seqs.clone().filter(|(_, n)| *n > bound).count();
    let newest = seqs
        .filter(|(_, n)| *n <= bound)
        .map(|(o, _)| o)
        .next_back();
    (newest, ignored)
}

pub fn latest_manifest(store: &dyn Store, fleet: &str) -> Result<Option<Manifest>> {
    let listed = store.list(&keys::manifests(fleet))?;
    let Some(last) = newest_plausible(&listed, 0).0 else {
        return Ok(None);
    };
    Ok(store
        .get(&last.key)?
        .and_then(|(b, _)| serde_json::from_slice(&b).ok()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed(seqs: &[u64]) -> Vec<Object> {
        seqs.iter()
            .map(|n| Object {
                key: keys::manifest("f", *n),
                size: 1,
                mtime_ms: 0,
                tag: 0,
            })
            .collect()
    }

    /// The mode is a memory mode, read and written with the spelling it had as a string;
    /// one this build does not know reads as `off` (no published mode) and costs the
    /// manifest nothing else.
    #[test]
    fn a_manifest_names_a_memory_mode() {
        use crate::config::MemoryMode;
        let m = |mode: &str| {
            serde_json::from_str::<Manifest>(&format!(
                r#"{{"seq":1,"snapshot_id":"s","key":"k","sha256":"x","writer":"w","built_at":"t","mode":"{mode}","claims":0}}"#
            ))
        };
        assert_eq!(m("shadow").unwrap().mode, MemoryMode::Shadow);
        let loud = m("loud").unwrap();
        assert_eq!((loud.mode, loud.seq), (MemoryMode::Off, 1));
        let on = serde_json::to_value(m("on").unwrap()).unwrap();
        assert_eq!(on["mode"], "on");
    }

    /// A number far past what was held and listed (a forged `u64::MAX`) is ignored and
    /// counted; the newest plausible one wins.
    #[test]
    fn an_implausible_manifest_number_is_ignored() {
        let seq = |l: &[Object], held| {
            let (o, n) = newest_plausible(l, held);
            (o.and_then(|o| keys::manifest_seq(&o.key)), n)
        };
        assert_eq!(seq(&listed(&[1, 2, 3]), 0), (Some(3), 0));
        assert_eq!(seq(&listed(&[1, 2, u64::MAX]), 0), (Some(2), 1));
        assert_eq!(seq(&listed(&[41, 1_000_000]), 40), (Some(41), 1));
        assert_eq!(seq(&listed(&[u64::MAX]), u64::MAX - 1), (Some(u64::MAX), 0));
        assert_eq!(seq(&listed(&[]), 7), (None, 0));
    }
}
