//! ListObjectsV2 answers as S3 sends them, read back: hostile names, bounds, tags.

use super::*;

#[test]
fn hostile_names_come_back_decoded_for_the_caller_to_refuse() {
    let body = listing(
        &[
            "t/a/..%2Fx",
            "t/a%01b",
            "t/a%0Ab",
            "t/a+b",
            "t/%FF",
            "t/ok.json",
        ],
        Some("tok"),
    );
    let p = parse(body.as_bytes()).unwrap();
    let keys: Vec<&str> = p.entries.iter().map(|e| e.key.as_str()).collect();
    assert_eq!(
        keys,
        ["t/a/../x", "t/a\u{1}b", "t/a\nb", "t/a b", "t/ok.json"]
    );
    assert_eq!(p.undecodable, 1, "not UTF-8 once decoded");
    assert_eq!(p.next.as_deref(), Some("tok"));
    assert_eq!(p.entries[4].size, 3);
    assert_eq!(p.entries[4].mtime_ms, 1_796_148_060_000);
    // The entity tag tells versions apart that size and a whole second cannot.
    assert_eq!(p.entries[4].tag, crate::digest::fnv1a64(b"\"x\""));
    let other = body.replace("<ETag>\"x\"</ETag>", "<ETag>\"y\"</ETag>");
    let other = parse(other.as_bytes()).unwrap();
    assert_ne!(other.entries[4].tag, p.entries[4].tag);
    let none = body.replace("<ETag>\"x\"</ETag>", "");
    assert_eq!(parse(none.as_bytes()).unwrap().entries[4].tag, 0);
}

#[test]
fn a_page_over_its_bounds_is_refused() {
    let long = "k".repeat(MAX_KEY_BYTES + 1);
    let p = parse(listing(&[&long], None).as_bytes()).unwrap();
    assert_eq!((p.entries.len(), p.undecodable), (0, 1), "an overlong key");
    let many: Vec<String> = (0..=PAGE_KEYS).map(|i| format!("k{i}")).collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    assert!(matches!(
        parse(listing(&many, None).as_bytes()),
        Err(Failure::Final(_))
    ));
    let endless = listing(&["k"], None).replace("false", "true");
    assert!(matches!(parse(endless.as_bytes()), Err(Failure::Final(_))));
}

/// A ListObjectsV2 answer (as S3 sends it) naming `keys`, truncated with `truncated` as the
/// next token: for the listing tests here and in `list`.
pub(in crate::lake::s3) fn listing(keys: &[&str], truncated: Option<&str>) -> String {
    let contents: String = keys
        .iter()
        .map(|k| format!("<Contents><Key>{k}</Key><LastModified>2026-12-01T18:01:00.000Z</LastModified><ETag>\"x\"</ETag><Size>3</Size><StorageClass>STANDARD</StorageClass></Contents>"))
        .collect();
    let more = truncated.map_or("<IsTruncated>false</IsTruncated>".to_string(), |t| {
        format!("<IsTruncated>true</IsTruncated><NextContinuationToken>{t}</NextContinuationToken>")
    });
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Name>b</Name>{more}{contents}<EncodingType>url</EncodingType><KeyCount>{}</KeyCount></ListBucketResult>",
        keys.len()
    )
}
