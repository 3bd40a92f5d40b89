//! `ctxlake import` end to end: the real Claude Code transcript in a sealed HOME, a dry
//! run that writes nothing, the import, `sync`, `fleet history` showing the session
//! `imported` with its repo and not as a live agent, a second import writing nothing to
//! the spool or the lake, and the prompt's secret nowhere.

use std::path::{Path, PathBuf};

use crate::common::Env;

pub const SESSION: &str = "a906b991-3892-4eaa-bc71-3388ef97afb6";
pub const SECRET: &str = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";

/// A git repository at the sealed HOME's work dir, with a remote.
pub fn repo(env: &Env) {
    let git = env.work().join(".git");
    std::fs::create_dir_all(&git).unwrap();
    std::fs::write(
        git.join("config"),
        "[remote \"origin\"]\n\turl = https://github.com/acme/widgets.git\n",
    )
    .unwrap();
}

/// The real `claude -p` transcript, as Claude Code keeps it, for a session run in the
/// sealed HOME's work dir.
pub fn claude_transcript(env: &Env) -> PathBuf {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/transcripts/claude-code/projects/-home-dev-widgets")
        .join(format!("{SESSION}.jsonl"));
    let work = env.work().display().to_string();
    let text = std::fs::read_to_string(fixture)
        .unwrap()
        .replace("/home/dev/widgets", &work);
    let dir = env
        .home()
        .join(".claude/projects")
        .join(work.replace('/', "-"));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join(format!("{SESSION}.jsonl"));
    std::fs::write(&f, text).unwrap();
    f
}

/// Every file's bytes under `dir`, by path.
pub fn tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push((p.clone(), std::fs::read(&p).unwrap_or_default()));
            }
        }
    }
    out.sort();
    out
}

fn contains(files: &[(PathBuf, Vec<u8>)], needle: &str) -> Vec<PathBuf> {
    files
        .iter()
        .filter(|(_, b)| b.windows(needle.len()).any(|w| w == needle.as_bytes()))
        .map(|(p, _)| p.clone())
        .collect()
}

#[test]
fn import_replays_a_claude_transcript_into_history_once() {
    let env = Env::new();
    repo(&env);
    claude_transcript(&env);

    let dry = env.json(&["import", "--dry-run"]);
    assert_eq!(
        (dry["dry_run"].as_bool(), dry["sessions"].as_u64()),
        (Some(true), Some(1))
    );
    assert_eq!(dry["preview"][0]["repo"], "github.com/acme/widgets");
    assert_eq!(dry["preview"][0]["commands"][0], "cargo test -q");
    assert!(
        !env.ctxlake_home().join("spool").exists(),
        "a dry run writes nothing"
    );

    let r = env.json(&["import"]);
    assert_eq!(
        (r["sessions"].as_u64(), r["skipped"].as_u64()),
        (Some(1), Some(1)),
        "{r}"
    );
    assert_eq!(r["runtimes"][0]["runtime"], "claude-code");
    // A live agent of this host, so the host has a roster in the lake.
    env.json(&["fleet", "claim", "src", "--reason", "live work"]);
    env.json(&["sync"]);
    let h = env.json(&["fleet", "history"]);
    let s = h["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["session"] == SESSION)
        .unwrap_or_else(|| panic!("{h}"));
    assert_eq!(s["imported"], true, "{s}");
    assert_eq!(s["repo"], "github.com/acme/widgets", "{s}");
    assert_eq!(s["branch"], "feature/import", "{s}");
    assert_eq!(s["runtime"], "claude-code");
    assert_eq!(s["outcome"], "error", "the last tool call failed: {s}");
    assert_eq!(s["started_at"], "2026-12-01T12:42:20.131Z");
    assert!(
        s["tests"][0].as_str().unwrap().starts_with("cargo test"),
        "{s}"
    );
    // History, not presence: an imported session is never a live agent, nor in the
    // host's roster in the lake.
    let rosters = tree(&env.ctxlake_home().join("lake/live"));
    assert!(!rosters.is_empty(), "the host wrote its roster");
    assert!(
        contains(&rosters, SESSION).is_empty(),
        "{:?}",
        contains(&rosters, SESSION)
    );
    let st = env.json(&["fleet", "status"]);
    assert!(
        st["agents"]
            .as_array()
            .unwrap()
            .iter()
            .all(|a| a["session"] != SESSION),
        "{st}"
    );

    // Again: nothing new in the spool, nothing new in the lake.
    let lake = tree(&env.ctxlake_home().join("lake"));
    let again = env.json(&["import"]);
    assert_eq!(
        (again["sessions"].as_u64(), again["events"].as_u64()),
        (Some(0), Some(0))
    );
    let spool = String::from_utf8_lossy(&env.spool_bytes()).into_owned();
    assert!(
        !spool.contains(SESSION),
        "the drained spool stays empty: {spool}"
    );
    env.json(&["sync"]);
    let after: Vec<_> = tree(&env.ctxlake_home().join("lake"))
        .into_iter()
        .filter(|(p, _)| !p.to_string_lossy().contains("/live/"))
        .collect();
    let before: Vec<_> = lake
        .into_iter()
        .filter(|(p, _)| !p.to_string_lossy().contains("/live/"))
        .collect();
    assert_eq!(before.len(), after.len(), "no new lake object");

    // The secret typed into the prompt is nowhere.
    let all = tree(&env.ctxlake_home());
    assert!(
        contains(&all, SECRET).is_empty(),
        "{:?}",
        contains(&all, SECRET)
    );
    assert!(
        contains(&all, "write the notes").is_empty(),
        "prompt text is not kept by default"
    );
}

#[test]
fn kept_prompts_are_still_scrubbed() {
    let env = Env::new();
    repo(&env);
    claude_transcript(&env);
    env.write("config.toml", "[import]\nprompts = true\n");
    env.json(&["import"]);
    // The spool already holds it scrubbed: the import passed the hook's boundary, not
    // only the drain's.
    let spooled = tree(&env.ctxlake_home());
    assert!(
        contains(&spooled, SECRET).is_empty(),
        "{:?}",
        contains(&spooled, SECRET)
    );
    env.json(&["sync"]);
    let all = tree(&env.ctxlake_home());
    assert!(
        !contains(&all, "write the notes").is_empty(),
        "kept when asked"
    );
    assert!(
        contains(&all, SECRET).is_empty(),
        "{:?}",
        contains(&all, SECRET)
    );
}

#[test]
fn no_transcripts_is_an_empty_import_not_an_error() {
    let env = Env::new();
    let r = env.json(&["import"]);
    assert_eq!(r["sessions"], 0);
    env.cmd().args(["import", "cursor"]).assert().code(2);
}
