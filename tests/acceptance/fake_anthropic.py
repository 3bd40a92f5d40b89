#!/usr/bin/env python3
"""A scripted stand-in for the Anthropic Messages API, so `claude -p` runs a real turn offline.

Usage: fake_anthropic.py PORT LOGDIR SCRIPT.json
SCRIPT is a list of assistant turns; each is a list of blocks: {"text": "..."} or
{"tool": "Write", "input": {...}}. Request N gets turn N (the last one repeats).
Every request body is saved as LOGDIR/request-<n>.json, so a test can check what the
model would have seen (e.g. a SessionStart hook's additionalContext)."""
import json, sys, itertools
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT, LOGDIR, SCRIPT = int(sys.argv[1]), sys.argv[2], json.load(open(sys.argv[3]))
counter = itertools.count()
turns = itertools.count()


def sse(event, data):
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()


def turn_events(blocks, model):
    yield sse("message_start", {"type": "message_start", "message": {
        "id": "msg_fake", "type": "message", "role": "assistant", "model": model,
        "content": [], "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1}}})
    stop = "end_turn"
    for i, b in enumerate(blocks):
        if "tool" in b:
            stop = "tool_use"
            yield sse("content_block_start", {"type": "content_block_start", "index": i, "content_block": {
                "type": "tool_use", "id": f"toolu_fake{i}", "name": b["tool"], "input": {}}})
            yield sse("content_block_delta", {"type": "content_block_delta", "index": i, "delta": {
                "type": "input_json_delta", "partial_json": json.dumps(b["input"])}})
        else:
            yield sse("content_block_start", {"type": "content_block_start", "index": i,
                                              "content_block": {"type": "text", "text": ""}})
            yield sse("content_block_delta", {"type": "content_block_delta", "index": i,
                                              "delta": {"type": "text_delta", "text": b["text"]}})
        yield sse("content_block_stop", {"type": "content_block_stop", "index": i})
    yield sse("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                                "usage": {"output_tokens": 5}})
    yield sse("message_stop", {"type": "message_stop"})


class H(BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", 0)) or 0)
        if not self.path.startswith("/v1/messages") or "count_tokens" in self.path:
            self.send_response(200); self.send_header("content-type", "application/json"); self.end_headers()
            self.wfile.write(b'{"input_tokens": 1}')
            return
        req = json.loads(body or b"{}")
        n = next(counter)
        with open(f"{LOGDIR}/request-{n}.json", "w") as f:
            json.dump(req, f)
        # Only streamed requests are the agent's turns; side requests get plain text.
        blocks = SCRIPT[min(next(turns), len(SCRIPT) - 1)] if req.get("stream") else [{"text": "ok"}]
        self.send_response(200)
        if req.get("stream"):
            self.send_header("content-type", "text/event-stream"); self.end_headers()
            for chunk in turn_events(blocks, req.get("model", "claude")):
                self.wfile.write(chunk)
        else:
            self.send_header("content-type", "application/json"); self.end_headers()
            self.wfile.write(json.dumps({"id": "msg_fake", "type": "message", "role": "assistant",
                "model": req.get("model", "claude"), "content": [{"type": "text", "text": "ok"}],
                "stop_reason": "end_turn", "stop_sequence": None,
                "usage": {"input_tokens": 1, "output_tokens": 1}}).encode())

    do_GET = do_POST


ThreadingHTTPServer(("127.0.0.1", PORT), H).serve_forever()
