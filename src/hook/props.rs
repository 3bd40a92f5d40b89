//! Property tests of the hook's input side: arbitrary bytes and JSON through the whole
//! `handle` path never panic, the payload parser's own guarantees hold on any input, and a
//! captured fixture read with random extra fields is still the same event.

use proptest::prelude::*;
use serde_json::Value;

use super::payload::{self, Event, kind_of, normalize, patch_paths};
use crate::paths::Paths;
use crate::proptests::{config, json_value, nasty_text};
use crate::scope::ScopeFlags;

const RUNTIMES: [super::Runtime; 5] = [
    super::Runtime::ClaudeCode,
    super::Runtime::Codex,
    super::Runtime::Cursor,
    super::Runtime::Gemini,
    super::Runtime::Hermes,
];

/// Every key `normalize` reads, at any level (besides the path keys): extra fields avoid them.
const READ_KEYS: &[&str] = &[
    "hook_event_name",
    "session_id",
    "conversation_id",
    "sessionId",
    "cwd",
    "workspace_roots",
    "tool_name",
    "prompt",
    "extra",
    "user_message",
    "source",
    "reason",
    "is_first_turn",
    "duration_ms",
    "duration",
    "tool_input",
    "command",
    "patch",
    "input",
    "tool_response",
    "exit_code",
    "exitCode",
    "returncode",
    "exit_status",
    "error",
    "error_message",
    "status",
    "llmContent",
];

fn is_read(key: &str) -> bool {
    READ_KEYS.contains(&key) || payload::PATH_KEYS.contains(&key)
}

/// Read once: every case samples the same captured payloads.
fn fixtures() -> &'static [(String, Value)] {
    static ALL: std::sync::OnceLock<Vec<(String, Value)>> = std::sync::OnceLock::new();
    ALL.get_or_init(read_fixtures)
}

fn read_fixtures() -> Vec<(String, Value)> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/hooks");
    let mut out = Vec::new();
    for rt in std::fs::read_dir(root).into_iter().flatten().flatten() {
        for f in std::fs::read_dir(rt.path()).into_iter().flatten().flatten() {
            let p = f.path();
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            if let Ok(v) = serde_json::from_str(&text) {
                out.push((p.display().to_string(), v));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The whole event, the session (not serialized) included.
fn seen(e: &Event) -> (Value, Option<String>) {
    (
        serde_json::to_value(e).unwrap_or_default(),
        e.session.clone(),
    )
}

/// Add `extra` members to `v` and to each object nested directly in it.
fn add_fields(v: &mut Value, extra: &[(String, Value)], depth: usize) {
    let Value::Object(o) = v else { return };
    for (k, x) in extra {
        if !is_read(k) && !o.contains_key(k) {
            o.insert(k.clone(), x.clone());
        }
    }
    if depth > 0 {
        for child in o.values_mut() {
            add_fields(child, extra, depth - 1);
        }
    }
}

fn extra_fields() -> impl Strategy<Value = Vec<(String, Value)>> {
    prop::collection::vec(("[a-zA-Z_]{1,12}", json_value()), 1..5)
}

fn run_handle(bytes: &[u8], event_arg: Option<&str>, rt: super::Runtime) -> Result<(), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let paths = Paths::with_overrides(dir.path().to_path_buf(), None, None);
    let mut notes = Vec::new();
    let flags = ScopeFlags::default();
    let _ = super::handle(&paths, rt, event_arg, &flags, &mut &bytes[..], &mut notes);
    Ok(())
}

proptest! {
    // The whole hook writes a spool record per case: fewer, costlier cases.
    #![proptest_config(config(128))]

    #[test]
    fn arbitrary_bytes_through_the_hook_never_panic(
        bytes in prop::collection::vec(any::<u8>(), 0..64),
        rt in prop::sample::select(&RUNTIMES[..]),
    ) {
        run_handle(&bytes, None, rt).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn arbitrary_json_through_the_hook_never_panics(
        v in json_value(),
        event in proptest::option::of(nasty_text()),
        rt in prop::sample::select(&RUNTIMES[..]),
    ) {
        run_handle(v.to_string().as_bytes(), event.as_deref(), rt).map_err(TestCaseError::fail)?;
    }
}

proptest! {
    #![proptest_config(config(512))]

    /// On any JSON the parser keeps its promises: the kind follows the event name, paths
    /// are unique and non-blank, error text is bounded.
    #[test]
    fn normalize_keeps_its_promises(v in json_value(), event in proptest::option::of(nasty_text())) {
        let e = normalize(&v, event.as_deref());
        prop_assert_eq!(e.kind, Some(kind_of(&e.event)));
        prop_assert!(e.error.as_ref().is_none_or(|t| t.chars().count() <= 500));
        for (i, p) in e.paths.iter().enumerate() {
            prop_assert!(!p.trim().is_empty() && !e.paths[..i].contains(p));
        }
        prop_assert!(e.session.as_ref().is_none_or(|s| !s.is_empty()));
    }

    #[test]
    fn a_fixture_with_extra_fields_is_the_same_event(
        pick in any::<prop::sample::Index>(),
        extra in extra_fields(),
    ) {
        let all = fixtures();
        prop_assume!(!all.is_empty());
        let (name, v) = &all[pick.index(all.len())];
        let mut with = v.clone();
        add_fields(&mut with, &extra, 2);
        prop_assert_eq!(seen(&normalize(&with, None)), seen(&normalize(v, None)), "{}", name);
    }

    /// Session ids become file names and lake keys: whatever comes in, the name is safe,
    /// bounded, a valid id, and the same for every event of the session.
    #[test]
    fn a_session_id_always_becomes_a_safe_stable_name(id in nasty_text()) {
        let s = crate::scope::session_id(&id);
        prop_assert!(!s.is_empty() && s.len() <= 128);
        prop_assert!(!s.starts_with(['.', '-']) && !s.contains(".."));
        prop_assert!(s.chars().all(|c| c.is_ascii_alphanumeric() || "-_.@".contains(c)));
        prop_assert!(crate::scope::validate_id("session", &s).is_ok());
        prop_assert_eq!(crate::scope::session_id(&id), s);
    }

    #[test]
    fn patch_paths_are_trimmed_pieces_of_the_patch(text in nasty_text(), path in nasty_text()) {
        let patch = format!("{text}\n*** Update File: {path}\n{text}");
        for p in patch_paths(&patch) {
            prop_assert!(!p.is_empty() && p == p.trim() && patch.contains(p));
        }
        let named = path.lines().next().unwrap_or("").trim();
        if !named.is_empty() && !path.contains('\r') {
            prop_assert!(payload::patch_paths(&patch).contains(&named));
        }
    }
}

/// The fixtures are there: an empty directory would make the property vacuous.
#[test]
fn fixtures_are_found() {
    assert!(fixtures().len() >= 25);
}
