//! The probable-update rules on the issue's own examples (the labelled set measures the
//! rest, through the CLI: tests/cli/updates.rs).

use super::*;

fn updates(old: &str, new: &str) -> bool {
    probable_update(&Shape::of(old), &Shape::of(new))
}

#[test]
fn a_stated_change_of_one_fact_is_a_probable_update() {
    assert!(updates(
        "CI runs on Node 18",
        "CI now runs on Node 22 (upgraded from Node 18)"
    ));
    assert!(updates(
        "The login test is flaky",
        "The login test is no longer flaky"
    ));
    assert!(updates(
        "The repo uses yarn for package management",
        "The repo now uses pnpm instead of yarn for package management"
    ));
    assert!(updates(
        "The test database is postgres 15",
        "The test database was upgraded to postgres 16"
    ));
    // A short sentence whose value is half of what it says: the same words, a new value.
    assert!(updates(
        "The integration tests take 12 minutes",
        "The integration tests now take 4 minutes"
    ));
    assert!(!updates(
        "The integration tests take 12 minutes",
        "The unit tests now take 4 minutes"
    ));
}

#[test]
fn facts_that_coexist_are_never_flagged() {
    for (a, b) in [
        ("Widget 3 is deprecated", "Widget 4 is deprecated"),
        ("Widget 3 is deprecated", "Widget 4 is now deprecated"),
        (
            "the arm64 runners have 8 cores",
            "the x86 runners have 16 cores",
        ),
        (
            "the arm64 runners have 8 cores",
            "the x86 runners now have 16 cores",
        ),
        ("the API listens on 8080", "metrics listen on 9090"),
        ("the API listens on 8080", "metrics now listen on 9090"),
        ("CI runs clippy", "CI now also runs rustfmt"),
        // A qualifier before the verb and an environment anywhere are part of the head.
        (
            "The API rate limit is 100 requests per minute",
            "The API rate limit for admins is now 1000 requests per minute",
        ),
        (
            "Feature flag beta-search is on in staging",
            "Feature flag beta-search is now on in production",
        ),
    ] {
        assert!(!updates(a, b), "{a:?} / {b:?}");
        assert!(!updates(b, a), "{b:?} / {a:?}");
    }
}

#[test]
fn without_a_cue_it_is_not_an_update() {
    // A plain change of value is the contradiction test's (both CONTESTED), never a flag.
    assert!(!updates("CI runs on Node 18", "CI runs on Node 22"));
    // A restatement with a cue changes nothing.
    assert!(!updates("CI runs on Node 22", "CI now runs on Node 22"));
    // `longer` without a negator is a plain word.
    assert!(!updates(
        "The build takes 5 minutes",
        "The build takes longer than 5 minutes"
    ));
}
