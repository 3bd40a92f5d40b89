//! Fold a session's hook events into a digest: start and end, outcome, files touched,
//! commands and tests run. Event kinds and fields are the hook capture's normalized ones.

use serde_json::Value;

use crate::cache::SessionDigest;
use crate::spool::{Record, RecordKind};

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
        outcome: "running".into(),
        ..SessionDigest::default()
    };
    let mut ended = false;
    let mut last_failed = false;
    for r in records {
        let p = &r.payload;
        if let Some(rt) = p["runtime"].as_str() {
            d.runtime = Some(rt.to_string());
        }
        if p["imported"] == true {
            d.imported = true;
        }
        if let Some(b) = p["branch"].as_str().filter(|b| !b.is_empty()) {
            d.branch = Some(b.to_string());
        }
        if let Some(repo) = p["repo"].as_str().filter(|s| !s.is_empty()) {
            d.repo = Some(repo.to_string());
        } else if d.repo.is_none()
            && let Some(cwd) = p["cwd"].as_str()
        {
            // Hooks report the working directory; the repo is named the same way claims are.
            d.repo = crate::repo::discover(std::path::Path::new(cwd)).map(|r| r.id);
        }
        let kind = &r.kind;
        if *kind == RecordKind::HookSessionStart {
            d.started_at = r.ts.clone();
        }
        for path in p["paths"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            push_unique(&mut d.files_touched, path);
        }
        if let Some(cmd) = p["command"].as_str().filter(|c| !c.trim().is_empty()) {
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
            || p["ok"].as_bool() == Some(false)
            || p["exit_code"].as_i64().is_some_and(|c| c != 0)
            || p["error"].as_str().is_some_and(|e| !e.trim().is_empty());
        if failed {
            last_failed = true;
        } else if *kind == RecordKind::HookPostTool || p["exit_code"].as_i64() == Some(0) {
            last_failed = false;
        }
        if *kind == RecordKind::HookSessionEnd {
            ended = true;
            d.ended_at = Some(r.ts.clone());
        }
    }
    d.outcome = if ended {
        if last_failed { "error" } else { "clean" }
    } else if lake_now_ms - last_seen_ms > idle_ms {
        "abandoned"
    } else {
        "running"
    }
    .into();
    Some(d)
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
        assert_eq!(d.outcome, "clean");
        assert_eq!(d.files_touched, ["src/a.rs"]);
        assert_eq!(d.tests, ["cargo test -q"]);
        assert_eq!(d.runtime.as_deref(), Some("claude-code"));
        assert_eq!(
            fold(&[start.clone(), test, end], 0, 0, 1).unwrap().outcome,
            "error"
        );
        assert_eq!(
            fold(&[start.clone(), edit.clone()], 0, 10_000, 1000)
                .unwrap()
                .outcome,
            "abandoned"
        );
        assert_eq!(
            fold(&[start, edit], 9_500, 10_000, 1000).unwrap().outcome,
            "running"
        );
    }
}
