//! Claim events folded into claims, and the promotion gate (DESIGN §4):
//! evidence required; independent sessions = distinct proposing sessions that had not
//! been shown the claim first; `environment`/`outcome` promote at 1, `convention` at 2,
//! `preference` only by a person, `hypothesis` never; a claim that contradicts a
//! promoted one on the same subject makes both CONTESTED (the newest never silently wins).

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::keys;
use super::store::Store;
use crate::error::Result;
use crate::memory::contradiction::Statement;
use crate::snapshot::build::{ClaimRow, EventRow};

/// A claim event as `sync` wrote it into the lake.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct Event {
    pub id: String,
    pub at: String,
    pub kind: String,
    pub agent: String,
    pub session: String,
    pub payload: Value,
}

/// A published snapshot's manifest.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
pub struct Manifest {
    pub seq: u64,
    /// Digest of the folded state: equal ids mean equal content.
    pub snapshot_id: String,
    pub key: String,
    pub sha256: String,
    pub writer: String,
    pub built_at: String,
    pub mode: String,
    pub claims: usize,
}

pub fn latest_manifest(store: &dyn Store, fleet: &str) -> Result<Option<Manifest>> {
    let Some(last) = store
        .list(&keys::manifests(fleet))?
        .into_iter()
        .rfind(|o| keys::manifest_seq(&o.key).is_some())
    else {
        return Ok(None);
    };
    Ok(store
        .get(&last.key)?
        .and_then(|(b, _)| serde_json::from_slice(&b).ok()))
}

pub fn load_events(store: &dyn Store, fleet: &str) -> Result<Vec<Event>> {
    let mut out = Vec::new();
    for o in store.list(&keys::claim_events(fleet))? {
        if let Some((b, _)) = store.get(&o.key)?
            && let Ok(e) = serde_json::from_slice::<Event>(&b)
        {
            out.push(e);
        }
    }
    out.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(out)
}

#[derive(Debug, Default)]
pub struct Folded {
    pub claims: Vec<ClaimRow>,
    pub events: Vec<EventRow>,
}

struct Building {
    row: ClaimRow,
    independent: HashSet<String>,
    /// When each independent session first proposed it, in order.
    independent_at: Vec<String>,
}

/// The content-addressed id of a claim: the same words about the same subject are one claim.
pub fn claim_id(subject: &str, text: &str) -> String {
    let norm = |s: &str| {
        s.to_lowercase()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let key = format!(
        "{}\n{}",
        norm(subject),
        norm(text).trim_end_matches(['.', '!'])
    );
    format!(
        "c-{}",
        &super::mirror::hex(&Sha256::digest(key.as_bytes()))[..10]
    )
}

pub fn fold(events: &[Event]) -> Folded {
    let mut shown: HashMap<(String, String), String> = HashMap::new(); // (session, claim) → first shown at
    let mut claims: BTreeMap<String, Building> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    let mut out = Folded::default();
    let timeline = |claim: &ClaimRow, at: &str, kind: &str, agent: &str, session: &str| EventRow {
        at: at.into(),
        subject: claim.subject.clone(),
        kind: kind.into(),
        claim_id: claim.id.clone(),
        agent: agent.into(),
        session: session.into(),
        text: claim.text.clone(),
    };
    // Pass 1: proposals and what was shown to whom.
    for e in events {
        match e.kind.as_str() {
            "memory_shown" => {
                for id in e.payload["claim_ids"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                {
                    shown
                        .entry((e.session.clone(), id.to_string()))
                        .or_insert_with(|| e.at.clone());
                }
            }
            "memory_propose" => {
                let p = &e.payload;
                let (Some(text), Some(subject), Some(ty)) = (
                    p["claim"].as_str(),
                    p["subject"].as_str(),
                    p["type"].as_str(),
                ) else {
                    continue;
                };
                let evidence = p["evidence"]
                    .as_array()
                    .map(Vec::as_slice)
                    .unwrap_or_default();
                if crate::memory::evidence::check(evidence).is_err() {
                    continue; // no evidence, no claim — even if an old client spooled it
                }
                let id = claim_id(subject, text);
                let b = claims.entry(id.clone()).or_insert_with(|| {
                    order.push(id.clone());
                    Building {
                        row: ClaimRow {
                            id: id.clone(),
                            text: text.into(),
                            claim_type: ty.into(),
                            subject: subject.into(),
                            scope: "agent".into(),
                            status: "proposed".into(),
                            independent_sessions: 0,
                            confidence: 0.0,
                            created_at: e.at.clone(),
                            promoted_at: None,
                            agent: e.agent.clone(),
                            session: e.session.clone(),
                        },
                        independent: HashSet::new(),
                        independent_at: Vec::new(),
                    }
                });
                let was_shown = shown
                    .get(&(e.session.clone(), id.clone()))
                    .is_some_and(|t| t.as_str() <= e.at.as_str());
                if !was_shown && b.independent.insert(e.session.clone()) {
                    b.independent_at.push(e.at.clone());
                }
                b.row.independent_sessions = b.independent.len() as u32;
                out.events.push(timeline(
                    &b.row,
                    &e.at,
                    "claim_proposed",
                    &e.agent,
                    &e.session,
                ));
            }
            _ => {}
        }
    }
    // Pass 2: the gate, in the order claims first appeared. Promoted claims are indexed by
    // subject with their parsed statements, so each candidate meets only its own subject's claims.
    let mut promoted: HashMap<String, Vec<(String, Statement)>> = HashMap::new();
    for id in &order {
        let (subject, statement, ty, n, at) = {
            let b = &claims[id];
            (
                b.row.subject.to_lowercase(),
                Statement::parse(&b.row.text),
                b.row.claim_type.clone(),
                b.independent.len(),
                b.row.created_at.clone(),
            )
        };
        let rivals: Vec<String> = promoted
            .get(&subject)
            .into_iter()
            .flatten()
            .filter(|(_, s)| s.contradicts(&statement))
            .map(|(p, _)| p.clone())
            .collect();
        if !rivals.is_empty() {
            for r in rivals.iter().chain(std::iter::once(id)) {
                if let Some(b) = claims.get_mut(r) {
                    b.row.status = "contested".into();
                    b.row.scope = "fleet".into();
                    let ev = timeline(&b.row, &at, "claim_contested", "gate", "gate");
                    out.events.push(ev);
                }
            }
            if let Some(list) = promoted.get_mut(&subject) {
                list.retain(|(p, _)| !rivals.contains(p));
            }
            continue;
        }
        let needed = match ty.as_str() {
            "environment" | "outcome" => Some(1),
            "convention" => Some(2),
            _ => None, // preference: only a person; hypothesis: never
        };
        if let Some(k) = needed.filter(|k| n >= *k)
            && let Some(b) = claims.get_mut(id)
        {
            // Promoted when the k-th independent session proposed it.
            let at = b.independent_at.get(k - 1).cloned().unwrap_or(at);
            b.row.status = "promoted".into();
            b.row.scope = "fleet".into();
            b.row.promoted_at = Some(at.clone());
            out.events
                .push(timeline(&b.row, &at, "claim_promoted", "gate", "gate"));
            promoted
                .entry(subject)
                .or_default()
                .push((id.clone(), statement));
        }
    }
    // Pass 3: a person's word is final.
    for e in events.iter().filter(|e| e.kind == "memory_operator") {
        let (Some(action), Some(id)) =
            (e.payload["action"].as_str(), e.payload["claim_id"].as_str())
        else {
            continue;
        };
        let Some(b) = claims.get_mut(id) else {
            continue;
        };
        let (status, kind) = match action {
            "promote" => ("promoted", "claim_promoted"),
            "contest" => ("contested", "claim_contested"),
            "retire" => ("retired", "claim_retired"),
            _ => continue,
        };
        b.row.status = status.into();
        b.row.scope = if status == "retired" {
            b.row.scope.clone()
        } else {
            "fleet".into()
        };
        if status == "promoted" {
            b.row.promoted_at = Some(e.at.clone());
        }
        let mut ev = timeline(&b.row, &e.at, kind, &e.agent, &e.session);
        if let Some(r) = e.payload["reason"].as_str() {
            ev.text = format!("{} (reason: {r})", ev.text);
        }
        out.events.push(ev);
    }
    for id in order {
        if let Some(mut b) = claims.remove(&id) {
            let n = b
                .independent
                .len()
                .max(usize::from(b.row.status == "promoted")) as i32;
            let mut conf = 1.0 - 0.5f64.powi(n + 1);
            if b.row.status == "contested" {
                conf *= 0.5;
            }
            b.row.confidence = (conf * 100.0).round() / 100.0;
            out.claims.push(b.row);
        }
    }
    out.events.sort_by(|a, b| a.at.cmp(&b.at));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::contradiction::contradicts;
    use serde_json::json;

    fn propose(id: &str, session: &str, ty: &str, subject: &str, text: &str) -> Event {
        Event {
            id: id.into(),
            at: format!("2026-11-29T00:00:{id}.000Z"),
            kind: "memory_propose".into(),
            agent: format!("agent-{session}"),
            session: session.into(),
            payload: json!({"claim": text, "type": ty, "subject": subject, "evidence": [{"session_id": session, "message_id": "m"}]}),
        }
    }
    fn status(f: &Folded, text: &str) -> (String, u32) {
        let c = f.claims.iter().find(|c| c.text == text).unwrap();
        (c.status.clone(), c.independent_sessions)
    }

    #[test]
    fn thresholds_by_type() {
        let f = fold(&[
            propose("01", "s1", "environment", "ci", "CI runs on Debian 12"),
            propose(
                "02",
                "s1",
                "convention",
                "style",
                "Use snake_case for JSON fields",
            ),
            propose(
                "03",
                "s2",
                "convention",
                "style",
                "use  snake_case for JSON fields.",
            ),
            propose("04", "s1", "convention", "x", "One session is not enough"),
            propose("05", "s1", "preference", "p", "Prefer tabs"),
            propose("06", "s2", "hypothesis", "h", "Maybe the cache is stale"),
        ]);
        assert_eq!(status(&f, "CI runs on Debian 12"), ("promoted".into(), 1));
        assert_eq!(
            status(&f, "Use snake_case for JSON fields"),
            ("promoted".into(), 2),
            "same claim, two sessions"
        );
        assert_eq!(status(&f, "One session is not enough").0, "proposed");
        assert_eq!(status(&f, "Prefer tabs").0, "proposed");
        assert_eq!(status(&f, "Maybe the cache is stale").0, "proposed");
    }

    #[test]
    fn shown_sessions_are_not_independent() {
        let id = claim_id("style", "Use tabs");
        let shown = Event {
            id: "02".into(),
            at: "2026-11-29T00:00:02.000Z".into(),
            kind: "memory_shown".into(),
            agent: "b".into(),
            session: "s2".into(),
            payload: json!({"claim_ids": [id]}),
        };
        let f = fold(&[
            propose("01", "s1", "convention", "style", "Use tabs"),
            shown,
            propose("03", "s2", "convention", "style", "Use tabs"),
        ]);
        assert_eq!(status(&f, "Use tabs"), ("proposed".into(), 1));
    }

    /// Issue 9 §1.6: 260 distinct numbered facts on one subject all ended CONTESTED because
    /// they differ by a number; they name different widgets, so each is promoted.
    #[test]
    fn distinct_numbered_items_are_promoted_not_contested() {
        let mut events: Vec<Event> = (1..=260)
            .map(|n| {
                let text = format!("widget {n} requires flag alpha{n} to be set");
                propose(
                    &format!("{n:03}"),
                    &format!("s{n}"),
                    "environment",
                    "widgets",
                    &text,
                )
            })
            .collect();
        // A real contradiction on the same subject still contests (the gate is not off).
        let text = "widget 7 does not require flag alpha7 to be set";
        events.push(propose("900", "s900", "environment", "widgets", text));
        let f = fold(&events);
        let count = |st: &str| f.claims.iter().filter(|c| c.status == st).count();
        assert_eq!(f.claims.len(), 261);
        assert_eq!(count("promoted"), 259, "every other widget is promoted");
        assert_eq!(count("contested"), 2, "only widget 7 and its negation");
        assert_eq!(status(&f, text).0, "contested");
    }

    #[test]
    fn contradictions_contest_both_sides() {
        let f = fold(&[
            propose(
                "01",
                "s1",
                "environment",
                "tests",
                "The integration tests need network access",
            ),
            propose(
                "02",
                "s2",
                "environment",
                "tests",
                "The integration tests do not need network access",
            ),
            propose(
                "03",
                "s1",
                "environment",
                "db",
                "The test database is postgres 15",
            ),
            propose(
                "04",
                "s2",
                "environment",
                "db",
                "The test database is postgres 16",
            ),
            propose(
                "05",
                "s3",
                "environment",
                "other",
                "The integration tests do not need network access",
            ),
        ]);
        assert_eq!(
            status(&f, "The integration tests need network access").0,
            "contested"
        );
        assert_eq!(
            status(&f, "The integration tests do not need network access").0,
            "contested"
        );
        assert_eq!(
            status(&f, "The test database is postgres 15").0,
            "contested"
        );
        assert_eq!(
            status(&f, "The test database is postgres 16").0,
            "contested"
        );
        assert!(!contradicts("cargo test is slow", "the docs are outdated"));
        assert!(contradicts(
            "The build needs network access",
            "The build does not need network access"
        ));
        assert!(contradicts(
            "Tests can't run offline",
            "Tests can run offline"
        ));
        assert!(!contradicts(
            "The build needs network access",
            "The build needs network access"
        ));
        assert!(f.events.iter().any(|e| e.kind == "claim_contested"));
    }
}
