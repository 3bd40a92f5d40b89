//! The write boundary's gaps that issue 23 reproduced, each as it reached the spool: no
//! piece of the secret may survive, and the text around it stays.

use super::*;

/// No `n`-byte piece of `secret` is in `out`.
fn assert_no_piece(out: &str, secret: &str, n: usize) {
    for w in secret.as_bytes().windows(n) {
        let piece = std::str::from_utf8(w).unwrap();
        assert!(!out.contains(piece), "`{piece}` of `{secret}` kept: {out}");
    }
}

/// A citation carrying secrets as keys and under secret-named keys: scanned alone, the
/// value `hunter2…` or a bare 40-character AWS secret has no name to go by.
#[test]
fn secrets_in_citation_keys_and_under_secret_named_keys() {
    let r = Redactor::new();
    let token = format!("ghp_{}", al(36, 600));
    let aws = synth(40, B64, 601);
    let pw = format!("Hx{}!9", al(10, 602));
    let api = al(32, 603);
    let mut v = json!([{
        "session_id": "s1",
        "message_id": "m1",
        (token.clone()): "x",
        "aws_secret_access_key": aws,
        "password": pw,
        "nested": {"apiKey": api, "note": "fine", "token_count": "12345678901234"},
    }]);
    let n = r.redact_value(&mut v);
    let out = v.to_string();
    for s in [&token, &aws, &pw, &api] {
        assert_no_piece(&out, s, 8);
    }
    assert_eq!(n, 4, "{out}");
    assert_eq!(v[0]["password"], "[REDACTED:generic-assignment]");
    assert_eq!(v[0]["nested"]["note"], "fine");
    assert_eq!(
        v[0]["nested"]["token_count"], "12345678901234",
        "a count is no secret"
    );
    assert_eq!(v[0]["session_id"], "s1");
    // Words, placeholders and free-text keys stay.
    let mut v = json!({"password": "${DB_PASSWORD}", "token": "not set yet",
        "my notes about the token": al(20, 604), "secret": "[REDACTED:jwt]"});
    assert_eq!(r.redact_value(&mut v), 0, "{v}");
}

#[test]
fn sk_keys_without_a_provider_marker() {
    let r = Redactor::new();
    for key in [format!("sk-{}", al(48, 610)), format!("sk-{}", hx(32, 611))] {
        let out = r.redact_str(&format!("use {key} for the API")).into_owned();
        assert_eq!(out, "use [REDACTED:sk-api-key] for the API");
    }
    for fine in [
        "sk-learn",
        "task-1234567890abcdef1234567890abcdef",
        "sk-abcdefghijklmnopqrstuvwxyzabcdefghij",
    ] {
        assert!(r.find(fine).is_empty(), "{fine}");
    }
}

/// A token broken across lines (a terminal's wrap, a pasted log, a shell continuation,
/// an indented YAML value) is redacted whole, both pieces and the break.
#[test]
fn a_token_wrapped_across_lines_is_redacted_whole() {
    let r = Redactor::new();
    let token = format!("ghp_{}", al(36, 620));
    let jwt = format!(
        "eyJ{}.eyJ{}.{}",
        synth(30, URLSAFE, 621),
        synth(40, URLSAFE, 622),
        synth(43, URLSAFE, 623)
    );
    for (secret, cut) in [
        (&token, 20),
        (&token, 4),
        (&token, 38),
        (&jwt, 50),
        (&jwt, 100),
    ] {
        let (a, b) = secret.split_at(cut);
        for brk in ["\n", "\r\n", "\\\n", "\n    "] {
            let text = format!("here: {a}{brk}{b} done");
            let out = r.redact_str(&text).into_owned();
            assert_no_piece(&out, secret, 10);
            assert!(out.starts_with("here: [REDACTED:"), "{out}");
            assert!(out.ends_with("] done"), "{out}");
        }
    }
    // Ordinary lines are not glued into findings.
    let code = "let key_id = lookup(name)\nreturn value\nsk-\nlearn";
    assert!(r.find(code).is_empty(), "{:?}", r.find(code));
}

/// An unquoted password runs on over `&`; a query string's next field does not.
#[test]
fn a_password_with_an_ampersand_is_redacted_whole() {
    let r = Redactor::new();
    for (text, want) in [
        (
            "db password=p4ss&w0rd!x9 ok",
            "db password=[REDACTED:generic-assignment] ok",
        ),
        (
            "PGPASSWORD=Tr0ub&dor&3 psql",
            "PGPASSWORD=[REDACTED:generic-assignment] psql",
        ),
        (
            "mysql -u root -pS3cr&t9x db",
            "mysql -u root -p[REDACTED:cli-password-flag] db",
        ),
        (
            "https://x.example/login?user=bob&password=hunter2x9&next=/home",
            "https://x.example/login?user=bob&password=[REDACTED:generic-assignment]&next=/home",
        ),
        (
            "export PASSWORD=Tr0ub4dor3&& make",
            "export PASSWORD=[REDACTED:generic-assignment]&& make",
        ),
        (
            "href=\"/s?api_key=Zq8Xv2LmT4nR7pW1&amp;page=2\"",
            "href=\"/s?api_key=[REDACTED:generic-assignment]&amp;page=2\"",
        ),
    ] {
        assert_eq!(r.redact_str(text), want, "{text}");
    }
}
