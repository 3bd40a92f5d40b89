//! List Blobs, sent and read here rather than by object_store, for the reason
//! `listing` gives for S3: object_store fails a whole page on one blob name it cannot
//! parse as a `Path` (Azurite lists a name with a `..` segment). Every name comes back;
//! the caller counts the ones no key may have. The request is object_store's own: its
//! HTTP client options, credential chain and Shared Key / SAS / bearer signer
//! (`AzureAuthorizer`); a name Azure had to encode for XML (`Encoded="true"`) is decoded.

use object_store::azure::{
    AzureAuthorizer, AzureConfigKey, AzureCredentialProvider, MicrosoftAzureBuilder,
};
use object_store::client::{HttpClient, HttpConnector, ReqwestConnector};
use percent_encoding::percent_decode_str;
use serde::Deserialize;

use super::listing::{
    Entry, Failure, MAX_KEY_BYTES, PAGE_KEYS, Page, client_options, request, send, tag_of,
};

/// Azurite's documented development account.
const EMULATOR_ACCOUNT: &str = "devstoreaccount1";

#[derive(Debug)]
pub(super) struct Lister {
    http: HttpClient,
    /// `https://account.blob.core.windows.net/container` (or the emulator's).
    container_url: String,
    account: String,
    credentials: AzureCredentialProvider,
}

impl Lister {
    /// Beside the object_store client, from the same builder. `emulator_url`: the
    /// `AZURITE_BLOB_STORAGE_URL` the caller captured (object_store reads it too).
    pub(super) fn new(
        b: &MicrosoftAzureBuilder,
        container: &str,
        credentials: AzureCredentialProvider,
        emulator_url: Option<&str>,
    ) -> object_store::Result<Lister> {
        let get = |k| b.get_config_value(&k);
        let yes = |k| get(k).is_some_and(|v: String| v.eq_ignore_ascii_case("true"));
        let emulator = yes(AzureConfigKey::UseEmulator);
        let mut options = client_options(|k| get(AzureConfigKey::Client(k)));
        // As object_store's builder places the account and the container.
        let (account, base) = if emulator {
            options = options.with_allow_http(true);
            let account =
                get(AzureConfigKey::AccountName).unwrap_or_else(|| EMULATOR_ACCOUNT.into());
            let url = emulator_url
                .unwrap_or("http://127.0.0.1:10000")
                .trim_end_matches('/');
            (account.clone(), format!("{url}/{account}"))
        } else {
            let account = get(AzureConfigKey::AccountName).unwrap_or_default();
            let url = match get(AzureConfigKey::Endpoint) {
                Some(e) => e.trim_end_matches('/').to_string(),
                None if yes(AzureConfigKey::UseFabricEndpoint) => {
                    format!("https://{account}.blob.fabric.microsoft.com")
                }
                None => format!("https://{account}.blob.core.windows.net"),
            };
            (account, url)
        };
        Ok(Lister {
            http: ReqwestConnector::default().connect(&options)?,
            container_url: format!("{base}/{container}"),
            account,
            credentials,
        })
    }

    /// One page of the blobs whose names start with `prefix`, from `after` on (Azure's
    /// `startFrom` is inclusive: the caller keeps only what sorts after) or from a marker.
    pub(super) async fn page(
        &self,
        prefix: &str,
        after: Option<&str>,
        marker: Option<&str>,
    ) -> Result<Page, Failure> {
        let max = PAGE_KEYS.to_string();
        let mut query = vec![
            ("restype", "container"),
            ("comp", "list"),
            ("maxresults", max.as_str()),
        ];
        if !prefix.is_empty() {
            query.push(("prefix", prefix));
        }
        match (marker, after) {
            (Some(m), _) => query.push(("marker", m)),
            (None, Some(a)) => query.push(("startFrom", a)),
            (None, None) => {}
        }
        let mut req = request(&self.container_url, &query)?;
        let cred = self
            .credentials
            .get_credential()
            .await
            .map_err(|e| Failure::Retry(format!("credentials: {e}")))?;
        AzureAuthorizer::new(&cred, &self.account)
            .try_authorize(&mut req)
            .map_err(|e| Failure::Final(format!("cannot sign the listing: {e}")))?;
        send(&self.http, req, parse).await
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct EnumerationResults {
    #[serde(default)]
    blobs: Blobs,
    next_marker: Option<String>,
}

#[derive(Deserialize, Default)]
struct Blobs {
    #[serde(rename = "Blob", default)]
    blobs: Vec<Blob>,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Blob {
    name: Name,
    properties: Properties,
}

#[derive(Deserialize)]
struct Name {
    #[serde(rename = "@Encoded", default)]
    encoded: Option<String>,
    #[serde(rename = "$text", default)]
    text: String,
}

#[derive(Deserialize)]
struct Properties {
    #[serde(rename = "Last-Modified")]
    last_modified: String,
    #[serde(rename = "Content-Length")]
    content_length: u64,
    #[serde(rename = "Etag", default)]
    etag: Option<String>,
}

/// Read one List Blobs answer. A malformed answer fails; a malformed name is counted.
pub(super) fn parse(body: &[u8]) -> Result<Page, Failure> {
    let text = std::str::from_utf8(body)
        .map_err(|_| Failure::Final("a listing that is not UTF-8".into()))?;
    // Some servers start with a byte-order mark.
    let text = text.trim_start_matches('\u{feff}');
    let r: EnumerationResults = quick_xml::de::from_str(text)
        .map_err(|e| Failure::Final(format!("an unreadable listing: {e}")))?;
    if r.blobs.blobs.len() > PAGE_KEYS {
        let n = r.blobs.blobs.len();
        return Err(Failure::Final(format!("a listing page of {n} keys")));
    }
    let http_date = time::macros::format_description!(
        "[weekday repr:short], [day] [month repr:short] [year] [hour]:[minute]:[second] GMT"
    );
    let mut page = Page::default();
    for b in r.blobs.blobs {
        let encoded = b
            .name
            .encoded
            .as_deref()
            .is_some_and(|e| e.eq_ignore_ascii_case("true"));
        let key = if encoded {
            let d = percent_decode_str(&b.name.text).decode_utf8();
            d.ok().map(|s| s.into_owned())
        } else {
            Some(b.name.text)
        };
        let at = time::PrimitiveDateTime::parse(&b.properties.last_modified, http_date);
        match (key, at) {
            (Some(key), Ok(t)) if key.len() <= MAX_KEY_BYTES => page.entries.push(Entry {
                key,
                size: b.properties.content_length,
                mtime_ms: (t.assume_utc().unix_timestamp_nanos() / 1_000_000) as i64,
                tag: tag_of(b.properties.etag.as_deref()),
            }),
            _ => page.undecodable += 1,
        }
    }
    page.next = r.next_marker.filter(|m| !m.is_empty());
    Ok(page)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_and_encoded_names_come_back_for_the_caller_to_refuse() {
        let blob = |name: &str| {
            format!(
                "<Blob><Name{name}</Name><Properties><Last-Modified>Tue, 01 Dec 2026 18:17:17 GMT</Last-Modified><Etag>0x8DE31A7E09C1F2B</Etag><Content-Length>2</Content-Length><BlobType>BlockBlob</BlobType></Properties></Blob>"
            )
        };
        let body = format!(
            "\u{feff}<?xml version=\"1.0\" encoding=\"utf-8\"?><EnumerationResults ServiceEndpoint=\"x\" ContainerName=\"lake\"><Prefix>t/</Prefix><MaxResults>1000</MaxResults><Blobs>{}{}{}</Blobs><NextMarker>m2</NextMarker></EnumerationResults>",
            blob(">t/a/../x"),
            blob(" Encoded=\"true\">t/a%01b"),
            blob(">t/ok.json"),
        );
        let p = parse(body.as_bytes()).unwrap();
        let keys: Vec<&str> = p.entries.iter().map(|e| e.key.as_str()).collect();
        assert_eq!(keys, ["t/a/../x", "t/a\u{1}b", "t/ok.json"]);
        assert_eq!(p.entries[2].size, 2);
        assert_eq!(p.entries[2].mtime_ms, 1_796_149_037_000);
        assert_eq!(
            p.entries[2].tag,
            crate::digest::fnv1a64(b"0x8DE31A7E09C1F2B")
        );
        assert_eq!(p.next.as_deref(), Some("m2"));
        let last = body.replace("<NextMarker>m2</NextMarker>", "<NextMarker/>");
        assert_eq!(parse(last.as_bytes()).unwrap().next, None);
    }
}
