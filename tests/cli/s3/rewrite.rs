//! A roster rewritten at the same size within the second its first version was listed at,
//! on a real S3 server (moto lists LastModified to the whole second, as S3 does): the
//! other host reads it again, by its ETag. Before, host B kept the first version until
//! host A rewrote its roster at another size or in another second: in `three_hosts.py`
//! phase (c), a released lease and a missing one for over a minute.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::moto::{self, Moto, elements};
use super::{leases, run};

/// (LastModified, Size) of the one object under `prefix`, as moto lists it.
fn listed(m: &Moto, bucket: &str, prefix: &str) -> (String, String) {
    let body = m.list(bucket, prefix);
    let field = |tag: &str| {
        let mut all = elements(&body, tag);
        assert_eq!(all.len(), 1, "one object under {prefix}: {body}");
        all.remove(0)
    };
    (field("LastModified"), field("Size"))
}

/// Sleep until just after the next whole second of the wall clock.
fn next_second() {
    let ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .subsec_millis();
    std::thread::sleep(Duration::from_millis(u64::from(1_000 - ms) + 5));
}

/// Host B's view of a1's one lease: (path, reason).
fn held(b: &crate::common::Env) -> (String, String) {
    let held = leases(&b.json(&["fleet", "status"]), "a1");
    assert_eq!(held.len(), 1, "{held:?}");
    let s = |k: &str| held[0][k].as_str().unwrap_or_default().to_string();
    (s("path"), s("reason"))
}

#[test]
#[ignore = "needs moto: run .ci/run"]
fn a_roster_rewritten_at_one_size_within_its_listed_second_reaches_the_other_host() {
    let m = moto::start();
    m.create_bucket("fleet");
    let (mut a, b) = (
        m.host(&m.endpoint(), "s3://fleet/lake"),
        m.host(&m.endpoint(), "s3://fleet/lake"),
    );
    a.as_agent("a1", "s1");
    let prefix = "lake/live/default/hosts/";
    // A renewal with another one-letter reason: host A's roster keeps its size. Both
    // versions land in one listed second, host B reading between them.
    for attempt in 0..20 {
        run(&a, &["fleet", "claim", "src/aa", "--reason", "r"]);
        next_second();
        let start = std::time::Instant::now();
        run(&a, &["sync"]);
        run(&b, &["sync"]);
        let first = listed(&m, "fleet", prefix);
        run(&a, &["fleet", "claim", "src/aa", "--reason", "q"]);
        run(&a, &["sync"]);
        let took = start.elapsed();
        if listed(&m, "fleet", prefix) != first {
            eprintln!("attempt {attempt}: the second version landed in another second ({took:?})");
            continue;
        }
        assert_eq!(
            held(&b),
            ("src/aa".into(), "r".into()),
            "host B read the first"
        );
        run(&b, &["sync"]);
        assert_eq!(
            held(&b),
            ("src/aa".into(), "q".into()),
            "host B read the second"
        );
        return;
    }
    panic!("no two versions landed in one listed second in 20 attempts (a slow machine?)");
}
