//! Where an S3 lake is: `s3://bucket[/prefix]`, plus the non-secret settings
//! (`[s3] endpoint`, `[s3] region` in config.toml). The AWS environment wins over the
//! config file, and credentials are only ever read from the AWS environment chain.

use object_store::aws::{AmazonS3Builder, AmazonS3ConfigKey};

use crate::error::{Error, Result};

/// The non-secret `[s3]` settings from config.toml.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct S3Options {
    pub endpoint: Option<String>,
    pub region: Option<String>,
}

#[derive(Debug, PartialEq, Eq)]
pub(super) struct Location {
    pub bucket: String,
    /// Empty or ending in `/`.
    pub prefix: String,
}

pub(crate) fn is_s3_url(url: &str) -> bool {
    url.starts_with("s3://")
}

fn invalid(url: &str) -> Error {
    Error::usage("invalid_store", format!("store `{url}` is not a valid S3 location"))
        .hint("write it as `s3://bucket` or `s3://bucket/prefix` (credentials come from the AWS environment, never the URL)")
}

pub(super) fn parse(url: &str) -> Result<Location> {
    let rest = url.strip_prefix("s3://").ok_or_else(|| invalid(url))?;
    let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
    let prefix = prefix.trim_end_matches('/');
    let bucket_ok = !bucket.is_empty()
        && bucket
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.');
    if !bucket_ok || rest.contains(['@', '?', '#']) {
        return Err(invalid(url));
    }
    if !prefix.is_empty() {
        super::keys::validate(prefix).map_err(|_| invalid(url))?;
    }
    Ok(Location {
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

/// The AWS environment (`AWS_ENDPOINT_URL`, `AWS_REGION`, `AWS_ALLOW_HTTP`, keys, roles),
/// then the config file for what the environment leaves unset.
pub(super) fn builder(loc: &Location, opts: &S3Options) -> AmazonS3Builder {
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
        for bad in [
            "s3://",
            "s3:///x",
            "s3://B/x",
            "s3://b/../x",
            "s3://b/a//c",
            "s3://key:secret@b/x",
            "file:///x",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
