//! The one integration-test binary: every area is a module below, each test runs the
//! real `ctxlake` binary in a sealed temporary HOME.

#![allow(clippy::unwrap_used)]

#[path = "cli/aging.rs"]
mod aging;
#[path = "cli/azure.rs"]
mod azure;
#[path = "cli/boundary.rs"]
mod boundary;
#[path = "cli/clones.rs"]
mod clones;
#[path = "cli/common.rs"]
mod common;
#[path = "cli/corpora.rs"]
mod corpora;
#[path = "cli/dashboard.rs"]
mod dashboard;
#[path = "cli/docs.rs"]
mod docs;
#[path = "cli/doctor.rs"]
mod doctor;
#[path = "cli/feed.rs"]
mod feed;
#[path = "cli/fleets.rs"]
mod fleets;
#[path = "cli/hook.rs"]
mod hook;
#[path = "cli/hostile.rs"]
mod hostile;
#[path = "cli/http.rs"]
mod http;
#[path = "cli/import.rs"]
mod import;
#[path = "cli/init.rs"]
mod init;
#[path = "cli/install.rs"]
mod install;
#[path = "cli/lake.rs"]
mod lake;
#[path = "cli/layers.rs"]
mod layers;
#[path = "cli/linked_dirs.rs"]
mod linked_dirs;
#[path = "cli/locks.rs"]
mod locks;
#[path = "cli/mcp.rs"]
mod mcp;
#[path = "cli/model.rs"]
mod model;
#[path = "cli/model_server.rs"]
mod model_server;
#[path = "cli/peer_text.rs"]
mod peer_text;
#[path = "cli/reads.rs"]
mod reads;
#[path = "cli/s3.rs"]
mod s3;
#[path = "cli/semantic.rs"]
mod semantic;
#[path = "cli/spool.rs"]
mod spool;
#[path = "cli/state_paths.rs"]
mod state_paths;
#[path = "cli/tools.rs"]
mod tools;
#[path = "cli/updates.rs"]
mod updates;
#[path = "cli/usage.rs"]
mod usage;
#[path = "cli/watch.rs"]
mod watch;

/// A test file that is not declared above would silently never run.
#[test]
fn every_test_file_is_declared() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli");
    let me = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli.rs"),
    )
    .unwrap();
    for e in std::fs::read_dir(dir).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".rs") {
            assert!(
                me.contains(&format!("\"cli/{name}\"")),
                "tests/cli/{name} is not declared in tests/cli.rs"
            );
        }
    }
}
