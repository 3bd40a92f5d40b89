//! The listener: a current-thread tokio runtime (tool calls go to its small blocking pool),
//! hyper HTTP/1.1 connections with header and idle timeouts, a cap on open connections with
//! a reserve beyond it that answers only `/health` (so it answers while every other slot is
//! held), the run file for `mcp status`, and a clean stop on SIGTERM or SIGINT.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use hyper::body::{Body, Bytes, Frame, SizeHint};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::Shared;
use super::reply::{Held, Payload, Reply};
use crate::error::{Error, Result};

/// Open connections served in full; beyond, the reserve (and then the kernel's backlog).
const MAX_CONNECTIONS: usize = 1024;
/// Connections beyond the cap that answer `/health` only (503 to anything else), each held
/// at most [`RESERVE_TIMEOUT`]: a liveness probe gets through while every slot is taken.
const RESERVE: usize = 256;
const RESERVE_TIMEOUT: Duration = Duration::from_secs(1);
/// Descriptors kept free for everything else the process opens (spool, cache, SQLite).
const SPARE_FDS: usize = 64;
/// A client must send a request's headers within this time, including on an idle
/// keep-alive connection between two requests, or the connection is closed.
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// How often an open stream checks that its token still exists.
const STREAM_CHECK: Duration = Duration::from_secs(2);
/// A `subscriptions/listen` stream ends after this long; the client may listen again.
const LISTEN_MAX: Duration = Duration::from_secs(3600);
/// Tool calls in flight at a stop get this long to finish.
const STOP_GRACE: Duration = Duration::from_secs(5);

pub(crate) fn run(sh: Arc<Shared>, addr: SocketAddr, notes: &[String]) -> Result<()> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .max_blocking_threads(super::limits::WORKERS)
        .build()
        .map_err(|e| Error::storage("io", "cannot start the HTTP runtime").source(e))?;
    let result = rt.block_on(listen(sh, addr, notes));
    rt.shutdown_timeout(STOP_GRACE);
    result
}

async fn listen(sh: Arc<Shared>, addr: SocketAddr, notes: &[String]) -> Result<()> {
    let listener = TcpListener::bind(addr).await.map_err(|e| {
        Error::refused("bind_failed", format!("cannot listen on {addr}"))
            .source(e)
            .hint("pick another port (`--http 127.0.0.1:0` picks a free one)")
    })?;
    let local = listener
        .local_addr()
        .map_err(|e| Error::storage("io", "cannot read the bound address").source(e))?;
    let url = format!("http://{local}/mcp");
    let _registration = {
        let mut entry = sh.registration.lock().unwrap_or_else(|p| p.into_inner());
        entry.url = Some(url.clone());
        entry.http_sessions = Some(0);
        crate::mcp::status::write(&sh.base.paths, &entry)
    };
    crate::output::stderr(&format!("ctxlake mcp: serving MCP over HTTP at {url}\n"));
    for n in notes {
        crate::output::stderr(&format!("ctxlake mcp: {n}\n"));
    }
    let (full, reserve) = capacity(open_files_limit());
    let full = Arc::new(Semaphore::new(full));
    let reserve = Arc::new(Semaphore::new(reserve));
    let stop = stop_signal();
    tokio::pin!(stop);
    loop {
        // A full slot when there is one; else a reserve one (health only); else wait.
        let lane = tokio::select! {
            biased;
            _ = &mut stop => break,
            p = full.clone().acquire_owned() => p.map(|p| Lane { _permit: p, reserved: false }),
            p = reserve.clone().acquire_owned() => p.map(|p| Lane { _permit: p, reserved: true }),
        };
        let Ok(lane) = lane else { break };
        let stream = tokio::select! {
            r = listener.accept() => r,
            _ = &mut stop => break,
        };
        let stream = match stream {
            Ok((s, _)) => s,
            // Out of descriptors or a reset before accept: back off briefly, keep serving.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let sh = sh.clone();
        tokio::spawn(async move {
            let reserved = lane.reserved;
            let svc = service_fn(move |req| handle(sh.clone(), req, reserved));
            let mut b = http1::Builder::new();
            b.timer(TokioTimer::new()).max_buf_size(64 * 1024);
            if reserved {
                b.header_read_timeout(RESERVE_TIMEOUT).keep_alive(false);
            } else {
                b.header_read_timeout(HEADER_TIMEOUT);
            }
            let _ = b.serve_connection(TokioIo::new(stream), svc).await;
            drop(lane);
        });
    }
    crate::output::stderr("ctxlake mcp: stopping the HTTP server\n");
    Ok(())
}

/// Resolves on the first SIGTERM or SIGINT. If the handlers cannot be installed the server
/// still runs and the default disposition (exit) applies.
async fn stop_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut term), Ok(mut int)) = (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) else {
        return std::future::pending().await;
    };
    tokio::select! {
        _ = term.recv() => {},
        _ = int.recv() => {},
    }
}

/// A connection's slot: given back when the connection closes.
struct Lane {
    _permit: OwnedSemaphorePermit,
    /// From the reserve: `/health` only.
    reserved: bool,
}

/// (full, reserve) connection slots for a process allowed `fds` open descriptors: the
/// defaults when they fit, else shrunk so a full server never runs out of descriptors
/// (an `accept` that fails leaves the client waiting, `/health` included). A limit we
/// cannot read is taken as 256, macOS's default.
fn capacity(fds: Option<usize>) -> (usize, usize) {
    let fds = fds.unwrap_or(256);
    let room = fds.saturating_sub(SPARE_FDS).max(32);
    let reserve = RESERVE.min(room / 5).max(4);
    (MAX_CONNECTIONS.min(room - reserve), reserve)
}

/// This process's soft limit on open descriptors (Linux: `/proc/self/limits`).
fn open_files_limit() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max open files"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

async fn handle(
    sh: Arc<Shared>,
    req: Request<hyper::body::Incoming>,
    reserved: bool,
) -> Result<Response<Out>, Infallible> {
    let reply = if reserved && !super::route::is_health(req.uri().path()) {
        Reply::refusal(
            503,
            "server_busy",
            "Service Unavailable: every connection slot is taken; retry shortly",
        )
        .header("retry-after", "1")
        .header("connection", "close")
    } else {
        super::route::answer(sh, req).await
    };
    Ok(response(reply))
}

fn response(reply: Reply) -> Response<Out> {
    let (content_type, body) = match reply.payload {
        Payload::Empty => (None, Out::Full(None)),
        Payload::Raw(ct, bytes) => (Some(ct), Out::Full(Some(bytes))),
        Payload::Json(v) => (
            Some("application/json"),
            Out::Full(Some(Bytes::from(v.to_string()))),
        ),
        Payload::Stream(v) => (
            Some("text/event-stream"),
            Out::Stream {
                first: Some(Bytes::from(format!("event: message\ndata: {v}\n\n"))),
                until: Box::pin(tokio::time::sleep(LISTEN_MAX)),
                check: tokio::time::interval(STREAM_CHECK),
                held: reply.held,
            },
        ),
    };
    let mut b = Response::builder().status(reply.status);
    if let Some(ct) = content_type {
        b = b.header("content-type", ct);
    }
    if matches!(body, Out::Stream { .. }) {
        b = b.header("cache-control", "no-store");
    }
    for (name, value) in reply.headers {
        b = b.header(name, value);
    }
    b.body(body).unwrap_or_else(|_| {
        let mut r = Response::new(Out::Full(None));
        *r.status_mut() = hyper::StatusCode::INTERNAL_SERVER_ERROR;
        r
    })
}

/// A response body: whole, or an event stream held open after its first event, until its
/// time is up or its token is gone.
pub(crate) enum Out {
    Full(Option<Bytes>),
    Stream {
        first: Option<Bytes>,
        until: Pin<Box<tokio::time::Sleep>>,
        check: tokio::time::Interval,
        held: Option<Box<Held>>,
    },
}

impl Body for Out {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<std::result::Result<Frame<Bytes>, Infallible>>> {
        match self.get_mut() {
            Out::Full(b) => Poll::Ready(b.take().map(|b| Ok(Frame::data(b)))),
            Out::Stream {
                first,
                until,
                check,
                held,
            } => {
                if let Some(b) = first.take() {
                    return Poll::Ready(Some(Ok(Frame::data(b))));
                }
                while check.poll_tick(cx).is_ready() {
                    if held.as_ref().is_some_and(|h| !(h.alive)()) {
                        return Poll::Ready(None);
                    }
                }
                until.as_mut().poll(cx).map(|()| None)
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        matches!(self, Out::Full(None))
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            Out::Full(b) => SizeHint::with_exact(b.as_ref().map_or(0, |b| b.len() as u64)),
            Out::Stream { .. } => SizeHint::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connection_slots_fit_the_descriptor_limit() {
        assert_eq!(capacity(Some(20_000)), (MAX_CONNECTIONS, RESERVE));
        for fds in [1024, 256, 64, 0] {
            let (full, reserve) = capacity(Some(fds));
            assert!(
                full + reserve + SPARE_FDS <= fds.max(96),
                "{fds}: {full} + {reserve}"
            );
            assert!(full > 0 && reserve >= 4, "{fds}: {full} + {reserve}");
        }
        assert_eq!(capacity(None), capacity(Some(256)));
    }
}
