//! The dashboard's pages as HTML strings: the frame every page shares, the fleet list
//! (`/`), and one fleet (`/fleet/<fleet>`, sections in `fleet.rs` and `memory.rs`).
//! Every value goes through `Esc`; nothing from the cache becomes markup or a URL.

mod fleet;
mod memory;

use super::gather::{FleetLine, FleetView};
use super::html::{Esc, segment, span, w};

/// The page frame: one stylesheet and one deferred script, both same-origin (strict CSP).
fn frame(title: &str, crumb: &str, main: &str) -> String {
    let mut s = String::with_capacity(main.len() + 1024);
    w!(
        s,
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{}</title><link rel=\"stylesheet\" href=\"/assets/dash.css\">\
         <script src=\"/assets/dash.js\" defer></script></head><body>\
         <header><a href=\"/\">ctxlake</a>{crumb}</header>{main}\
         <footer>Read-only view of this host's cache. Leases are advisory. \
         Refreshes every 10 s while open; without JavaScript, reload.</footer></body></html>",
        Esc(title)
    );
    s
}

/// `/`: this host's fleets, each with its agents, leases and cache age.
pub(crate) fn fleets(lines: &[FleetLine]) -> String {
    let mut m = String::from("<main><h1>Fleets on this host</h1>");
    if lines.is_empty() {
        m.push_str(
            "<p class=\"note\">No fleet has a cache yet: run <code>ctxlake sync</code>.</p>",
        );
    } else {
        m.push_str("<table><thead><tr><th>fleet</th><th>active agents</th><th>leases</th><th>contended</th><th>cache</th></tr></thead><tbody>");
        for l in lines {
            let st = &l.status;
            let leases: Vec<_> = st.agents.iter().flat_map(|a| &a.leases).collect();
            let contended = leases.iter().filter(|l| l.holder.is_some()).count();
            let age = match (st.cache_age_secs, st.cache_problem) {
                (Some(a), _) => format!("{} old", span(a)),
                (None, Some(p)) => p.headline().to_string(),
                (None, None) => "no cache yet".into(),
            };
            w!(
                m,
                "<tr><td><a href=\"/fleet/{}\">{}</a></td><td>{}</td><td>{}</td><td{}>{contended}</td><td>{}</td></tr>",
                segment(&l.fleet),
                Esc(&l.fleet),
                st.agents.len(),
                leases.len(),
                if contended > 0 {
                    " class=\"contended\""
                } else {
                    ""
                },
                Esc(&age)
            );
        }
        m.push_str("</tbody></table>");
    }
    m.push_str("</main>");
    frame("ctxlake · fleets", "", &m)
}

/// `/fleet/<fleet>`: the whole fleet on one screen.
pub(crate) fn fleet(v: &FleetView) -> String {
    let mut m = String::with_capacity(64 * 1024);
    w!(m, "<main><h1>Fleet {}</h1>", Esc(&v.fleet));
    m.push_str("<div class=\"top\">");
    memory::pipeline(&mut m, v);
    m.push_str("<section id=\"activity\"><h2>Activity, last 24 hours</h2>");
    m.push_str(&super::chart::activity(
        &super::gather::activity(v),
        v.now_ms,
    ));
    m.push_str("</section></div>");
    fleet::agents(&mut m, v);
    fleet::leases(&mut m, v);
    memory::handoffs(&mut m, v);
    memory::sessions(&mut m, v);
    memory::claims(&mut m, v);
    m.push_str("</main>");
    let crumb = format!(" / fleet <b>{}</b>", Esc(&v.fleet));
    frame(&format!("ctxlake · fleet {}", v.fleet), &crumb, &m)
}

/// The page a browser without the token gets (401): how to log in, nothing else.
pub(crate) fn unauthorized(reason: &str) -> String {
    let main = format!(
        "<main><h1>Unauthorized</h1><p>{}</p><p>On the host running the server, run \
         <code>ctxlake mcp token show --link</code> and open the link it prints \
         (it works once, for 10 minutes). Scripts send <code>Authorization: Bearer &lt;token&gt;</code>.</p></main>",
        Esc(reason)
    );
    frame("ctxlake · unauthorized", "", &main)
}

/// A refusal as a small page (404, 403): the message, escaped.
pub(crate) fn refusal(title: &str, message: &str) -> String {
    let main = format!(
        "<main><h1>{}</h1><p>{}</p><p><a href=\"/\">All fleets</a></p></main>",
        Esc(title),
        Esc(message)
    );
    frame(&format!("ctxlake · {title}"), "", &main)
}
