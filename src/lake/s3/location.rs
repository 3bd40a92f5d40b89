//! Where an object-store lake is: `s3://bucket[/prefix]` (S3 and S3-compatible stores,
//! plus the non-secret `[s3] endpoint` / `[s3] region` from config.toml, which the AWS
//! environment overrides) or `az://container[/prefix]` (Azure Blob Storage, configured by
//! the `AZURE_STORAGE_*` environment). Credentials are only ever read from the
//! provider's own environment chain, never from a URL or the config file.

use std::sync::Arc;

use object_store::ObjectStore;
use object_store::aws::{AmazonS3Builder, AmazonS3ConfigKey};
use object_store::azure::MicrosoftAzureBuilder;

use crate::error::{Error, Result};

/// The non-secret `[s3]` settings from config.toml.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct S3Options {
    pub endpoint: Option<String>,
    pub region: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Provider {
    S3,
    Azure,
}

impl Provider {
    fn scheme(self) -> &'static str {
        match self {
            Provider::S3 => "s3://",
            Provider::Azure => "az://",
        }
    }

    /// What to check when a request fails.
    pub(super) fn hint(self) -> &'static str {
        match self {
            Provider::S3 => {
                "check the bucket, the endpoint (`AWS_ENDPOINT_URL`), the region and the credentials in your AWS environment, then run the command again"
            }
            Provider::Azure => {
                "check the container, the account (`AZURE_STORAGE_ACCOUNT_NAME`) and the credentials in your Azure environment, then run the command again"
            }
        }
    }
}

#[derive(Debug, PartialEq, Eq)]
pub(super) struct Location {
    pub provider: Provider,
    /// The S3 bucket or the Azure container.
    pub bucket: String,
    /// Empty or ending in `/`.
    pub prefix: String,
}

/// An `s3://` or `az://` store: the lake lives in an object store.
pub(crate) fn is_object_store_url(url: &str) -> bool {
    provider(url).is_some()
}

fn provider(url: &str) -> Option<Provider> {
    [Provider::S3, Provider::Azure]
        .into_iter()
        .find(|p| url.starts_with(p.scheme()))
}

fn invalid(url: &str) -> Error {
    Error::usage("invalid_store", format!("store `{url}` is not a valid object-store location"))
        .hint("write it as `s3://bucket[/prefix]` or `az://container[/prefix]` (credentials come from the provider's environment, never the URL)")
}

pub(super) fn parse(url: &str) -> Result<Location> {
    let provider = provider(url).ok_or_else(|| invalid(url))?;
    let rest = &url[provider.scheme().len()..];
    let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
    let prefix = prefix.trim_end_matches('/');
    // S3 bucket names may hold dots; Azure container names may not.
    let dot_ok = provider == Provider::S3;
    let bucket_ok = !bucket.is_empty()
        && bucket.chars().all(|c| {
            c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || (c == '.' && dot_ok)
        });
    if !bucket_ok || rest.contains(['@', '?', '#']) {
        return Err(invalid(url));
    }
    if !prefix.is_empty() {
        super::keys::validate(prefix).map_err(|_| invalid(url))?;
    }
    Ok(Location {
        provider,
        bucket: bucket.to_string(),
        prefix: if prefix.is_empty() {
            String::new()
        } else {
            format!("{prefix}/")
        },
    })
}

fn env_set(names: &[&str]) -> bool {
    names.iter().any(|n| crate::paths::var(n).is_some())
}

/// The client for `loc`, built from its provider's environment. Makes no request.
pub(super) fn build(
    loc: &Location,
    opts: &S3Options,
) -> object_store::Result<Arc<dyn ObjectStore>> {
    Ok(match loc.provider {
        Provider::S3 => Arc::new(s3_builder(loc, opts).build()?),
        // `AZURE_STORAGE_ACCOUNT_NAME` and a key, SAS token or identity; the emulator
        // (Azurite) with `AZURE_STORAGE_USE_EMULATOR=true` (+ `AZURITE_BLOB_STORAGE_URL`).
        Provider::Azure => Arc::new(
            MicrosoftAzureBuilder::from_env()
                .with_container_name(&loc.bucket)
                .build()?,
        ),
    })
}

/// The AWS environment (`AWS_ENDPOINT_URL`, `AWS_REGION`, `AWS_ALLOW_HTTP`, keys, roles),
/// then the config file for what the environment leaves unset.
fn s3_builder(loc: &Location, opts: &S3Options) -> AmazonS3Builder {
    let mut b = AmazonS3Builder::from_env().with_bucket_name(&loc.bucket);
    if let Some(e) = opts.endpoint.as_deref()
        && !env_set(&["AWS_ENDPOINT_URL", "AWS_ENDPOINT"])
    {
        b = b.with_config(AmazonS3ConfigKey::Endpoint, e);
    }
    if let Some(r) = opts.region.as_deref()
        && !env_set(&["AWS_REGION", "AWS_DEFAULT_REGION"])
    {
        b = b.with_config(AmazonS3ConfigKey::Region, r);
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_parse_into_bucket_and_prefix() {
        let l = parse("s3://team-lake/fleet/a/").unwrap();
        assert_eq!(l.bucket, "team-lake");
        assert_eq!(l.prefix, "fleet/a/");
        assert_eq!(parse("s3://b").unwrap().prefix, "");
        let az = parse("az://lake/fleet").unwrap();
        assert_eq!(
            (az.provider, az.bucket.as_str(), az.prefix.as_str()),
            (Provider::Azure, "lake", "fleet/")
        );
        assert!(parse("s3://my.bucket").is_ok());
        for bad in [
            "s3://",
            "s3:///x",
            "s3://B/x",
            "s3://b/../x",
            "s3://b/a//c",
            "s3://key:secret@b/x",
            "file:///x",
            "az://my.container",
            "gs://b/x",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
