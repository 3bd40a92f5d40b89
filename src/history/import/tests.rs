//! Each reader on a transcript its runtime wrote here (`tests/fixtures/transcripts/`, see
//! its README for which parts are real captures), each fixture holding one malformed
//! record that must be skipped and counted, never fatal.

use std::path::{Path, PathBuf};

use super::{Kind, Session, Source};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/transcripts")
}

/// Every session of `source` under its fixture root, and the skipped count.
fn read_all(source: Source, root: &Path) -> (Vec<Session>, usize) {
    let units = source.units(root);
    assert!(
        !units.is_empty(),
        "no {} transcript under {}",
        source.as_str(),
        root.display()
    );
    let mut sessions = Vec::new();
    let mut skipped = 0;
    for u in units {
        skipped += source.read(&u, &mut |s| sessions.push(s)).unwrap();
    }
    (sessions, skipped)
}

fn kinds(s: &Session) -> Vec<Kind> {
    s.events.iter().filter_map(|e| e.kind).collect()
}

fn tool<'a>(s: &'a Session, name: &str, kind: Kind) -> &'a super::Event {
    s.events
        .iter()
        .find(|e| e.tool.as_deref() == Some(name) && e.kind == Some(kind))
        .unwrap_or_else(|| panic!("no {kind:?} of {name} in {:#?}", s.events))
}

#[test]
fn claude_code_transcript_from_claude_2_1() {
    let (s, skipped) = read_all(Source::ClaudeCode, &fixtures().join("claude-code"));
    assert_eq!(s.len(), 1);
    let s = &s[0];
    assert_eq!(s.id, "a906b991-3892-4eaa-bc71-3388ef97afb6");
    assert_eq!(s.cwd.as_deref(), Some("/home/dev/widgets"));
    assert_eq!(s.branch.as_deref(), Some("feature/import"));
    assert_eq!(skipped, 1, "the torn line");
    assert_eq!(kinds(s)[0], Kind::Prompt);
    assert!(
        s.events[0]
            .prompt
            .as_deref()
            .unwrap()
            .starts_with("write the notes")
    );
    let write = tool(s, "Write", Kind::PostTool);
    assert_eq!(write.paths, ["/home/dev/widgets/notes.txt"]);
    let bash = tool(s, "Bash", Kind::ToolFailed);
    assert_eq!(
        (bash.command.as_deref(), bash.exit_code),
        (Some("cargo test -q"), Some(1))
    );
    let keys: std::collections::HashSet<_> = s.events.iter().map(|e| &e.key).collect();
    assert_eq!(
        keys.len(),
        s.events.len(),
        "keys are unique: {:#?}",
        s.events
    );
}

#[test]
fn codex_rollout_from_codex_0_171() {
    let (s, skipped) = read_all(Source::Codex, &fixtures().join("codex"));
    assert_eq!(s.len(), 1);
    let s = &s[0];
    assert_eq!(s.id, "01a231a0-ceaa-7190-8c28-cb7982a16443");
    assert_eq!(s.cwd.as_deref(), Some("/home/dev/widgets"));
    assert_eq!(skipped, 1, "the torn line");
    let prompts: Vec<_> = s
        .events
        .iter()
        .filter_map(|e| e.prompt.as_deref())
        .collect();
    assert_eq!(
        prompts,
        ["write the notes"],
        "the injected environment context is not a prompt"
    );
    let test = tool(s, "exec_command", Kind::ToolFailed);
    assert_eq!(
        (test.command.as_deref(), test.exit_code),
        (Some("cargo test -q"), Some(101))
    );
    let patch = tool(s, "apply_patch", Kind::PostTool);
    assert_eq!(patch.paths, ["notes.txt", "src/lib.rs"]);
}

#[test]
fn gemini_chat_from_gemini_0_61() {
    let (s, skipped) = read_all(Source::Gemini, &fixtures().join("gemini"));
    assert_eq!(s.len(), 1);
    let s = &s[0];
    assert_eq!(s.id, "6857221d-3540-42d5-8e8e-e363433e08bd");
    assert_eq!(
        s.cwd.as_deref(),
        Some("/home/dev/widgets"),
        "from .project_root"
    );
    assert_eq!(skipped, 1, "the torn line");
    let prompts: Vec<_> = s
        .events
        .iter()
        .filter_map(|e| e.prompt.as_deref())
        .collect();
    assert_eq!(
        prompts,
        ["write the notes"],
        "the session context is not a prompt"
    );
    let write = tool(s, "write_file", Kind::PostTool);
    assert_eq!(write.paths, ["/home/dev/widgets/notes.txt"]);
    let shell = tool(s, "run_shell_command", Kind::ToolFailed);
    assert_eq!(shell.exit_code, Some(1));
    // A message rewritten when its tool call finished yields the call once.
    assert_eq!(
        s.events
            .iter()
            .filter(|e| e.tool.as_deref() == Some("write_file"))
            .count(),
        2
    );
}

#[test]
fn opencode_database_from_opencode_1_18() {
    let (s, skipped) = read_all(Source::Opencode, &fixtures().join("opencode"));
    assert_eq!(s.len(), 1);
    let s = &s[0];
    assert_eq!(s.id, "ses_dce5ecb68ffe0wVuu8BWBFNI3F");
    assert_eq!(s.cwd.as_deref(), Some("/home/dev/widgets"));
    assert_eq!(skipped, 1, "the malformed part");
    assert_eq!(s.events[0].kind, Some(Kind::Prompt));
    assert_eq!(
        tool(s, "write", Kind::PostTool).paths,
        ["/home/dev/widgets/notes.txt"]
    );
    assert_eq!(tool(s, "bash", Kind::ToolFailed).exit_code, Some(101));
    let edit = tool(s, "edit", Kind::ToolFailed);
    assert!(edit.error.as_deref().unwrap().contains("oldString"));
}

#[test]
fn hermes_database_from_hermes_0_19() {
    let (s, skipped) = read_all(Source::Hermes, &fixtures().join("hermes"));
    assert_eq!(s.len(), 1);
    let s = &s[0];
    assert_eq!(s.id, "20261201_124500_a1b2c3");
    assert_eq!(s.branch.as_deref(), Some("feature/import"));
    assert!(s.ended_ms.is_some());
    assert_eq!(skipped, 1, "the malformed tool_calls row");
    assert_eq!(tool(s, "write_file", Kind::PostTool).paths, ["notes.txt"]);
    let t = tool(s, "terminal", Kind::ToolFailed);
    assert_eq!(
        (t.command.as_deref(), t.exit_code),
        (Some("cargo test -q"), Some(101))
    );
}

#[test]
fn a_read_only_database_is_never_written() {
    let d = tempfile::tempdir().unwrap();
    let db = d.path().join("opencode.db");
    std::fs::copy(fixtures().join("opencode/opencode.db"), &db).unwrap();
    let before = std::fs::read(&db).unwrap();
    Source::Opencode.read(&db, &mut |_| {}).unwrap();
    assert_eq!(std::fs::read(&db).unwrap(), before);
    let names: Vec<_> = std::fs::read_dir(d.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(
        names.len(),
        1,
        "no journal or WAL left beside it: {names:?}"
    );
}

#[test]
fn an_unknown_schema_is_refused_by_name() {
    let d = tempfile::tempdir().unwrap();
    let db = d.path().join("state.db");
    let c = rusqlite::Connection::open(&db).unwrap();
    c.execute_batch("CREATE TABLE sessions (id TEXT); CREATE TABLE messages (id INTEGER);")
        .unwrap();
    drop(c);
    let e = Source::Hermes
        .read(&db, &mut |_| {})
        .unwrap_err()
        .one_line();
    assert!(e.contains("started_at"), "{e}");
}

#[test]
fn a_line_longer_than_the_cap_is_skipped_unread() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("t.jsonl");
    let long = format!(
        "{{\"type\":\"user\",\"x\":\"{}\"}}\n",
        "a".repeat(super::jsonl::MAX_LINE)
    );
    std::fs::write(&f, format!("{long}{{\"type\":\"summary\"}}\n")).unwrap();
    let mut seen = 0;
    let skipped = super::jsonl::for_each(&f, &mut |_| seen += 1).unwrap();
    assert_eq!((seen, skipped), (1, 1));
}

/// A transcript that cannot be read is a typed storage error whose one line still names
/// the file and the OS's reason, as the import report printed it before.
#[test]
fn an_unreadable_transcript_is_a_typed_error_naming_the_file() {
    let d = tempfile::tempdir().unwrap();
    let gone = d.path().join("gone.jsonl");
    let e = Source::ClaudeCode.read(&gone, &mut |_| {}).unwrap_err();
    assert_eq!(e.kind, crate::error::Kind::Storage);
    let line = e.one_line();
    let want = format!("cannot open `{}`: ", gone.display());
    assert!(line.starts_with(&want), "{line}");
}
