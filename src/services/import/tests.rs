//! The import's rules on the real Claude Code fixture: idempotent (a second run writes
//! nothing, a lost ledger mints the same ids), a live hook's session left alone, prompt
//! text kept only when asked and scrubbed even then, a grown transcript adding only its
//! new events.

use std::path::{Path, PathBuf};

use super::*;
use crate::config::Config;
use crate::spool::Record;

const SESSION: &str = "a906b991-3892-4eaa-bc71-3388ef97afb6";

struct Home {
    _dir: tempfile::TempDir,
    ctx: Ctx,
    env: Env,
    transcript: PathBuf,
}

fn home(config: Config) -> Home {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    let projects = root.join(".claude/projects/-home-dev-widgets");
    std::fs::create_dir_all(&projects).unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/transcripts/claude-code/projects/-home-dev-widgets")
        .join(format!("{SESSION}.jsonl"));
    let transcript = projects.join(format!("{SESSION}.jsonl"));
    std::fs::copy(fixture, &transcript).unwrap();
    let paths = crate::paths::Paths::with_overrides(root.join(".ctxlake"), None, None);
    let mut ctx = Ctx::fallback(paths);
    ctx.config = config;
    let env = Env {
        home: root.clone(),
        cwd: root,
        vars: Default::default(),
        path: Vec::new(),
    };
    Home {
        _dir: dir,
        ctx,
        env,
        transcript,
    }
}

fn import(h: &Home) -> Report {
    let req = Request {
        runtimes: vec![Source::ClaudeCode],
        since_ms: None,
        dry_run: false,
    };
    run(&h.ctx, &h.env, &req, &mut |_, _| {}).unwrap()
}

/// Every record in the hook spool, in file order.
fn spooled(h: &Home) -> Vec<Record> {
    crate::spool::list_files(&h.ctx.paths.spool_hooks_dir())
        .iter()
        .flat_map(|f| crate::spool::read_file(f, 0).unwrap().records)
        .collect()
}

#[test]
fn importing_twice_writes_nothing_the_second_time() {
    let h = home(Config::default());
    let first = import(&h);
    assert_eq!((first.sessions, first.skipped), (1, 1), "{first:#?}");
    let recs = spooled(&h);
    assert_eq!(recs.len(), first.events);
    assert!(
        recs.iter()
            .all(|r| r.session == SESSION && r.payload["imported"] == true)
    );
    assert_eq!(recs[0].kind, crate::spool::RecordKind::HookSessionStart);
    assert_eq!(recs[0].payload["branch"], "feature/import");
    assert_eq!(
        recs.last().unwrap().kind,
        crate::spool::RecordKind::HookSessionEnd
    );

    let files = crate::spool::list_files(&h.ctx.paths.spool_hooks_dir());
    let second = import(&h);
    assert_eq!((second.sessions, second.events), (0, 0), "{second:#?}");
    assert_eq!(
        crate::spool::list_files(&h.ctx.paths.spool_hooks_dir()),
        files
    );

    // A touched but unchanged transcript is read again and still adds nothing.
    let f = std::fs::File::options()
        .append(true)
        .open(&h.transcript)
        .unwrap();
    f.set_modified(std::time::SystemTime::now() + std::time::Duration::from_secs(5))
        .unwrap();
    let third = import(&h);
    assert_eq!((third.sessions, third.unchanged), (0, 1), "{third:#?}");
}

#[test]
fn a_lost_ledger_mints_the_same_record_ids() {
    let h = home(Config::default());
    import(&h);
    let ids: Vec<String> = spooled(&h).into_iter().map(|r| r.id).collect();
    std::fs::remove_dir_all(h.ctx.paths.state().join("import")).unwrap();
    for f in crate::spool::list_files(&h.ctx.paths.spool_hooks_dir()) {
        std::fs::remove_file(f).unwrap();
    }
    import(&h);
    let again: Vec<String> = spooled(&h).into_iter().map(|r| r.id).collect();
    assert_eq!(ids, again);
    assert!(ids.iter().all(|i| crate::ulid::is_ulid(i)));
}

#[test]
fn a_session_the_hook_captured_is_not_imported() {
    let h = home(Config::default());
    let live = h.ctx.paths.spool_hook("claude-code", SESSION);
    std::fs::create_dir_all(live.parent().unwrap()).unwrap();
    std::fs::write(&live, b"").unwrap();
    let r = import(&h);
    assert_eq!((r.sessions, r.captured_live), (0, 1), "{r:#?}");
    assert_eq!(spooled(&h).len(), 0);
}

/// Once `sync` drained the hook's spool file, the live session is known by the records
/// the mirror holds of it: still not imported. What an import spooled (marked imported)
/// is no live capture.
#[test]
fn a_session_the_hook_captured_and_sync_drained_is_not_imported() {
    for (imported, want) in [(false, (0, 1)), (true, (1, 0))] {
        let h = home(Config::default());
        let mut rec = crate::lake::batch::test_record(
            1,
            "default",
            "hook_session_start",
            serde_json::json!({"runtime": "claude-code", "imported": imported}),
        );
        rec.session = SESSION.into();
        let mirrored = h
            .ctx
            .paths
            .state()
            .join("mirror/default/someone@host")
            .join(format!("{SESSION}.ndjson"));
        std::fs::create_dir_all(mirrored.parent().unwrap()).unwrap();
        std::fs::write(&mirrored, crate::spool::encode(&rec).unwrap()).unwrap();
        let r = import(&h);
        assert_eq!((r.sessions, r.captured_live), want, "{r:#?}");
    }
}

#[test]
fn prompt_text_is_kept_only_when_asked_and_scrubbed_even_then() {
    let secret = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    let h = home(Config::default());
    import(&h);
    let text: String = spooled(&h).iter().map(|r| r.payload.to_string()).collect();
    assert!(!text.contains("write the notes"), "{text}");
    assert!(!text.contains(secret));
    assert!(text.contains("prompt_chars"));

    let h = home(Config {
        import_prompts: true,
        ..Config::default()
    });
    import(&h);
    let text: String = spooled(&h).iter().map(|r| r.payload.to_string()).collect();
    assert!(text.contains("write the notes"), "{text}");
    assert!(!text.contains(secret), "the write boundary redacts: {text}");
    assert!(text.contains("[REDACTED:"), "{text}");
}

#[test]
fn a_grown_transcript_adds_only_its_new_events() {
    let h = home(Config::default());
    let first = import(&h).events;
    let line = r#"{"type":"user","message":{"role":"user","content":"one more thing"},"uuid":"9f0e0d0c-0000-4000-8000-000000000001","timestamp":"2026-12-01T13:00:00.000Z","cwd":"/home/dev/widgets","sessionId":"a906b991-3892-4eaa-bc71-3388ef97afb6"}"#;
    let mut text = std::fs::read_to_string(&h.transcript).unwrap();
    text.push_str(line);
    text.push('\n');
    std::fs::write(&h.transcript, text).unwrap();
    let second = import(&h);
    assert_eq!(
        (second.sessions, second.events),
        (1, 2),
        "the prompt and a new end: {second:#?}"
    );
    let all = spooled(&h);
    assert_eq!(all.len(), first + 2);
    let starts = all
        .iter()
        .filter(|r| r.kind == crate::spool::RecordKind::HookSessionStart);
    assert_eq!(starts.count(), 1);
}

#[test]
fn a_dry_run_writes_nothing_and_shows_what_would_be_shared() {
    let h = home(Config::default());
    let req = Request {
        runtimes: Vec::new(),
        since_ms: None,
        dry_run: true,
    };
    let r = run(&h.ctx, &h.env, &req, &mut |_, _| {}).unwrap();
    assert_eq!(r.sessions, 1);
    assert_eq!(r.preview[0].paths, ["/home/dev/widgets/notes.txt"]);
    assert_eq!(r.preview[0].commands, ["cargo test -q"]);
    assert!(!h.ctx.paths.spool.exists() && !h.ctx.paths.state().exists());
}

#[test]
fn a_full_spool_stops_the_import_and_what_landed_is_not_replayed() {
    let h = home(Config::default());
    // A second session: the same transcript under another id.
    let other = "b906b991-3892-4eaa-bc71-3388ef97afb6";
    let text = std::fs::read_to_string(&h.transcript)
        .unwrap()
        .replace(SESSION, other);
    std::fs::write(h.transcript.with_file_name(format!("{other}.jsonl")), text).unwrap();
    let mut small = h.ctx.clone();
    small.config.spool_max_bytes = 4000;
    let req = Request {
        runtimes: vec![Source::ClaudeCode],
        since_ms: None,
        dry_run: false,
    };
    let e = run(&small, &h.env, &req, &mut |_, _| {}).unwrap_err();
    assert_eq!(e.code, "spool_full");
    let landed = spooled(&h);
    assert!(!landed.is_empty());
    let r = import(&h);
    assert_eq!(r.sessions, 1, "only the session that did not land: {r:#?}");
    assert_eq!(spooled(&h).len(), landed.len() + r.events);
}
