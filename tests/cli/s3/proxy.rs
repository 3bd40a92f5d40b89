//! A fault-injecting HTTP proxy in front of moto (loopback, std threads): every request
//! is read whole, then, by the proxy's plan, answered 500, answered 503 SlowDown, cut
//! before it reaches moto, or forwarded with its answer dropped (the store acted, the
//! client never hears). It can also strip `If-None-Match`, to play a store that ignores
//! conditional writes. Each answer closes the connection, so every request is one exchange.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    None,
    Status500,
    SlowDown503,
    ResetBeforeForward,
    DropAfterForward,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    /// Fault every `every`-th request, cycling through the four faults.
    Chaos { every: usize },
    /// Forward everything, without the `If-None-Match` header.
    StripIfNoneMatch,
}

pub struct Proxy {
    pub port: u16,
    pub faults: Arc<[AtomicUsize; 5]>,
}

impl Proxy {
    /// Faults injected so far, by kind.
    pub fn injected(&self, f: Fault) -> usize {
        self.faults[f as usize].load(Ordering::Relaxed)
    }
}

const CYCLE: [Fault; 4] = [
    Fault::Status500,
    Fault::SlowDown503,
    Fault::ResetBeforeForward,
    Fault::DropAfterForward,
];

pub fn start(upstream: u16, plan: Plan) -> Proxy {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let faults: Arc<[AtomicUsize; 5]> = Arc::new(Default::default());
    let seen = Arc::new(AtomicUsize::new(0));
    let counts = faults.clone();
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(conn) = conn else { continue };
            let (seen, counts) = (seen.clone(), counts.clone());
            std::thread::spawn(move || {
                let _ = serve(conn, upstream, plan, &seen, &counts);
            });
        }
    });
    Proxy { port, faults }
}

fn pick(plan: Plan, n: usize) -> Fault {
    match plan {
        Plan::Chaos { every } if n % every == every - 1 => CYCLE[(n / every) % CYCLE.len()],
        _ => Fault::None,
    }
}

/// One request: (head lines, body).
fn read_request(r: &mut BufReader<TcpStream>) -> std::io::Result<Option<(Vec<String>, Vec<u8>)>> {
    let mut head = Vec::new();
    loop {
        let mut line = String::new();
        if r.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        let line = line.trim_end().to_string();
        if line.is_empty() {
            break;
        }
        head.push(line);
    }
    let len = head
        .iter()
        .find_map(|h| {
            let (k, v) = h.split_once(':')?;
            k.eq_ignore_ascii_case("content-length")
                .then(|| v.trim().parse::<usize>().ok())?
        })
        .unwrap_or(0);
    let mut body = vec![0; len];
    r.read_exact(&mut body)?;
    Ok(Some((head, body)))
}

fn serve(
    conn: TcpStream,
    upstream: u16,
    plan: Plan,
    seen: &AtomicUsize,
    counts: &[AtomicUsize; 5],
) -> std::io::Result<()> {
    let mut client = conn.try_clone()?;
    let mut r = BufReader::new(conn);
    let Some((head, body)) = read_request(&mut r)? else {
        return Ok(());
    };
    let fault = pick(plan, seen.fetch_add(1, Ordering::Relaxed));
    counts[fault as usize].fetch_add(1, Ordering::Relaxed);
    let canned = |status: &str, code: &str| {
        let body = format!(
            "<?xml version=\"1.0\"?><Error><Code>{code}</Code><Message>injected</Message></Error>"
        );
        format!(
            "HTTP/1.1 {status}\r\nContent-Type: application/xml\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
    };
    match fault {
        Fault::Status500 => {
            client.write_all(canned("500 Internal Server Error", "InternalError").as_bytes())
        }
        Fault::SlowDown503 => client.write_all(canned("503 Slow Down", "SlowDown").as_bytes()),
        Fault::ResetBeforeForward => Ok(()), // dropped: the client sees the connection close
        Fault::None | Fault::DropAfterForward => {
            let answer = forward(upstream, &head, &body, plan == Plan::StripIfNoneMatch)?;
            if fault == Fault::None {
                client.write_all(&answer)?;
            }
            Ok(())
        }
    }
}

/// Send the request to moto with `Connection: close` and return its whole answer.
fn forward(
    upstream: u16,
    head: &[String],
    body: &[u8],
    strip_inm: bool,
) -> std::io::Result<Vec<u8>> {
    let mut up = TcpStream::connect(("127.0.0.1", upstream))?;
    let mut req = String::new();
    for (i, h) in head.iter().enumerate() {
        let name = h.split(':').next().unwrap_or("").to_ascii_lowercase();
        if i > 0 && (name == "connection" || (strip_inm && name == "if-none-match")) {
            continue;
        }
        req.push_str(h);
        req.push_str("\r\n");
    }
    req.push_str("Connection: close\r\n\r\n");
    up.write_all(req.as_bytes())?;
    up.write_all(body)?;
    let mut answer = Vec::new();
    up.read_to_end(&mut answer)?;
    Ok(close_after(answer))
}

/// Make sure the client does not reuse a connection this proxy is about to close.
fn close_after(answer: Vec<u8>) -> Vec<u8> {
    let head_end = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or(0);
    let head = String::from_utf8_lossy(&answer[..head_end]).to_ascii_lowercase();
    if head.contains("\r\nconnection:") {
        return answer;
    }
    let Some(first) = answer.windows(2).position(|w| w == b"\r\n") else {
        return answer;
    };
    let mut out = answer[..first + 2].to_vec();
    out.extend_from_slice(b"Connection: close\r\n");
    out.extend_from_slice(&answer[first + 2..]);
    out
}
