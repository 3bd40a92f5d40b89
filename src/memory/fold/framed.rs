//! A rendered claim's digest: its row and its timeline framed field by field (each string
//! length-prefixed, each option and list tagged or counted) into one reused buffer and
//! hashed at once. No two renderings frame to the same bytes, as with their JSON, but
//! nothing is escaped or formatted: the fold hashes every claim it renders.

use sha2::{Digest, Sha256};

use super::claim::SortKey;
use crate::snapshot::rows::{ClaimRow, EventRow};

/// The digest of a rendered claim (32 hex digits): its row and its timeline with the sort
/// keys, so the list of these in claim order determines every row and the global event
/// order.
pub(crate) fn hash(row: &ClaimRow, timeline: &[(SortKey, EventRow)]) -> String {
    thread_local! {
        static BUF: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    BUF.with(|b| {
        let mut f = Frame(std::mem::take(&mut *b.borrow_mut()));
        f.0.clear();
        f.row(row);
        f.n(timeline.len() as u64);
        for ((at, rank, id, seq), e) in timeline {
            f.s(at);
            f.n(u64::from(*rank));
            f.s(id);
            f.n(u64::from(*seq));
            f.event(e);
        }
        let d = Sha256::digest(&f.0);
        if f.0.capacity() <= 1 << 20 {
            *b.borrow_mut() = f.0; // one large claim is no reason to keep its buffer
        }
        crate::digest::hex(&d[..16])
    })
}

struct Frame(Vec<u8>);

impl Frame {
    fn n(&mut self, n: u64) {
        self.0.extend_from_slice(&n.to_le_bytes());
    }

    fn s(&mut self, s: &str) {
        self.n(s.len() as u64);
        self.0.extend_from_slice(s.as_bytes());
    }

    fn opt(&mut self, s: &Option<String>) {
        match s {
            None => self.0.push(0),
            Some(s) => {
                self.0.push(1);
                self.s(s);
            }
        }
    }

    fn row(&mut self, r: &ClaimRow) {
        // Every field, in declaration order: a field left out would let two claims that
        // differ only there share a digest, and a patch would miss the change.
        let ClaimRow {
            id,
            text,
            claim_type,
            subject,
            scope,
            status,
            independent_sessions,
            confidence,
            created_at,
            promoted_at,
            agent,
            session,
            key,
            superseded_by,
            superseded_at,
            outdated_by,
            pending_by,
            last_evidence_at,
        } = r;
        self.s(id);
        self.s(text);
        self.s(claim_type.as_str());
        self.s(subject);
        self.s(scope.as_str());
        self.s(status.as_str());
        self.n(u64::from(*independent_sessions));
        self.n(confidence.to_bits());
        self.s(created_at);
        self.opt(promoted_at);
        self.s(agent);
        self.s(session);
        self.opt(key);
        self.opt(superseded_by);
        self.opt(superseded_at);
        self.opt(outdated_by);
        self.opt(pending_by);
        self.s(last_evidence_at);
    }

    fn event(&mut self, e: &EventRow) {
        let EventRow {
            at,
            subject,
            kind,
            claim_id,
            agent,
            session,
            text,
            related_id,
        } = e;
        for s in [at, subject, kind, claim_id, agent, session, text] {
            self.s(s);
        }
        self.opt(related_id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::{ClaimScope, ClaimStatus, ClaimType};

    fn row() -> ClaimRow {
        ClaimRow {
            id: "c1".into(),
            text: "ci uses node 20".into(),
            claim_type: ClaimType::Environment,
            subject: "ci".into(),
            scope: ClaimScope::Fleet,
            status: ClaimStatus::Promoted,
            independent_sessions: 2,
            confidence: 0.8,
            created_at: "2026-12-01T00:00:00Z".into(),
            promoted_at: None,
            agent: "a".into(),
            session: "s".into(),
            key: None,
            superseded_by: None,
            superseded_at: None,
            outdated_by: None,
            pending_by: None,
            last_evidence_at: "2026-12-01T00:00:00Z".into(),
        }
    }

    fn event() -> EventRow {
        EventRow {
            at: "2026-12-01T00:00:00Z".into(),
            subject: "ci".into(),
            kind: "claim_promoted".into(),
            claim_id: "c1".into(),
            agent: "a".into(),
            session: "s".into(),
            text: "ci uses node 20".into(),
            related_id: None,
        }
    }

    fn key() -> SortKey {
        ("2026-12-01T00:00:00Z".into(), 1, "c1".into(), 0)
    }

    /// A patch finds a changed claim by its digest: a change to any one field of its row,
    /// its timeline or a sort key must change the digest, and moving bytes from one field
    /// into the next must too.
    #[test]
    fn every_field_and_every_boundary_moves_the_digest() {
        type Change = fn(&mut ClaimRow, &mut EventRow, &mut SortKey);
        let changes: Vec<(&str, Change)> = vec![
            ("id", |r, _, _| r.id.push('x')),
            ("text", |r, _, _| r.text.push('x')),
            ("type", |r, _, _| r.claim_type = ClaimType::Convention),
            ("subject", |r, _, _| r.subject.push('x')),
            ("scope", |r, _, _| r.scope = ClaimScope::Agent),
            ("status", |r, _, _| r.status = ClaimStatus::Proposed),
            ("sessions", |r, _, _| r.independent_sessions += 1),
            ("confidence", |r, _, _| r.confidence = 0.81),
            ("created_at", |r, _, _| r.created_at.push('x')),
            ("promoted_at", |r, _, _| r.promoted_at = Some(String::new())),
            ("agent", |r, _, _| r.agent.push('x')),
            ("session", |r, _, _| r.session.push('x')),
            ("key", |r, _, _| r.key = Some(String::new())),
            ("superseded_by", |r, _, _| {
                r.superseded_by = Some("x".into())
            }),
            ("superseded_at", |r, _, _| {
                r.superseded_at = Some("x".into())
            }),
            ("outdated_by", |r, _, _| r.outdated_by = Some("x".into())),
            ("pending_by", |r, _, _| r.pending_by = Some("x".into())),
            ("last_evidence_at", |r, _, _| r.last_evidence_at.push('x')),
            ("agent|session boundary", |r, _, _| {
                r.agent.push('s');
                r.session.clear();
            }),
            ("event at", |_, e, _| e.at.push('x')),
            ("event subject", |_, e, _| e.subject.push('x')),
            ("event kind", |_, e, _| e.kind.push('x')),
            ("event claim", |_, e, _| e.claim_id.push('x')),
            ("event agent", |_, e, _| e.agent.push('x')),
            ("event session", |_, e, _| e.session.push('x')),
            ("event text", |_, e, _| e.text.push('x')),
            ("event related", |_, e, _| e.related_id = Some("x".into())),
            ("key at", |_, _, k| k.0.push('x')),
            ("key rank", |_, _, k| k.1 += 1),
            ("key id", |_, _, k| k.2.push('x')),
            ("key seq", |_, _, k| k.3 += 1),
        ];
        let base = hash(&row(), &[(key(), event())]);
        assert_eq!(base.len(), 32);
        let mut seen = std::collections::HashSet::from([base.clone()]);
        for (name, change) in changes {
            let (mut r, mut e, mut k) = (row(), event(), key());
            change(&mut r, &mut e, &mut k);
            let h = hash(&r, &[(k, e)]);
            assert!(seen.insert(h), "changing {name} left the digest as it was");
        }
        assert!(
            seen.insert(hash(&row(), &[])),
            "an empty timeline is not one event"
        );
        assert!(seen.insert(hash(&row(), &[(key(), event()), (key(), event())])));
    }
}
