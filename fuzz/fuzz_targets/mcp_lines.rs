//! MCP framing on arbitrary input: no panic, and at most one frame per input line, each
//! one JSON value.
#![no_main]

use ctxlake::config::Config;
use ctxlake::mcp::serve;
use ctxlake::paths::Paths;
use ctxlake::scope::Scope;
use ctxlake::tools::Ctx;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(dir) = tempfile::tempdir() else { return };
    let ctx = Ctx {
        paths: Paths::with_overrides(dir.path().to_path_buf(), None, None),
        config: Config::default(),
        scope: Scope {
            fleet: "team".into(),
            agent: "a1".into(),
            session: "fuzz".into(),
        },
        pinned_fleet: None,
        cwd: dir.path().to_path_buf(),
        clock: ctxlake::ctx::Clock::System,
    };
    let mut out = Vec::new();
    serve(&ctx, data, &mut out).expect("in-memory io");
    let lines_in = data.split(|b| *b == b'\n').count();
    let frames: Vec<&[u8]> = out.split(|b| *b == b'\n').filter(|l| !l.is_empty()).collect();
    assert!(frames.len() <= lines_in);
    for f in frames {
        serde_json::from_slice::<serde_json::Value>(f).expect("a frame is JSON");
    }
});
