//! `ctxlake mcp token show --link [PAGE]`: a one-time dashboard login link, signed with the
//! owner token's entry in the store, so the CLI needs no channel to the server.

use crate::addr::DEFAULT_ADDR;
use crate::auth::{OWNER, Store};
use crate::error::{Error, Result};
use crate::paths::Paths;

/// A one-time login link to `page` on the HTTP server running on this host (the first one
/// `mcp status` lists), else on the default address. Only the owner token signs links.
pub(super) fn login_link(paths: &Paths, name: &str, page: &str) -> Result<String> {
    use crate::dashboard::login;
    if name != OWNER {
        return Err(Error::usage(
            "link_owner_only",
            "only the owner token signs dashboard links",
        )
        .hint("run `ctxlake mcp token show --link`"));
    }
    if !login::landing_ok(page) {
        return Err(
            Error::usage("bad_page", format!("`{page}` is not a dashboard page"))
                .hint("give `/` or `/fleet/<fleet>` (letters, digits, `.`, `_`, `-`)"),
        );
    }
    let store = Store::load(&paths.mcp_tokens())?.unwrap_or_default();
    let owner = store.get(OWNER).ok_or_else(|| {
        Error::refused("no_owner_token", "there is no owner token to sign the link")
            .hint("`ctxlake mcp --http` makes one when it first starts; after a revoke: `ctxlake mcp token new owner`")
    })?;
    let base = crate::mcp::status::status(paths)
        .servers
        .into_iter()
        .find_map(|s| s.url)
        .map(|u| u.trim_end_matches("/mcp").to_string())
        .unwrap_or_else(|| format!("http://{DEFAULT_ADDR}"));
    let query = login::link_query(&owner.sha256, page, crate::time::now_ms() / 1000)?;
    Ok(format!("{base}/login?{query}"))
}
