//! Redactor tests: a positive and a negative case per rule, a false-positive corpus of
//! ordinary code and prose, idempotence, JSON recursion, and the Nosey Parker benchmark.
//! Synthetic secrets are generated at runtime so this file never trips a secret scanner.

// Tests may unwrap, and the corpus benchmark reports its table on stderr.
#![allow(clippy::unwrap_used, clippy::print_stderr)]

use super::*;
use serde_json::json;
use std::collections::{BTreeMap, HashSet};

mod cases;
mod gaps;
mod noseyparker;

use cases::*;

#[test]
fn every_rule_has_a_case_and_cases_hold() {
    let r = Redactor::new();
    let cases = cases();
    let covered: HashSet<&str> = cases.iter().map(|c| c.rule).collect();
    let missing: Vec<&str> = rules()
        .map(|(id, _)| id)
        .filter(|id| !covered.contains(id))
        .collect();
    assert!(missing.is_empty(), "rules without a test case: {missing:?}");
    assert!(rules().count() >= 25);
    let ids: HashSet<&str> = rules().map(|(id, _)| id).collect();
    let mut failures = Vec::new();
    for c in &cases {
        assert!(ids.contains(c.rule), "case for unknown rule {}", c.rule);
        let found = r.find(&c.pos);
        let at = c.pos.find(&c.secret).expect("secret inside positive text");
        let hit = found
            .iter()
            .any(|f| f.rule == c.rule && f.start <= at && f.end >= at + c.secret.len());
        let out = r.redact_str(&c.pos);
        if !hit || out.contains(&c.secret) {
            failures.push(format!(
                "{}: missed in {:?} -> {:?} ({found:?})",
                c.rule, c.pos, out
            ));
        }
        let neg = r.find(&c.neg);
        if !neg.is_empty() {
            failures.push(format!(
                "{}: false positive on {:?}: {neg:?}",
                c.rule, c.neg
            ));
        }
    }
    for (rule, text, secret) in extra_positives() {
        let found = r.find(&text);
        let out = r.redact_str(&text);
        if !found.iter().any(|f| f.rule == rule) || out.contains(&secret) {
            failures.push(format!("{rule}: missed in {text:?} -> {out:?} ({found:?})"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn context_is_kept() {
    let r = Redactor::new();
    let s = al(32, 300);
    assert_eq!(
        r.redact_str(&format!("API_KEY={s}")),
        "API_KEY=[REDACTED:generic-assignment]"
    );
    let pw = format!("Pw{}9", al(10, 301));
    assert_eq!(
        r.redact_str(&format!("postgres://app:{pw}@db.internal:5432/app")),
        "postgres://app:[REDACTED:url-credentials]@db.internal:5432/app"
    );
    let tok = format!("ghp_{}", al(36, 302));
    assert_eq!(
        r.redact_str(&format!("https://x:{tok}@github.com/o/r.git")),
        "https://x:[REDACTED:github-pat]@github.com/o/r.git"
    );
    assert_eq!(
        r.redact_str(&format!("-H 'Authorization: Bearer {s}'")),
        "-H 'Authorization: Bearer [REDACTED:auth-header]'"
    );
    // Whole PEM block, including escaped newlines inside a JSON string.
    let block = pem("RSA PRIVATE KEY", 3, "\\n");
    assert_eq!(
        r.redact_str(&format!("{{\"key\": \"{block}\\n\", \"x\": 1}}")),
        "{\"key\": \"[REDACTED:private-key]\\n\", \"x\": 1}"
    );
}

#[test]
fn overlapping_findings_merge_cleanly() {
    let r = Redactor::new();
    let tok = format!("ghp_{}", al(36, 310));
    // generic-assignment, github-pat and url-credentials overlap here.
    let text = format!("GITHUB_TOKEN={tok} git clone https://{tok}@github.com/o/r");
    let found = r.find(&text);
    for w in found.windows(2) {
        assert!(w[0].end <= w[1].start, "{found:?}");
    }
    let out = r.redact_str(&text);
    assert!(!out.contains(&tok));
    assert_eq!(
        out,
        "GITHUB_TOKEN=[REDACTED:github-pat] git clone https://[REDACTED:github-pat]@github.com/o/r"
    );
}

#[test]
fn nothing_matched_borrows_and_compiles_nothing() {
    let r = Redactor::new();
    let text = "Just some prose about the weather, numbers 1 2 3, and a path /usr/lib.";
    assert!(matches!(r.redact_str(text), Cow::Borrowed(_)));
    assert_eq!(r.compiled_count(), 0);
    let _ = r.find(&format!("ghp_{}", al(36, 320)));
    assert_eq!(r.compiled_count(), 1);
}

#[test]
fn all_rules_compile() {
    for rule in RULES {
        assert!(compile(rule).is_some(), "{}", rule.id);
    }
}

#[test]
fn idempotent_over_all_cases() {
    let r = Redactor::new();
    let mut texts: Vec<String> = cases().into_iter().flat_map(|c| [c.pos, c.neg]).collect();
    texts.extend(extra_positives().into_iter().map(|(_, t, _)| t));
    texts.extend(fp_corpus().lines().map(str::to_string));
    for t in &texts {
        let once = r.redact_str(t).into_owned();
        let twice = r.redact_str(&once).into_owned();
        assert_eq!(once, twice, "not idempotent on {t:?}");
        // And composed with the sanitizer, in both orders.
        let c = crate::sanitize::clean(&once, 100_000);
        assert_eq!(r.redact_str(&c), c);
    }
}

#[test]
fn redact_value_recurses_into_keys_and_arrays() {
    let r = Redactor::new();
    let tok = format!("ghp_{}", al(36, 330));
    let key = format!("npm_{}", al(36, 331));
    let mut v = json!({
        "cmd": format!("git push https://{tok}@github.com/o/r"),
        "nested": [[{ "env": [format!("GITHUB_TOKEN={tok}"), 7, null] }]],
        (key.clone()): "value under a secret key",
        "fine": "nothing here",
        "n": 1.5
    });
    let n = r.redact_value(&mut v);
    assert_eq!(n, 3);
    let s = v.to_string();
    assert!(!s.contains(&tok) && !s.contains(&key), "{s}");
    assert_eq!(
        v["nested"][0][0]["env"][0],
        "GITHUB_TOKEN=[REDACTED:github-pat]"
    );
    assert_eq!(v["[REDACTED:npm-token]"], "value under a secret key");
    let keys: Vec<_> = v.as_object().unwrap().keys().cloned().collect();
    assert_eq!(keys, ["cmd", "nested", "[REDACTED:npm-token]", "fine", "n"]);
    assert_eq!(r.redact_value(&mut v), 0);
}

fn fp_corpus() -> &'static str {
    include_str!("../testdata/fp_corpus.txt")
}

#[test]
fn no_findings_on_ordinary_code_and_prose() {
    let r = Redactor::new();
    let mut bad = Vec::new();
    for (i, line) in fp_corpus().lines().enumerate() {
        for f in r.find(line) {
            bad.push(format!(
                "line {}: {} {:?}",
                i + 1,
                f.rule,
                &line[f.start..f.end]
            ));
        }
    }
    // Whole-file scan too: multi-line rules (PEM, netrc) see across lines.
    for f in r.find(fp_corpus()) {
        bad.push(format!(
            "file: {} {:?}",
            f.rule,
            &fp_corpus()[f.start..f.end]
        ));
    }
    assert!(bad.is_empty(), "false positives:\n{}", bad.join("\n"));
}

/// `cargo test --release -- --ignored --nocapture redact_speed`
#[test]
#[ignore = "timing, run by hand in release"]
fn redact_speed() {
    let tok = format!("ghp_{}", al(36, 400));
    let mut payload = json!({
        "tool": "Bash",
        "input": {
            "command": format!("git push https://{tok}@github.com/org/repo.git main"),
            "description": "Push the branch so CI runs",
        },
        "output": "Enumerating objects: 12, done.\nCounting objects: 100% (12/12), done.\nDelta compression using up to 8 threads\nCompressing objects: 100% (7/7), done.\nWriting objects: 100% (7/7), 1.21 KiB | 1.21 MiB/s, done.\nTotal 7 (delta 5), reused 0 (delta 0), pack-reused 0\nremote: Resolving deltas: 100% (5/5), completed with 5 local objects.\nTo github.com:org/repo.git\n   3f2a1bc..9e8d7f6  main -> main\n",
        "cwd": "/home/dev/src/repo",
        "env": {"HOME": "/home/dev", "LANG": "en_US.UTF-8", "TERM": "xterm-256color", "SHELL": "/bin/bash"},
        "files": ["src/main.rs", "src/lib.rs", "Cargo.toml", "README.md"],
    });
    while payload.to_string().len() < 2048 {
        payload["notes"] = Value::String(format!(
            "{} The test suite passed locally; the cache key for the build is derived from Cargo.lock.",
            payload["notes"].as_str().unwrap_or("")
        ));
    }
    let size = payload.to_string().len();
    let as_text = payload.to_string();
    let r = Redactor::global();
    let t = std::time::Instant::now();
    let first = r.redact_str(&as_text);
    let cold = t.elapsed();
    assert!(!first.contains(&tok));
    let n = 10_000;
    let t = std::time::Instant::now();
    for _ in 0..n {
        let mut v = payload.clone();
        std::hint::black_box(r.redact_value(&mut v));
    }
    let value_total = t.elapsed();
    let t = std::time::Instant::now();
    for _ in 0..n {
        std::hint::black_box(r.redact_str(&as_text));
    }
    let str_total = t.elapsed();
    let clean_text = as_text.replace(&tok, "x");
    let t = std::time::Instant::now();
    for _ in 0..n {
        std::hint::black_box(r.redact_str(&clean_text));
    }
    let clean_total = t.elapsed();
    eprintln!("payload {size} bytes; first call (incl. lazy compile) {cold:?}");
    eprintln!(
        "redact_value x{n}: {value_total:?} ({:?}/call, incl. clone)",
        value_total / n
    );
    eprintln!(
        "redact_str   x{n}: {str_total:?} ({:?}/call)",
        str_total / n
    );
    eprintln!(
        "redact_str no secret x{n}: {clean_total:?} ({:?}/call)",
        clean_total / n
    );
}
