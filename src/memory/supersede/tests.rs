//! The resolution's rules, one case each.

use super::*;

fn naming(first: &str, second: Option<&str>) -> Naming {
    Naming {
        first: first.into(),
        second: second.map(Into::into),
    }
}

fn node(id: &str, standing: Standing, since: &str) -> Node {
    Node {
        id: id.into(),
        first_id: format!("01{id}"),
        standing,
        since: since.into(),
        key: None,
        supersedes: Vec::new(),
    }
}

fn names(mut n: Node, target: &str, first: &str, second: Option<&str>) -> Node {
    n.supersedes.push((target.into(), naming(first, second)));
    n
}

fn keyed(mut n: Node, key: &str, first: &str, second: Option<&str>) -> Node {
    n.key = Some((key.into(), naming(first, second)));
    n
}

fn by(out: &BTreeMap<String, Outcome>, id: &str) -> Option<(String, String)> {
    out.get(id).and_then(|o| o.superseded.clone())
}

#[test]
fn a_supersede_needs_promotion_and_two_sessions() {
    let old = node("a", Standing::Promoted, "t1");
    let two = names(node("b", Standing::Promoted, "t3"), "a", "t2", Some("t4"));
    let out = resolve(&[old.clone(), two]);
    assert_eq!(
        by(&out, "a"),
        Some(("b".into(), "t4".into())),
        "from the second naming"
    );
    // One session named it: the old claim stands, pointing at the pending replacement.
    let one = names(node("b", Standing::Promoted, "t3"), "a", "t2", None);
    let out = resolve(&[old.clone(), one]);
    assert_eq!(by(&out, "a"), None);
    assert_eq!(out["a"].pending.as_deref(), Some("b"));
    // Not promoted (yet): the same.
    let waiting = names(node("b", Standing::Waiting, "t3"), "a", "t2", Some("t3"));
    let out = resolve(&[old, waiting]);
    assert_eq!(
        (by(&out, "a"), out["a"].pending.as_deref()),
        (None, Some("b"))
    );
}

#[test]
fn a_key_chains_its_holders_in_promotion_order() {
    let a = keyed(node("a", Standing::Promoted, "t1"), "ci.node", "t0", None);
    let b = keyed(
        node("b", Standing::Promoted, "t3"),
        "ci.node",
        "t2",
        Some("t3"),
    );
    let c = keyed(
        node("c", Standing::Promoted, "t5"),
        "ci.node",
        "t4",
        Some("t5"),
    );
    let out = resolve(&[c, a, b]);
    assert_eq!(by(&out, "a"), Some(("b".into(), "t3".into())));
    assert_eq!(by(&out, "b"), Some(("c".into(), "t5".into())));
    assert_eq!(by(&out, "c"), None);
    assert!(out.values().all(|o| o.forks.is_empty()));
}

#[test]
fn a_stale_pointer_follows_the_chain_and_a_race_forks_it() {
    let a = node("a", Standing::Promoted, "t1");
    let b = names(node("b", Standing::Promoted, "t3"), "a", "t2", Some("t3"));
    // `c` named `a` after `b` replaced it: it replaces `b`, the newest successor.
    let c = names(node("c", Standing::Promoted, "t6"), "a", "t5", Some("t6"));
    let out = resolve(&[a.clone(), b.clone(), c]);
    assert_eq!(by(&out, "a"), Some(("b".into(), "t3".into())));
    assert_eq!(by(&out, "b"), Some(("c".into(), "t6".into())));
    // `c` named `a` before `b` replaced it: two replacements of one claim are contested.
    let c = names(node("c", Standing::Promoted, "t6"), "a", "t2", Some("t6"));
    let out = resolve(&[a, b, c]);
    assert_eq!(by(&out, "a"), Some(("b".into(), "t3".into())));
    assert_eq!(out["b"].forks, vec![("t6".to_string(), "c".to_string())]);
    assert_eq!(out["c"].forks, vec![("t6".to_string(), "b".to_string())]);
}

#[test]
fn a_superseded_claim_replaces_nothing_and_cycles_stop() {
    let a = names(node("a", Standing::Promoted, "t1"), "b", "t5", Some("t6"));
    let b = names(node("b", Standing::Promoted, "t2"), "a", "t2", Some("t3"));
    let out = resolve(&[a, b]);
    assert_eq!(by(&out, "a"), Some(("b".into(), "t3".into())));
    assert_eq!(
        by(&out, "b"),
        None,
        "a, replaced at t3, replaces nothing at t6"
    );
}

#[test]
fn ids_and_keys_follow_the_rules() {
    assert!(is_claim_id("c-0123456789"));
    assert!(!is_claim_id("c-012345678"));
    assert!(!is_claim_id("c-0123456789a"));
    assert!(!is_claim_id("c-ABCDEF0123"));
    for ok in ["ci.node-version", "a", "x1.y2", &"k".repeat(64)] {
        assert!(check_key(ok).is_ok(), "{ok}");
    }
    for bad in [
        "",
        "CI.node",
        "ci..node",
        "ci_node",
        ".ci",
        "ci-",
        "ci node",
        &"k".repeat(65),
    ] {
        assert_eq!(check_key(bad).unwrap_err().code, "invalid_key", "{bad:?}");
    }
}

#[test]
fn a_proposals_links_are_refused_not_trimmed() {
    let own = "c-0000000000";
    let ids = |n: usize| {
        (0..n)
            .map(|i| format!("c-{i:010}"))
            .skip(1)
            .collect::<Vec<_>>()
    };
    assert!(
        check_links(own, &ids(21), Some("ci.node")).is_ok(),
        "20 ids"
    );
    assert_eq!(
        check_links(own, &ids(22), None).unwrap_err().code,
        "supersedes_too_many"
    );
    let bad = vec!["c-0000000001".to_string(), "nope".to_string()];
    assert_eq!(
        check_links(own, &bad, None).unwrap_err().code,
        "invalid_claim_id"
    );
    let me = vec![own.to_string()];
    assert_eq!(
        check_links(own, &me, None).unwrap_err().code,
        "supersedes_itself"
    );
    assert_eq!(
        check_links(own, &[], Some("CI")).unwrap_err().code,
        "invalid_key"
    );
}
