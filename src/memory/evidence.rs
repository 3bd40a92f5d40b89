//! The evidence rule: no evidence, no claim. `memory_propose` refuses a proposal that
//! breaks it, and the gate skips any event that somehow carries one.

use serde_json::Value;

use crate::error::{Error, Result};
use crate::rules;

/// No evidence, no claim: at least one, at most 20, each naming a session and a message.
pub fn check(evidence: &[Value]) -> Result<()> {
    if evidence.is_empty() {
        return Err(
            Error::refused("evidence_missing", "a claim without evidence is refused")
                .hint("cite at least one `{\"session_id\": …, \"message_id\": …}` that shows it"),
        );
    }
    if evidence.len() > rules::MAX_EVIDENCE {
        return Err(Error::refused(
            "evidence_too_many",
            format!(
                "{} citations given; at most {} are accepted",
                evidence.len(),
                rules::MAX_EVIDENCE
            ),
        )
        .hint("cite the strongest 20; nothing was trimmed or queued"));
    }
    for (i, e) in evidence.iter().enumerate() {
        // Judged as the write boundary will store it: an id of invisible characters only
        // (`"\u{200b}"`) passes a plain emptiness check, then cleans to "".
        let has = |k: &str| {
            e.get(k)
                .and_then(Value::as_str)
                .is_some_and(|s| !crate::sanitize::clean_cow(s, usize::MAX).trim().is_empty())
        };
        if !(has("session_id") && has("message_id")) {
            return Err(Error::refused(
                "evidence_incomplete",
                format!("citation {i} lacks a non-empty `session_id` and `message_id`"),
            )
            .hint("each citation must name the session and the message that show the claim (invisible characters alone name nothing)"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn evidence_rules() {
        let ok = json!({"session_id": "s", "message_id": "m"});
        assert_eq!(check(&[]).unwrap_err().code, "evidence_missing");
        assert_eq!(check(&[json!({})]).unwrap_err().code, "evidence_incomplete");
        assert_eq!(
            check(&[json!({"session_id": "s", "message_id": " "})])
                .unwrap_err()
                .code,
            "evidence_incomplete"
        );
        assert_eq!(
            check(&vec![ok.clone(); 21]).unwrap_err().code,
            "evidence_too_many"
        );
        check(&vec![ok; 20]).unwrap();
    }

    /// Ids that clean to nothing are no ids: checked after cleaning, not before.
    #[test]
    fn invisible_only_ids_are_refused() {
        for (sid, mid) in [
            ("\u{200b}", "m"),
            ("s", "\u{2060}\u{feff}"),
            ("\u{202e} \u{2028}", "m"),
            ("\u{e0041}", "\u{1b}"),
        ] {
            let e = check(&[json!({"session_id": sid, "message_id": mid})]).unwrap_err();
            assert_eq!(e.code, "evidence_incomplete", "{sid:?} {mid:?}");
        }
        check(&[json!({"session_id": "s\u{200b}1", "message_id": "m"})]).unwrap();
    }
}
