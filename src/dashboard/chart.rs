//! The activity chart: events per hour over the last 24 hours, stacked by agent, drawn as
//! server-side SVG (no script, no library). Colours are presentation attributes, not
//! `style`, so the strict CSP (no inline style) still applies.

use std::collections::HashMap;

use super::html::{Esc, w};

const HOURS: usize = 24;
const HOUR_MS: i64 = 3_600_000;
/// Agents with their own colour; the rest share "others".
const NAMED: usize = 7;
const PALETTE: [&str; NAMED + 1] = [
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1", "#76b7b2", "#edc948", "#9c9c9c",
];
/// The drawing: view box width and height, then the plot area's left edge, top and baseline.
const W: i64 = 720;
const H: i64 = 170;
const LEFT: i64 = 36;
const TOP: i64 = 8;
const BOTTOM: i64 = 140;

/// Per-series hourly counts: series 0..NAMED are the busiest agents, the last is "others".
struct Bins {
    names: Vec<String>,
    counts: Vec<[u32; HOURS]>,
}

fn bin(events: &[(&str, i64)], now_ms: i64) -> Bins {
    let start = now_ms - HOURS as i64 * HOUR_MS;
    let hour = |ms: i64| ((ms - start) / HOUR_MS) as usize;
    let recent: Vec<(&str, usize)> = events
        .iter()
        .filter(|(_, ms)| *ms >= start && *ms < now_ms)
        .map(|&(a, ms)| (a, hour(ms)))
        .collect();
    let mut totals: HashMap<&str, u32> = HashMap::new();
    for (a, _) in &recent {
        *totals.entry(a).or_default() += 1;
    }
    let mut ranked: Vec<(&str, u32)> = totals.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let mut names: Vec<String> = ranked
        .iter()
        .take(NAMED)
        .map(|(a, _)| a.to_string())
        .collect();
    let others = ranked.len() > NAMED;
    let mut counts = vec![[0u32; HOURS]; names.len() + usize::from(others)];
    for (a, h) in recent {
        let i = names
            .iter()
            .position(|n| n == a)
            .unwrap_or(counts.len() - 1);
        counts[i][h.min(HOURS - 1)] += 1;
    }
    if others {
        names.push(format!("{} other agents", ranked.len() - NAMED));
    }
    Bins { names, counts }
}

fn colour(series: usize, total: usize, has_others: bool) -> &'static str {
    if has_others && series + 1 == total {
        PALETTE[NAMED]
    } else {
        PALETTE[series % NAMED]
    }
}

/// The chart and its legend, as an HTML fragment.
pub(crate) fn activity(events: &[(&str, i64)], now_ms: i64) -> String {
    let b = bin(events, now_ms);
    let has_others = b.names.len() > NAMED;
    let peak = (0..HOURS)
        .map(|h| b.counts.iter().map(|c| c[h]).sum::<u32>())
        .max()
        .unwrap_or(0)
        .max(1);
    let total: u32 = b.counts.iter().flat_map(|c| c.iter()).sum();
    let mut s = String::with_capacity(8 * 1024);
    w!(
        s,
        "<svg class=\"chart\" viewBox=\"0 0 {W} {H}\" role=\"img\" aria-label=\"{total} events in the last 24 hours\"><title>{total} events in the last 24 hours</title>"
    );
    let plot_h = BOTTOM - TOP;
    let slot = (W - LEFT) / HOURS as i64;
    w!(
        s,
        "<line x1=\"{LEFT}\" y1=\"{BOTTOM}\" x2=\"{W}\" y2=\"{BOTTOM}\" stroke=\"#888\"/>"
    );
    w!(
        s,
        "<text x=\"{}\" y=\"{}\" font-size=\"10\" text-anchor=\"end\" fill=\"currentColor\">{peak}</text>",
        LEFT - 4,
        TOP + 8
    );
    w!(
        s,
        "<text x=\"{}\" y=\"{BOTTOM}\" font-size=\"10\" text-anchor=\"end\" fill=\"currentColor\">0</text>",
        LEFT - 4
    );
    for h in 0..HOURS {
        let x = LEFT + h as i64 * slot + 2;
        let mut y = BOTTOM;
        for (i, c) in b.counts.iter().enumerate() {
            if c[h] == 0 {
                continue;
            }
            let bar = (c[h] as i64 * plot_h / peak as i64).max(1);
            y -= bar;
            let ago = HOURS - h;
            w!(
                s,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{}\" height=\"{bar}\" fill=\"{}\"><title>{}: {} event(s), {}h to {}h ago</title></rect>",
                slot - 4,
                colour(i, b.counts.len(), has_others),
                Esc(&b.names[i]),
                c[h],
                ago,
                ago - 1
            );
        }
    }
    for (h, label) in [
        (0, "-24h"),
        (6, "-18h"),
        (12, "-12h"),
        (18, "-6h"),
        (24, "now"),
    ] {
        let x = LEFT + h * slot;
        w!(
            s,
            "<text x=\"{x}\" y=\"{}\" font-size=\"10\" text-anchor=\"middle\" fill=\"currentColor\">{label}</text>",
            BOTTOM + 14
        );
    }
    s.push_str("</svg><ul class=\"legend\">");
    for (i, name) in b.names.iter().enumerate() {
        w!(
            s,
            "<li><svg width=\"10\" height=\"10\" aria-hidden=\"true\"><rect width=\"10\" height=\"10\" fill=\"{}\"/></svg> {}</li>",
            colour(i, b.names.len(), has_others),
            Esc(name)
        );
    }
    s.push_str("</ul>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 100 * HOUR_MS;

    #[test]
    fn events_land_in_their_hour_and_old_ones_are_left_out() {
        let ev = [
            ("a", NOW - 1),
            ("a", NOW - 2),
            ("b", NOW - 23 * HOUR_MS - 1),
            ("a", NOW - 25 * HOUR_MS),
            ("a", NOW + 5),
        ];
        let b = bin(&ev, NOW);
        assert_eq!(b.names, ["a", "b"]);
        assert_eq!(b.counts[0][23], 2);
        assert_eq!(b.counts[1][0], 1);
        assert_eq!(b.counts.iter().flatten().sum::<u32>(), 3);
    }

    #[test]
    fn past_seven_agents_the_rest_are_others_and_names_are_escaped() {
        let names: Vec<String> = (0..10).map(|i| format!("<a{i}>")).collect();
        let ev: Vec<(&str, i64)> = names.iter().map(|n| (n.as_str(), NOW - 10)).collect();
        let b = bin(&ev, NOW);
        assert_eq!(b.names.len(), NAMED + 1);
        assert_eq!(b.names[NAMED], "3 other agents");
        assert_eq!(b.counts[NAMED][23], 3);
        let svg = activity(&ev, NOW);
        assert!(!svg.contains("<a0>") && svg.contains("&lt;a0&gt;"));
        assert_eq!(svg.matches("<rect x=").count(), NAMED + 1);
    }
}
