//! The sync pass's hook history: written at its own cadence, never read back by its writer.

use super::*;

/// The requests of `log` of `verb` on hook history (`sessions/`).
fn on_history(log: &[String], verb: &str) -> usize {
    let prefix = format!("{verb} sessions/");
    log.iter().filter(|l| l.starts_with(&prefix)).count()
}

/// Hook history at its own cadence: a daemon's drain leaves two sessions' hook events
/// pending while its roster already shows them; once the oldest is a minute old, one
/// history object holds both, which another host GETs and the writer never does, though
/// its own `history.json` has both sessions.
#[test]
fn history_goes_at_its_cadence_and_is_never_read_back() {
    let d = tempfile::tempdir().unwrap();
    let store = Logged::open(&d.path().join("lake"));
    let (writer, reader) = (ctx(&d.path().join("w"), "a"), ctx(&d.path().join("r"), "b"));
    let claim = json!({"repo": "r", "paths": ["src"], "reason": "x", "ttl_secs": 600});
    queue_in(&writer, "f", false, &[("fleet_claim", claim)]);
    pass(&writer, &store);
    pass(&reader, &store);
    let mut body = Vec::new();
    for (i, session) in ["s1", "s2", "s1"].iter().enumerate() {
        let p = json!({"runtime": "claude-code", "prompt": format!("step {i}")});
        let mut rec = test_record(i as u64, "f", "hook_prompt", p);
        // Minted from this thread's clock: `ulid::new` is monotonic per process, and the
        // simulation running beside this test mints ids far in the future.
        let id = crate::ulid::encode(crate::time::now_ms() as u64, i as u128 + 1);
        (rec.id, rec.session) = (id, session.to_string());
        body.extend(crate::spool::encode(&rec).unwrap());
    }
    let dir = writer.paths.spool.join("hooks/claude-code");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("s1.ndjson"), body).unwrap();
    let mut daemon = Carry::default();
    store.take();
    once(&writer, &store, true, &mut daemon, &mut Quiet).unwrap();
    let drained = store.take();
    assert_eq!(
        on_history(&drained, "create"),
        0,
        "not due yet: {drained:#?}"
    );
    let roster: cache::Read<cache::Roster> = cache::read(&writer.paths, "f", cache::ROSTER);
    let live = roster.data.unwrap().agents.into_iter().map(|a| a.session);
    let live: std::collections::BTreeSet<String> = live.collect();
    assert_eq!(
        live,
        ["s1".into(), "s2".into()].into(),
        "the roster did not wait"
    );
    // A minute on (the test build's cadence is shorter), the next pass writes it.
    let later = crate::time::now_ms() + super::drain::history::HISTORY_AGE_MS;
    crate::time::set_sim_now(Some(later));
    once(&writer, &store, false, &mut daemon, &mut Quiet).unwrap();
    let written = store.take();
    crate::time::set_sim_now(None);
    assert_eq!(on_history(&written, "create"), 1, "{written:#?}");
    assert_eq!(on_history(&written, "get"), 0, "{written:#?}");
    once(&writer, &store, false, &mut daemon, &mut Quiet).unwrap();
    assert_eq!(
        on_history(&store.take(), "get"),
        0,
        "the writer never reads it back"
    );
    let sessions = |c: &Ctx| -> std::collections::BTreeSet<String> {
        let h: cache::Read<cache::History> = cache::read(&c.paths, "f", cache::HISTORY);
        h.data
            .unwrap()
            .sessions
            .into_iter()
            .map(|s| s.session)
            .collect()
    };
    let both: std::collections::BTreeSet<String> = ["s1".into(), "s2".into()].into();
    assert_eq!(sessions(&writer), both);
    pass(&reader, &store);
    assert_eq!(sessions(&reader), both);
}
