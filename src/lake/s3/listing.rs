//! ListObjectsV2, sent and read here rather than by object_store: its listing parses
//! every key of a page as an `object_store::path::Path` and fails the whole page on one
//! it refuses (a `..` segment, a control character), so one hostile object would stop
//! every host's sync. This listing hands every key back as the store named it; the
//! caller skips and counts what `keys::validate` refuses, at the cost of that entry only.
//!
//! The request is object_store's own: its HTTP client (same options), its credential
//! chain and its SigV4 signer (`AwsAuthorizer`). Keys come back URL-encoded
//! (`encoding-type=url`), so a control character never has to survive XML. What one
//! answer may carry is bounded: its body size, its entries and each key's length; what
//! one listing may take is bounded by its page count.

use object_store::ClientOptions;
use object_store::aws::{AmazonS3Builder, AmazonS3ConfigKey, AwsAuthorizer, AwsCredentialProvider};
use object_store::client::{
    HttpClient, HttpConnector, HttpRequest, HttpRequestBody, ReqwestConnector,
};
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode};
use serde::Deserialize;

/// S3's own limit on a key; a longer name is no key of ours.
pub(super) const MAX_KEY_BYTES: usize = 1024;
/// Entries asked for per page (S3's maximum); an answer with more is refused.
pub(super) const PAGE_KEYS: usize = 1000;
/// An answer's body at most: a full page of the longest keys, URL-encoded, fits.
const MAX_PAGE_BYTES: usize = 8 << 20;
/// Pages one listing may take (10 million keys): a store that never stops paging
/// fails the listing instead of holding the pass forever.
pub(super) const MAX_PAGES: usize = 10_000;

/// Unreserved characters stay; everything else is escaped (SigV4's encoding).
const QUERY: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// How to list one bucket; built beside the object_store client from the same settings.
#[derive(Debug)]
pub(super) struct Lister {
    http: HttpClient,
    /// `https://host/bucket` or `https://bucket.host`: where the listing is sent.
    endpoint: String,
    region: String,
    /// `None`: unsigned requests (`AWS_SKIP_SIGNATURE`).
    credentials: Option<AwsCredentialProvider>,
    request_payer: bool,
}

/// One listed object, its key exactly as the store named it (not yet validated).
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Entry {
    pub key: String,
    pub size: u64,
    pub mtime_ms: i64,
    /// `store::Object::tag`: the listed entity tag's hash (0 without one).
    pub tag: u64,
}

/// `store::Object::tag` of a listed entity tag: its hash, 0 for none.
pub(super) fn tag_of(etag: Option<&str>) -> u64 {
    etag.filter(|t| !t.is_empty())
        .map_or(0, |t| crate::digest::fnv1a64(t.as_bytes()))
}

/// One answer: its entries, names that could not even be decoded, and where to go on.
#[derive(Debug, Default)]
pub(super) struct Page {
    pub entries: Vec<Entry>,
    /// Names that are not UTF-8 once decoded, or longer than `MAX_KEY_BYTES`.
    pub undecodable: u64,
    pub next: Option<String>,
}

/// Why a page could not be had: worth sending again, or not.
#[derive(Debug)]
pub(super) enum Failure {
    Retry(String),
    Final(String),
    NoBucket,
}

impl Lister {
    /// `None` for S3 Express (its session credentials stay inside object_store, which
    /// then lists on its own).
    pub(super) fn new(
        b: &AmazonS3Builder,
        credentials: AwsCredentialProvider,
    ) -> object_store::Result<Option<Lister>> {
        let get = |k| b.get_config_value(&k);
        let yes = |k| get(k).is_some_and(|v: String| v.eq_ignore_ascii_case("true"));
        if yes(AmazonS3ConfigKey::S3Express) {
            return Ok(None);
        }
        let bucket = get(AmazonS3ConfigKey::Bucket).unwrap_or_default();
        let region = get(AmazonS3ConfigKey::Region).unwrap_or_else(|| "us-east-1".into());
        // As object_store's builder places the bucket (path style unless asked otherwise).
        let endpoint = match get(AmazonS3ConfigKey::S3Endpoint).or(get(AmazonS3ConfigKey::Endpoint))
        {
            Some(e) if yes(AmazonS3ConfigKey::VirtualHostedStyleRequest) => e,
            Some(e) => format!("{}/{bucket}", e.trim_end_matches('/')),
            None if yes(AmazonS3ConfigKey::VirtualHostedStyleRequest) => {
                format!("https://{bucket}.s3.{region}.amazonaws.com")
            }
            None => format!("https://s3.{region}.amazonaws.com/{bucket}"),
        };
        let options = client_options(|k| get(AmazonS3ConfigKey::Client(k)));
        Ok(Some(Lister {
            http: ReqwestConnector::default().connect(&options)?,
            endpoint,
            region,
            credentials: (!yes(AmazonS3ConfigKey::SkipSignature)).then_some(credentials),
            request_payer: yes(AmazonS3ConfigKey::RequestPayer),
        }))
    }

    /// One page of the keys starting with `prefix`, after `after` (S3 `start-after`)
    /// or from a continuation token.
    pub(super) async fn page(
        &self,
        prefix: &str,
        after: Option<&str>,
        token: Option<&str>,
    ) -> Result<Page, Failure> {
        let mut query = vec![("list-type", "2"), ("encoding-type", "url")];
        let max = PAGE_KEYS.to_string();
        query.push(("max-keys", &max));
        if !prefix.is_empty() {
            query.push(("prefix", prefix));
        }
        if let Some(a) = after {
            query.push(("start-after", a));
        }
        if let Some(t) = token {
            query.push(("continuation-token", t));
        }
        let mut req = request(&self.endpoint, &query)?;
        if let Some(provider) = &self.credentials {
            let cred = provider
                .get_credential()
                .await
                .map_err(|e| Failure::Retry(format!("credentials: {e}")))?;
            AwsAuthorizer::new(&cred, "s3", &self.region)
                .with_request_payer(self.request_payer)
                .try_authorize(&mut req, None)
                .map_err(|e| Failure::Final(format!("cannot sign the listing: {e}")))?;
        }
        send(&self.http, req, parse).await
    }
}

/// A GET of `base` with `query` percent-encoded, ready to sign (S3 and Azure alike).
pub(super) fn request(base: &str, query: &[(&str, &str)]) -> Result<HttpRequest, Failure> {
    let q: Vec<String> = query
        .iter()
        .map(|(k, v)| format!("{k}={}", utf8_percent_encode(v, QUERY)))
        .collect();
    http::Request::get(format!("{base}?{}", q.join("&")))
        .body(HttpRequestBody::empty())
        .map_err(|e| Failure::Final(format!("bad listing request: {e}")))
}

/// Send a signed listing request and read its page with `parse`: a 404 is a missing bucket
/// or container, a 429 or 5xx is worth another try, anything else is final.
pub(super) async fn send(
    http: &HttpClient,
    req: HttpRequest,
    parse: fn(&[u8]) -> Result<Page, Failure>,
) -> Result<Page, Failure> {
    let answer = http
        .execute(req)
        .await
        .map_err(|e| Failure::Retry(e.to_string()))?;
    let status = answer.status().as_u16();
    let body = read_capped(answer.into_body()).await?;
    match status {
        200 => parse(&body),
        404 => Err(Failure::NoBucket),
        s if s == 429 || s >= 500 => Err(Failure::Retry(format!("HTTP {s}"))),
        s => Err(Failure::Final(format!(
            "HTTP {s}: {}",
            String::from_utf8_lossy(&body[..body.len().min(300)])
        ))),
    }
}

/// The answer's body, refused past `MAX_PAGE_BYTES` without reading the rest.
async fn read_capped(body: object_store::client::HttpResponseBody) -> Result<Vec<u8>, Failure> {
    use futures_util::StreamExt;
    let mut out = Vec::new();
    let mut chunks = body.bytes_stream();
    while let Some(c) = chunks.next().await {
        let c = c.map_err(|e| Failure::Retry(e.to_string()))?;
        if out.len() + c.len() > MAX_PAGE_BYTES {
            return Err(Failure::Final(format!(
                "a listing page over {} MiB",
                MAX_PAGE_BYTES >> 20
            )));
        }
        out.extend_from_slice(&c);
    }
    Ok(out)
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct ListBucketResult {
    #[serde(default)]
    contents: Vec<Contents>,
    #[serde(default)]
    is_truncated: bool,
    next_continuation_token: Option<String>,
    encoding_type: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Contents {
    key: String,
    size: u64,
    last_modified: String,
    #[serde(rename = "ETag", default)]
    etag: Option<String>,
}

/// Read one ListObjectsV2 answer. A malformed answer fails; a malformed name is counted.
pub(super) fn parse(body: &[u8]) -> Result<Page, Failure> {
    let text = std::str::from_utf8(body)
        .map_err(|_| Failure::Final("a listing that is not UTF-8".into()))?;
    let r: ListBucketResult = quick_xml::de::from_str(text)
        .map_err(|e| Failure::Final(format!("an unreadable listing: {e}")))?;
    if r.contents.len() > PAGE_KEYS {
        return Err(Failure::Final(format!(
            "a listing page of {} keys",
            r.contents.len()
        )));
    }
    let url = r.encoding_type.as_deref() == Some("url");
    let mut page = Page::default();
    for c in r.contents {
        let key = if url { decode(&c.key) } else { Some(c.key) };
        let mtime = time::OffsetDateTime::parse(
            &c.last_modified,
            &time::format_description::well_known::Rfc3339,
        );
        match (key, mtime) {
            (Some(key), Ok(t)) if key.len() <= MAX_KEY_BYTES => page.entries.push(Entry {
                key,
                size: c.size,
                mtime_ms: (t.unix_timestamp_nanos() / 1_000_000) as i64,
                tag: tag_of(c.etag.as_deref()),
            }),
            _ => page.undecodable += 1,
        }
    }
    if r.is_truncated {
        match r.next_continuation_token {
            Some(t) if !t.is_empty() => page.next = Some(t),
            _ => {
                return Err(Failure::Final(
                    "a truncated listing without a continuation token".into(),
                ));
            }
        }
    }
    Ok(page)
}

/// `encoding-type=url` names: form-encoded (`+` is a space), then percent-decoded.
pub(super) fn decode(name: &str) -> Option<String> {
    let plus = name.replace('+', " ");
    percent_decode_str(&plus)
        .decode_utf8()
        .ok()
        .map(|s| s.into_owned())
}

/// Every client option a store's builder took from the environment, so that a listing
/// connects exactly as the store's other requests do (S3 and Azure alike).
pub(super) fn client_options(
    get: impl Fn(object_store::ClientConfigKey) -> Option<String>,
) -> ClientOptions {
    use object_store::ClientConfigKey as C;
    let mut options = ClientOptions::new();
    for key in [
        C::AllowHttp,
        C::AllowInvalidCertificates,
        C::NoSystemCertificates,
        C::ConnectTimeout,
        C::Http1Only,
        C::Http2Only,
        C::PoolIdleTimeout,
        C::PoolMaxIdlePerHost,
        C::ProxyUrl,
        C::ProxyCaCertificate,
        C::ProxyExcludes,
        C::RandomizeAddresses,
        C::ReadTimeout,
        C::Timeout,
        C::UserAgent,
    ] {
        if let Some(v) = get(key) {
            options = options.with_config(key, v);
        }
    }
    options
}

#[cfg(test)]
#[path = "listing_tests.rs"]
pub(super) mod tests;
