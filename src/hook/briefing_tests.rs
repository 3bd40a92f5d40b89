//! The briefing: content, sanitizing, and the size cap under a large fleet.

use super::*;
use crate::cache::{HandoffNote, Handoffs, LeaseEntry, Presence, Roster};
use crate::config::Config;
use crate::paths::Paths;
use crate::scope::Scope;
use crate::snapshot::build::build as build_snapshot;
use crate::snapshot::rows::ClaimRow;
use crate::vocab::{ClaimScope, ClaimStatus, ClaimType};

/// The instant every test briefs at; leases expire an hour later.
const NOW: i64 = 1_764_000_000_000;

fn ctx(home: &std::path::Path) -> Ctx {
    Ctx {
        paths: Paths::with_overrides(home.to_path_buf(), None, None),
        config: Config::default(),
        scope: Scope {
            fleet: "f".into(),
            agent: "me".into(),
            session: "s".into(),
        },
        pinned_fleet: None,
        grant: Default::default(),
        cwd: home.to_path_buf(),
        clock: crate::ctx::Clock::Fixed(NOW),
        trace: crate::ctx::Trace::default(),
    }
}

fn b(c: &Ctx) -> String {
    build(c, None, &mut Vec::new())
}

fn write(c: &Ctx, name: &str, v: &impl serde::Serialize) {
    let p = c.paths.cache_file("f", name);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, serde_json::to_vec(v).unwrap()).unwrap();
}

fn populate(c: &Ctx, agents: usize, leases: usize, evil: &str) {
    let now = crate::time::format_ms(NOW);
    let roster = Roster {
        generated_at: now.clone(),
        lake_clock_offset_ms: 0,
        agents: (0..agents)
            .map(|i| Presence {
                agent: format!("agent-{i}"),
                session: format!("s{i}"),
                runtime: Some("claude-code".into()),
                task: Some(format!("task {i} {evil}")),
                last_seen_ms: NOW,
                leases: (0..leases)
                    .map(|j| LeaseEntry {
                        repo: String::new(),
                        path: format!("src/m{i}/f{j}.rs"),
                        reason: "work".into(),
                        granted_at_ms: NOW,
                        expires_at_ms: NOW + 3_600_000,
                    })
                    .collect(),
            })
            .collect(),
    };
    write(c, cache::ROSTER, &roster);
    let note = HandoffNote {
        id: "h1".into(),
        at: now.clone(),
        agent: "agent-1".into(),
        session: "s1".into(),
        summary: format!("left auth half done {evil}"),
        status: crate::vocab::HandoffStatus::Blocked,
        next: Some("finish the token refresh".into()),
        repo: None,
    };
    write(
        c,
        cache::HANDOFFS,
        &Handoffs {
            generated_at: now,
            handoffs: vec![note],
        },
    );
}

fn snapshot(c: &Ctx, n: usize) {
    let claims: Vec<ClaimRow> = (0..n)
        .map(|i| ClaimRow {
            id: format!("c{i}"),
            text: format!("claim number {i} says cargo test needs RUSTFLAGS \u{202e}evil"),
            claim_type: ClaimType::Environment,
            subject: "ci".into(),
            scope: ClaimScope::Fleet,
            status: ClaimStatus::Promoted,
            independent_sessions: 2,
            confidence: 0.8,
            created_at: "2026-11-01T00:00:00Z".into(),
            promoted_at: Some("2026-11-02T00:00:00Z".into()),
            agent: "a".into(),
            session: "s".into(),
            key: None,
            superseded_by: None,
            superseded_at: None,
            outdated_by: None,
            pending_by: None,
            last_evidence_at: "2026-11-01T00:00:00.000Z".into(),
        })
        .collect();
    let p = c.paths.snapshot_bin("f");
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    build_snapshot(&p, "snap", "f", crate::config::MemoryMode::On, &claims, &[]).unwrap();
}

#[test]
fn empty_cache_still_briefs_briefly() {
    let d = tempfile::tempdir().unwrap();
    let b = b(&ctx(d.path()));
    assert!(b.contains("no fleet state cached yet"), "{b}");
    assert!(b.contains("advisory"));
    assert!(b.chars().count() < 400);
}

#[test]
fn agents_handoffs_and_at_most_five_attributed_claims() {
    let d = tempfile::tempdir().unwrap();
    let c = ctx(d.path());
    populate(&c, 3, 2, "");
    snapshot(&c, 8);
    let b = b(&c);
    assert!(b.contains("Live agents (3):"), "{b}");
    assert!(b.contains("agent-0 [claude-code] «task 0"), "{b}");
    assert!(b.contains("holds «src/m0/f0.rs» until"), "{b}");
    assert!(b.contains(crate::peer::LEGEND), "{b}");
    assert!(b.contains("finish the token refresh"), "{b}");
    assert!(b.contains(render::HEADING), "{b}");
    assert!(
        b.contains("[c0, 2026-11-02, 2 independent sessions, conf 0.80]"),
        "{b}"
    );
    let shown = (0..8).filter(|i| b.contains(&format!("[c{i}, "))).count();
    assert!((1..=5).contains(&shown), "{shown} claims shown");
}

#[test]
fn capped_and_sanitized_under_a_big_fleet() {
    let d = tempfile::tempdir().unwrap();
    let c = ctx(d.path());
    let evil = "\u{1b}[2J\u{200b}\u{e0041}".repeat(50) + &"x".repeat(5000);
    populate(&c, 50, 10, &evil);
    snapshot(&c, 50);
    let b = b(&c);
    assert!(
        b.chars().count() <= MAX_CHARS,
        "{} chars",
        b.chars().count()
    );
    assert!(!b.contains('\u{1b}'), "ESC must be stripped");
    assert!(b.contains(sanitize::TRUNCATED_MARKER));
    assert!(b.contains("Live agents (50):"));
    assert!(b.contains(render::HEADING), "claims keep their share: {b}");
}

/// What `ctxlake sync` pre-renders gives the same briefing as rendering from the raw
/// caches, and the hook then prefers it.
#[test]
fn pre_rendered_material_gives_the_same_briefing() {
    let d = tempfile::tempdir().unwrap();
    let c = ctx(d.path());
    populate(&c, 5, 3, "");
    snapshot(&c, 3);
    let live = b(&c);
    crate::fleet::briefing::write(&c).unwrap();
    assert!(c.paths.cache_file("f", cache::BRIEFING).exists());
    assert_eq!(b(&c), live);
    // Proof it is read: change the raw roster, the briefing stays what sync rendered.
    populate(&c, 1, 1, "");
    assert_eq!(b(&c), live);
}

/// Five short promoted claims all make the briefing, whole (a character budget once cut
/// the fifth).
#[test]
fn five_short_claims_all_shown_whole() {
    let d = tempfile::tempdir().unwrap();
    let c = ctx(d.path());
    populate(&c, 3, 2, "");
    snapshot(&c, 5);
    let text = b(&c);
    for i in 0..5 {
        assert!(
            text.contains(&format!("[c{i}, ")),
            "claim {i} missing: {text}"
        );
    }
    assert!(
        text.contains("claim number 4 says cargo test needs RUSTFLAGS evil"),
        "{text}"
    );
    assert!(!text.contains(sanitize::TRUNCATED_MARKER), "{text}");
}

/// Material from another build is not guessed at: header only, and a note for the log.
#[test]
fn a_material_version_mismatch_gives_the_header_only() {
    let d = tempfile::tempdir().unwrap();
    let c = ctx(d.path());
    populate(&c, 3, 2, "");
    snapshot(&c, 3);
    crate::fleet::briefing::write(&c).unwrap();
    let p = c.paths.cache_file("f", cache::BRIEFING);
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
    v["version"] = serde_json::json!(crate::fleet::briefing::VERSION + 1);
    std::fs::write(&p, serde_json::to_vec(&v).unwrap()).unwrap();
    let mut notes = Vec::new();
    let text = build(&c, None, &mut notes);
    assert!(text.contains("ctxlake fleet briefing"), "{text}");
    assert!(!text.contains("Live agents"), "{text}");
    assert!(!text.contains(render::HEADING), "{text}");
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].contains("version"), "{notes:?}");
}

/// Agent lines are rendered to fit: whole labelled leases and a count, never a line the
/// reader must cut (cutting costs every session start, and would cut a label).
#[test]
fn agent_lines_fit_whole_with_their_labels() {
    let d = tempfile::tempdir().unwrap();
    let c = ctx(d.path());
    populate(&c, 5, 10, "");
    // Long reasons and tasks, as agents write them.
    let p = c.paths.cache_file("f", cache::ROSTER);
    let mut r: Roster = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
    for a in &mut r.agents {
        a.task = Some("refactor the token refresh path of the login flow".repeat(2));
        for l in &mut a.leases {
            l.reason = "moving the session cache behind the new trait".into();
        }
    }
    write(&c, cache::ROSTER, &r);
    let m = crate::fleet::briefing::material(&c, NOW);
    assert_eq!(m.agents.len(), 5);
    for a in &m.agents {
        let line = format!("- {} (your agent id) {}", a.agent, a.rest);
        assert!(line.chars().count() <= LINE_CHARS, "{line}");
        assert_eq!(
            line.matches('«').count(),
            line.matches('»').count(),
            "{line}"
        );
        assert!(
            a.rest.contains("; +") && a.rest.ends_with(" more"),
            "{line}"
        );
    }
}
