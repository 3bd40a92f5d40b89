//! The per-rule acceptance checks: names, stopwords, entropy, shapes.

use super::*;

#[test]
fn names() {
    for (n, t) in [
        ("PASSWORD", Some(Tier::Password)),
        ("PGPASSWORD", Some(Tier::Password)),
        ("dbPass", Some(Tier::Password)),
        ("backend_pass", Some(Tier::Password)),
        ("bypass", None),
        ("password_hash", None),
        ("GITHUB_TOKEN", Some(Tier::Secret)),
        ("client_secret", Some(Tier::Secret)),
        ("jwtsecret", Some(Tier::Secret)),
        ("ado_pat", Some(Tier::Secret)),
        ("IO_KEY", Some(Tier::Key)),
        ("apiKey", Some(Tier::Secret)),
        ("monkey", None),
        ("key", None),
        ("public_key", None),
        ("next_token", None),
        ("max_tokens", None),
        ("token_count", None),
        ("author", None),
        ("_auth", Some(Tier::Secret)),
    ] {
        assert_eq!(classify_name(n), t, "{n}");
    }
}

#[test]
fn placeholders() {
    for p in [
        "${API_KEY}",
        "$API_KEY",
        "<token>",
        "{{ secrets.X }}",
        "%PASSWORD%",
        "xxxxxxxxxxxx",
        "********",
        "changeme",
        "your-api-key",
        "YOUR_API_KEY_HERE",
        "true",
        "null",
        "[REDACTED:github-pat]",
    ] {
        assert!(is_placeholder(p), "{p}");
    }
    for p in ["hunter2", "ghp_abc", "s3cr3t-Value", "$2b$12$abc"] {
        assert!(!is_placeholder(p), "{p}");
    }
}

#[test]
fn base64_decodes() {
    assert_eq!(
        base64_prefix(b"LS0tLS1CRUdJTiBQUklWQVRF", 64),
        b"-----BEGIN PRIVATE"
    );
}
