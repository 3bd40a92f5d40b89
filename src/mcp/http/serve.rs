//! The listener: a current-thread tokio runtime (tool calls go to its small blocking pool),
//! hyper HTTP/1.1 connections with header and idle timeouts, a cap on open connections, the
//! run file for `mcp status`, and a clean stop on SIGTERM or SIGINT.

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
use tokio::sync::Semaphore;

use super::Shared;
use super::reply::{Payload, Reply};
use crate::error::{Error, Result};

/// Open connections beyond this wait in the kernel's backlog until one closes.
const MAX_CONNECTIONS: usize = 256;
/// A client must send a request's headers within this time, including on an idle
/// keep-alive connection between two requests, or the connection is closed.
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// Tool calls run here; more concurrent calls queue.
const BLOCKING_THREADS: usize = 8;
/// A `subscriptions/listen` stream ends after this long; the client may listen again.
const LISTEN_MAX: Duration = Duration::from_secs(3600);
/// Tool calls in flight at a stop get this long to finish.
const STOP_GRACE: Duration = Duration::from_secs(5);

pub(crate) fn run(sh: Arc<Shared>, addr: SocketAddr) -> Result<()> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .max_blocking_threads(BLOCKING_THREADS)
        .build()
        .map_err(|e| Error::storage("io", "cannot start the HTTP runtime").source(e))?;
    let result = rt.block_on(listen(sh, addr));
    rt.shutdown_timeout(STOP_GRACE);
    result
}

async fn listen(sh: Arc<Shared>, addr: SocketAddr) -> Result<()> {
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
    let permits = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let stop = stop_signal();
    tokio::pin!(stop);
    loop {
        let permit = tokio::select! {
            p = permits.clone().acquire_owned() => p,
            _ = &mut stop => break,
        };
        let Ok(permit) = permit else { break };
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
            let svc = service_fn(move |req| handle(sh.clone(), req));
            let _ = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .max_buf_size(64 * 1024)
                .serve_connection(TokioIo::new(stream), svc)
                .await;
            drop(permit);
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

async fn handle(
    sh: Arc<Shared>,
    req: Request<hyper::body::Incoming>,
) -> Result<Response<Out>, Infallible> {
    let reply = super::route::answer(sh, req).await;
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

/// A response body: whole, or an event stream held open after its first event.
pub(crate) enum Out {
    Full(Option<Bytes>),
    Stream {
        first: Option<Bytes>,
        until: Pin<Box<tokio::time::Sleep>>,
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
            Out::Stream { first, until } => {
                if let Some(b) = first.take() {
                    return Poll::Ready(Some(Ok(Frame::data(b))));
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
