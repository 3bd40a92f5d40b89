//! Post-regex judgement of one match: the rule's check, entropy floor and allowlists decide
//! whether it is a secret and which bytes to redact. Also the judgement of a JSON string
//! under a secret-named key, which no scan of the value alone can make.

use regex::bytes::Captures;

use super::Compiled;
use super::checks::{self, base64_prefix, entropy, is_placeholder};
use super::names::{Quote, assignment_is_secret, classify_name};
use super::rules::{Check, Rule};

/// Decide whether one regex match is a secret; returns the byte range to redact.
pub(super) fn accept(
    rule: &Rule,
    c: &Compiled,
    caps: &Captures<'_>,
    hay: &[u8],
) -> Option<(usize, usize)> {
    let (group, m) = if c.secret_groups.is_empty() {
        (0, caps.get(0)?)
    } else {
        c.secret_groups
            .iter()
            .find_map(|&g| caps.get(g).map(|m| (g, m)))?
    };
    let quoted = m.start() > 0
        && matches!(hay[m.start() - 1], b'"' | b'\'' | b'`')
        && hay.get(m.end()) == Some(&hay[m.start() - 1]);
    // An unquoted value runs on over `&` (`password=p4ss&w0rd`) up to what starts the
    // next field; quoted values and provider tokens never stop there.
    let end = if !quoted && matches!(rule.check, Check::Assignment | Check::Literal) {
        m.start() + value_end(m.as_bytes())
    } else {
        m.end()
    };
    let secret = &hay[m.start()..end];
    if secret.is_empty() {
        return None;
    }
    if rule.min_entropy > 0.0 && entropy(secret) <= rule.min_entropy {
        return None;
    }
    if checks::obviously_fake(secret) {
        return None;
    }
    // Patterns are ASCII-only around the secret, but the secret itself may hold UTF-8.
    let text = String::from_utf8_lossy(secret);
    let ok = match rule.check {
        Check::None => true,
        Check::NotAwsExample => !secret.ends_with(b"EXAMPLE"),
        Check::PemBase64 => {
            let head = base64_prefix(secret, 96);
            head.windows(11).any(|w| w == b"PRIVATE KEY")
        }
        Check::Literal => !is_placeholder(&text),
        Check::Mixed => {
            secret.iter().any(u8::is_ascii_digit) && secret.iter().any(u8::is_ascii_alphabetic)
        }
        Check::NotPlaceholder => {
            // A short bare word after `Bearer`/`Basic` is a scheme or prose, not a credential.
            !is_placeholder(&text)
                && (secret.len() >= 16 || !secret.iter().all(u8::is_ascii_alphabetic))
        }
        Check::UrlUserinfo => {
            let bare_token = c.secret_groups.get(1).is_some_and(|&g| g == group);
            if bare_token {
                entropy(secret) > 3.0
                    && secret.iter().any(u8::is_ascii_digit)
                    && secret.iter().any(u8::is_ascii_alphabetic)
            } else {
                !is_template_or_mask(&text)
            }
        }
        Check::Assignment => {
            let name = c
                .name_group
                .and_then(|g| caps.get(g))
                .map(|m| String::from_utf8_lossy(m.as_bytes()))
                .unwrap_or_default();
            let op = c
                .op_group
                .and_then(|g| caps.get(g))
                .map_or(" ", |m| std::str::from_utf8(m.as_bytes()).unwrap_or(" "));
            let followed_by_call = c
                .tail_group
                .and_then(|g| caps.get(g))
                .is_some_and(|m| !m.is_empty());
            let quote = if quoted { Quote::Quoted } else { Quote::None };
            classify_name(&name).is_some_and(|tier| {
                assignment_is_secret(&name, tier, op, quote, &text, followed_by_call)
            })
        }
    };
    ok.then_some((m.start(), end))
}

/// Where an unquoted value ends: at `&&`, `&amp;` or `&name=` (the next field of a URL
/// query or form body), else at its end; a trailing `&` (a shell's background mark) is
/// never part of it. A password holding `&name=` loses that tail to the next field: the
/// price of not redacting every query string after a token.
pub(super) fn value_end(v: &[u8]) -> usize {
    let mut end = v.len();
    for (i, _) in v.iter().enumerate().filter(|&(_, &b)| b == b'&') {
        let rest = &v[i + 1..];
        let name = rest
            .iter()
            .take_while(|b| {
                b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-' | b'[' | b']')
            })
            .count();
        if rest.first() == Some(&b'&')
            || (rest.starts_with(b"amp") && rest.get(3).is_none_or(|&c| c == b';'))
            || (name > 0 && rest.get(name) == Some(&b'='))
        {
            end = i;
            break;
        }
    }
    while end > 0 && v[end - 1] == b'&' {
        end -= 1;
    }
    end
}

/// The rule id a secret found by [`named_value_is_secret`] is redacted under.
pub(super) const NAMED_VALUE_RULE: &str = "generic-assignment";

/// A JSON string under a secret-named key (`{"password": "hunter2!"}` inside an evidence
/// citation), judged exactly as `"password": "hunter2!"` would be in text. Keys are names
/// only when they look like one: free text that ends in "token" is not an assignment.
pub(super) fn named_value_is_secret(key: &str, value: &str) -> bool {
    let name_like = !key.is_empty()
        && key.len() <= 100
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'));
    if !name_like || value.len() > 400 || value.contains('\n') {
        return false;
    }
    classify_name(key)
        .is_some_and(|tier| assignment_is_secret(key, tier, ":", Quote::Quoted, value, false))
}

/// URL passwords are often plain words (`user:secret@host`), so only templates and masks
/// are exempt there, not the word lists.
fn is_template_or_mask(v: &str) -> bool {
    let b = v.as_bytes();
    v.starts_with("%s")
        || v.starts_with("%(")
        || v.contains("${")
        || v.contains("{{")
        || (b.first() == Some(&b'$')
            && b.get(1)
                .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_'))
        || (b.first() == Some(&b'{') && b.last() == Some(&b'}'))
        || (b.first() == Some(&b'<') && b.last() == Some(&b'>'))
        || v.to_ascii_lowercase().contains("[redacted")
        || b.iter()
            .all(|&c| c == b[0] && matches!(c, b'*' | b'x' | b'X' | b'.'))
}
