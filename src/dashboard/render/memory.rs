//! The fleet page's record sections: pipeline health (stale data marked), handoffs and
//! recent sessions (newest first), and memory: promoted and contested claims with their
//! attribution and marks (probably outdated, a replacement pending, unconfirmed for N
//! days), the gate's queue with why each claim still waits, and the supersede chains.

use super::super::gather::{CLAIMS_SHOWN, FleetView};
use super::super::html::{Esc, span, w};
use super::fleet::{ago, more};
use crate::memory::gate::waiting_because;
use crate::memory::render::{Marks, attribution_marked};
use crate::snapshot::rows::ClaimRow;

/// Handoffs and sessions shown; the CLI's `fleet history` has the rest.
const RECORDS_SHOWN: usize = 15;

fn item(m: &mut String, label: &str, value: &str, bad: bool) {
    let class = if bad { " class=\"stale\"" } else { "" };
    w!(m, "<dt>{label}</dt><dd{class}>{}</dd>", Esc(value));
}

pub(super) fn pipeline(m: &mut String, v: &FleetView) {
    let p = &v.pipeline;
    let now = v.now_ms;
    m.push_str("<section id=\"pipeline\"><h2>Pipeline health</h2><dl>");
    let (cache, stale) = match (v.status.cache_age_secs, v.status.cache_problem) {
        (Some(a), _) if a > v.stale_after_secs => (format!("{} old — STALE", span(a)), true),
        (Some(a), _) => (format!("{} old", span(a)), false),
        (None, Some(pr)) => (format!("{} — STALE", pr.headline()), true),
        (None, None) => ("no cache yet — STALE".into(), true),
    };
    item(m, "cache", &cache, stale);
    let when = |t: &Option<String>| t.as_deref().map_or("never".into(), |t| ago(t, now));
    item(m, "last sync", &when(&p.last_sync), p.last_sync.is_none());
    item(
        m,
        "last maint",
        &when(&p.last_maint),
        p.last_maint.is_none(),
    );
    let backlog = format!(
        "{} in {} file(s) waiting",
        crate::spool::human_bytes(p.spool_backlog_bytes),
        p.spool_backlog_files
    );
    item(m, "spool backlog", &backlog, false);
    let probe = p.store_probe.as_deref().unwrap_or("not probed yet");
    item(
        m,
        "store",
        &format!("{} (probe: {probe})", p.store),
        probe != "passed",
    );
    let daemon = if p.sync_daemon_running {
        "running"
    } else {
        "not running (`ctxlake service install`)"
    };
    item(m, "sync daemon", daemon, !p.sync_daemon_running);
    m.push_str("</dl></section>");
}

pub(super) fn handoffs(m: &mut String, v: &FleetView) {
    let h = &v.history.handoffs;
    m.push_str("<section id=\"handoffs\"><h2>Handoffs</h2>");
    if h.is_empty() {
        m.push_str("<p class=\"note\">No handoff notes.</p>");
    } else {
        m.push_str("<table><thead><tr><th>when</th><th>agent</th><th>status</th><th>summary</th><th>next step</th></tr></thead><tbody>");
        for n in h.iter().take(RECORDS_SHOWN) {
            w!(
                m,
                "<tr><td>{}</td><td>{}</td><td class=\"status\">{}</td><td class=\"summary\">{}</td><td>{}</td></tr>",
                Esc(&ago(&n.at, v.now_ms)),
                Esc(&n.agent),
                Esc(&n.status.to_string()),
                Esc(&n.summary),
                Esc(n.next.as_deref().unwrap_or("—"))
            );
        }
        m.push_str("</tbody></table>");
    }
    more(
        m,
        h.len().saturating_sub(RECORDS_SHOWN),
        "handoffs",
        "ctxlake fleet history",
    );
    m.push_str("</section>");
}

pub(super) fn sessions(m: &mut String, v: &FleetView) {
    let s = &v.history.sessions;
    m.push_str("<section id=\"sessions\"><h2>Recent sessions</h2>");
    if let Some(note) = &v.history.note {
        w!(m, "<p class=\"note\">{}</p>", Esc(note));
    }
    if !s.is_empty() {
        m.push_str("<table><thead><tr><th>started</th><th>agent</th><th>session</th><th>runtime</th><th>repository</th><th>outcome</th></tr></thead><tbody>");
        for d in s.iter().take(RECORDS_SHOWN) {
            w!(
                m,
                "<tr><td>{}</td><td>{}</td><td class=\"session\">{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                Esc(&ago(&d.started_at, v.now_ms)),
                Esc(&d.agent),
                Esc(&d.session),
                Esc(d.runtime.as_deref().unwrap_or("—")),
                Esc(d.repo.as_deref().unwrap_or("—")),
                Esc(&outcome(d))
            );
        }
        m.push_str("</tbody></table>");
    }
    more(
        m,
        s.len().saturating_sub(RECORDS_SHOWN),
        "sessions",
        "ctxlake fleet history",
    );
    m.push_str("</section>");
}

fn claim_list(m: &mut String, v: &FleetView, title: &str, class: &str, rows: &[ClaimRow]) {
    let queue = class == "proposed";
    w!(
        m,
        "<h3>{title} <small>{}</small></h3>",
        rows.len().min(CLAIMS_SHOWN)
    );
    if rows.is_empty() {
        m.push_str("<p class=\"note\">None.</p>");
        return;
    }
    w!(m, "<ul class=\"claims {class}\">");
    for c in rows.iter().take(CLAIMS_SHOWN) {
        let date = c.promoted_at.as_deref().unwrap_or(&c.created_at);
        let marks = Marks::of(c, v.now_ms, &v.memory.stale_after);
        let attr = attribution_marked(&c.id, date, c.independent_sessions, c.confidence, &marks);
        w!(
            m,
            "<li><span class=\"attr\">{}</span> <span class=\"subject\">{} · {}</span><br><span class=\"text\">{}</span>",
            Esc(&attr),
            Esc(&c.subject),
            Esc(c.claim_type.as_str()),
            Esc(&c.text)
        );
        if queue {
            let why = waiting_because(c.claim_type, c.independent_sessions);
            w!(m, "<br><span class=\"why\">waiting: {}</span>", Esc(&why));
        }
        m.push_str("</li>");
    }
    m.push_str("</ul>");
    if rows.len() > CLAIMS_SHOWN {
        m.push_str("<p class=\"more\">… more in <code>ctxlake memory list</code></p>");
    }
}

pub(super) fn claims(m: &mut String, v: &FleetView) {
    let mem = &v.memory;
    m.push_str("<section id=\"memory\"><h2>Memory</h2>");
    w!(
        m,
        "<p class=\"note\">{}</p>",
        Esc(crate::memory::render::HEADING)
    );
    if let Some(note) = &mem.note {
        w!(m, "<p class=\"note\">{}</p>", Esc(note));
    }
    if let Some(id) = &mem.snapshot_id {
        w!(m, "<p class=\"note\">snapshot {}</p>", Esc(id));
        claim_list(m, v, "Promoted", "promoted", &mem.promoted);
        claim_list(m, v, "CONTESTED", "contested", &mem.contested);
        claim_list(m, v, "Gate queue (proposed)", "proposed", &mem.proposed);
        chains(m, &mem.superseded);
    }
    m.push_str("</section>");
}

/// Superseded claims, newest first, each with the claim that replaced it.
fn chains(m: &mut String, rows: &[ClaimRow]) {
    w!(
        m,
        "<h3>Superseded <small>{}</small></h3>",
        rows.len().min(CLAIMS_SHOWN)
    );
    if rows.is_empty() {
        m.push_str("<p class=\"note\">None.</p>");
        return;
    }
    m.push_str("<ul class=\"claims superseded\">");
    for c in rows.iter().take(CLAIMS_SHOWN) {
        let by = c.superseded_by.as_deref().unwrap_or("?");
        let when = c.superseded_at.as_deref().unwrap_or_default();
        w!(
            m,
            "<li><span class=\"attr\">[{} → {}, {}]</span> <span class=\"subject\">{} · {}</span><br><span class=\"text\">{}</span></li>",
            Esc(&c.id),
            Esc(by),
            Esc(when.get(..10).unwrap_or(when)),
            Esc(&c.subject),
            Esc(c.claim_type.as_str()),
            Esc(&c.text)
        );
    }
    m.push_str("</ul>");
    if rows.len() > CLAIMS_SHOWN {
        m.push_str(
            "<p class=\"more\">… more in <code>ctxlake memory list --status superseded</code></p>",
        );
    }
}

/// A session's outcome, marked when it was replayed from a transcript (`ctxlake import`).
fn outcome(d: &crate::cache::SessionDigest) -> String {
    match d.imported {
        true => format!("{} (imported)", d.outcome),
        false => d.outcome.to_string(),
    }
}
