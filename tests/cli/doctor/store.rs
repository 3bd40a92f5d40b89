//! `ctxlake doctor`'s store and http groups against real endpoints: a closed loopback port,
//! moto behind a proxy that strips `If-None-Match`, a host clock skewed from the lake's, and
//! a configured `mcp --http` server that is down, then up, then bound beyond loopback.

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
    // A named profile alone: the S3 client cannot read it, and doctor says so rather than
    // assume an instance role. (Metadata left enabled here: the credentials check never
    // calls it, and the closed port stops doctor before any S3 request.)
    let dropped = [
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_EC2_METADATA_DISABLED",
    ];
    env.extra.retain(|(k, _)| !dropped.contains(&k.as_str()));
    env.extra.push(("AWS_PROFILE".into(), "dev".into()));
    let (_, v) = doctor(&env, &[]);
    let c = check(&v, "credentials");
    assert_eq!(c["status"], "fail", "{c}");
    assert!(c["saw"].as_str().unwrap().contains("named profiles"), "{c}");
}

#[test]
#[ignore = "needs moto: run .ci/run"]
fn a_store_ignoring_conditional_writes_and_a_skewed_clock_fail() {
    let m = moto::start();
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

#[test]
fn the_http_server_is_checked_when_a_service_configures_it() {
    let env = installed();
    let port = moto::free_port();
    let addr = format!("127.0.0.1:{port}");
    env.cmd()
        .args(["service", "install", "--http", &addr, "--no-start"])
        .assert()
        .success();
    let (code, v) = doctor(&env, &[]);
    assert_eq!(code, 1);
    let c = check(&v, "http /health");
    assert_eq!(c["status"], "fail", "nothing listens yet: {c}");
    assert!(
        c["fix"]
            .as_str()
            .unwrap()
            .contains("service install --http"),
        "{c}"
    );
    let t = check(&v, "http tokens");
    assert_eq!(t["status"], "ok", "{t}");
    assert!(
        t["saw"]
            .as_str()
            .unwrap()
            .contains("first start makes the owner token"),
        "{t}"
    );

    let mut server = env
        .std_cmd()
        .args(["mcp", "--http", &addr])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while std::net::TcpStream::connect(&addr).is_err() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let (code, v) = doctor(&env, &[]);
    let _ = server.kill();
    let _ = server.wait();
    assert_eq!(check(&v, "http /health")["status"], "ok", "{v:#}");
    assert_eq!(code, 0, "{v:#}");
    let t = check(&v, "http tokens");
    assert!(
        t["saw"].as_str().unwrap().contains("1 token(s): owner"),
        "{t}"
    );

    // A store holding no token admits nobody: said, with the fix.
    env.cmd()
        .args(["mcp", "token", "revoke", "owner"])
        .assert()
        .success();
    let (_, v) = doctor(&env, &[]);
    let t = check(&v, "http tokens");
    assert_eq!(t["status"], "warn", "{t}");
    assert_eq!(t["fix"], "ctxlake mcp token new NAME");
}

#[test]
fn a_store_that_accepts_and_never_answers_is_given_up_on() {
    let mut env = installed();
    // Accepts connections, reads, never answers: the S3 client would retry for minutes.
    let hole = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = hole.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for c in hole.incoming().flatten() {
            held.push(c);
        }
    });
    for (k, v) in [
        ("CTXLAKE_STORE", "s3://lake/team".to_string()),
        ("AWS_ENDPOINT_URL", format!("http://127.0.0.1:{port}")),
        ("AWS_ACCESS_KEY_ID", "test".into()),
        ("AWS_SECRET_ACCESS_KEY", "test".into()),
        ("AWS_REGION", "us-east-1".into()),
        ("AWS_ALLOW_HTTP", "true".into()),
        ("AWS_EC2_METADATA_DISABLED", "true".into()),
    ] {
        env.extra.push((k.into(), v));
    }
    let t = std::time::Instant::now();
    let (code, v) = doctor(&env, &[]);
    assert!(t.elapsed().as_secs() < 25, "took {:?}", t.elapsed());
    assert_eq!(code, 1);
    let c = check(&v, "store");
    assert!(
        c["saw"]
            .as_str()
            .unwrap()
            .contains("did not finish answering within 15 s"),
        "{c}"
    );
    assert_eq!(
        check(&v, "claude-code: MCP server answers")["status"],
        "ok",
        "the other groups still report"
    );
}
