//! A save writes this host's copy and a due checkpoint from one serialization, and the
//! copy is used only while its head describes it.

use crate::lake::keys;
use crate::lake::store::Store;
use crate::services::maint::checkpoint::tests::{checkpointed, event, land, setup};
use crate::services::maint::checkpoint::{Base, MIN_UNSAVED, load, local_file};
use crate::services::maint::idle;

/// This host's copy is used only while its head describes it: the head holds the lake it
/// describes and its events no checkpoint holds, which the copy does not.
#[test]
fn a_copy_is_used_only_with_its_head() {
    let (_d, paths, store) = setup();
    for n in 0..20 {
        land(&store, "f", &event(n, 0, n as u8, 0, 2, 0));
    }
    checkpointed(&paths, &store, MIN_UNSAVED); // 20 events: no checkpoint is due
    let l = load(&paths, &store, "f", &mut |_, _| {}).unwrap();
    assert_eq!(
        (l.base, l.checkpoint.unsaved, l.fresh),
        (Base::Local, 20, 0)
    );
    assert_eq!(l.checkpoint.store, store.url());
    // A run stopped between the copy's rename and its head's write: no head.
    idle::forget(&paths, "f").unwrap();
    let l = load(&paths, &store, "f", &mut |_, _| {}).unwrap();
    assert_eq!((l.base, l.fresh), (Base::Nothing, 20));
}

/// A checkpoint is serialized once, into a file as it is hashed: its key names its body's
/// digest, the body names no lake, this host's copy is the same bytes (its head names the
/// lake), and no temporary file is left behind.
#[test]
fn a_checkpoint_key_names_the_digest_of_its_body() {
    let (_d, paths, store) = setup();
    for n in 0..20 {
        land(&store, "f", &event(n, 0, n as u8, 0, 2, 0));
    }
    checkpointed(&paths, &store, 0);
    let listed = store.list(&keys::checkpoints("f")).unwrap();
    let [o] = listed.as_slice() else {
        panic!("one checkpoint: {listed:?}")
    };
    let body = store.get(&o.key).unwrap().unwrap().0;
    let ms = crate::lake::watermark::key_ms(&o.key).unwrap();
    let expected = keys::checkpoint("f", &crate::lake::watermark::lake_ulid(ms, &body));
    assert_eq!(o.key, expected);
    let cp: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(cp["fold"]["seen"].as_array().map(Vec::len), Some(20));
    assert!(
        cp.get("store").is_none() && cp.get("unsaved").is_none(),
        "{cp}"
    );
    let copy = local_file(&paths, "f");
    assert_eq!(std::fs::read(&copy).unwrap(), body);
    let head = idle::saved(&paths, "f", &copy);
    assert_eq!(head, Some((store.url(), 0)));
    let left: Vec<_> = std::fs::read_dir(paths.maint_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.contains(".tmp-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}
