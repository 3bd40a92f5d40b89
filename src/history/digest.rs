//! Fold a session's hook events into a digest: start and end, outcome, files touched,
//! commands and tests run. Event kinds and fields are the hook capture's normalized ones.

use serde::Deserialize;
use serde::de::{DeserializeOwned, Deserializer};
use serde_json::Value;

use crate::cache::SessionDigest;
use crate::spool::{Record, RecordKind};
use crate::vocab::SessionOutcome;

const MAX_ITEMS: usize = 50;

/// Commands that run tests, by their leading words.
const TEST_RUNNERS: &[&str] = &[
    "cargo test",
    "cargo nextest",
    "pytest",
    "python -m pytest",
    "npm test",
    "npm run test",
    "yarn test",
    "pnpm test",
    "go test",
    "jest",
    "vitest",
    "mvn test",
    "gradle test",
    "make test",
    "bundle exec rspec",
    "rspec",
];

/// `records` sorted by id (time). `idle_ms`: silence after which an unended session is abandoned.
pub fn fold(
    records: &[Record],
    last_seen_ms: i64,
    lake_now_ms: i64,
    idle_ms: i64,
) -> Option<SessionDigest> {
    let first = records.first()?;
    let mut d = SessionDigest {
        session: first.session.clone(),
        agent: first.agent.clone(),
        started_at: first.ts.clone(),
        outcome: SessionOutcome::Running,
        ..SessionDigest::default()
    };
    let mut ended = false;
    let mut last_failed = false;
    for r in records {
        let p = Fields::of(&r.payload);
        if let Some(rt) = p.runtime {
            d.runtime = Some(rt);
        }
        if p.imported == Some(true) {
            d.imported = true;
        }
        if let Some(b) = p.branch.filter(|b| !b.is_empty()) {
            d.branch = Some(b);
        }
        if let Some(repo) = p.repo.filter(|s| !s.is_empty()) {
            d.repo = Some(repo);
        } else if d.repo.is_none()
            && let Some(cwd) = &p.cwd
        {
            // Hooks report the working directory; the repo is named the same way claims are.
            d.repo = crate::repo::discover(std::path::Path::new(cwd)).map(|r| r.id);
        }
        let kind = &r.kind;
        if *kind == RecordKind::HookSessionStart {
            d.started_at = r.ts.clone();
        }
        for path in &p.paths {
            push_unique(&mut d.files_touched, path);
        }
        if let Some(cmd) = p.command.as_deref().filter(|c| !c.trim().is_empty()) {
            let cmd: String = cmd.trim().chars().take(200).collect();
            if TEST_RUNNERS
                .iter()
                .any(|t| cmd.starts_with(t) || cmd.contains(&format!("&& {t}")))
            {
                push_unique(&mut d.tests, &cmd);
            }
            push_unique(&mut d.commands, &cmd);
        }
        let failed = *kind == RecordKind::HookToolFailed
            || p.ok == Some(false)
            || p.exit_code.is_some_and(|c| c != 0)
            || p.error.as_deref().is_some_and(|e| !e.trim().is_empty());
        if failed {
            last_failed = true;
        } else if *kind == RecordKind::HookPostTool || p.exit_code == Some(0) {
            last_failed = false;
        }
        if *kind == RecordKind::HookSessionEnd {
            ended = true;
            d.ended_at = Some(r.ts.clone());
        }
    }
    d.outcome = if ended {
        if last_failed {
            SessionOutcome::Error
        } else {
            SessionOutcome::Clean
        }
    } else if lake_now_ms - last_seen_ms > idle_ms {
        SessionOutcome::Abandoned
    } else {
        SessionOutcome::Running
    };
    Some(d)
}

/// The fields of a record's payload the digest reads. The payload came from the lake:
/// each field is taken only when it has the expected type, and a field of another type
/// counts as absent without costing the record its other fields.
#[derive(Debug, Default, Deserialize)]
struct Fields {
    #[serde(default, deserialize_with = "loose")]
    runtime: Option<String>,
    #[serde(default, deserialize_with = "loose")]
    imported: Option<bool>,
    #[serde(default, deserialize_with = "loose")]
    branch: Option<String>,
    #[serde(default, deserialize_with = "loose")]
    repo: Option<String>,
    #[serde(default, deserialize_with = "loose")]
    cwd: Option<String>,
    /// Only the strings of the list are paths.
    #[serde(default, deserialize_with = "strings")]
    paths: Vec<String>,
    #[serde(default, deserialize_with = "loose")]
    command: Option<String>,
    #[serde(default, deserialize_with = "loose")]
    ok: Option<bool>,
    #[serde(default, deserialize_with = "loose")]
    exit_code: Option<i64>,
    #[serde(default, deserialize_with = "loose")]
    error: Option<String>,
}

impl Fields {
    /// A payload that is not an object has none of the fields.
    fn of(payload: &Value) -> Fields {
        match payload {
            Value::Object(_) => Fields::deserialize(payload).unwrap_or_default(),
            _ => Fields::default(),
        }
    }
}

/// The value as a `T`, or `None` when it is another type.
fn loose<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned,
{
    Ok(serde_json::from_value(Value::deserialize(d)?).ok())
}

/// The strings of a list, passing over its other items; none when it is not a list.
fn strings<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let items: Vec<Value> = loose(d)?.unwrap_or_default();
    Ok(items
        .into_iter()
        .filter_map(|v| match v {
            Value::String(s) => Some(s),
            _ => None,
        })
        .collect())
}

fn push_unique(list: &mut Vec<String>, item: &str) {
    if list.len() < MAX_ITEMS && !list.iter().any(|x| x == item) {
        list.push(item.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rec(id: &str, kind: &str, payload: Value) -> Record {
        Record {
            id: id.into(),
            ts: format!("2026-11-29T00:00:0{id}.000Z"),
            fleet: "f".into(),
            agent: "a".into(),
            session: "s".into(),
            kind: kind.into(),
            payload,
        }
    }

    #[test]
    fn outcomes() {
        let start = rec("1", "hook_session_start", json!({"runtime": "claude-code"}));
        let edit = rec("2", "hook_pre_tool", json!({"paths": ["src/a.rs"]}));
        let test = rec(
            "3",
            "tool_call",
            json!({"command": "cargo test -q", "exit_code": 101}),
        );
        let fixed = rec(
            "4",
            "tool_call",
            json!({"command": "cargo test -q", "exit_code": 0}),
        );
        let end = rec("5", "hook_session_end", json!({}));
        let d = fold(
            &[
                start.clone(),
                edit.clone(),
                test.clone(),
                fixed,
                end.clone(),
            ],
            0,
            0,
            1,
        )
        .unwrap();
        assert_eq!(d.outcome, SessionOutcome::Clean);
        assert_eq!(d.files_touched, ["src/a.rs"]);
        assert_eq!(d.tests, ["cargo test -q"]);
        assert_eq!(d.runtime.as_deref(), Some("claude-code"));
        assert_eq!(
            fold(&[start.clone(), test, end], 0, 0, 1).unwrap().outcome,
            SessionOutcome::Error
        );
        assert_eq!(
            fold(&[start.clone(), edit.clone()], 0, 10_000, 1000)
                .unwrap()
                .outcome,
            SessionOutcome::Abandoned
        );
        assert_eq!(
            fold(&[start, edit], 9_500, 10_000, 1000).unwrap().outcome,
            SessionOutcome::Running
        );
    }

    /// A payload field of another type counts as absent and costs the record none of its
    /// other fields; a payload that is not an object has no fields.
    #[test]
    fn a_mistyped_field_is_passed_over_alone() {
        let start = rec(
            "1",
            "hook_session_start",
            json!({"runtime": 7, "branch": "main", "imported": "yes"}),
        );
        let edit = rec(
            "2",
            "hook_pre_tool",
            json!({"paths": ["src/a.rs", 3, null, "src/b.rs"], "command": ["ls"]}),
        );
        let call = rec(
            "3",
            "tool_call",
            json!({"command": "cargo test", "exit_code": 1.5, "ok": "false", "error": 0}),
        );
        let odd = rec("4", "tool_call", json!(["runtime", "x"]));
        let end = rec("5", "hook_session_end", json!(null));
        let d = fold(&[start, edit, call, odd, end], 0, 0, 1).unwrap();
        assert_eq!(d.runtime, None);
        assert_eq!(d.branch.as_deref(), Some("main"));
        assert!(!d.imported);
        assert_eq!(d.files_touched, ["src/a.rs", "src/b.rs"]);
        assert_eq!(d.commands, ["cargo test"]);
        assert_eq!(d.outcome, SessionOutcome::Clean);
        let failed = rec(
            "3",
            "tool_call",
            json!({"exit_code": 2, "runtime": "codex"}),
        );
        let d = fold(&[failed, rec("5", "hook_session_end", json!({}))], 0, 0, 1).unwrap();
        assert_eq!(d.outcome, SessionOutcome::Error);
        assert_eq!(d.runtime.as_deref(), Some("codex"));
    }
}
