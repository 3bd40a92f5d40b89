//! Property tests of the config editors (issue 14 §2): for arbitrary valid documents in
//! each format, with comments, indentation, key order and final newline varied, every edit
//! output parses with the format's real parser (`validate`) and differs from its input in
//! ctxlake's entries alone (`guard::check`), a second install changes nothing, and
//! uninstall gives back the exact bytes.

use std::path::PathBuf;
use std::sync::OnceLock;

use crate::proptests::config;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use super::edit::{self, Created, Problem};
use super::env::Env;
use super::guard::{Direction, check};
use super::runtimes::{ALL, EntryOpts, Format, Target, is_ours, targets};
use super::validate;

mod json;
mod toml;
mod yaml;

const EXE: &str = "/opt/ctx lake/bin/ctxlake";

fn ours(cmd: &str) -> bool {
    is_ours(cmd, EXE)
}

/// Every file every runtime edits (user and project scope, hooks on), by format.
fn all_targets(formats: &[Format]) -> Vec<Target> {
    static ALL_TARGETS: OnceLock<Vec<Target>> = OnceLock::new();
    let all = ALL_TARGETS.get_or_init(|| {
        let env = Env {
            home: PathBuf::from("/nonexistent/home"),
            cwd: PathBuf::from("/nonexistent/proj"),
            vars: Default::default(),
            path: Vec::new(),
        };
        let mut out = Vec::new();
        for rt in ALL {
            for project in [false, true] {
                let o = EntryOpts {
                    exe: EXE.into(),
                    fleet: "team".into(),
                    agent: "a1".into(),
                    project,
                    hooks: true,
                    http: None,
                };
                out.extend(targets(rt, &env, &o).unwrap_or_default());
            }
        }
        out
    });
    all.iter()
        .filter(|t| formats.contains(&t.format))
        .cloned()
        .collect()
}

fn target(formats: &[Format]) -> impl Strategy<Value = Target> {
    prop::sample::select(all_targets(formats))
}

/// A comment line's text: things that look like syntax must stay comment.
fn comment_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z ]{0,10}",
        Just("\"q\" { } [ ] , : // /* x".to_string()),
        Just("ctxlake hook claude-code".to_string()),
        Just("── Security ── é".to_string()),
    ]
}

fn fail(p: Problem) -> TestCaseError {
    match p {
        Problem::Parse(e) | Problem::Syntax(e) => TestCaseError::fail(format!(
            "valid input refused: {}:{}: {}",
            e.line, e.column, e.message
        )),
        Problem::Shape(m) => TestCaseError::fail(format!("refused: {m}")),
    }
}

/// What one install/uninstall cycle produced.
struct Cycle {
    after: String,
    created: Created,
    back: String,
}

/// The real parser's reading of `text`, which must succeed.
fn real(t: &Target, text: &str) -> Result<serde_json::Value, TestCaseError> {
    validate::parse(t.format, text)
        .map_err(|e| TestCaseError::fail(format!("{}:{}: {}\n{text}", e.line, e.column, e.message)))
}

/// Install, check the output (real parser, guard, then `parses`), install again (nothing
/// may change), then uninstall (real parser, guard). `None` for a `Shape` refusal (a
/// servers key that is not a table, …): nothing is written then, which is fine.
fn cycle(
    t: &Target,
    before: &str,
    parses: &dyn Fn(&str) -> Result<(), TestCaseError>,
) -> Result<Option<Cycle>, TestCaseError> {
    let old = real(t, before)?;
    let (after, created) = match edit::install(t, before, &ours) {
        Ok(r) => r,
        Err(Problem::Shape(_)) => return Ok(None),
        Err(p) => return Err(fail(p)),
    };
    let new = real(t, &after)?;
    check(t, old, new.clone(), Direction::Install, &ours)
        .map_err(|m| TestCaseError::fail(format!("install {m}:\n{after}")))?;
    parses(&after)?;
    prop_assert_eq!(
        edit::status(t, &after, &ours).map_err(fail)?.0,
        t.mcp.is_some()
    );
    let (again, _) = edit::install(t, &after, &ours).map_err(fail)?;
    prop_assert_eq!(&again, &after, "a second install changed the file");
    let back = edit::uninstall(t, &after, &created, &ours).map_err(fail)?;
    check(t, new, real(t, &back)?, Direction::Uninstall, &ours)
        .map_err(|m| TestCaseError::fail(format!("uninstall {m}:\n{back}")))?;
    Ok(Some(Cycle {
        after,
        created,
        back,
    }))
}

/// Shrunk by `json::install_then_uninstall_restores_every_byte`: with a space in the
/// binary's path the hook command is shell-quoted, and `is_ours` read `'/opt` as the program,
/// so a second install duplicated every hook and uninstall left them all behind.
#[test]
fn a_quoted_binary_path_is_still_ours() {
    let o = EntryOpts {
        exe: EXE.into(),
        fleet: "team".into(),
        agent: "a1".into(),
        project: true,
        hooks: true,
        http: None,
    };
    let cmd = o.hook_command(super::Runtime::Cursor);
    assert!(cmd.starts_with('\''), "{cmd}");
    assert!(is_ours(&cmd, EXE), "{cmd}");
    assert!(
        is_ours(&cmd, "/elsewhere/ctxlake"),
        "an older install at another path"
    );
    assert!(is_ours("\"/a b/ctxlake\" hook codex", "/x/ctxlake"));
    assert!(!is_ours(
        "'/opt/ctx lake/bin/other' hook cursor",
        "/x/ctxlake"
    ));
}
