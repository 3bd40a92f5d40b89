//! Many processes appending to one spool at once, with and without SIGKILL: every
//! completed write is intact and readable, and nobody else's record is lost.
//!
//! The writers are this test binary re-run as `spool_writer_entry` with
//! `CTXLAKE_TEST_WRITER=<spool file>,<writer id>,<count>,<record bytes>,<ack file>`.

use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use ctxlake::spool::{self, Limits, Record};

const WRITER_ENV: &str = "CTXLAKE_TEST_WRITER";

#[test]
fn spool_writer_entry() {
    let Ok(spec) = std::env::var(WRITER_ENV) else {
        return;
    };
    let parts: Vec<&str> = spec.split(',').collect();
    let (path, writer, count, size, ack) = (
        Path::new(parts[0]),
        parts[1],
        parts[2].parse::<usize>().unwrap(),
        parts[3].parse::<usize>().unwrap(),
        parts[4],
    );
    let limits = Limits {
        max_dir_bytes: u64::MAX,
        rotate_bytes: u64::MAX,
    };
    let mut ack = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(ack)
        .unwrap();
    for i in 0..count {
        let rec = Record {
            id: format!("{writer}-{i:05}"),
            ts: "2026-11-29T00:00:00.000Z".into(),
            fleet: "f".into(),
            agent: writer.into(),
            session: "s".into(),
            kind: "test".into(),
            payload: serde_json::json!({ "fill": "x".repeat(size) }),
        };
        spool::append(
            path,
            &rec,
            limits,
            false,
            spool::Wait::Fail(std::time::Duration::from_secs(60)),
        )
        .unwrap();
        // Acknowledge only after append returned: acked ⊆ intact is the invariant.
        ack.write_all(format!("{}\n", rec.id).as_bytes()).unwrap();
    }
}

fn spawn_writer(path: &Path, writer: &str, count: usize, size: usize, ack: &Path) -> Child {
    Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "spool::spool_writer_entry",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(
            WRITER_ENV,
            format!(
                "{},{writer},{count},{size},{}",
                path.display(),
                ack.display()
            ),
        )
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

fn read_all(path: &Path) -> spool::Scan {
    spool::read_file(path, 0).unwrap()
}

#[test]
fn thirty_two_writers_lose_nothing() {
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("f.ndjson");
    let children: Vec<Child> = (0..32)
        .map(|w| {
            spawn_writer(
                &path,
                &format!("w{w:02}"),
                200,
                200,
                &d.path().join(format!("ack{w}")),
            )
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let s = read_all(&path);
    assert_eq!(
        s.records.len(),
        6400,
        "bad lines {}, resynced {}",
        s.bad_lines,
        s.resynced
    );
    assert_eq!((s.bad_lines, s.resynced, s.partial_tail_bytes), (0, 0, 0));
    let mut ids: Vec<_> = s.records.iter().map(|r| r.id.clone()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 6400);
}

#[test]
fn sigkilled_writers_cost_no_one_else_a_record() {
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("f.ndjson");
    // Large records make a kill mid-write (a torn record) likely; vary sizes across writers.
    let sizes = [300, 1500, 3500, 9000, 60_000];
    let mut children: Vec<(usize, Child)> = (0..32)
        .map(|w| {
            (
                w,
                spawn_writer(
                    &path,
                    &format!("w{w:02}"),
                    200,
                    sizes[w % sizes.len()],
                    &d.path().join(format!("ack{w}")),
                ),
            )
        })
        .collect();
    // Kill half of them at staggered moments.
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for (w, c) in children.iter_mut() {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        if *w % 2 == 0 {
            std::thread::sleep(Duration::from_millis(seed % 40));
            let _ = c.kill(); // SIGKILL
        }
    }
    for (_, c) in children.iter_mut() {
        let _ = c.wait();
    }
    let s = read_all(&path);
    let intact: std::collections::HashSet<_> = s.records.iter().map(|r| r.id.clone()).collect();
    assert_eq!(intact.len(), s.records.len(), "no record is read twice");
    let mut acked = 0;
    for w in 0..32 {
        let ack = std::fs::read_to_string(d.path().join(format!("ack{w}"))).unwrap_or_default();
        for id in ack.lines().filter(|l| l.len() == "w00-00000".len()) {
            acked += 1;
            assert!(
                intact.contains(id),
                "acknowledged record {id} is missing or torn"
            );
        }
    }
    // Survivors wrote everything.
    for w in (1..32).step_by(2) {
        let n = s
            .records
            .iter()
            .filter(|r| r.agent == format!("w{w:02}"))
            .count();
        assert_eq!(
            n, 200,
            "writer {w} was never killed and must have all 200 records"
        );
    }
    eprintln!(
        "sigkill: {} intact ({acked} acked), {} torn lines, {} resynced, {} bytes skipped",
        s.records.len(),
        s.bad_lines,
        s.resynced,
        s.skipped_bytes
    );
}

#[test]
fn spool_check_reports_torn_lines() {
    let env = crate::common::Env::new();
    env.cmd()
        .args(["fleet", "claim", "a", "--reason", "r"])
        .assert()
        .success();
    let file = env.ctxlake_home().join("spool/mcp/default.ndjson");
    let good = std::fs::read(&file).unwrap();
    let mut bytes = good[..good.len() / 2].to_vec(); // a killed writer's half record
    bytes.extend_from_slice(&good);
    bytes.extend_from_slice(b"not a record\n");
    std::fs::write(&file, bytes).unwrap();
    let v = env.json(&["spool", "check"]);
    assert_eq!(
        v["total_records"], 1,
        "the half record is skipped, the glued whole one recovered"
    );
    assert_eq!(v["files"][0]["resynced"], 1);
    assert_eq!(v["files"][0]["bad_lines"], 1);
    assert!(v["total_skipped_bytes"].as_u64().unwrap() > 0);
}

/// `ctxlake <args>` under a file-size limit of `bytes` (a full disk, without root), with
/// SIGXFSZ ignored (inherited across exec) so the write returns EFBIG, as it would ENOSPC.
fn under_fsize_limit(env: &crate::common::Env, bytes: u64, args: &[&str]) -> Command {
    let base = env.std_cmd();
    let mut sh = Command::new("sh");
    sh.env_clear()
        .args(["-c", "trap '' XFSZ; exec prlimit --fsize=$0:$0 \"$@\""])
        .arg(bytes.to_string())
        .arg(base.get_program())
        .args(args);
    for (k, v) in base.get_envs() {
        if let Some(v) = v {
            sh.env(k, v);
        }
    }
    if let Some(d) = base.get_current_dir() {
        sh.current_dir(d);
    }
    sh
}

/// Every spool file reads back whole: no torn line, no partial tail, nothing skipped.
fn assert_no_torn_record(env: &crate::common::Env, want_records: usize) {
    let v = env.json(&["spool", "check"]);
    assert_eq!(v["total_skipped_bytes"], 0, "{v}");
    for f in v["files"].as_array().unwrap() {
        assert_eq!(f["bad_lines"], 0, "{f}");
        assert_eq!(f["partial_tail_bytes"], 0, "{f}");
    }
    assert_eq!(v["total_records"], want_records, "{v}");
}

#[test]
fn a_full_disk_fails_writes_cleanly_and_leaves_no_torn_record() {
    const LIMIT: u64 = 2000;
    let env = crate::common::Env::new();
    let mut queued = 0;
    let failed = (0..20).find_map(|i| {
        let path = format!("src/file-{i}.rs");
        let out = under_fsize_limit(&env, LIMIT, &["fleet", "claim", &path, "--reason", "r"])
            .output()
            .unwrap();
        if out.status.success() {
            queued += 1;
            None
        } else {
            Some(out)
        }
    });
    let out = failed.expect("a claim past the limit fails");
    assert!(queued > 0, "the first claims fit");
    assert_eq!(out.status.code(), Some(3), "an I/O error");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("error: cannot append to"), "{err}");
    assert!(err.contains("ulimit -f"), "{err}");
    assert_no_torn_record(&env, queued);
    // The hook under the same limit: still exit 0, its failed capture logged, nothing torn.
    let session = "full-disk";
    let mut hooked = 0;
    for i in 0..20 {
        let body = format!(
            r#"{{"session_id":"{session}","hook_event_name":"UserPromptSubmit","prompt":"p{i}"}}"#
        );
        let mut c = under_fsize_limit(&env, LIMIT, &["hook", "claude-code"]);
        let out = c
            .stdin(Stdio::piped())
            .spawn()
            .and_then(|mut ch| {
                ch.stdin.take().unwrap().write_all(body.as_bytes())?;
                ch.wait_with_output()
            })
            .unwrap();
        assert!(out.status.success(), "the hook exits 0 on a full disk");
        let logs = std::fs::read_dir(env.ctxlake_home().join("logs"))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
            .collect::<String>();
        if logs.contains("not captured") {
            assert!(logs.contains("cannot append to"), "{logs}");
            break;
        }
        hooked += 1;
    }
    assert!(hooked < 20, "a hook capture past the limit failed");
    assert_no_torn_record(&env, queued + hooked);
}
