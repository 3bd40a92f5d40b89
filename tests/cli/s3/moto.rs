//! A real S3 server for the tests: moto (`CTXLAKE_TEST_MOTO` names its `moto_server`),
//! started on a free loopback port per test and killed when the test ends. The S3 tests
//! are `#[ignore]`d; `.ci/run` installs moto, sets the variable and runs them with
//! `--include-ignored`. Run without the variable, they fail saying what to set.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::Env;

pub struct Moto {
    child: Child,
    pub port: u16,
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Start moto; without `CTXLAKE_TEST_MOTO` the test fails (it was asked to run).
pub fn start() -> Moto {
    let Some(bin) = std::env::var_os("CTXLAKE_TEST_MOTO") else {
        panic!(
            "this test needs a real S3 server: set CTXLAKE_TEST_MOTO to a moto_server binary \
             (pip install \"moto[server]\"), or run .ci/run, which does"
        );
    };
    for _ in 0..3 {
        let port = free_port();
        let child = Command::new(&bin)
            .args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start moto_server");
        let moto = Moto { child, port };
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return moto;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    panic!("moto_server did not start");
}

impl Moto {
    pub fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// moto accepts an unsigned bucket creation; the lake itself is always signed.
    pub fn create_bucket(&self, bucket: &str) {
        let (status, body) = http(self.port, "PUT", &format!("/{bucket}"), &[]);
        assert_eq!(status, 200, "create bucket {bucket}: {body}");
    }

    /// Plant an object as a hostile host would (moto takes an unsigned PUT).
    pub fn put(&self, bucket: &str, key: &str, body: &[u8]) {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        let head = format!(
            "PUT /{bucket}/{key} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            self.port,
            body.len()
        );
        s.write_all(head.as_bytes()).unwrap();
        s.write_all(body).unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        assert!(out.starts_with("HTTP/1.1 200"), "put {key}: {out}");
    }

    /// Every key in `bucket` (one page is plenty for a test lake).
    pub fn keys(&self, bucket: &str) -> Vec<String> {
        elements(&self.list(bucket, ""), "Key")
    }

    /// The ListObjectsV2 answer for the keys of `bucket` under `prefix` (one page).
    pub fn list(&self, bucket: &str, prefix: &str) -> String {
        let path = format!("/{bucket}?list-type=2&prefix={prefix}");
        let (status, body) = http(self.port, "GET", &path, &[]);
        assert_eq!(status, 200, "{body}");
        body
    }

    /// A host of the fleet: its own HOME, the shared bucket, static test credentials.
    pub fn host(&self, endpoint: &str, store: &str) -> Env {
        let mut env = Env::new();
        for (k, v) in [
            ("AWS_ACCESS_KEY_ID", "test"),
            ("AWS_SECRET_ACCESS_KEY", "test"),
            ("AWS_REGION", "us-east-1"),
            ("AWS_ENDPOINT_URL", endpoint),
            ("AWS_ALLOW_HTTP", "true"),
            ("AWS_EC2_METADATA_DISABLED", "true"),
            ("CTXLAKE_STORE", store),
        ] {
            env.extra.push((k.into(), v.into()));
        }
        env
    }
}

/// The text of every `<tag>` element of a listing, in order.
pub fn elements(body: &str, tag: &str) -> Vec<String> {
    let (open, close) = (format!("<{tag}>"), format!("</{tag}>"));
    body.split(&open)
        .skip(1)
        .filter_map(|s| s.split(&close).next())
        .map(str::to_string)
        .collect()
}

/// One HTTP/1.1 request with `Connection: close`; returns status and body.
pub fn http(port: u16, method: &str, path: &str, headers: &[(&str, &str)]) -> (u16, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 0\r\nConnection: close\r\n"
    );
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    s.write_all(req.as_bytes()).unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let status = out
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = out
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}
