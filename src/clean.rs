//! The read boundary: every value read from the cache or the snapshot passes one typed
//! cleaning step ([`Clean`]) inside its reader, right after decoding, so no caller can
//! skip it. Every string is sanitized and bounded (`sanitize::clean`): other agents wrote it.

use crate::cache::{Handoffs, History, Pipeline, Roster};
use crate::sanitize::{MAX_FIELD_CHARS, clean_cow};
use crate::snapshot::build::{ClaimRow, EventRow};

/// Every string of a read row type, cleaned in place. Typed, so a large roster is parsed
/// once, not as a `Value`.
pub trait Clean {
    fn clean(&mut self);
}

/// Clean one string in place; no allocation when nothing changes (the common case).
pub(crate) fn clean_str(s: &mut String) {
    if let std::borrow::Cow::Owned(c) = clean_cow(s, MAX_FIELD_CHARS) {
        *s = c;
    }
}

pub(crate) fn clean_opt(s: &mut Option<String>) {
    if let Some(s) = s {
        clean_str(s);
    }
}

/// [`clean_str`] for text borrowed from a file's bytes: stays borrowed when unchanged.
pub(crate) fn clean_borrowed(s: &mut std::borrow::Cow<'_, str>) {
    if let std::borrow::Cow::Owned(c) = clean_cow(s, MAX_FIELD_CHARS) {
        *s = std::borrow::Cow::Owned(c);
    }
}

impl<T: Clean> Clean for Vec<T> {
    fn clean(&mut self) {
        self.iter_mut().for_each(Clean::clean);
    }
}

impl Clean for Roster {
    fn clean(&mut self) {
        clean_str(&mut self.generated_at);
        for p in &mut self.agents {
            for s in [&mut p.agent, &mut p.session, &mut p.last_seen] {
                clean_str(s);
            }
            clean_opt(&mut p.runtime);
            clean_opt(&mut p.task);
            for l in &mut p.leases {
                for s in [
                    &mut l.repo,
                    &mut l.path,
                    &mut l.reason,
                    &mut l.granted_at,
                    &mut l.expires_at,
                ] {
                    clean_str(s);
                }
            }
        }
    }
}

impl Clean for History {
    fn clean(&mut self) {
        clean_str(&mut self.generated_at);
        for d in &mut self.sessions {
            for s in [
                &mut d.session,
                &mut d.agent,
                &mut d.started_at,
                &mut d.outcome,
            ] {
                clean_str(s);
            }
            for o in [&mut d.runtime, &mut d.repo, &mut d.ended_at] {
                clean_opt(o);
            }
            d.files_touched
                .iter_mut()
                .chain(&mut d.commands)
                .chain(&mut d.tests)
                .for_each(clean_str);
        }
    }
}

impl Clean for Handoffs {
    fn clean(&mut self) {
        clean_str(&mut self.generated_at);
        for h in &mut self.handoffs {
            for s in [
                &mut h.id,
                &mut h.at,
                &mut h.agent,
                &mut h.session,
                &mut h.summary,
            ] {
                clean_str(s);
            }
            clean_opt(&mut h.repo);
            clean_opt(&mut h.next);
        }
    }
}

impl Clean for Pipeline {
    fn clean(&mut self) {
        for o in [
            &mut self.last_sync,
            &mut self.last_maint,
            &mut self.snapshot_id,
            &mut self.store,
        ] {
            clean_opt(o);
        }
    }
}

impl Clean for ClaimRow {
    fn clean(&mut self) {
        for s in [
            &mut self.id,
            &mut self.text,
            &mut self.subject,
            &mut self.created_at,
            &mut self.agent,
            &mut self.session,
        ] {
            clean_str(s);
        }
        clean_opt(&mut self.promoted_at);
    }
}

impl Clean for EventRow {
    fn clean(&mut self) {
        for s in [
            &mut self.at,
            &mut self.subject,
            &mut self.kind,
            &mut self.claim_id,
            &mut self.agent,
            &mut self.session,
            &mut self.text,
        ] {
            clean_str(s);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::snapshot::search::{Query, list, search, timeline};
    use crate::snapshot::{Snapshot, build::build, top::top};

    use super::*;
    use crate::memory::kinds::{ClaimScope, ClaimStatus, ClaimType};

    const PLANTED: &str = "\u{202E}\u{E0041}";

    fn planted(s: &str) -> String {
        format!("{s}{PLANTED}")
    }

    /// Every snapshot reader returns rows that passed the boundary.
    #[test]
    fn every_snapshot_reader_returns_cleaned_rows() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("s.sqlite");
        let claim = ClaimRow {
            id: planted("c1"),
            text: planted("widget needs port 8080"),
            claim_type: ClaimType::Environment,
            subject: planted("widgets"),
            scope: ClaimScope::Fleet,
            status: ClaimStatus::Promoted,
            independent_sessions: 2,
            confidence: 0.8,
            created_at: planted("2026-11-01"),
            promoted_at: Some(planted("2026-11-02")),
            agent: planted("a"),
            session: planted("s"),
        };
        let event = EventRow {
            at: planted("2026-11-02"),
            subject: "widgets".into(),
            kind: planted("claim_promoted"),
            claim_id: planted("c1"),
            agent: planted("a"),
            session: planted("s"),
            text: planted("widget"),
        };
        build(&p, &planted("snap"), "f", "on", &[claim], &[event]).unwrap();
        let s = Snapshot::open(&p).unwrap();
        assert_eq!((s.id.as_str(), s.mode.as_str()), ("snap", "on"));
        let q = Query {
            text: "widget port",
            subject: None,
            claim_type: None,
            scope: None,
            k: 5,
        };
        let mut claims: Vec<ClaimRow> = search(&s, &q)
            .unwrap()
            .0
            .into_iter()
            .map(|h| h.claim)
            .collect();
        claims.extend(list(&s, None, 5).unwrap());
        claims.extend(top(&s, 5).unwrap());
        assert_eq!(claims.len(), 3);
        for c in claims {
            let text = format!("{c:?}");
            assert!(
                !text.contains('\u{202E}') && !text.contains('\u{E0041}'),
                "{text}"
            );
            assert_eq!(c.promoted_at.as_deref(), Some("2026-11-02"));
        }
        let events = timeline(&s, "widgets", None, 5).unwrap();
        assert_eq!(events.len(), 1);
        let text = format!("{:?}", events[0]);
        assert!(
            !text.contains('\u{202E}') && !text.contains('\u{E0041}'),
            "{text}"
        );
    }
}
