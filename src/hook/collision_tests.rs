//! Collision verdicts: who holds what, warn versus block, and our own agent id.

use super::*;
use crate::cache::{LeaseEntry, Presence};

/// 2026-11-29 at `HH:MM:SS`, in ms.
fn at(t: &str) -> i64 {
    crate::time::parse_rfc3339(&format!("2026-11-29T{t}Z")).unwrap()
}

fn roster(repo: &str) -> Roster {
    let lease = |path: &str, granted: &str| LeaseEntry {
        repo: repo.into(),
        path: path.into(),
        reason: "refactor login".into(),
        granted_at_ms: at(granted),
        expires_at_ms: at("23:00:00"),
    };
    let agent = |name: &str, session: &str, leases| Presence {
        agent: name.into(),
        session: session.into(),
        last_seen_ms: at("10:00:00"),
        leases,
        ..Presence::default()
    };
    Roster {
        generated_at: "2026-11-29T10:00:00Z".into(),
        lake_clock_offset_ms: 0,
        agents: vec![
            agent("alice", "s1", vec![lease("src/auth", "09:00:00")]),
            agent("me", "s9", vec![lease("docs", "09:00:00")]),
            // Contended behind alice: holds nothing, so never reported.
            agent("bob", "s2", vec![lease("src/auth/login.rs", "09:30:00")]),
        ],
    }
}

fn now() -> i64 {
    at("10:00:00")
}

#[test]
fn only_the_holder_of_an_overlapping_lease_in_this_repo_is_reported() {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir(d.path().join(".git")).unwrap();
    let repo_id = d.path().display().to_string();
    let r = roster(&repo_id);
    let abs = d.path().join("src/auth/login.rs").display().to_string();
    let c = check(&r, "me", &[abs], d.path(), now());
    assert_eq!(c.len(), 1, "{c:?}");
    assert_eq!(
        (c[0].holder.as_str(), c[0].path.as_str()),
        ("alice", "src/auth/login.rs")
    );
    assert!(!c[0].same_agent);
    assert!(check(&r, "me", &["src/other.rs".into()], d.path(), now()).is_empty());
    let other_repo = roster("github.com/x/y");
    assert!(
        check(
            &other_repo,
            "me",
            &["src/auth/a.rs".into()],
            d.path(),
            now()
        )
        .is_empty()
    );
    let ends = at("23:00:00");
    assert!(
        !check(&r, "me", &["src/auth/a.rs".into()], d.path(), ends - 1).is_empty(),
        "in force until its expiry"
    );
    assert!(
        check(&r, "me", &["src/auth/a.rs".into()], d.path(), ends).is_empty(),
        "expired"
    );
    let mine = check(&r, "me", &["docs/x.md".into()], d.path(), now());
    assert!(mine[0].same_agent);
}

fn conflict(same_agent: bool) -> Conflict {
    Conflict {
        path: "src/auth/login.rs".into(),
        lease_path: "src/auth".into(),
        holder: "alice".into(),
        session: "s1".into(),
        reason: "refactor login".into(),
        expires_at: "2026-11-29T23:00:00Z".into(),
        same_agent,
    }
}

#[test]
fn warn_by_default_block_only_when_configured() {
    assert_eq!(decide(&[], true), None);
    let Some(Verdict::Warn(w)) = decide(&[conflict(false)], false) else {
        panic!("expected a warning")
    };
    for part in [
        "alice",
        "refactor login",
        "2026-11-29T23:00:00Z",
        "advisory",
        "src/auth/login.rs",
    ] {
        assert!(w.contains(part), "{part} missing from {w}");
    }
    let Some(Verdict::Block(b)) = decide(&[conflict(false)], true) else {
        panic!("expected a block")
    };
    assert!(b.contains("block_on_conflict"), "{b}");
    assert!(
        matches!(decide(&[conflict(true)], true), Some(Verdict::Warn(_))),
        "never block over our own agent id"
    );
}

#[test]
fn a_lease_contended_by_one_elsewhere_is_not_a_holder() {
    // carol's `src` is contended by dave's earlier `src/b`: an edit of `src/a` meets no
    // holder, even though dave's lease does not touch `src/a` (the subset must keep it).
    let lease = |path: &str, granted: &str| LeaseEntry {
        repo: String::new(),
        path: path.into(),
        reason: "r".into(),
        granted_at_ms: at(granted),
        expires_at_ms: at("23:00:00"),
    };
    let r = Roster {
        agents: vec![
            Presence {
                agent: "carol".into(),
                leases: vec![lease("src", "10:00:00")],
                ..Presence::default()
            },
            Presence {
                agent: "dave".into(),
                leases: vec![lease("src/b", "09:00:00")],
                ..Presence::default()
            },
        ],
        ..Roster::default()
    };
    let d = tempfile::tempdir().unwrap();
    assert!(check(&r, "me", &["src/a".into()], d.path(), now()).is_empty());
    let b = check(&r, "me", &["src/b/x.rs".into()], d.path(), now());
    assert_eq!(
        b.iter().map(|c| c.holder.as_str()).collect::<Vec<_>>(),
        ["dave"]
    );
}

/// A planted bidi override or tag character never survives the lean read, and a lease
/// path hiding a zero-width space decides writes exactly as `fleet_status` shows it.
#[test]
fn deciding_leases_pass_the_read_boundary() {
    let d = tempfile::tempdir().unwrap();
    let file = d.path().join("roster.json");
    let roster = serde_json::json!({"generated_at": "x", "agents": [{
        "agent": "ali\u{202E}ce\u{E0041}", "session": "s\u{202E}1", "last_seen_ms": 0,
        "leases": [{"repo": "r", "path": "src/\u{200B}auth", "reason": "re\u{E0041}factor",
                    "granted_at_ms": at("09:00:00"), "expires_at_ms": at("23:00:00")}]}]});
    std::fs::write(&file, roster.to_string()).unwrap();
    let rel = [("r".to_string(), "src/auth/login.rs".to_string())];
    let (got, offset) = read_deciding(&file, &rel).unwrap();
    assert_eq!(offset, 0);
    let c = check_rel(&got, "me", &rel, now());
    assert_eq!(c.len(), 1, "{got:?}");
    assert_eq!(
        (c[0].holder.as_str(), c[0].session.as_str()),
        ("alice", "s1")
    );
    assert_eq!(
        (c[0].lease_path.as_str(), c[0].reason.as_str()),
        ("src/auth", "refactor")
    );
}
