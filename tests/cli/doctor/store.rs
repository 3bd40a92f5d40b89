//! `ctxlake doctor`'s store group against real endpoints: a closed loopback port, moto
//! behind a proxy that strips `If-None-Match`, and a host clock skewed from the lake's.

use serde_json::Value;

use super::{check, doctor, installed};
use crate::s3::moto;
use crate::s3::proxy::{self, Plan};

#[test]
fn an_unreachable_store_fails_fast() {
    let mut env = installed();
    let port = moto::free_port(); // bound, then released: nothing listens there
    for (k, v) in [
        ("CTXLAKE_STORE", "s3://lake/team".to_string()),
        ("AWS_ENDPOINT_URL", format!("http://127.0.0.1:{port}")),
        ("AWS_ACCESS_KEY_ID", "test".into()),
        ("AWS_SECRET_ACCESS_KEY", "test-secret-value".into()),
        ("AWS_REGION", "us-east-1".into()),
        ("AWS_ALLOW_HTTP", "true".into()),
        ("AWS_EC2_METADATA_DISABLED", "true".into()),
    ] {
        env.extra.push((k.into(), v));
    }
    let t = std::time::Instant::now();
    let out = env.cmd().args(["doctor", "--json"]).output().unwrap();
    assert!(t.elapsed().as_secs() < 10, "took {:?}", t.elapsed());
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        !text.contains("test-secret-value"),
        "a credential is never printed"
    );
    let v: Value = serde_json::from_str(&text).unwrap();
    let c = check(&v, "store");
    assert!(
        c["saw"]
            .as_str()
            .unwrap()
            .contains(&format!("127.0.0.1:{port}")),
        "{c}"
    );
    assert!(
        check(&v, "credentials")["saw"]
            .as_str()
            .unwrap()
            .contains("AWS_ACCESS_KEY_ID")
    );
}

#[test]
fn a_store_ignoring_conditional_writes_and_a_skewed_clock_fail() {
    let Some(m) = moto::start("a_store_ignoring_conditional_writes_and_a_skewed_clock_fail") else {
        return;
    };
    m.create_bucket("lake");
    let px = proxy::start(m.port, Plan::StripIfNoneMatch);
    let env = m.host(&format!("http://127.0.0.1:{}", px.port), "s3://lake/team");
    let (code, v) = doctor(&env, &[]);
    assert_eq!(code, 1);
    let c = check(&v, "conditional writes");
    assert_eq!(c["status"], "fail");
    assert!(
        c["saw"]
            .as_str()
            .unwrap()
            .contains("does not honour create-if-absent"),
        "{c}"
    );

    let mut env = m.host(&m.endpoint(), "s3://lake/team");
    let (code, v) = doctor(&env, &[]);
    assert_eq!(check(&v, "conditional writes")["status"], "ok", "{v:#}");
    assert_eq!(check(&v, "clock skew")["status"], "ok");
    assert!(
        check(&v, "latency")["saw"]
            .as_str()
            .unwrap()
            .starts_with("p50 ")
    );
    assert_eq!(code, 0, "{v:#}");
    for (skew, status) in [("90000", "warn"), ("-600000", "fail")] {
        env.extra
            .push(("CTXLAKE_TEST_CLOCK_SKEW_MS".into(), skew.into()));
        let (_, v) = doctor(&env, &[]);
        let c = check(&v, "clock skew");
        assert_eq!(c["status"], status, "{skew}: {c}");
        env.extra.pop();
    }
}
