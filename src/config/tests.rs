//! The loader: every setting, its default, and the error for a bad value.

use super::*;

/// `KEYS` is exactly what the loader reads: every dotted label the loader names in its
/// errors is listed (a setting missing from `KEYS` is called unknown by `doctor`).
#[test]
fn keys_list_every_setting_the_loader_reads() {
    let src = include_str!("mod.rs");
    let loader = &src[src.find("pub fn parse(text").unwrap()..src.find("#[cfg(test)]").unwrap()];
    let mut read: Vec<&str> = loader
        .split('"')
        .skip(1)
        .step_by(2)
        .filter(|w| KEYS.contains(w) || (w.contains('.') && !w.contains(' ')))
        .collect();
    read.sort();
    read.dedup();
    let mut keys = KEYS.to_vec();
    keys.sort();
    assert_eq!(read, keys);
}

#[test]
fn template_parses_back() {
    let t = template("f1", "me@host", "file:///x/lake", MemoryMode::Shadow);
    let c = Config::parse(&t, Path::new("c.toml")).unwrap();
    assert_eq!(c.fleet.as_deref(), Some("f1"));
    assert_eq!(c.agent.as_deref(), Some("me@host"));
    assert_eq!(c.memory_mode, MemoryMode::Shadow);
}

#[test]
fn set_keeps_comments() {
    let text = "# top\nfleet = \"a\" # mine\n\n[memory]\n# keep\nmode = \"on\"\n";
    let mut doc = parse_doc(text, Path::new("c")).unwrap();
    set_string(&mut doc, None, "fleet", "b");
    set_string(&mut doc, Some("memory"), "mode", "off");
    set_string(&mut doc, None, "agent", "x");
    let out = doc.to_string();
    assert!(
        out.contains("# top") && out.contains("# mine") && out.contains("# keep"),
        "{out}"
    );
    assert!(out.contains("fleet = \"b\" # mine"), "{out}");
    let c = Config::parse(&out, Path::new("c")).unwrap();
    assert_eq!(c.memory_mode, MemoryMode::Off);
    assert_eq!(c.agent.as_deref(), Some("x"));
}

#[test]
fn stale_after_days_by_type() {
    let c = Config::parse("", Path::new("c.toml")).unwrap();
    assert_eq!(c.stale_after, StaleAfter::default());
    let t = "[memory.stale_after_days]\noutcome = 3\n";
    let c = Config::parse(t, Path::new("c.toml")).unwrap();
    assert_eq!((c.stale_after.outcome, c.stale_after.convention), (3, 180));
    let t = "[memory]\nstale_after_days = { environment = 7 }\n";
    let c = Config::parse(t, Path::new("c.toml")).unwrap();
    assert_eq!(c.stale_after.days(crate::vocab::ClaimType::Environment), 7);
    for (bad, want) in [
        (
            "{ outcome = 0 }",
            "a table of positive day counts (`outcome` is not one)",
        ),
        (
            "{ weather = 3 }",
            "a table keyed by claim type (`weather` is not one)",
        ),
        ("30", "a table of days by claim type"),
    ] {
        let t = format!("[memory]\nstale_after_days = {bad}\n");
        let e = Config::parse(&t, Path::new("c.toml")).unwrap_err();
        assert_eq!(
            e.message,
            format!("`memory.stale_after_days` in `c.toml` must be {want}"),
            "{bad}"
        );
    }
}

#[test]
fn bad_values_are_named() {
    let e = Config::parse("[memory]\nmode = \"loud\"\n", Path::new("c.toml")).unwrap_err();
    assert!(e.message.contains("memory.mode"), "{}", e.message);
    let c = Config::parse("[mcp]\nlog_days = 7\n", Path::new("c.toml")).unwrap();
    assert_eq!(c.mcp_log_days, 7);
    let c = Config::parse("[mcp]\ncall_timeout_secs = 2\n", Path::new("c.toml")).unwrap();
    assert_eq!(c.mcp_call_timeout_secs, 2);
    let e = Config::parse("[mcp]\nlog_days = 0\n", Path::new("c.toml")).unwrap_err();
    assert!(e.message.contains("mcp.log_days"), "{}", e.message);
    let e = Config::parse("[limits]\nlock_wait_ms = 0\n", Path::new("c.toml")).unwrap_err();
    assert!(e.message.contains("limits.lock_wait_ms"), "{}", e.message);
    let c = Config::parse("[limits]\nlock_wait_ms = 300\n", Path::new("c.toml")).unwrap();
    assert_eq!(c.lock_wait(), std::time::Duration::from_millis(300));
    assert_eq!(Config::default().lock_wait_ms, DEFAULT_LOCK_WAIT_MS);
    let c = Config::parse(
        "[memory]\nembedder = \"minilm\"\nmodel_dir = \"/m\"\n",
        Path::new("c.toml"),
    )
    .unwrap();
    assert_eq!(
        (c.embedder, c.model_dir),
        (EmbedderKind::MiniLm, Some("/m".into()))
    );
    assert_eq!(Config::default().embedder, EmbedderKind::Auto);
    let c = Config::parse("[import]\nprompts = true\n", Path::new("c.toml")).unwrap();
    assert!(c.import_prompts && c.embedder == EmbedderKind::Auto);
    let e = Config::parse("[memory]\nembedder = \"bert\"\n", Path::new("c.toml")).unwrap_err();
    assert!(e.message.contains("memory.embedder"), "{}", e.message);
    let e = Config::parse("fleet = [", Path::new("c.toml")).unwrap_err();
    assert!(e.one_line().contains("line 1"), "{}", e.one_line());
}
