//! Listing a prefix of the lake. Every name the store lists is checked here as a key
//! (`keys::validate`): one no key may have is left out and counted (`Skip::BadKey`),
//! never allowed to fail the listing (issue 23: one object must not stop every host's
//! sync). S3 is listed by `listing` and Azure by `azlist`, which hand over every name;
//! object_store lists only an S3 Express bucket (its session credentials stay inside it).

use futures_util::TryStreamExt;
use object_store::ObjectStore;
use object_store::path::Path as OsPath;

use super::S3Store;
use super::listing::{Entry, Failure, MAX_PAGES, Page, tag_of};
use super::{azlist, listing};
use crate::error::{Error, Result};
use crate::lake::keys;
use crate::lake::store::{Object, Skip};

/// Sends of one listing page before giving up.
const ATTEMPTS: u32 = 4;

/// The listing ctxlake sends itself, per provider.
#[derive(Debug)]
pub(super) enum Lister {
    S3(listing::Lister),
    Azure(azlist::Lister),
}

impl Lister {
    async fn page(
        &self,
        prefix: &str,
        after: Option<&str>,
        token: Option<&str>,
    ) -> Result<Page, Failure> {
        match self {
            Lister::S3(l) => l.page(prefix, after, token).await,
            Lister::Azure(l) => l.page(prefix, after, token).await,
        }
    }
}

impl S3Store {
    /// List `prefix`, from after the key `after` when given (S3 `start-after`).
    pub(super) fn list_from(&self, prefix: &str, after: Option<&str>) -> Result<Vec<Object>> {
        self.rt.block_on(self.list_async(prefix, after))
    }

    pub(super) async fn list_async(
        &self,
        prefix: &str,
        after: Option<&str>,
    ) -> Result<Vec<Object>> {
        let entries = match &self.lister {
            Some(l) => self.list_pages(l, prefix, after).await?,
            None => self.list_os(prefix, after).await?,
        };
        let mut out: Vec<Object> = entries
            .into_iter()
            .filter_map(|e| {
                let key = e.key.strip_prefix(&self.prefix)?.to_string();
                // A name no key may have (`..`, a control character) is left out here:
                // asked for later, it would fail a whole round of reads.
                if keys::validate(&key).is_err() {
                    self.skips.add(Skip::BadKey);
                    return None;
                }
                let newer = after.is_none_or(|a| key.as_str() > a);
                (newer && key.starts_with(prefix)).then_some(Object {
                    key,
                    size: e.size,
                    mtime_ms: e.mtime_ms,
                    tag: e.tag,
                })
            })
            .collect();
        out.sort_by(|a, b| a.key.cmp(&b.key));
        Ok(out)
    }

    /// Every page of the keys starting with `prefix` (a key prefix: S3 lists by string
    /// prefix), each page sent again on a transient failure.
    async fn list_pages(
        &self,
        l: &Lister,
        prefix: &str,
        after: Option<&str>,
    ) -> Result<Vec<Entry>> {
        let full = format!("{}{prefix}", self.prefix);
        let after = after.map(|a| format!("{}{a}", self.prefix));
        let mut out = Vec::new();
        let mut token: Option<String> = None;
        for _ in 0..MAX_PAGES {
            let page = self
                .page_again(l, prefix, &full, after.as_deref(), token.as_deref())
                .await?;
            for _ in 0..page.undecodable {
                self.skips.add(Skip::BadKey);
            }
            out.extend(page.entries);
            match page.next {
                // A token that does not move on would page forever.
                Some(t) if token.as_ref() != Some(&t) => token = Some(t),
                Some(_) => {
                    return Err(
                        self.list_failed(prefix, "the store repeated its continuation token")
                    );
                }
                None => return Ok(out),
            }
        }
        Err(self.list_failed(prefix, &format!("more than {MAX_PAGES} pages")))
    }

    async fn page_again(
        &self,
        l: &Lister,
        prefix: &str,
        full: &str,
        after: Option<&str>,
        token: Option<&str>,
    ) -> Result<Page> {
        let mut attempt = 0;
        loop {
            self.count();
            match l.page(full, after, token).await {
                Ok(p) => return Ok(p),
                Err(Failure::Retry(_)) if attempt + 1 < ATTEMPTS => {
                    attempt += 1;
                    tokio::time::sleep(std::time::Duration::from_millis(100 << attempt)).await;
                }
                Err(Failure::Retry(why) | Failure::Final(why)) => {
                    return Err(self.list_failed(prefix, &why));
                }
                Err(Failure::NoBucket) => {
                    return Err(self.list_failed(
                        prefix,
                        "the bucket does not exist, or these credentials cannot see it",
                    ));
                }
            }
        }
    }

    fn list_failed(&self, prefix: &str, why: &str) -> Error {
        Error::storage(
            "store_failed",
            format!("cannot list `{prefix}` in `{}`: {why}", self.url),
        )
        .hint(self.provider.hint())
    }

    /// object_store's listing (Azure): whole folders, filtered by the caller.
    async fn list_os(&self, prefix: &str, after: Option<&str>) -> Result<Vec<Entry>> {
        let dir = prefix.rfind('/').map_or("", |i| &prefix[..i]);
        let full = format!("{}{dir}", self.prefix);
        let bad = |e| Error::storage("bad_key", format!("refusing prefix `{prefix}`")).source(e);
        let root = (!full.is_empty())
            .then(|| OsPath::parse(full.trim_end_matches('/')))
            .transpose()
            .map_err(bad)?;
        let offset = after
            .map(|a| OsPath::parse(format!("{}{a}", self.prefix)))
            .transpose()
            .map_err(bad)?;
        self.count();
        let stream = match &offset {
            Some(o) => self.os.list_with_offset(root.as_ref(), o),
            None => self.os.list(root.as_ref()),
        };
        let metas: Vec<object_store::ObjectMeta> = stream
            .try_collect()
            .await
            .map_err(|e| self.fail("list", prefix, e))?;
        Ok(metas
            .into_iter()
            .map(|m| Entry {
                key: m.location.to_string(),
                size: m.size,
                mtime_ms: m.last_modified.timestamp_millis(),
                tag: tag_of(m.e_tag.as_deref()),
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use std::io::{BufRead, BufReader, Write};
    use std::net::TcpListener;

    use super::listing::tests::listing;
    use super::*;
    use crate::config::S3Options;
    use crate::lake::s3::Access;
    use crate::lake::store::Store;

    /// A loopback "S3" answering each request with the next of `answers` (the last one
    /// again once they run out): `(status, body)`.
    fn serve(answers: Vec<(u16, String)>) -> u16 {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        std::thread::spawn(move || {
            for (n, conn) in l.incoming().enumerate() {
                let Ok(mut c) = conn else { return };
                let mut r = BufReader::new(c.try_clone().unwrap());
                let mut line = String::new();
                while r.read_line(&mut line).is_ok_and(|n| n > 2) {
                    line.clear();
                }
                let (status, body) = &answers[n.min(answers.len() - 1)];
                let _ = write!(
                    c,
                    "HTTP/1.1 {status} X\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
            }
        });
        port
    }

    fn store(port: u16) -> S3Store {
        let env: Vec<(String, String)> = [
            ("AWS_ACCESS_KEY_ID", "test"),
            ("AWS_SECRET_ACCESS_KEY", "test"),
            ("AWS_REGION", "us-east-1"),
            ("AWS_ENDPOINT_URL", &format!("http://127.0.0.1:{port}")),
            ("AWS_ALLOW_HTTP", "true"),
            ("AWS_EC2_METADATA_DISABLED", "true"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let s3 = S3Options::default();
        S3Store::open("s3://lake/team", Access { s3: &s3, env: &env }).unwrap()
    }

    #[test]
    fn a_transient_failure_is_sent_again_and_pages_are_followed() {
        let port = serve(vec![
            (503, "<Error><Code>SlowDown</Code></Error>".into()),
            (
                200,
                listing(&["team/fleets/a", "team/fleets/%2E%2E"], Some("t1")),
            ),
            (200, listing(&["team/fleets/b"], None)),
        ]);
        let s = store(port);
        let keys: Vec<String> = s
            .list("fleets/")
            .unwrap()
            .into_iter()
            .map(|o| o.key)
            .collect();
        assert_eq!(keys, ["fleets/a", "fleets/b"]);
        assert_eq!(s.skipped().bad_keys, 1);
        assert_eq!(s.requests(), 3, "one resend, two pages");
    }

    #[test]
    fn a_store_repeating_its_continuation_token_fails_the_listing() {
        let port = serve(vec![(200, listing(&["team/fleets/a"], Some("same")))]);
        let e = store(port).list("fleets/").unwrap_err();
        assert!(
            e.message.contains("repeated its continuation token"),
            "{}",
            e.message
        );
    }
}
