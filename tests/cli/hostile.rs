//! The lake is untrusted input: hostile objects planted in a local lake (and, for the
//! `#[ignore]`d tests, in moto) are refused or skipped, counted in `sync --json` and
//! `doctor`, and never stop a pass, hang a host or leak a file.

use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};
use sha2::Digest;

use crate::common::Env;
use crate::s3::moto;

/// Long enough for a debug build on a loaded machine; a hang is far longer.
const PATIENCE: Duration = Duration::from_secs(120);

/// Run with `--json` under a deadline: a hostile object must not hang the command.
fn json_within(env: &Env, args: &[&str]) -> Value {
    let out = env
        .cmd()
        .args(args)
        .arg("--json")
        .timeout(PATIENCE)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "ctxlake {args:?}: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn run(env: &Env, args: &[&str]) {
    env.cmd().args(args).timeout(PATIENCE).assert().success();
}

/// A claim promoted and mirrored: the good snapshot a crafted one must not replace, at the
/// path returned (`cache/default/snapshot.bin`).
pub(crate) fn published(env: &Env) -> std::path::PathBuf {
    let ev = json!([{"session_id": env.session, "message_id": "m1"}]).to_string();
    run(
        env,
        &[
            "memory",
            "propose",
            "Widgets listen on port 8080",
            "--type",
            "environment",
            "--subject",
            "widgets",
            "--evidence-json",
            &ev,
        ],
    );
    run(env, &["sync"]);
    run(env, &["maint"]);
    run(env, &["sync"]);
    let bin = env.ctxlake_home().join("cache/default/snapshot.bin");
    assert!(bin.exists());
    bin
}

fn found(env: &Env) -> usize {
    let v = json_within(env, &["memory", "search", "widgets port"]);
    v["results"].as_array().unwrap().len()
}

/// The issue's attack: a snapshot whose `claims` is a view over an endless recursive CTE.
pub(crate) fn crafted_snapshot() -> Vec<u8> {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("evil.sqlite");
    let c = rusqlite::Connection::open(&p).unwrap();
    c.execute_batch(
        "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
         INSERT INTO meta VALUES ('snapshot_id', 'evil'), ('mode', 'on');
         CREATE VIEW claims AS WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r)
           SELECT x AS rowid, 'c-evil' AS id, 'widgets port' AS text, 'environment' AS type,
           'widgets' AS subject, 'fleet' AS scope, 'promoted' AS status, 1 AS visible,
           1 AS independent_sessions, 0.9 AS confidence, '' AS created_at, NULL AS promoted_at,
           'a' AS agent, 's' AS session, x'00' AS embedding FROM r;
         CREATE TABLE events(at, subject, kind, claim_id, agent, session, text, visible);",
    )
    .unwrap();
    drop(c);
    std::fs::read(&p).unwrap()
}

/// The crafted snapshot and a manifest naming it with the next number, as `(key, bytes)`.
fn crafted_publication(next_seq: u64) -> Vec<(String, Vec<u8>)> {
    let bytes = crafted_snapshot();
    let sha = hex(&sha2::Sha256::digest(&bytes));
    let key = format!("snapshot/default/{sha}.sqlite");
    let manifest = json!({
        "seq": next_seq, "snapshot_id": "evil", "key": key, "sha256": sha,
        "writer": "evil-01", "built_at": "2026-12-01T00:00:00.000Z", "mode": "on", "claims": 1
    });
    vec![
        (key, bytes),
        (
            format!("snapshot/default/manifest/{next_seq:020}.json"),
            serde_json::to_vec(&manifest).unwrap(),
        ),
    ]
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn plant(lake: &Path, key: &str, bytes: &[u8]) {
    let p = lake.join(key);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, bytes).unwrap();
}

/// Name `keys` in fleet `default`'s feed, as a forger who wants readers to find what it
/// planted must (lake format 3: readers follow the feed to handoffs and manifests).
fn name_in_feed(lake: &Path, keys: &[&str]) {
    let (key, entry) = feed_entry(keys);
    plant(lake, &key, &entry);
}

/// A feed entry of fleet `default` naming `keys`, minted now: `(key, bytes)`.
fn feed_entry(keys: &[&str]) -> (String, Vec<u8>) {
    const CROCKFORD: &[u8] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    let mut ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    let mut time = [0u8; 10];
    for c in time.iter_mut().rev() {
        *c = CROCKFORD[(ms % 32) as usize];
        ms /= 32;
    }
    let id = format!("{}{:016}", String::from_utf8_lossy(&time), keys.len());
    let entry = serde_json::to_vec(&json!({ "keys": keys })).unwrap();
    (format!("feed/default/{id}.json"), entry)
}

/// What `sync --json` said it skipped.
fn skipped(v: &Value, what: &str) -> u64 {
    v["skipped"][what].as_u64().unwrap_or(0)
}

/// A snapshot with a view for `claims`, published with the next manifest number, is
/// refused before any query (a clear note in `sync --json` and `doctor`), the previous
/// snapshot stays in use, and the next pass does not fetch it again.
#[test]
fn a_crafted_snapshot_is_refused_and_the_previous_one_stays() {
    let env = Env::new();
    published(&env);
    assert_eq!(found(&env), 1);
    let lake = env.ctxlake_home().join("lake");
    for (k, b) in crafted_publication(2) {
        plant(&lake, &k, &b);
    }
    name_in_feed(
        &lake,
        &["snapshot/default/manifest/00000000000000000002.json"],
    );
    let v = json_within(&env, &["sync"]);
    assert_eq!(skipped(&v, "snapshots_refused"), 1, "{v}");
    let note = v["skipped"]["note"].as_str().unwrap();
    assert!(note.contains("view `claims`"), "{note}");
    assert_eq!(found(&env), 1, "the previous snapshot stays in use");
    let (_, d) = crate::doctor::doctor(&env, &[]);
    let c = crate::doctor::check(&d, "lake content");
    assert_eq!(c["status"], "warn", "{c}");
    // Named again (a second entry): not fetched again, and said so.
    name_in_feed(
        &lake,
        &["snapshot/default/manifest/00000000000000000002.json"],
    );
    let again = json_within(&env, &["sync"]);
    assert!(
        again["skipped"]["note"]
            .as_str()
            .unwrap()
            .contains("refused before"),
        "{again}"
    );
    assert_eq!(found(&env), 1);
}

/// The same attack through a real S3 server.
#[test]
#[ignore = "needs moto: run .ci/run"]
fn a_crafted_snapshot_in_s3_is_refused_and_the_previous_one_stays() {
    let m = moto::start();
    m.create_bucket("lake");
    let env = m.host(&m.endpoint(), "s3://lake/team");
    published(&env);
    assert_eq!(found(&env), 1);
    for (k, b) in crafted_publication(2) {
        m.put("lake", &format!("team/{k}"), &b);
    }
    let (k, b) = feed_entry(&["snapshot/default/manifest/00000000000000000002.json"]);
    m.put("lake", &format!("team/{k}"), &b);
    let v = json_within(&env, &["sync"]);
    assert_eq!(skipped(&v, "snapshots_refused"), 1, "{v}");
    assert_eq!(found(&env), 1, "the previous snapshot stays in use");
}

/// A symlink (out of the lake, to a directory, to `/dev/zero`), a FIFO, an object over its kind's cap
/// and a name no key may have: each skipped and counted, and the pass goes on.
#[test]
fn non_regular_oversize_and_badly_named_objects_in_a_local_lake_are_skipped() {
    let env = Env::new();
    run(&env, &["fleet", "claim", "src", "--reason", "mine"]);
    run(&env, &["sync"]);
    let lake = env.ctxlake_home().join("lake");
    let secret = env.dir.path().join("private.txt");
    std::fs::write(&secret, "SECRET").unwrap();
    let hosts = lake.join("live/default/hosts");
    std::os::unix::fs::symlink(&secret, hosts.join("evil1.json")).unwrap();
    std::os::unix::fs::symlink(env.dir.path(), hosts.join("evil2.json")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", hosts.join("evil6.json")).unwrap();
    let fifo = hosts.join("evil3.json");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let big = vec![b' '; 5 << 20];
    std::fs::write(hosts.join("evil4.json"), &big).unwrap();
    std::fs::write(hosts.join("evil\u{85}5.json"), b"{}").unwrap();
    let v = json_within(&env, &["sync"]);
    assert_eq!(skipped(&v, "not_regular"), 4, "{v}");
    assert_eq!(skipped(&v, "oversize"), 1, "{v}");
    assert_eq!(skipped(&v, "bad_keys"), 1, "{v}");
    let st = json_within(&env, &["fleet", "status"]);
    assert_eq!(st["agents"].as_array().unwrap().len(), 1, "{st}");
}

/// `lake copy` never follows a symlink: the copier's private file does not reach the
/// destination lake.
#[test]
fn lake_copy_does_not_upload_a_file_through_a_symlink() {
    let env = Env::new();
    run(&env, &["fleet", "handoff", "done here", "--status", "done"]);
    run(&env, &["sync"]);
    let src = env.ctxlake_home().join("lake");
    let secret = env.dir.path().join("id_rsa");
    std::fs::write(&secret, "SECRET-KEY").unwrap();
    let link = src.join("handoffs/default/01JZZZZZZZZZZZZZZZZZZZZZZZ.ndjson");
    std::os::unix::fs::symlink(&secret, &link).unwrap();
    let to = tempfile::tempdir().unwrap();
    env.cmd()
        .args([
            "lake",
            "copy",
            &format!("file://{}", src.display()),
            &format!("file://{}", to.path().display()),
        ])
        .timeout(PATIENCE)
        .assert()
        .success();
    let mut leaked = Vec::new();
    let mut stack = vec![to.path().to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if std::fs::read(&p)
                .unwrap_or_default()
                .windows(6)
                .any(|w| w == b"SECRET")
            {
                leaked.push(p);
            }
        }
    }
    assert!(
        leaked.is_empty(),
        "the private file reached the copy: {leaked:?}"
    );
}

/// An oversize roster in S3 is skipped from its listed size, never read.
#[test]
#[ignore = "needs moto: run .ci/run"]
fn an_oversize_roster_in_s3_is_skipped_and_counted() {
    let m = moto::start();
    m.create_bucket("lake");
    let env = m.host(&m.endpoint(), "s3://lake/team");
    run(&env, &["fleet", "claim", "src", "--reason", "mine"]);
    run(&env, &["sync"]);
    m.put(
        "lake",
        "team/live/default/hosts/evil.json",
        &vec![b' '; 5 << 20],
    );
    let v = json_within(&env, &["sync"]);
    assert_eq!(skipped(&v, "oversize"), 1, "{v}");
    let st = json_within(&env, &["fleet", "status"]);
    assert_eq!(st["agents"].as_array().unwrap().len(), 1, "{st}");
}

/// Whatever the cache holds, a reader checks its size before parsing it: a huge roster
/// cache is reported, not parsed, and the hook still answers.
#[test]
fn a_huge_roster_cache_is_not_parsed_on_the_hot_path() {
    let env = Env::new();
    run(&env, &["sync"]);
    let pad = "x".repeat(9 << 20);
    let roster = format!(
        r#"{{"generated_at":"2026-12-01T00:00:00.000Z","lake_clock_offset_ms":0,"agents":[],"pad":"{pad}"}}"#
    );
    env.write("cache/default/roster.json", &roster);
    let v = json_within(&env, &["fleet", "status"]);
    let note = v.to_string();
    assert!(note.contains("larger than"), "{note}");
}

/// A forged manifest numbered `u64::MAX` naming a snapshot of its own: as `(key, bytes)`.
fn forged_last_manifest(lake_manifest_1: &[u8]) -> (String, Vec<u8>) {
    let mut m: Value = serde_json::from_slice(lake_manifest_1).unwrap();
    m["seq"] = json!(u64::MAX);
    m["snapshot_id"] = json!("forged");
    (
        format!("snapshot/default/manifest/{:020}.json", u64::MAX),
        serde_json::to_vec(&m).unwrap(),
    )
}

/// A manifest numbered `u64::MAX` is ignored by readers (counted) and by `maint`, which
/// publishes the next real number instead of wrapping to 0.
#[test]
fn a_manifest_numbered_u64_max_is_ignored_and_maint_does_not_wrap() {
    let mut env = Env::new();
    published(&env);
    let lake = env.ctxlake_home().join("lake");
    let first =
        std::fs::read(lake.join(format!("snapshot/default/manifest/{:020}.json", 1))).unwrap();
    let (k, b) = forged_last_manifest(&first);
    plant(&lake, &k, &b);
    name_in_feed(&lake, &[&k]);
    let v = json_within(&env, &["sync"]);
    assert_eq!(skipped(&v, "manifests_ignored"), 1, "{v}");
    assert_ne!(v["fleets"][0]["snapshot_id"], "forged", "{v}");
    env.as_agent("a2", "s2");
    let ev = json!([{"session_id": "s2", "message_id": "m2"}]).to_string();
    run(
        &env,
        &[
            "memory",
            "propose",
            "Gadgets need redis",
            "--type",
            "environment",
            "--subject",
            "gadgets",
            "--evidence-json",
            &ev,
        ],
    );
    run(&env, &["sync"]);
    let m = json_within(&env, &["maint"]);
    assert!(m.to_string().contains("published"), "{m}");
    let manifests: Vec<String> = std::fs::read_dir(lake.join("snapshot/default/manifest"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(
        manifests.contains(&format!("{:020}.json", 2)),
        "{manifests:?}"
    );
    assert!(
        !manifests.contains(&format!("{:020}.json", 0)),
        "{manifests:?}"
    );
}

/// A manifest whose `key` no store may be asked for (or another fleet's) is ignored and
/// counted: it does not abort the pass for every fleet.
#[test]
fn a_manifest_naming_a_refused_key_does_not_stop_the_pass() {
    let env = Env::new();
    published(&env);
    let lake = env.ctxlake_home().join("lake");
    let first =
        std::fs::read(lake.join(format!("snapshot/default/manifest/{:020}.json", 1))).unwrap();
    let mut m: Value = serde_json::from_slice(&first).unwrap();
    m["seq"] = json!(2);
    m["snapshot_id"] = json!("elsewhere");
    m["key"] = json!("snapshot/default/../../../etc/passwd");
    let key = format!("snapshot/default/manifest/{:020}.json", 2);
    plant(&lake, &key, &serde_json::to_vec(&m).unwrap());
    name_in_feed(&lake, &[&key]);
    run(&env, &["fleet", "claim", "src", "--reason", "still synced"]);
    let v = json_within(&env, &["sync"]);
    assert_eq!(skipped(&v, "manifests_ignored"), 1, "{v}");
    assert_eq!(v["fleets"][0]["agents"], 1, "{v}");
    assert_eq!(found(&env), 1, "the previous snapshot stays in use");
}

/// A roster under a new host id, as a forger writes it: `agent`/`session` holding the
/// whole repo until `expires_at_ms`, granted now.
fn forged_roster(agent: &str, session: &str, expires_at_ms: i64) -> Vec<u8> {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let lease = json!({"repo": "", "path": "**", "reason": "mine now",
        "granted_at_ms": now - 1_000, "expires_at_ms": expires_at_ms});
    let roster = json!({"host": "01jforgedhost0000000000000", "fleet": "default",
        "sessions": [{"fleet": "default", "agent": agent, "session": session,
            "leases": [lease], "last_seen_ms": now}],
        "windows": [], "write": "01JFORGEDWRITE000000000000"});
    serde_json::to_vec(&roster).unwrap()
}

/// A forged lease expiring in year 9999 is held at most the longest TTL after its grant.
#[test]
fn a_forged_year_9999_expiry_is_capped_at_the_longest_ttl() {
    let env = Env::new();
    run(&env, &["sync"]);
    let lake = env.ctxlake_home().join("lake");
    let forged = forged_roster("intruder", "s-evil", 253_402_300_799_000);
    plant(&lake, "fleets/default", b"");
    plant(
        &lake,
        "live/default/hosts/01jforgedhost0000000000000.json",
        &forged,
    );
    run(&env, &["sync"]);
    let st = json_within(&env, &["fleet", "status"]);
    let leases = crate::s3::leases(&st, "intruder");
    assert_eq!(leases.len(), 1, "{st}");
    let expires = leases[0]["expires_at"].as_str().unwrap();
    assert!(!expires.starts_with("9999"), "{expires}");
}

/// The issue's takeover: a roster under a new host id claims this host's agent and
/// session with the whole repo. The session belongs to the roster that carried it first:
/// the forged entry is refused (counted, with a note) and the real lease stays.
#[test]
fn a_roster_speaking_for_another_hosts_session_is_refused() {
    let env = Env::new();
    run(&env, &["fleet", "claim", "src", "--reason", "mine"]);
    run(&env, &["sync"]);
    let lake = env.ctxlake_home().join("lake");
    std::thread::sleep(Duration::from_millis(20));
    let forged = forged_roster(&env.agent, &env.session, 253_402_300_799_000);
    plant(
        &lake,
        "live/default/hosts/01jforgedhost0000000000000.json",
        &forged,
    );
    let v = json_within(&env, &["sync"]);
    assert_eq!(skipped(&v, "sessions_refused"), 1, "{v}");
    let note = v["skipped"]["note"].as_str().unwrap();
    assert!(note.contains("carried first"), "{note}");
    let st = json_within(&env, &["fleet", "status"]);
    let leases = crate::s3::leases(&st, &env.agent);
    assert_eq!(leases.len(), 1, "{st}");
    assert_eq!(leases[0]["path"], "src", "{st}");
}

/// One framed lake record (the spool's framing: `{"v":1,"crc":"…",` then the rest).
fn framed(record: &Value) -> Vec<u8> {
    let body = serde_json::to_string(record).unwrap();
    let rest = &body[1..];
    let crc = crc32fast::hash(rest.as_bytes());
    format!("{{\"v\":1,\"crc\":\"{crc:08x}\",{rest}\n").into_bytes()
}

/// A handoff minted in the far future (the largest ULID time, year 10889) leads the
/// briefing only until a later real note: it is ordered by the lake time it landed.
#[test]
fn a_far_future_handoff_does_not_lead_every_briefing_forever() {
    let env = Env::new();
    run(
        &env,
        &["fleet", "handoff", "first real note", "--status", "done"],
    );
    run(&env, &["sync"]);
    let id = "7ZZZZZZZZZ0000000000000000";
    let rec = json!({"id": id, "ts": "9999-12-31T23:59:59.000Z", "fleet": "default",
        "agent": "intruder", "session": "s-evil", "kind": "fleet_handoff",
        "payload": {"summary": "forged leads forever", "status": "done"}});
    let lake = env.ctxlake_home().join("lake");
    let key = format!("handoffs/default/{id}.ndjson");
    plant(&lake, &key, &framed(&rec));
    name_in_feed(&lake, &[&key]);
    run(&env, &["sync"]);
    std::thread::sleep(Duration::from_millis(20));
    run(
        &env,
        &["fleet", "handoff", "later real note", "--status", "done"],
    );
    run(&env, &["sync"]);
    let cached: Value = serde_json::from_slice(
        &std::fs::read(env.ctxlake_home().join("cache/default/handoffs.json")).unwrap(),
    )
    .unwrap();
    let summaries: Vec<&str> = cached["handoffs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["summary"].as_str().unwrap())
        .collect();
    assert_eq!(summaries.len(), 3, "{summaries:?}");
    assert_eq!(summaries[0], "later real note", "{summaries:?}");
    let forged = &cached["handoffs"][1];
    assert!(
        !forged["at"].as_str().unwrap().starts_with("9999"),
        "{forged}"
    );
}
