//! Every path under `state/` is named in `src/paths.rs`, so one file lists what a host
//! keeps there: production code outside it may use the state directory itself (to create
//! or sweep it) but never builds a path below it.

use super::layers::{rs_files, src, test_files, without_test_items};

/// Whether `code` builds a path below the state directory by hand.
fn builds_a_state_path(code: &str) -> bool {
    let squeezed: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    squeezed.contains(".state().join(")
}

#[test]
fn every_state_path_is_named_in_paths_rs() {
    let mut files = Vec::new();
    rs_files(&src(), &mut files);
    let tests = test_files(&files);
    let offenders: Vec<String> = files
        .iter()
        .filter(|f| !tests.contains(*f) && !f.ends_with("paths.rs"))
        .filter(|f| builds_a_state_path(&without_test_items(&std::fs::read_to_string(f).unwrap())))
        .map(|f| f.strip_prefix(src()).unwrap().display().to_string())
        .collect();
    assert!(
        offenders.is_empty(),
        "these build a path under `state/` by hand; name it in src/paths.rs instead: {offenders:?}"
    );
}

#[test]
fn the_checker_sees_a_path_split_over_lines() {
    assert!(builds_a_state_path(
        "paths\n    .state()\n    .join(\"maint\")"
    ));
    assert!(!builds_a_state_path(
        "std::fs::create_dir_all(paths.state())"
    ));
    assert!(!builds_a_state_path("paths.host_id()"));
}
