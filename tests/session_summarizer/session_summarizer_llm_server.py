"""A real HTTP server on 127.0.0.1 speaking the OpenAI-compatible and Anthropic streaming formats.

The model name picks the behaviour, so one server covers every case: "ok", "unauthorized",
"ratelimit", "cut" (connection dropped mid-body), "eof" (clean close, no end marker), "malformed",
"stall" (sends one token, then waits until the server closes), "modern" (refuses max_tokens like newer OpenAI models),
"error-event" (an error inside the stream), "slow" (events 50 ms apart), "servererror" (503).
"""

import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Optional

REPLY_TOKENS = ["## Goal\n", "- Fix the ", "CSV export", "\n## What was done\n", "- Replaced the join", "\n"]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: "LLMServer"

    def log_message(self, *args: Any) -> None:  # keep test output quiet
        pass

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        anthropic = self.path.endswith("/messages")
        self.server.requests.append({"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()},
                                     "body": body})
        model = str(body.get("model", "ok"))
        if model == "unauthorized":
            return self._json(401, {"error": {"type": "authentication_error", "message": "invalid x-api-key"}})
        if model == "ratelimit":
            return self._json(429, {"error": {"message": "Rate limit reached"}}, {"retry-after": "17"})
        if model == "servererror":
            return self._json(503, {"error": {"message": "overloaded"}})
        if model == "modern" and "max_tokens" in body:
            return self._json(400, {"error": {"message": "Unsupported parameter: 'max_tokens'. "
                                                         "Use 'max_completion_tokens' instead."}})
        tokens = list(REPLY_TOKENS)
        prompt = json.dumps(body.get("messages", []), ensure_ascii=False)
        tokens.append("- redaction markers seen: " + str(prompt.count("[REDACTED:")) + "\n")
        part = "part " in prompt and "of a long session" in prompt
        if part:
            tokens = ["- notes for one part\n"]
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        if model == "eof":
            self.send_header("connection", "close")
        else:
            self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        chunked = model != "eof"
        events = self._events(anthropic, tokens, model)
        if model == "eof":
            events = events[:-1]  # closes cleanly but never sends [DONE] / message_stop
        for number, event in enumerate(events):
            if model == "cut" and number == len(events) // 2:
                # Drop the connection in the middle of the body: no closing chunk, no end marker.
                self.wfile.flush()
                self.connection.shutdown(socket.SHUT_RDWR)
                self.connection.close()
                return
            if model == "stall" and number == 2:
                self.server.stalled.set()
                # Held until the server closes (no clock): "still stalled" then means exactly that.
                self.server.release.wait()
                self.server.stall_ended.set()
                return
            self._write(event, chunked)
            if model == "slow":
                time.sleep(0.05)
        if chunked:
            self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()
        if model == "eof":
            self.close_connection = True

    def _events(self, anthropic: bool, tokens: List[str], model: str) -> List[bytes]:
        events: List[bytes] = []
        if anthropic:
            events.append(_sse("message_start", {"type": "message_start", "message": {"id": "m1", "content": []}}))
            events.append(_sse("content_block_start", {"type": "content_block_start", "index": 0,
                                                       "content_block": {"type": "text", "text": ""}}))
            events.append(b": keep-alive\n\nevent: ping\ndata: {\"type\": \"ping\"}\n\n")
            for token in tokens:
                events.append(_sse("content_block_delta", {"type": "content_block_delta", "index": 0,
                                                           "delta": {"type": "text_delta", "text": token}}))
            if model == "malformed":
                events.append(b"event: content_block_delta\ndata: {not json\n\n")
            if model == "error-event":
                events.append(_sse("error", {"type": "error", "error": {"type": "overloaded_error",
                                                                         "message": "Overloaded"}}))
            events.append(_sse("content_block_stop", {"type": "content_block_stop", "index": 0}))
            events.append(_sse("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn"}}))
            events.append(_sse("message_stop", {"type": "message_stop"}))
            return events
        events.append(_sse(None, {"object": "chat.completion.chunk", "choices": [
            {"index": 0, "delta": {"role": "assistant"}, "finish_reason": None}]}))
        for token in tokens:
            events.append(_sse(None, {"object": "chat.completion.chunk", "choices": [
                {"index": 0, "delta": {"content": token}, "finish_reason": None}]}))
        if model == "malformed":
            events.append(b"data: {not json\n\n")
        if model == "error-event":
            events.append(_sse(None, {"error": {"message": "model crashed"}}))
        events.append(_sse(None, {"object": "chat.completion.chunk", "choices": [
            {"index": 0, "delta": {}, "finish_reason": "stop"}]}))
        events.append(b"data: [DONE]\n\n")
        return events

    def _write(self, data: bytes, chunked: bool) -> None:
        if chunked:
            self.wfile.write(format(len(data), "x").encode() + b"\r\n" + data + b"\r\n")
        else:
            self.wfile.write(data)
        self.wfile.flush()

    def _json(self, status: int, payload: Dict[str, Any], headers: Optional[Dict[str, str]] = None) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)


def _sse(event: Optional[str], payload: Dict[str, Any]) -> bytes:
    head = ("event: " + event + "\n") if event else ""
    return (head + "data: " + json.dumps(payload, ensure_ascii=False) + "\n\n").encode("utf-8")


class LLMServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.requests: List[Dict[str, Any]] = []
        self.stalled = threading.Event()
        self.release = threading.Event()
        self.stall_ended = threading.Event()  # a stalled stream's handler gave up waiting
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # clients that hang up (Stop, timeouts) are part of the tests, not errors

    @property
    def base_url(self) -> str:
        return "http://127.0.0.1:" + str(self.server_address[1])

    def __enter__(self) -> "LLMServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.release.set()
        self.shutdown()
        self.server_close()
