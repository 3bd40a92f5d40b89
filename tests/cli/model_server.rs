//! A loopback HTTP file server for the model download tests: serves a directory with
//! `Range` support, and can misbehave on purpose (drop the connection halfway, answer an
//! HTML error page, serve other bytes). Loopback only; it stops with the test.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// Serve the files as they are, honouring `Range`.
    Good,
    /// The first `n` responses to a whole-file request stop after half the body.
    DropHalfway(usize),
    /// Every response stops after half the body.
    AlwaysHalf,
    /// Answer every request `200 text/html` with an error page.
    Html,
}

/// Each request line and its `Range` header, in order.
pub type Log = Arc<Mutex<Vec<(String, Option<String>)>>>;

pub struct Server {
    pub url: String,
    /// Every request line and its `Range` header, in order.
    pub log: Log,
}

/// Serve `dir` on a free loopback port in `mode`, replacing files by name from `over`.
pub fn serve(dir: PathBuf, mode: Mode, over: Vec<(String, Vec<u8>)>) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/model", listener.local_addr().unwrap());
    let log: Log = Arc::new(Mutex::new(Vec::new()));
    let drops = Arc::new(AtomicUsize::new(0));
    let l2 = log.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let (dir, over, log, drops) = (dir.clone(), over.clone(), l2.clone(), drops.clone());
            std::thread::spawn(move || handle(stream, &dir, mode, &over, &log, &drops));
        }
    });
    Server { url, log }
}

fn handle(
    mut s: TcpStream,
    dir: &std::path::Path,
    mode: Mode,
    over: &[(String, Vec<u8>)],
    log: &Log,
    drops: &AtomicUsize,
) {
    let mut r = BufReader::new(s.try_clone().unwrap());
    let mut line = String::new();
    if r.read_line(&mut line).is_err() {
        return;
    }
    let mut range = None;
    loop {
        let mut h = String::new();
        if r.read_line(&mut h).is_err() || h.trim().is_empty() {
            break;
        }
        if let Some(v) = h.to_ascii_lowercase().strip_prefix("range:") {
            range = Some(v.trim().to_string());
        }
    }
    log.lock()
        .unwrap()
        .push((line.trim().to_string(), range.clone()));
    let path = line.split_whitespace().nth(1).unwrap_or("/");
    let name = path.rsplit('/').next().unwrap_or("").to_string();
    if mode == Mode::Html {
        let body = b"<!doctype html><html><body>Sign in to continue</body></html>";
        let _ = write!(
            s,
            "HTTP/1.1 200 OK\r\ncontent-type: text/html; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
            body.len()
        );
        let _ = s.write_all(body);
        return;
    }
    let bytes = match over.iter().find(|(n, _)| *n == name) {
        Some((_, b)) => b.clone(),
        None => match std::fs::read(dir.join(&name)) {
            Ok(b) => b,
            Err(_) => {
                let _ = s.write_all(
                    b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
                );
                return;
            }
        },
    };
    let from: usize = range
        .as_deref()
        .and_then(|r| r.strip_prefix("bytes="))
        .and_then(|r| r.split('-').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
        .min(bytes.len());
    let body = &bytes[from..];
    let head = if range.is_some() {
        format!(
            "HTTP/1.1 206 Partial Content\r\ncontent-type: application/octet-stream\r\ncontent-range: bytes {from}-{}/{}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
            bytes.len().saturating_sub(1),
            bytes.len(),
            body.len()
        )
    } else {
        format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/octet-stream\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
            body.len()
        )
    };
    let _ = s.write_all(head.as_bytes());
    let cut = match mode {
        Mode::AlwaysHalf => true,
        Mode::DropHalfway(n) if range.is_none() && body.len() > 1000 => {
            drops.fetch_add(1, Ordering::SeqCst) < n
        }
        _ => false,
    };
    let end = if cut { body.len() / 2 } else { body.len() };
    let _ = s.write_all(&body[..end]);
    let _ = s.flush();
    // Dropping the stream closes the connection: short of content-length when cut.
}
