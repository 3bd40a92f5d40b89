//! A real Azure Blob server for the tests: Azurite (`CTXLAKE_TEST_AZURITE` names its
//! `azurite-blob`), started in memory on a free loopback port per test and killed when
//! the test ends. The Azure tests are `#[ignore]`d; `.ci/run` installs Azurite (npm), sets
//! the variable and runs them with `--include-ignored`. Run without the variable, they fail
//! saying what to set.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use crate::common::Env;
use crate::s3::moto::{free_port, http};

/// Azurite's documented development account: public, not a secret.
const ACCOUNT: &str = "devstoreaccount1";
const KEY_B64: &str =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

pub struct Azurite {
    child: std::process::Child,
    pub port: u16,
}

impl Drop for Azurite {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Start Azurite; without `CTXLAKE_TEST_AZURITE` the test fails (it was asked to run).
pub fn start() -> Azurite {
    let Some(bin) = std::env::var_os("CTXLAKE_TEST_AZURITE") else {
        panic!(
            "this test needs a real Azure Blob server: set CTXLAKE_TEST_AZURITE to an \
             azurite-blob binary (npm install azurite), or run .ci/run, which does"
        );
    };
    let port = free_port();
    let child = Command::new(bin)
        .args(["--blobHost", "127.0.0.1", "--blobPort", &port.to_string()])
        .args(["--inMemoryPersistence", "--silent", "--skipApiVersionCheck"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start azurite-blob");
    let a = Azurite { child, port };
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return a;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("azurite-blob did not start");
}

impl Azurite {
    /// Create a container with a Shared Key request (the lake never creates one).
    pub fn create_container(&self, name: &str) {
        let date = httpdate_now();
        let version = "2021-08-06";
        let to_sign = format!(
            "PUT\n\n\n\n\n\n\n\n\n\n\n\nx-ms-date:{date}\nx-ms-version:{version}\n/{ACCOUNT}/{ACCOUNT}/{name}\nrestype:container"
        );
        let sig = b64_encode(&hmac_sha256(&b64_decode(KEY_B64), to_sign.as_bytes()));
        let auth = format!("SharedKey {ACCOUNT}:{sig}");
        let (status, body) = http(
            self.port,
            "PUT",
            &format!("/{ACCOUNT}/{name}?restype=container"),
            &[
                ("x-ms-date", &date),
                ("x-ms-version", version),
                ("Authorization", &auth),
            ],
        );
        assert_eq!(status, 201, "create container {name}: {body}");
    }

    /// Plant a blob as a hostile host would (Shared Key, the emulator's account); `name` is
    /// sent as given, so it may carry escapes (`%2E%2E`, `%01`).
    pub fn put(&self, container: &str, name: &str, body: &[u8]) {
        use std::io::{Read, Write};
        let (date, version) = (httpdate_now(), "2021-08-06");
        let path = format!("/{ACCOUNT}/{container}/{name}");
        let to_sign = format!(
            "PUT\n\n\n{}\n\n\n\n\n\n\n\n\nx-ms-blob-type:BlockBlob\nx-ms-date:{date}\nx-ms-version:{version}\n/{ACCOUNT}{path}",
            body.len()
        );
        let sig = b64_encode(&hmac_sha256(&b64_decode(KEY_B64), to_sign.as_bytes()));
        let mut s = std::net::TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        let head = format!(
            "PUT {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Length: {}\r\nx-ms-blob-type: BlockBlob\r\nx-ms-date: {date}\r\nx-ms-version: {version}\r\nAuthorization: SharedKey {ACCOUNT}:{sig}\r\nConnection: close\r\n\r\n",
            self.port,
            body.len()
        );
        s.write_all(head.as_bytes()).unwrap();
        s.write_all(body).unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        assert!(out.starts_with("HTTP/1.1 201"), "put {name}: {out}");
    }

    /// A host of the fleet: its own HOME, the shared container, the emulator's account.
    pub fn host(&self, store: &str) -> Env {
        let mut env = Env::new();
        let url = format!("http://127.0.0.1:{}", self.port);
        for (k, v) in [
            ("AZURE_STORAGE_USE_EMULATOR", "true"),
            ("AZURITE_BLOB_STORAGE_URL", url.as_str()),
            ("CTXLAKE_STORE", store),
        ] {
            env.extra.push((k.into(), v.into()));
        }
        env
    }
}

fn hmac_sha256(key: &[u8], msg: &[u8]) -> Vec<u8> {
    let mut k = [0u8; 64];
    k[..key.len()].copy_from_slice(key); // the account key is 64 bytes: no pre-hash
    let pad = |b: u8| k.iter().map(|x| x ^ b).collect::<Vec<u8>>();
    let inner = Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(msg)
        .finalize();
    Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize()
        .to_vec()
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn b64_encode(bytes: &[u8]) -> String {
    let mut out = String::new();
    for c in bytes.chunks(3) {
        let n = c
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= c.len() {
                out.push(B64[(n >> (18 - 6 * i)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn b64_decode(s: &str) -> Vec<u8> {
    let vals: Vec<u32> = s
        .bytes()
        .filter(|b| *b != b'=')
        .map(|b| B64.iter().position(|x| *x == b).unwrap() as u32)
        .collect();
    let mut out = Vec::new();
    for c in vals.chunks(4) {
        let n = c
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, v)| n | (v << (18 - 6 * i)));
        for i in 0..c.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

/// `Tue, 01 Dec 2026 00:00:00 GMT`, by the civil-from-days algorithm.
fn httpdate_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    let wd = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][days.rem_euclid(7) as usize];
    let mon = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ][(m - 1) as usize];
    format!(
        "{wd}, {d:02} {mon} {y} {:02}:{:02}:{:02} GMT",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

#[test]
fn base64_and_hmac_match_known_answers() {
    assert_eq!(b64_encode(b"any carnal pleas"), "YW55IGNhcm5hbCBwbGVhcw==");
    assert_eq!(b64_decode("YW55IGNhcm5hbCBwbGVhcw=="), b"any carnal pleas");
    // RFC 4231 test case 2.
    let mac = hmac_sha256(b"Jefe", b"what do ya want for nothing?");
    assert_eq!(
        b64_encode(&mac),
        b64_encode(&[
            0x5b, 0xdc, 0xc1, 0x46, 0xbf, 0x60, 0x75, 0x4e, 0x6a, 0x04, 0x24, 0x26, 0x08, 0x95,
            0x75, 0xc7, 0x5a, 0x00, 0x3f, 0x08, 0x9d, 0x27, 0x39, 0x83, 0x9d, 0xec, 0x58, 0xb9,
            0x64, 0xec, 0x38, 0x43
        ])
    );
}
