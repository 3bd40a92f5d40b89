//! `sync` and `maint` through the fault proxy: every fault kind is injected, and the
//! lake still ends with each record once; a proxy that strips `If-None-Match` plays a
//! store that ignores conditional writes, which the probe must refuse.

use super::moto::{self, Moto};
use super::proxy::{self, Fault, Plan};
use super::{leases, propose, run};

fn count(m: &Moto, bucket: &str, prefix: &str) -> usize {
    m.keys(bucket)
        .iter()
        .filter(|k| k.starts_with(prefix))
        .count()
}

/// The records under `prefix` (inside `s3://<bucket>/lake/`), read from inside its
/// objects. moto refuses unsigned object reads, so the lake is copied out with
/// `lake copy` (signed, straight to moto) and read from the copy.
fn records(m: &Moto, bucket: &str, prefix: &str) -> Vec<serde_json::Value> {
    let reader = m.host(&m.endpoint(), "unused");
    let out = reader.ctxlake_home().join("copied");
    let to = format!("file://{}", out.display());
    run(
        &reader,
        &["lake", "copy", &format!("s3://{bucket}/lake"), &to],
    );
    let dir = out.join(prefix.strip_prefix("lake/").unwrap());
    crate::common::local_lake_records(&dir)
}

#[test]
#[ignore = "needs moto: run .ci/run"]
fn sync_and_maint_under_injected_faults_take_effect_exactly_once() {
    let m = moto::start();
    // One request in three faulted, then one in two: the faults land on different requests.
    for every in [3, 2] {
        exactly_once_through(&m, every);
    }
}

fn exactly_once_through(m: &Moto, every: usize) {
    let bucket = format!("chaos{every}");
    m.create_bucket(&bucket);
    let px = proxy::start(m.port, Plan::Chaos { every });
    let store = &format!("s3://{bucket}/lake");
    let mut a = m.host(&format!("http://127.0.0.1:{}", px.port), store);
    a.as_agent("a1", "s1");
    run(&a, &["fleet", "claim", "src/x", "--reason", "r"]);
    for i in 0..5 {
        run(
            &a,
            &[
                "fleet",
                "handoff",
                &format!("step {i} done"),
                "--status",
                "done",
            ],
        );
    }
    propose(&a, "Integration tests need the postgres service running");
    a.as_agent("a2", "s2");
    propose(&a, "Integration tests need the postgres service running");

    let first = a.json(&["sync"]);
    assert_eq!(first["drained"]["records"], 8, "{first}");
    assert_eq!(
        first["drained"]["applied"], 8,
        "each record applied once: {first}"
    );
    run(&a, &["maint"]);
    run(&a, &["maint"]);
    let again = a.json(&["sync"]);
    assert_eq!(again["drained"]["records"], 0, "{again}");
    for f in [
        Fault::Status500,
        Fault::SlowDown503,
        Fault::ResetBeforeForward,
        Fault::DropAfterForward,
    ] {
        assert!(px.injected(f) > 0, "{f:?} was never injected");
    }

    // Each record exactly once, inside the batch objects.
    let mut ids = std::collections::BTreeSet::new();
    for (prefix, want) in [
        ("lake/handoffs/default/", 5),
        ("lake/claims/default/events/", 2),
    ] {
        let recs = records(m, &bucket, prefix);
        assert_eq!(recs.len(), want, "{prefix}");
        for r in recs {
            assert!(ids.insert(r["id"].to_string()), "{r} twice");
        }
    }
    assert_eq!(
        count(m, &bucket, "lake/snapshot/default/manifest/"),
        1,
        "an unchanged state publishes once"
    );
    assert_eq!(
        count(m, &bucket, "lake/probe/"),
        0,
        "probe keys are cleaned up"
    );

    // A host talking to moto directly sees exactly that.
    let b = m.host(&m.endpoint(), store);
    run(&b, &["sync"]);
    let h = b.json(&["fleet", "history"]);
    assert_eq!(h["handoffs"].as_array().unwrap().len(), 5, "{h}");
    assert_eq!(leases(&b.json(&["fleet", "status"]), "a1").len(), 1);
    let v = b.json(&["memory", "search", "postgres integration"]);
    assert_eq!(v["results"][0]["independent_sessions"], 2, "{v}");
}

#[test]
#[ignore = "needs moto: run .ci/run"]
fn a_store_that_ignores_if_none_match_is_refused() {
    let m = moto::start();
    m.create_bucket("unsafe");
    let px = proxy::start(m.port, Plan::StripIfNoneMatch);
    let store = "s3://unsafe/lake";
    let env = m.host(&format!("http://127.0.0.1:{}", px.port), store);
    run(&env, &["fleet", "claim", "src/x", "--reason", "r"]);
    for cmd in [
        vec!["sync"],
        vec!["maint"],
        vec!["init", "--yes", "--config-only", "--store", store],
    ] {
        let out = env.cmd().args(&cmd).output().unwrap();
        assert!(!out.status.success(), "{cmd:?} must refuse the store");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("does not honour create-if-absent") && err.contains(store),
            "{cmd:?}: {err}"
        );
        assert!(err.contains("hint:"), "{err}");
    }
    assert!(!env.ctxlake_home().join("config.toml").exists());
    let probe = env.json(&["status"])["store_probe"].clone();
    assert!(
        probe
            .as_str()
            .unwrap()
            .contains("does not honour create-if-absent"),
        "status shows the failed probe: {probe}"
    );
    assert_eq!(
        count(&m, "unsafe", "lake/live/"),
        0,
        "nothing was drained into an unsafe store"
    );
}
