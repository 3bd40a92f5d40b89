//! The read-only fleet dashboard that `ctxlake mcp --http` serves (`/`, `/fleet/<fleet>`):
//! gathered through the tools' readers (`gather`), rendered as escaped HTML by hand with a
//! server-side SVG chart (`render`, `chart`), logged into by a signed one-time link (`login`).

mod chart;
mod gather;
pub(crate) mod html;
pub(crate) mod login;
mod render;
#[cfg(test)]
mod tests;

use crate::ctx::Ctx;
use crate::error::Result;

pub(crate) use render::{refusal, unauthorized};

/// The stylesheet and the refresh script, embedded: no CDN, no file read at run time.
pub(crate) const CSS: &str = include_str!("assets/dash.css");
pub(crate) const JS: &str = include_str!("assets/dash.js");

/// The strict policy every dashboard answer carries: only same-origin style and script
/// files, no inline script or style, no frames, no forms, no base rewriting.
pub(crate) const CSP: &str = "default-src 'none'; style-src 'self'; script-src 'self'; \
connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// `/`: this host's fleets.
pub(crate) fn fleets_page(base: &Ctx) -> String {
    render::fleets(&gather::fleets(base))
}

/// `/fleet/<fleet>`: one fleet (refused when the server is pinned to another).
pub(crate) fn fleet_page(base: &Ctx, fleet: &str) -> Result<String> {
    Ok(render::fleet(&gather::fleet(base, fleet)?))
}
