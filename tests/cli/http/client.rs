//! A running `ctxlake mcp --http` on a free loopback port, and a tiny blocking HTTP/1.1
//! client over `TcpStream` (one request per connection), enough to see statuses and headers.
//! `Server::start` makes a token `test` first and sends it with every request that names no
//! `Authorization` of its own; `Server::bare` makes none and sends none.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

use crate::common::Env;

pub struct Server {
    pub child: Child,
    /// `127.0.0.1:PORT`
    pub addr: String,
    /// The token sent by default (`Server::start`'s `test`).
    pub token: Option<String>,
    /// Every stderr line after the URL, read by a thread until the server exits.
    pub stderr: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

/// Make a token and return its secret (`ctxlake mcp token new NAME ARGS…`).
pub fn new_token(env: &Env, name: &str, args: &[&str]) -> String {
    let out = env
        .cmd()
        .args(["mcp", "token", "new", name])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "token new {name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let t = String::from_utf8(out.stdout).unwrap().trim().to_string();
    assert_eq!(t.len(), 64, "{t}");
    t
}

impl Server {
    /// A server whose client holds the token `test` (every fleet, the name as agent).
    pub fn start(env: &Env, extra: &[&str]) -> Server {
        let token = new_token(env, "test", &[]);
        let mut s = Server::bare(env, extra);
        s.token = Some(token);
        s
    }

    /// A server and a client that sends no token unless told to.
    pub fn bare(env: &Env, extra: &[&str]) -> Server {
        let mut child = env
            .std_cmd()
            .args(["mcp", "--http", "127.0.0.1:0"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut err = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        err.read_line(&mut line).unwrap();
        let url = line.split_whitespace().last().unwrap_or_default();
        let addr = url
            .strip_prefix("http://")
            .and_then(|u| u.strip_suffix("/mcp"))
            .unwrap_or_else(|| panic!("no URL on stderr: {line:?}"))
            .to_string();
        let stderr = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let lines = stderr.clone();
        std::thread::spawn(move || {
            for l in err.lines().map_while(Result::ok) {
                lines.lock().unwrap().push(l);
            }
        });
        Server {
            child,
            addr,
            token: None,
            stderr,
        }
    }

    /// `Authorization: Bearer <secret>`.
    pub fn bearer(secret: &str) -> String {
        format!("Bearer {secret}")
    }

    /// What the server said on stderr after its URL line, so far.
    pub fn said(&self) -> String {
        std::thread::sleep(Duration::from_millis(200));
        self.stderr.lock().unwrap().join("\n")
    }

    /// One request, with the default token unless `headers` name an `Authorization`.
    pub fn request(&self, method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Resp {
        let auth = self.token.as_deref().map(Server::bearer);
        let mut h: Vec<(&str, &str)> = headers.to_vec();
        if let Some(a) = &auth
            && !headers
                .iter()
                .any(|(k, _)| k.eq_ignore_ascii_case("authorization"))
        {
            h.push(("Authorization", a));
        }
        self.request_bare(method, path, &h, body)
    }

    /// One request; `headers` are sent as given (Host defaults to the server's address).
    pub fn request_bare(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Resp {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let mut head = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
        if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
            head.push_str(&format!("Host: {}\r\n", self.addr));
        }
        for (k, v) in headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        if !headers
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        {
            head.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        head.push_str("\r\n");
        s.write_all(head.as_bytes()).unwrap();
        // The server may answer (413) and close before reading a large body: ignore EPIPE.
        let _ = s.write_all(body);
        let mut raw = Vec::new();
        let _ = s.read_to_end(&mut raw);
        Resp::parse(&raw)
    }

    pub fn post(&self, path: &str, headers: &[(&str, &str)], body: &Value) -> Resp {
        let mut h = vec![
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
        ];
        h.extend_from_slice(headers);
        self.request("POST", path, &h, body.to_string().as_bytes())
    }

    /// A 2026-07-28 `tools/call` (no session): `_meta` with the version, the capabilities and,
    /// when given, ctxlake's session key; the routing headers; `auth` as given.
    pub fn stateless_call(
        &self,
        path: &str,
        auth: &[(&str, &str)],
        tool: &str,
        args: Value,
        key: Option<&str>,
    ) -> Resp {
        let mut meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                              "io.modelcontextprotocol/clientCapabilities": {}});
        if let Some(k) = key {
            meta["ctxlake/session"] = json!(k);
        }
        let body = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
                          "params": {"name": tool, "arguments": args, "_meta": meta}});
        let mut h = vec![
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tools/call"),
            ("Mcp-Name", tool),
        ];
        h.extend_from_slice(auth);
        self.post(path, &h, &body)
    }

    /// `initialize` on `path`; returns the session id.
    pub fn initialize(&self, path: &str, version: &str, auth: &[(&str, &str)]) -> String {
        let r = self.post(path, auth, &init(version));
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["result"]["protocolVersion"], version);
        r.header("mcp-session-id")
            .expect("a session id")
            .to_string()
    }

    pub fn stop(mut self) -> std::process::ExitStatus {
        let pid = self.child.id().to_string();
        std::process::Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap();
        self.child.wait().unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub struct Resp {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Resp {
    fn parse(raw: &[u8]) -> Resp {
        let text = String::from_utf8_lossy(raw);
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let mut lines = head.lines();
        let status = lines
            .next()
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no status line in {text:?}"));
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        let chunked = headers
            .iter()
            .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
        let body = if chunked {
            dechunk(body)
        } else {
            body.to_string()
        };
        Resp {
            status,
            headers,
            body,
        }
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", self.body))
    }

    pub fn rpc_code(&self) -> Option<i64> {
        self.json().pointer("/error/code").and_then(Value::as_i64)
    }
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

pub fn init(version: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
           "params": {"protocolVersion": version, "capabilities": {},
                      "clientInfo": {"name": "cli-test", "version": "1"}}})
}

pub fn call(id: i64, tool: &str, args: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": tool, "arguments": args}})
}
