//! The store group: reachable (a bounded TCP connect first, so a dead endpoint costs 2 s
//! rather than the client's retry budget), credentials found (the source named, never the
//! value), the conditional-write probe, the lake's format marker, what the last sync
//! skipped or did not serve, clock skew between this host and the lake, and the p50
//! latency of five small requests.

use std::net::{TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use super::report::{Check, Group};
use crate::config::Config;
use crate::paths::{Paths, var};

const G: Group = Group::Store;
const CONNECT: Duration = Duration::from_secs(2);
const SKEW_WARN_MS: i64 = 30_000;
const SKEW_FAIL_MS: i64 = 300_000;

/// How long the whole store group may take: an endpoint that accepts connections and never
/// answers would otherwise hold doctor for the S3 client's full retry budget (minutes).
const GROUP_DEADLINE: Duration = Duration::from_secs(15);

/// [`check`] on its own thread, given up after [`GROUP_DEADLINE`] (the thread is left to
/// die with the process: a request in flight cannot be cancelled from here).
pub(crate) fn bounded(paths: &Paths, config: &Config) -> Vec<Check> {
    let (tx, rx) = std::sync::mpsc::channel();
    let (p, c) = (paths.clone(), config.clone());
    std::thread::spawn(move || {
        let _ = tx.send(check(&p, &c));
    });
    rx.recv_timeout(GROUP_DEADLINE).unwrap_or_else(|_| {
        let url = config.store_url(paths);
        vec![Check::fail(G, "store", format!("`{url}` accepted connections but did not finish answering within {} s", GROUP_DEADLINE.as_secs()))
            .fix("check the endpoint (`AWS_ENDPOINT_URL` / `[s3] endpoint`): something there accepts connections but does not answer like S3")]
    })
}

pub(crate) fn check(paths: &Paths, config: &Config) -> Vec<Check> {
    let url = config.store_url(paths);
    let mut out = Vec::new();
    if url.starts_with("az://") {
        out.push(azure_credentials());
    }
    if url.starts_with("s3://") {
        out.push(credentials());
        if let Err(c) = reachable(&url, config) {
            out.push(*c);
            return out;
        }
    }
    let store = match crate::services::open::url(config, &url) {
        Ok(s) => s,
        Err(e) => {
            out.push(
                Check::fail(G, "store", format!("cannot open `{url}`: {}", e.one_line())).fix(
                    e.hint
                        .unwrap_or_else(|| "check `store` in config.toml".into()),
                ),
            );
            return out;
        }
    };
    match crate::services::health::probe(paths, store.as_ref()) {
        Ok(()) => out.push(Check::ok(
            G,
            "conditional writes",
            format!("`{url}` refuses a second create of the same key"),
        )),
        Err(e) => {
            let unsafe_store = e.code == "store_unsafe";
            let name = if unsafe_store {
                "conditional writes"
            } else {
                "store"
            };
            out.push(Check::fail(G, name, e.one_line()).fix(e.hint.unwrap_or_default()));
            return out;
        }
    }
    out.push(format(store.as_ref()));
    out.push(skipped(paths));
    out.push(unserved(paths));
    out.push(skew(store.as_ref()));
    out.push(latency(store.as_ref()));
    out
}

/// What the last sync skipped as hostile or unusable lake content: some host writes what
/// this build will not read.
fn skipped(paths: &Paths) -> Check {
    let name = "lake content";
    let last = crate::services::health::read(paths).and_then(|h| h.last_sync_skipped);
    let Some(s) = last.filter(|s| !s.is_empty()) else {
        return Check::ok(G, name, "the last sync skipped nothing");
    };
    let mut parts = Vec::new();
    for (n, what) in [
        (s.oversize, "over their kind's size cap"),
        (
            s.not_regular,
            "not regular files (symlinks, FIFOs, devices)",
        ),
        (s.bad_keys, "under names no key may have"),
        (s.snapshots_refused, "snapshots refused"),
        (
            s.manifests_ignored,
            "manifests numbered implausibly far ahead",
        ),
    ] {
        if n > 0 {
            parts.push(format!("{n} {what}"));
        }
    }
    let mut saw = format!("the last sync skipped {}", parts.join(", "));
    if let Some(note) = &s.note {
        saw.push_str(&format!(" ({note})"));
    }
    Check::warn(G, name, saw).fix(
        "another host writes objects this build will not read: find and remove them (`ctxlake sync --json` lists the counts per pass), or upgrade that host",
    )
}

/// The lake's fleets the last sync did not serve: named, never mirrored or folded here.
fn unserved(paths: &Paths) -> Check {
    let name = "other fleets";
    let last = crate::services::health::read(paths).and_then(|h| h.unserved_fleets);
    let Some(u) = last.filter(|u| !u.is_empty()) else {
        return Check::ok(G, name, "this host serves every fleet the lake holds");
    };
    let more = if u.count > u.sample.len() {
        ", …"
    } else {
        ""
    };
    Check::ok(
        G,
        name,
        format!(
            "the lake holds {} fleet(s) this host does not mirror or fold ({}{more}); to serve one, set `fleet` in config.toml, or run `ctxlake sync --fleet NAME`: a fleet this host's agents write to is served from then on",
            u.count,
            u.sample.join(", ")
        ),
    )
}

/// The lake's format marker, read (never written: the first `sync` writes it).
fn format(store: &dyn crate::lake::Store) -> Check {
    use crate::lake::format::{FORMAT, Found, read};
    let name = "lake format";
    match read(store) {
        Ok(Found::Known) => Check::ok(
            G,
            name,
            format!("format {FORMAT}, the one this build reads"),
        ),
        Ok(Found::Absent) => Check::ok(
            G,
            name,
            format!("no format marker yet: the first `ctxlake sync` writes format {FORMAT}"),
        ),
        Err(e) => Check::fail(G, name, e.one_line()).fix(e.hint.unwrap_or_default()),
    }
}

/// Which link of the AWS chain will answer: named, never read out.
fn credentials() -> Check {
    let name = "credentials";
    let set = |k: &str| var(k).is_some();
    let src = if set("AWS_ACCESS_KEY_ID") && set("AWS_SECRET_ACCESS_KEY") {
        Some("environment (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`)".to_string())
    } else if set("AWS_WEB_IDENTITY_TOKEN_FILE") {
        Some("web identity (`AWS_WEB_IDENTITY_TOKEN_FILE`)".into())
    } else if set("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI")
        || set("AWS_CONTAINER_CREDENTIALS_FULL_URI")
    {
        Some("container role (`AWS_CONTAINER_CREDENTIALS_*`)".into())
    } else if set("AWS_PROFILE")
        || var("AWS_EC2_METADATA_DISABLED").is_some_and(|v| v.eq_ignore_ascii_case("true"))
    {
        None
    } else {
        // Not probed: asking the metadata service from a laptop waits out a timeout.
        Some("the instance role (EC2 metadata service), if this is an EC2 host".into())
    };
    match src {
        Some(s) => Check::ok(G, name, format!("from {s}")),
        None if set("AWS_PROFILE") => Check::fail(
            G,
            name,
            "`AWS_PROFILE` is set, but the S3 client does not read named profiles and no keys are in the environment",
        )
        .fix(
            "export the profile's keys: eval \"$(aws configure export-credentials --format env)\"",
        ),
        None => Check::fail(
            G,
            name,
            "no AWS credentials in the environment and the instance metadata service is disabled",
        )
        .fix("set `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY` (or run on a host with a role)"),
    }
}

/// Which Azure credential `object_store` will use: named, never read out. (No TCP
/// pre-check: the group's deadline bounds a dead endpoint.)
fn azure_credentials() -> Check {
    let name = "credentials";
    let set = |k: &str| var(k).is_some();
    let emulator =
        var("AZURE_STORAGE_USE_EMULATOR").is_some_and(|v| v.eq_ignore_ascii_case("true"));
    let src = if emulator {
        Some("the storage emulator's well-known account (`AZURE_STORAGE_USE_EMULATOR`)")
    } else if !set("AZURE_STORAGE_ACCOUNT_NAME") {
        None
    } else if set("AZURE_STORAGE_ACCOUNT_KEY") || set("AZURE_STORAGE_ACCESS_KEY") {
        Some("the account key (`AZURE_STORAGE_ACCOUNT_KEY`)")
    } else if set("AZURE_STORAGE_SAS_KEY") || set("AZURE_STORAGE_SAS_TOKEN") {
        Some("a SAS token (`AZURE_STORAGE_SAS_TOKEN`)")
    } else if set("AZURE_CLIENT_ID") || set("AZURE_FEDERATED_TOKEN_FILE") {
        Some("a service principal or workload identity (`AZURE_CLIENT_ID`)")
    } else {
        Some("the managed identity (instance metadata), if this is an Azure host")
    };
    match src {
        Some(s) => Check::ok(G, name, format!("from {s}")),
        None => Check::fail(G, name, "`AZURE_STORAGE_ACCOUNT_NAME` is not set").fix(
            "export `AZURE_STORAGE_ACCOUNT_NAME` and `AZURE_STORAGE_ACCOUNT_KEY` (or a SAS token)",
        ),
    }
}

/// Where requests go: `[s3] endpoint`, `AWS_ENDPOINT_URL`, else AWS's regional endpoint.
fn endpoint(config: &Config) -> (String, u16) {
    let e = config
        .s3
        .endpoint
        .clone()
        .or_else(|| var("AWS_ENDPOINT_URL"));
    let Some(e) = e else {
        let region = config
            .s3
            .region
            .clone()
            .or_else(|| var("AWS_REGION"))
            .unwrap_or_else(|| "us-east-1".into());
        return (format!("s3.{region}.amazonaws.com"), 443);
    };
    let (tls, rest) = match e.split_once("://") {
        Some((scheme, rest)) => (scheme == "https", rest),
        None => (true, e.as_str()),
    };
    let host = rest.split('/').next().unwrap_or(rest);
    match host.rsplit_once(':') {
        Some((h, p)) if p.parse::<u16>().is_ok() => (h.to_string(), p.parse().unwrap_or(443)),
        _ => (host.to_string(), if tls { 443 } else { 80 }),
    }
}

fn reachable(url: &str, config: &Config) -> Result<(), Box<Check>> {
    let (host, port) = endpoint(config);
    let unreachable = |why: String| {
        Box::new(Check::fail(G, "store", format!("cannot reach `{url}` at {host}:{port}: {why}"))
            .fix("check `AWS_ENDPOINT_URL` / `[s3] endpoint`, the network, and that the store is up; then `ctxlake doctor`"))
    };
    let addrs: Vec<_> = (host.as_str(), port)
        .to_socket_addrs()
        .map_err(|e| unreachable(e.to_string()))?
        .collect();
    let mut last = String::from("no address");
    for a in addrs {
        match TcpStream::connect_timeout(&a, CONNECT) {
            Ok(_) => return Ok(()),
            Err(e) => last = e.to_string(),
        }
    }
    Err(unreachable(last))
}

fn skew(store: &dyn crate::lake::Store) -> Check {
    let name = "clock skew";
    let host = crate::time::now_ms();
    let lake = match store.now_ms() {
        Ok(t) => t,
        Err(e) => {
            return Check::fail(
                G,
                name,
                format!("cannot read the lake's clock: {}", e.one_line()),
            );
        }
    };
    let d = host - lake;
    let saw = format!(
        "this host's clock is {:.1} s {} the lake's",
        d.abs() as f64 / 1000.0,
        if d >= 0 { "ahead of" } else { "behind" }
    );
    let fix = "sync this host's clock (e.g. `timedatectl set-ntp true`, or chrony/ntpd); leases follow the lake's clock, but timestamps this host writes do not";
    match d.abs() {
        a if a > SKEW_FAIL_MS => Check::fail(G, name, format!("{saw} (over 5 min)")).fix(fix),
        a if a > SKEW_WARN_MS => Check::warn(G, name, format!("{saw} (over 30 s)")).fix(fix),
        _ => Check::ok(G, name, saw),
    }
}

/// p50 of five reads of one absent key: the smallest request that reaches the store.
fn latency(store: &dyn crate::lake::Store) -> Check {
    let mut ms: Vec<u128> = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        if let Err(e) = store.get("probe/doctor-latency") {
            return Check::fail(
                G,
                "latency",
                format!("a small read failed: {}", e.one_line()),
            );
        }
        ms.push(t.elapsed().as_millis());
    }
    ms.sort_unstable();
    let p50 = ms[2];
    let saw = format!("p50 {p50} ms over 5 small requests (max {} ms)", ms[4]);
    if p50 > 1000 {
        Check::warn(G, "latency", saw)
            .fix("a store far from this host slows every sync; prefer a nearer region or endpoint")
    } else {
        Check::ok(G, "latency", saw)
    }
}
