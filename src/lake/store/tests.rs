//! The local store: exclusive creates, sorted listings, and a watermark listing that
//! answers like a filtered full listing while statting only what it returns.

use super::walk::STATS;
use super::*;
use crate::lake::store::probe;

/// `create_file` is `create` with a file's bytes: exclusive, a copy (a later change to
/// the file does not reach the object), no temp file left, the write waiting for `flush`.
#[test]
fn create_from_a_file_copies_it_exclusively() {
    let d = tempfile::tempdir().unwrap();
    let s = LocalStore::open(&d.path().join("lake")).unwrap();
    let src = d.path().join("snapshot.sqlite");
    let body: Vec<u8> = (0..300_000u32).map(|i| (i % 251) as u8).collect();
    std::fs::write(&src, &body).unwrap();
    let key = "snapshots/f/abc.sqlite";
    assert!(matches!(s.create_file(key, &src).unwrap(), Created::Yes(_)));
    assert_eq!(s.create_file(key, &src).unwrap(), Created::Exists);
    std::fs::write(&src, b"changed after").unwrap();
    assert_eq!(s.get(key).unwrap().unwrap().0, body, "a copy, not a link");
    let names: Vec<_> = std::fs::read_dir(d.path().join("lake/snapshots/f"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["abc.sqlite"], "no temp file left");
    assert_eq!(
        s.pending.lock().unwrap().len(),
        1,
        "flushed with the others"
    );
    let e = s.create_file("snapshots/f/x.sqlite", &d.path().join("missing"));
    assert!(e.is_err());
}

#[test]
fn create_is_exclusive_and_list_is_sorted() {
    let d = tempfile::tempdir().unwrap();
    let s = LocalStore::open(d.path()).unwrap();
    assert!(matches!(
        s.create("a/b/1.json", b"x").unwrap(),
        Created::Yes(_)
    ));
    assert_eq!(s.create("a/b/1.json", b"y").unwrap(), Created::Exists);
    assert_eq!(s.get("a/b/1.json").unwrap().unwrap().0, b"x");
    s.put("a/b/0.json", b"z").unwrap();
    s.put("a/c/9.json", b"z").unwrap();
    s.put("ab/x.json", b"z").unwrap();
    let keys: Vec<_> = s.list("a/").unwrap().into_iter().map(|o| o.key).collect();
    assert_eq!(keys, ["a/b/0.json", "a/b/1.json", "a/c/9.json"]);
    let keys: Vec<_> = s.list("a/b/").unwrap().into_iter().map(|o| o.key).collect();
    assert_eq!(keys, ["a/b/0.json", "a/b/1.json"]);
    let after: Vec<_> = s.list_after("a/", "a/b/0.json").unwrap();
    let after: Vec<_> = after.into_iter().map(|o| o.key).collect();
    assert_eq!(after, ["a/b/1.json", "a/c/9.json"]);
    assert!(s.list("nope/").unwrap().is_empty());
    assert!(s.get("../etc/passwd").is_err());
    probe(&s).unwrap();
}

#[test]
fn racing_creates_have_one_winner() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path().to_path_buf();
    let winners: usize = (0..16)
        .map(|i| {
            let root = root.clone();
            std::thread::spawn(move || {
                let s = LocalStore::open(&root).unwrap();
                matches!(
                    s.create("m/00000000000000000001.json", format!("{i}").as_bytes())
                        .unwrap(),
                    Created::Yes(_)
                )
            })
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|h| h.join().unwrap() as usize)
        .sum();
    assert_eq!(winners, 1);
}

/// A lake folder with the shapes a watermark must get right: keys sharing a stem with a
/// folder (`b.json`, `b/…`, `b-c/…`), nested folders, an empty folder, staged temp
/// files and a temp folder.
fn tricky_lake(root: &Path) -> LocalStore {
    let s = LocalStore::open(root).unwrap();
    for i in 0..30 {
        s.put(&format!("e/{i:04}.json"), b"x").unwrap();
    }
    for k in [
        "e/b.json",
        "e/b/x.json",
        "e/b/z/deep.json",
        "e/b-c/y",
        "e/a0/q",
        "e/z",
        "f/1.json",
        "top",
    ] {
        s.put(k, k.as_bytes()).unwrap();
    }
    fs::create_dir_all(root.join("e/empty")).unwrap();
    fs::create_dir_all(root.join("e/.tmpdir")).unwrap();
    fs::write(root.join("e/.tmpdir/k"), b"t").unwrap();
    fs::write(root.join("e/.0005.json.tmp-1-2"), b"t").unwrap();
    fs::write(root.join("e/b/.x.json.tmp-3-4"), b"t").unwrap();
    s
}

#[test]
fn list_after_answers_exactly_like_list_filtered_by_key() {
    let d = tempfile::tempdir().unwrap();
    let s = tricky_lake(d.path());
    let all: Vec<String> = s.list("").unwrap().into_iter().map(|o| o.key).collect();
    assert!(!all.iter().any(|k| k.contains("/.")), "temp files: {all:?}");
    let mut afters: Vec<String> = all.clone();
    for a in [
        "", "e", "e/", "e/b", "e/b/", "e/b.", "e/b/z", "e/b0", "e/0015", "e/empty", "f", "zz",
    ] {
        afters.push(a.to_string());
    }
    for prefix in ["", "e/", "e/b", "e/b/", "e/0", "f/", "nope/"] {
        let listed = s.list(prefix).unwrap();
        for after in &afters {
            let want: Vec<Object> = listed
                .iter()
                .filter(|o| o.key.as_str() > after.as_str())
                .cloned()
                .collect();
            let got = s.list_after(prefix, after).unwrap();
            assert_eq!(got, want, "prefix {prefix:?} after {after:?}");
            let keys: Vec<String> = want.into_iter().map(|o| o.key).collect();
            let got = s.list_keys(prefix, Some(after)).unwrap();
            assert_eq!(got, keys, "keys: prefix {prefix:?} after {after:?}");
        }
        let keys: Vec<String> = listed.into_iter().map(|o| o.key).collect();
        assert_eq!(s.list_keys(prefix, None).unwrap(), keys, "keys: {prefix:?}");
    }
}

#[test]
fn listings_stat_only_the_entries_they_return() {
    let d = tempfile::tempdir().unwrap();
    let s = LocalStore::open(d.path()).unwrap();
    for i in 0..500 {
        s.put(&format!("ev/{i:04}.json"), b"x").unwrap();
    }
    s.put("ev/0001/nested.json", b"x").unwrap();
    fs::write(d.path().join("ev/.0499.json.tmp-1-2"), b"t").unwrap();
    STATS.with(|n| n.set(0));
    let got = s.list_after("ev/", "ev/0489.json").unwrap();
    assert_eq!(got.len(), 10);
    assert_eq!(got[0].key, "ev/0490.json");
    assert_eq!(STATS.with(|n| n.get()), 10, "one stat per returned key");
    // Keys alone cost no stat at all: a first fold lists 100k of them.
    STATS.with(|n| n.set(0));
    assert_eq!(s.list_keys("ev/", None).unwrap().len(), 501);
    assert_eq!(STATS.with(|n| n.get()), 0, "no stat for keys");
}

/// `cargo test --release --lib -- --ignored --nocapture list_after_speed`
#[test]
#[ignore = "timing, run by hand in release"]
fn list_after_speed() {
    let d = tempfile::tempdir().unwrap();
    let s = LocalStore::open(d.path()).unwrap();
    let n = 100_000;
    for i in 0..n {
        fs::write(d.path().join(format!("{i:08}.json")), b"x").unwrap();
    }
    let last = format!("{:08}.json", n - 1);
    let best = |f: &dyn Fn() -> usize| {
        (0..5)
            .map(|_| {
                let t = std::time::Instant::now();
                std::hint::black_box(f());
                t.elapsed()
            })
            .min()
            .unwrap()
    };
    // The old `list_after`: the full listing (one stat per entry), then the filter.
    let full = best(&|| s.list("").unwrap().iter().filter(|o| o.key > last).count());
    let after = best(&|| s.list_after("", &last).unwrap().len());
    eprintln!("{n} files: list+filter {full:?}, list_after {after:?}");
}

/// A symlinked directory inside the lake (the lake root itself may be one) is never
/// read, listed or written through, and each refused read or listing is counted.
#[test]
fn a_symlinked_directory_in_the_lake_is_never_traversed() {
    let d = tempfile::tempdir().unwrap();
    let outside = d.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("id_rsa"), b"SECRET").unwrap();
    let real = d.path().join("real");
    std::fs::create_dir_all(real.join("f/x")).unwrap();
    std::os::unix::fs::symlink(&real, d.path().join("root")).unwrap();
    let s = LocalStore::open(&d.path().join("root")).unwrap();
    s.put("f/x/ok.json", b"ok").unwrap();
    std::os::unix::fs::symlink(&outside, real.join("f/x/batches")).unwrap();
    assert_eq!(
        s.get("f/x/ok.json").unwrap().unwrap().0,
        b"ok",
        "a symlinked root is allowed"
    );
    assert!(s.get("f/x/batches/id_rsa").unwrap().is_none());
    assert!(s.list("f/x/batches/").unwrap().is_empty());
    assert!(
        s.list_after("f/x/batches/", "f/x/batches/a")
            .unwrap()
            .is_empty()
    );
    // A batch read checks each folder once, and refuses the symlinked one all the same.
    let batch = [
        "f/x/ok.json",
        "f/x/batches/id_rsa",
        "f/x/batches/a",
        "f/x/ok.json",
    ];
    let got = s.get_many(&batch.map(String::from)).unwrap();
    let got: Vec<_> = got.into_iter().map(|g| g.map(|(b, _)| b)).collect();
    assert_eq!(
        got,
        [Some(b"ok".to_vec()), None, None, Some(b"ok".to_vec())]
    );
    let keys: Vec<_> = s.list("f/").unwrap().into_iter().map(|o| o.key).collect();
    assert_eq!(keys, ["f/x/ok.json"]);
    assert_eq!(s.skipped().not_regular, 5, "{:?}", s.skipped());
    assert!(s.put("f/x/batches/new.json", b"x").is_err());
    assert!(s.create("f/x/batches/new2.json", b"x").is_err());
    assert!(s.delete("f/x/batches/id_rsa").is_err());
    let mut left: Vec<_> = std::fs::read_dir(&outside)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    left.sort();
    assert_eq!(
        left,
        ["id_rsa"],
        "nothing written or deleted outside the lake"
    );
}
