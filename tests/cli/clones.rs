//! Two homes cloned from one machine image share `state/host-id` (and the kept copy of
//! its roster). Their `sync`s must not overwrite each other's roster: the home that finds
//! a roster write it never made takes a new host id, says so once on stderr, and both
//! homes' leases stay visible to a third host. Against a local lake here, and against
//! moto (`s3.rs`) with the same steps.

use serde_json::Value;

use crate::common::Env;

fn leases_of(v: &Value, agent: &str) -> Vec<String> {
    let agents = v["agents"].as_array().unwrap();
    let mine = agents.iter().filter(|a| a["agent"] == agent);
    let mut paths: Vec<String> = mine
        .flat_map(|a| a["leases"].as_array().unwrap().iter())
        .map(|l| l["path"].as_str().unwrap().to_string())
        .collect();
    paths.sort();
    paths.dedup();
    paths
}

/// Claim `path` as `agent`/`session`, then sync; the sync's stderr.
fn claim_and_sync(env: &mut Env, agent: &str, session: &str, path: &str) -> String {
    env.as_agent(agent, session);
    let claim = ["fleet", "claim", path, "--reason", "work"];
    env.cmd().args(claim).assert().success();
    let out = env.cmd().arg("sync").output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stderr).unwrap()
}

fn host_id(env: &Env) -> String {
    std::fs::read_to_string(env.ctxlake_home().join("state/host-id")).unwrap()
}

/// `b` becomes a clone of `a`'s home (its whole `CTXLAKE_HOME`, as a VM image would);
/// all three share one lake through their environment.
pub(crate) fn cloned_homes_keep_both_rosters(a: &mut Env, b: &mut Env, c: &Env) {
    assert!(claim_and_sync(a, "a1", "s1", "src/a").is_empty());
    let status = std::process::Command::new("cp")
        .arg("-a")
        .arg(a.ctxlake_home())
        .arg(b.home())
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(host_id(a), host_id(b), "cloned");
    // Both homes now hold session a1/s1; a reader takes the copy seen last. Each process
    // estimates the lake's clock from whole-second `Date` headers, so two syncs in one
    // second may stamp out of order: let a second pass before `a` moves the session on.
    std::thread::sleep(std::time::Duration::from_millis(1100));

    assert!(claim_and_sync(a, "a1", "s1", "src/a2").is_empty());
    let warned = claim_and_sync(b, "b1", "s2", "src/b");
    assert!(
        warned.starts_with("warning: another home uses this host's id")
            && warned.contains("\nhint: "),
        "the clone is reported: {warned:?}"
    );
    assert_ne!(host_id(a), host_id(b), "one home took a new id");
    for (env, agent, path) in [(&mut *a, "a1", "src/a3"), (&mut *b, "b1", "src/b2")] {
        let said = claim_and_sync(env, agent, "s9", path);
        assert!(said.is_empty(), "reported once: {said:?}");
    }

    c.cmd().arg("sync").assert().success();
    let v = c.json(&["fleet", "status"]);
    assert_eq!(leases_of(&v, "a1"), ["src/a", "src/a2", "src/a3"], "{v}");
    assert_eq!(leases_of(&v, "b1"), ["src/b", "src/b2"], "{v}");
}

#[test]
fn cloned_homes_on_a_local_lake_keep_both_rosters() {
    let lake = tempfile::tempdir().unwrap();
    let store = format!("file://{}", lake.path().display());
    let [mut a, mut b, mut c] = [Env::new(), Env::new(), Env::new()];
    for env in [&mut a, &mut b, &mut c] {
        env.extra.push(("CTXLAKE_STORE".into(), store.clone()));
    }
    cloned_homes_keep_both_rosters(&mut a, &mut b, &c);
    let rosters = std::fs::read_dir(lake.path().join("live/default/hosts")).unwrap();
    assert_eq!(rosters.count(), 2, "one roster per home");
}

#[test]
#[ignore = "needs moto: run .ci/run"]
fn cloned_homes_on_s3_keep_both_rosters() {
    let m = crate::s3::moto::start();
    m.create_bucket("clones");
    let host = || m.host(&m.endpoint(), "s3://clones/lake");
    let (mut a, mut b, c) = (host(), host(), host());
    cloned_homes_keep_both_rosters(&mut a, &mut b, &c);
    let keys = m.keys("clones");
    let rosters = keys
        .iter()
        .filter(|k| k.starts_with("lake/live/default/hosts/"));
    assert_eq!(rosters.count(), 2, "one roster per home: {keys:?}");
}
