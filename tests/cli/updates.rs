//! Memory that ages, measured: the labelled set `tests/data/knowledge_updates.tsv` driven
//! through the real binary as a fleet would (`memory propose` from two sessions, `sync`,
//! `maint`, `sync`, a person's `memory promote` where the gate needs one, then `memory
//! list` and `memory search`). Each row gets a fleet of its own. Explicit and keyed
//! updates must be handled every time, coexisting facts never flagged, hidden or
//! contested, and probable updates (neither key nor supersedes) found at a floor.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::common::Env;

const SET: &str = include_str!("../data/knowledge_updates.tsv");
/// Probable updates found, of the implicit rows (measured 0.909, 20 of 22; none before the
/// detector existed).
const IMPLICIT_RECALL_FLOOR: f64 = 0.75;

struct Case {
    label: String,
    ty: String,
    subject: String,
    keys: (Option<String>, Option<String>),
    old: String,
    new: String,
}

fn cases() -> Vec<Case> {
    SET.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 6, "six tab-separated columns: {l}");
            assert!(
                ["explicit", "keyed", "implicit", "coexist"].contains(&f[0]),
                "unknown label in {l}"
            );
            let key = |k: &str| (k != "-" && !k.is_empty()).then(|| k.to_string());
            let keys = match f[3].split_once('|') {
                Some((a, b)) => (key(a), key(b)),
                None => (key(f[3]), key(f[3])),
            };
            Case {
                label: f[0].into(),
                ty: f[1].into(),
                subject: f[2].into(),
                keys,
                old: f[4].into(),
                new: f[5].into(),
            }
        })
        .collect()
}

fn fleet(n: usize) -> String {
    format!("ku{n:03}")
}

/// `ctxlake ARGS` in fleet `fleet` as session `session`; its stdout as JSON when `--json`.
fn run(env: &Env, fleet: &str, session: &str, args: &[&str]) -> Value {
    let out = env
        .cmd()
        .env("CTXLAKE_FLEET_ID", fleet)
        .env("CTXLAKE_AGENT_ID", format!("agent-{session}"))
        .env("CTXLAKE_SESSION_ID", session)
        .args(args)
        .output()
        .expect("run ctxlake");
    assert!(
        out.status.success(),
        "ctxlake {args:?} in {fleet} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or(Value::Null)
}

/// Run `f` for every case on a few threads (each case is its own fleet and spool).
fn each(cases: &[Case], f: impl Fn(usize, &Case) + Sync) {
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(c) = cases.get(i) else { break };
                    f(i, c);
                }
            });
        }
    });
}

fn pipeline(env: &Env) {
    for step in ["sync", "maint", "sync"] {
        env.cmd().args([step, "-q"]).assert().success();
    }
}

/// Two independent sessions propose `text`; a person promotes it when the gate would not.
fn propose(
    env: &Env,
    n: usize,
    c: &Case,
    text: &str,
    key: &Option<String>,
    supersedes: Option<&str>,
    tag: &str,
) {
    for s in ["a", "b"] {
        let session = format!("{tag}{s}-{n}");
        let evidence = format!("{session}:m1");
        let mut args = vec![
            "memory",
            "propose",
            text,
            "--type",
            &c.ty,
            "--subject",
            &c.subject,
            "--evidence",
            &evidence,
            "--json",
        ];
        if let Some(k) = key {
            args.extend(["--key", k]);
        }
        if let Some(old) = supersedes {
            args.extend(["--supersedes", old]);
        }
        run(env, &fleet(n), &session, &args);
    }
}

fn by_person(env: &Env, cases: &[Case], new: bool) {
    each(cases, |n, c| {
        if c.ty == "preference" || c.ty == "hypothesis" {
            let id = ctxlake::memory::gate::claim_id(&c.subject, if new { &c.new } else { &c.old });
            run(
                env,
                &fleet(n),
                "person",
                &["memory", "promote", &id, "--reason", "confirmed", "--json"],
            );
        }
    });
}

/// What the binary shows about one case.
#[derive(Debug, Default)]
struct Seen {
    /// `memory list` (current claims): status and `outdated_by`, by id.
    current: BTreeMap<String, (String, Option<String>)>,
    /// `memory list --status superseded`: `superseded_by`, by id.
    superseded: BTreeMap<String, Option<String>>,
    /// `memory search OLD` ids in order, and with `--include-superseded`.
    search: Vec<String>,
    history: Vec<(String, String, Option<String>)>,
}

fn seen(env: &Env, n: usize, c: &Case) -> Seen {
    let f = fleet(n);
    let mut s = Seen::default();
    let list = run(env, &f, "operator", &["memory", "list", "--json"]);
    for r in list["claims"].as_array().unwrap() {
        let st = r["status"].as_str().unwrap().to_string();
        let od = r["outdated_by"].as_str().map(str::to_string);
        s.current.insert(r["id"].as_str().unwrap().into(), (st, od));
    }
    let gone = run(
        env,
        &f,
        "operator",
        &["memory", "list", "--status", "superseded", "--json"],
    );
    for r in gone["claims"].as_array().unwrap() {
        let by = r["superseded_by"].as_str().map(str::to_string);
        s.superseded.insert(r["id"].as_str().unwrap().into(), by);
    }
    let ids = |v: &Value| -> Vec<(String, String, Option<String>)> {
        v["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| {
                (
                    h["id"].as_str().unwrap().to_string(),
                    h["status"].as_str().unwrap().to_string(),
                    h["superseded_by"].as_str().map(str::to_string),
                )
            })
            .collect()
    };
    let q = format!("{} {}", c.old, c.new);
    let v = run(
        env,
        &f,
        &format!("reader-{n}"),
        &["memory", "search", &q, "-k", "20", "--json"],
    );
    s.search = ids(&v).into_iter().map(|h| h.0).collect();
    let v = run(
        env,
        &f,
        &format!("reader-{n}"),
        &[
            "memory",
            "search",
            &q,
            "-k",
            "20",
            "--include-superseded",
            "--json",
        ],
    );
    s.history = ids(&v);
    s
}

/// Whether the row is handled as its label says; a reason when not.
fn judge(c: &Case, s: &Seen) -> Result<(), String> {
    let old = ctxlake::memory::gate::claim_id(&c.subject, &c.old);
    let new = ctxlake::memory::gate::claim_id(&c.subject, &c.new);
    let current = |id: &str| s.current.get(id).map(|(st, _)| st.as_str());
    match c.label.as_str() {
        "explicit" | "keyed" => {
            if current(&new) != Some("promoted") {
                return Err(format!(
                    "the new claim is {:?}, not promoted",
                    current(&new)
                ));
            }
            if s.current.contains_key(&old) || s.search.contains(&old) {
                return Err("the old claim is still shown as current".into());
            }
            if s.superseded.get(&old) != Some(&Some(new.clone())) {
                return Err(format!(
                    "the old claim is not superseded by the new: {:?}",
                    s.superseded.get(&old)
                ));
            }
            let hist = s.history.iter().find(|h| h.0 == old);
            if hist.map(|h| (h.1.as_str(), h.2.as_deref()))
                != Some(("superseded", Some(new.as_str())))
            {
                return Err(format!(
                    "`--include-superseded` shows the old claim as {hist:?}"
                ));
            }
            Ok(())
        }
        "implicit" => {
            let flagged = s.current.get(&old) == Some(&("promoted".into(), Some(new.clone())));
            if !flagged {
                return Err(format!(
                    "not flagged: old {:?}, new {:?}",
                    s.current.get(&old),
                    s.current.get(&new)
                ));
            }
            let at = |id: &str| s.search.iter().position(|x| x == id);
            match (at(&old), at(&new)) {
                (Some(o), Some(n)) if o < n => {
                    Err("the outdated claim ranks above the newer one".into())
                }
                _ => Ok(()),
            }
        }
        _ => {
            for (id, which) in [(&old, "old"), (&new, "new")] {
                match s.current.get(id.as_str()) {
                    Some((st, None)) if st == "promoted" => {}
                    other => return Err(format!("the {which} claim is {other:?}")),
                }
            }
            Ok(())
        }
    }
}

#[test]
fn knowledge_updates_through_the_cli() {
    let env = Env::new();
    let cases = cases();
    let count = |l: &str| cases.iter().filter(|c| c.label == l).count();
    assert!(
        count("explicit") + count("keyed") + count("implicit") >= 40,
        "at least 40 updates"
    );
    assert!(count("coexist") >= 40, "at least 40 coexisting pairs");
    for ty in [
        "environment",
        "convention",
        "outcome",
        "preference",
        "hypothesis",
    ] {
        for l in ["explicit", "keyed", "implicit", "coexist"] {
            assert!(
                cases.iter().any(|c| c.ty == ty && c.label == l),
                "no {l} row of type {ty}"
            );
        }
    }
    each(&cases, |n, c| {
        propose(&env, n, c, &c.old, &c.keys.0, None, "o")
    });
    pipeline(&env);
    by_person(&env, &cases, false);
    pipeline(&env);
    each(&cases, |n, c| {
        let old = ctxlake::memory::gate::claim_id(&c.subject, &c.old);
        let sup = (c.label == "explicit").then_some(old.as_str());
        propose(&env, n, c, &c.new, &c.keys.1, sup, "n");
    });
    pipeline(&env);
    by_person(&env, &cases, true);
    pipeline(&env);
    let results: Vec<std::sync::Mutex<Option<Result<(), String>>>> =
        cases.iter().map(|_| Default::default()).collect();
    each(&cases, |n, c| {
        *results[n].lock().unwrap() = Some(judge(c, &seen(&env, n, c)));
    });
    let mut tally: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut false_flags = 0;
    for (c, r) in cases.iter().zip(&results) {
        let r = r.lock().unwrap().take().unwrap();
        let t = tally.entry(c.label.as_str()).or_default();
        t.1 += 1;
        match r {
            Ok(()) => t.0 += 1,
            Err(why) => {
                if c.label == "coexist" && why.contains("Some(\"c-") {
                    false_flags += 1;
                }
                eprintln!(
                    "{} [{} {}] {:?} -> {:?}: {why}",
                    c.label, c.ty, c.subject, c.old, c.new
                );
                if c.label != "implicit" {
                    failures.push(format!("{} {:?} -> {:?}: {why}", c.label, c.old, c.new));
                }
            }
        }
    }
    for (l, (ok, all)) in &tally {
        eprintln!("knowledge updates: {l} {ok}/{all}");
    }
    let (tp, implicit) = tally["implicit"];
    let precision = tp as f64 / (tp + false_flags).max(1) as f64;
    let recall = tp as f64 / implicit.max(1) as f64;
    eprintln!(
        "probable updates: precision {precision:.3} ({tp}/{}), recall {recall:.3} ({tp}/{implicit})",
        tp + false_flags
    );
    assert!(
        failures.is_empty(),
        "{} rows not handled:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        recall >= IMPLICIT_RECALL_FLOOR,
        "implicit recall {recall:.3} below {IMPLICIT_RECALL_FLOOR}"
    );
}
