//! Opening a store: the configured one, or one named by URL, with the `[s3]` settings
//! and the providers' environment captured here (storage reads no environment itself).

use crate::config::Config;
use crate::ctx::Ctx;
use crate::error::Result;
use crate::lake::{self, Store, s3::Access};

/// The configured store (only an `s3://` or `az://` store starts a client).
pub fn configured(ctx: &Ctx) -> Result<Box<dyn Store>> {
    url(&ctx.config, &ctx.config.store_url(&ctx.paths))
}

/// The store at `url`, reached with `config`'s `[s3]` settings.
pub fn url(config: &Config, url: &str) -> Result<Box<dyn Store>> {
    let env = crate::paths::provider_vars();
    lake::open_url(
        url,
        Access {
            s3: &config.s3,
            env: &env,
        },
    )
}
