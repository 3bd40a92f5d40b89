//! Where an object-store lake is: `s3://bucket[/prefix]` (S3 and S3-compatible stores,
//! plus the non-secret `[s3] endpoint` / `[s3] region` from config.toml, which the AWS
//! environment overrides) or `az://container[/prefix]` (Azure Blob Storage, configured by
//! the `AZURE_STORAGE_*` environment). Credentials are only ever read from the
//! provider's own environment chain, never from a URL or the config file.

use std::sync::Arc;

use object_store::ObjectStore;
use object_store::aws::{AmazonS3Builder, AmazonS3ConfigKey};
use object_store::azure::MicrosoftAzureBuilder;

use super::list::Lister;
use super::{azlist, listing};
use crate::config::S3Options;
use crate::error::{Error, Result};

/// How to reach an object store: the non-secret `[s3]` settings from config.toml and the
/// provider's environment (`AWS_*`, `AZURE_*`), captured by the caller (storage reads no
/// environment of its own).
#[derive(Debug, Clone, Copy)]
pub struct Access<'a> {
    pub s3: &'a S3Options,
    /// `(name, value)` of every provider variable set.
    pub env: &'a [(String, String)],
}

impl Access<'_> {
    fn set(&self, names: &[&str]) -> bool {
        self.env
            .iter()
            .any(|(k, v)| !v.is_empty() && names.contains(&k.as_str()))
    }

    /// The variables whose names start with `prefix`, as config keys.
    fn with_prefix<'b>(&'b self, prefix: &'b str) -> impl Iterator<Item = (String, &'b str)> + 'b {
        self.env
            .iter()
            .filter(move |(k, _)| k.starts_with(prefix))
            .map(|(k, v)| (k.to_ascii_lowercase(), v.as_str()))
    }
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

/// The client for `loc`, built from its provider's environment, and the lenient
/// listing beside it (`listing`, `azlist`). Makes no request.
pub(super) fn build(
    loc: &Location,
    access: Access,
) -> object_store::Result<(Arc<dyn ObjectStore>, Option<Lister>)> {
    Ok(match loc.provider {
        Provider::S3 => {
            let b = s3_builder(loc, access);
            let s3 = b.clone().build()?;
            let lister = listing::Lister::new(&b, Arc::clone(s3.credentials()))?;
            (Arc::new(s3), lister.map(Lister::S3))
        }
        // `AZURE_STORAGE_ACCOUNT_NAME` and a key, SAS token or identity; the emulator
        // (Azurite) with `AZURE_STORAGE_USE_EMULATOR=true` (+ `AZURITE_BLOB_STORAGE_URL`).
        Provider::Azure => {
            let mut b = MicrosoftAzureBuilder::new();
            for (k, v) in access.with_prefix("AZURE_") {
                if let Ok(key) = k.parse() {
                    b = b.with_config(key, v);
                }
            }
            if let Some((_, v)) = access.env.iter().find(|(k, _)| k == "MSI_ENDPOINT") {
                b = b.with_msi_endpoint(v);
            }
            let b = b.with_container_name(&loc.bucket);
            let az = b.clone().build()?;
            let emulator = access
                .env
                .iter()
                .find(|(k, _)| k == "AZURITE_BLOB_STORAGE_URL");
            let emulator = emulator.map(|(_, v)| v.as_str());
            let lister =
                azlist::Lister::new(&b, &loc.bucket, Arc::clone(az.credentials()), emulator)?;
            (Arc::new(az), Some(Lister::Azure(lister)))
        }
    })
}

/// The AWS environment (`AWS_ENDPOINT_URL`, `AWS_REGION`, `AWS_ALLOW_HTTP`, keys, roles),
/// then the config file for what the environment leaves unset.
fn s3_builder(loc: &Location, access: Access) -> AmazonS3Builder {
    let mut b = AmazonS3Builder::new();
    for (k, v) in access.with_prefix("AWS_") {
        if let Ok(key) = k.parse::<AmazonS3ConfigKey>() {
            b = b.with_config(key, v);
        }
    }
    let mut b = b.with_bucket_name(&loc.bucket);
    if let Some(e) = access.s3.endpoint.as_deref()
        && !access.set(&["AWS_ENDPOINT_URL", "AWS_ENDPOINT"])
    {
        b = b.with_config(AmazonS3ConfigKey::Endpoint, e);
    }
    if let Some(r) = access.s3.region.as_deref()
        && !access.set(&["AWS_REGION", "AWS_DEFAULT_REGION"])
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
