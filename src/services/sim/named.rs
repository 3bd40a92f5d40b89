//! Manifests reach every host through the feed (lake format 3): after the settle, every
//! host mirrors the snapshot of the newest manifest the fleet's feed names, or of a newer
//! one (a first pass lists the manifests whole).

use super::world::World;
use crate::cache::{self, Pipeline};
use crate::lake::keys::{self, Fed};
use crate::lake::manifest::Manifest;
use crate::lake::watermark::FeedEntry;

type Check = std::result::Result<(), String>;

pub(super) fn every_host_mirrors_the_newest_named_manifest(w: &World, f: &str) -> Check {
    let named = w
        .store
        .peek_keys(&keys::feed(f))
        .iter()
        .filter_map(|k| w.store.peek(k))
        .filter_map(|b| serde_json::from_slice::<FeedEntry>(&b).ok())
        .flat_map(|e| e.keys)
        .filter_map(|k| match keys::fed(f, &k) {
            Some(Fed::Manifest(n)) => Some(n),
            _ => None,
        })
        .max();
    let Some(newest) = named else {
        return Ok(());
    };
    let ok: Vec<String> = w
        .store
        .peek_keys(&keys::manifests(f))
        .iter()
        .filter(|k| keys::manifest_seq(k).is_some_and(|n| n >= newest))
        .filter_map(|k| w.store.peek(k))
        .filter_map(|b| serde_json::from_slice::<Manifest>(&b).ok())
        .map(|m| m.snapshot_id)
        .collect();
    for (h, host) in w.hosts.iter().enumerate() {
        let p: Option<Pipeline> = cache::read(&host.paths, f, cache::PIPELINE).data;
        let held = p.and_then(|p| p.snapshot_id);
        if !held.as_ref().is_some_and(|id| ok.contains(id)) {
            return Err(format!(
                "fleet {f}: host{h} mirrors snapshot {held:?}, not that of manifest {newest} (named in the feed) or a newer one"
            ));
        }
    }
    Ok(())
}
