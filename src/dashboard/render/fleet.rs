//! The fleet page's live sections: agents (runtime, task, last seen, sessions) and leases
//! grouped by repository and path, contended ones first and highlighted with the holder.

use std::collections::HashMap;

use super::super::gather::FleetView;
use super::super::html::{Esc, span, w};
use crate::tools::fleet::status::{AgentRow, LeaseRow};

/// Rows per table: the page stays light at hundreds of agents (the CLI has the rest).
pub(super) const AGENTS_SHOWN: usize = 60;
pub(super) const LEASES_SHOWN: usize = 120;
/// Sessions named per agent row.
const SESSIONS_NAMED: usize = 3;

/// How long ago (or how soon) an RFC 3339 time is; the text itself if it does not parse.
pub(super) fn ago(at: &str, now_ms: i64) -> String {
    match crate::time::parse_rfc3339(at) {
        Some(t) => ago_ms(t, now_ms),
        None => at.to_string(),
    }
}

/// How long ago (or how soon) lake-time `at_ms` is.
pub(super) fn ago_ms(at_ms: i64, now_ms: i64) -> String {
    match (at_ms - now_ms) / 1000 {
        s if s <= 0 => format!("{} ago", span(-s)),
        s => format!("in {}", span(s)),
    }
}

/// "… and N more" under a capped table.
pub(super) fn more(m: &mut String, hidden: usize, what: &str, cli: &str) {
    if hidden > 0 {
        w!(
            m,
            "<p class=\"more\">… and {hidden} more {what} (<code>{cli}</code> lists them all)</p>"
        );
    }
}

pub(super) fn agents(m: &mut String, v: &FleetView) {
    let st = &v.status;
    w!(
        m,
        "<section id=\"agents\"><h2>Agents <small>{} active</small></h2>",
        st.agents.len()
    );
    if let Some(note) = &st.note {
        w!(m, "<p class=\"note\">{}</p>", Esc(note));
    }
    let mut sessions: HashMap<&str, Vec<(&str, &str)>> = HashMap::new();
    for s in &v.history.sessions {
        sessions
            .entry(s.agent.as_str())
            .or_default()
            .push((s.session.as_str(), s.outcome.as_str()));
    }
    if !st.agents.is_empty() {
        m.push_str("<table><thead><tr><th>agent</th><th>runtime</th><th>task</th><th>last seen</th><th>sessions</th><th>leases</th></tr></thead><tbody>");
        for a in st.agents.iter().take(AGENTS_SHOWN) {
            agent_row(m, a, sessions.get(a.agent.as_str()), v.now_ms);
        }
        m.push_str("</tbody></table>");
    }
    more(
        m,
        st.agents.len().saturating_sub(AGENTS_SHOWN),
        "agents",
        "ctxlake fleet status",
    );
    m.push_str("</section>");
}

fn agent_row(m: &mut String, a: &AgentRow, sessions: Option<&Vec<(&str, &str)>>, now: i64) {
    let contended = a.leases.iter().filter(|l| l.holder.is_some()).count();
    w!(
        m,
        "<tr><td class=\"agent\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>",
        Esc(&a.agent),
        Esc(a.runtime.as_deref().unwrap_or("—")),
        Esc(a.task.as_deref().unwrap_or("—")),
        Esc(&ago_ms(a.last_seen_ms, now))
    );
    w!(
        m,
        "<span class=\"session\">{}</span> (live)",
        Esc(&a.session)
    );
    for (id, outcome) in sessions
        .into_iter()
        .flatten()
        .filter(|(id, _)| *id != a.session)
        .take(SESSIONS_NAMED)
    {
        w!(
            m,
            "<br><span class=\"session\">{}</span> ({})",
            Esc(id),
            Esc(outcome)
        );
    }
    w!(m, "</td><td>{} held", a.leases.len() - contended);
    if contended > 0 {
        w!(
            m,
            ", <span class=\"contended\">{contended} contended</span>"
        );
    }
    m.push_str("</td></tr>");
}

pub(super) fn leases(m: &mut String, v: &FleetView) {
    let all: Vec<(&AgentRow, &LeaseRow)> = v
        .status
        .agents
        .iter()
        .flat_map(|a| a.leases.iter().map(move |l| (a, l)))
        .collect();
    let (mut contended, mut held): (Vec<_>, Vec<_>) =
        all.into_iter().partition(|(_, l)| l.holder.is_some());
    shown_first(&mut contended);
    shown_first(&mut held);
    w!(
        m,
        "<section id=\"leases\"><h2>Leases <small>{} held, {} contended</small></h2>",
        held.len(),
        contended.len()
    );
    if !contended.is_empty() {
        m.push_str("<h3 class=\"contended\">Contended</h3>");
        lease_table(m, &contended, v.now_ms);
    }
    if !held.is_empty() {
        m.push_str("<h3>Held</h3>");
        lease_table(m, &held, v.now_ms);
    }
    w!(
        m,
        "<p class=\"note\">{}</p></section>",
        Esc(&v.status.advisory)
    );
}

/// Order the rows a table shows (by repository, path, grant) in front; the hidden rest stay
/// unsorted, so thousands of leases cost a selection, not a full sort.
fn shown_first(rows: &mut [(&AgentRow, &LeaseRow)]) {
    fn order(x: &(&AgentRow, &LeaseRow), y: &(&AgentRow, &LeaseRow)) -> std::cmp::Ordering {
        (&x.1.repo, &x.1.path, x.1.granted_at_ms).cmp(&(&y.1.repo, &y.1.path, y.1.granted_at_ms))
    }
    if rows.len() > LEASES_SHOWN {
        rows.select_nth_unstable_by(LEASES_SHOWN, order);
    }
    let n = rows.len().min(LEASES_SHOWN);
    rows[..n].sort_by(order);
}

fn lease_table(m: &mut String, rows: &[(&AgentRow, &LeaseRow)], now: i64) {
    m.push_str("<table><thead><tr><th>path</th><th>claimant</th><th>standing</th><th>reason</th><th>time left</th></tr></thead><tbody>");
    let mut repo: Option<&str> = None;
    for (a, l) in rows.iter().take(LEASES_SHOWN) {
        if repo != Some(l.repo.as_str()) {
            repo = Some(l.repo.as_str());
            let name = if l.repo.is_empty() {
                "(outside any repository)"
            } else {
                &l.repo
            };
            w!(
                m,
                "<tr class=\"repo\"><th colspan=\"5\">{}</th></tr>",
                Esc(name)
            );
        }
        let left = span(((l.expires_at_ms - now) / 1000).max(0));
        let (class, standing) = match &l.holder {
            Some(h) => (
                " class=\"contended\"",
                format!("contended — held by <b class=\"holder\">{}</b>", Esc(h)),
            ),
            None => ("", "held".to_string()),
        };
        w!(
            m,
            "<tr{class}><td class=\"path\">{}</td><td>{}</td><td>{standing}</td><td>{}</td><td>{left}</td></tr>",
            Esc(&l.path),
            Esc(&a.agent),
            Esc(&l.reason)
        );
    }
    m.push_str("</tbody></table>");
    more(
        m,
        rows.len().saturating_sub(LEASES_SHOWN),
        "leases",
        "ctxlake fleet status --json",
    );
}
