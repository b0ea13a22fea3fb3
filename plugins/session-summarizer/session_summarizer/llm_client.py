"""Streams one chat completion from an OpenAI-compatible or Anthropic endpoint, keeping partial text on failure.

httpx is imported inside `stream_completion` only: importing it costs ~180 ms, which the offline
summarizer and the first panel draw must never pay.
"""

import email.utils
import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional

from .llm_settings import ANTHROPIC, ANTHROPIC_VERSION, LLMSettings, endpoint_url, key_may_travel
from .sse import EventParser, ServerEvent

# Error kinds; the panel turns each into a sentence in the user's language.
NO_SERVER = "no_server"
AUTH = "auth"
RATE_LIMITED = "rate_limited"
TIMEOUT = "timeout"
MALFORMED = "malformed"
CUT = "cut"
HTTP = "http"
NOT_FOUND = "not_found"
INSECURE = "insecure"
NO_KEY = "no_key"
STOPPED = "stopped"
SERVER_ERROR = "server_error"

ERROR_BODY_LIMIT = 4096


@dataclass
class LLMError:
    kind: str
    detail: str = ""
    status: Optional[int] = None
    retry_after: Optional[float] = None


@dataclass
class StreamResult:
    text: str = ""
    complete: bool = False
    stop_reason: str = ""
    error: Optional[LLMError] = None
    first_token_seconds: Optional[float] = None


class Cancellation:
    """Stop button and deadline: sets a flag and closes the connection so a blocked read ends at once."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._closers: List[Callable[[], None]] = []
        self.reason = ""

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def cancel(self, reason: str = STOPPED) -> None:
        with self._lock:
            if not self._event.is_set():
                self.reason = reason
            self._event.set()
            closers = list(self._closers)
        for close in reversed(closers):  # newest first: the socket shutdown must precede client.close
            try:
                close()
            except Exception:  # closing from another thread may race with the reader; that is fine
                pass

    def on_cancel(self, close: Callable[[], None]) -> Callable[[], None]:
        with self._lock:
            self._closers.append(close)
            already = self._event.is_set()
        if already:
            close()

        def remove() -> None:
            with self._lock:
                if close in self._closers:
                    self._closers.remove(close)

        return remove


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """Seconds to wait from a Retry-After header: either a number or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        parsed = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if parsed is None:
        return None
    return max(0.0, parsed.timestamp() - (time.time() if now is None else now))


def _error_detail(body: bytes) -> str:
    """The server's own error message when its body is JSON, else the start of the body."""
    text = body[:ERROR_BODY_LIMIT].decode("utf-8", "replace").strip()
    try:
        payload = json.loads(text)
    except ValueError:
        return text[:300]
    if isinstance(payload, dict):
        error = payload.get("error")
        if isinstance(error, dict) and isinstance(error.get("message"), str):
            return str(error["message"])[:300]
        if isinstance(error, str):
            return error[:300]
        if isinstance(payload.get("message"), str):
            return str(payload["message"])[:300]
    return text[:300]


def _status_error(status: int, body: bytes, retry_after: Optional[str]) -> LLMError:
    detail = _error_detail(body)
    if status in (401, 403):
        return LLMError(AUTH, detail, status)
    if status == 429:
        return LLMError(RATE_LIMITED, detail, status, parse_retry_after(retry_after))
    if status == 404:
        return LLMError(NOT_FOUND, detail, status)
    if status in (500, 502, 503, 504, 529):
        return LLMError(SERVER_ERROR, detail, status, parse_retry_after(retry_after))
    return LLMError(HTTP, detail, status)


def build_request(settings: LLMSettings, system: str, prompt: str, api_key: Optional[str],
                  compatible_tokens_field: bool = False) -> Dict[str, Any]:
    """URL, headers and JSON body for a streaming request in the provider's format."""
    headers = {"content-type": "application/json", "accept": "text/event-stream"}
    body: Dict[str, Any]
    if settings.provider == ANTHROPIC:
        headers["anthropic-version"] = ANTHROPIC_VERSION
        if api_key:
            headers["x-api-key"] = api_key
        body = {"model": settings.model, "max_tokens": settings.max_output_tokens, "system": system,
                "messages": [{"role": "user", "content": prompt}], "stream": True, "temperature": 0.2}
    else:
        if api_key:
            headers["authorization"] = "Bearer " + api_key
        body = {"model": settings.model, "stream": True,
                "messages": [{"role": "system", "content": system}, {"role": "user", "content": prompt}]}
        if compatible_tokens_field:
            # Newer OpenAI models refuse `max_tokens` and a custom temperature.
            body["max_completion_tokens"] = settings.max_output_tokens
        else:
            body["max_tokens"] = settings.max_output_tokens
            body["temperature"] = 0.2
    return {"url": endpoint_url(settings), "headers": headers, "body": body}


@dataclass
class _StreamState:
    text_parts: List[str] = field(default_factory=list)
    done: bool = False
    stop_reason: str = ""
    error: Optional[LLMError] = None


def _handle_event(provider: str, event: ServerEvent, state: _StreamState) -> Optional[str]:
    """Apply one server event; return new text, if any. Sets state.error on a malformed or error event."""
    data = event.data.strip()
    if provider != ANTHROPIC and data == "[DONE]":
        state.done = True
        return None
    if not data:
        return None
    try:
        payload = json.loads(data)
    except ValueError:
        state.error = LLMError(MALFORMED, "not JSON: " + data[:120])
        return None
    if not isinstance(payload, dict):
        state.error = LLMError(MALFORMED, "unexpected event: " + data[:120])
        return None
    if payload.get("type") == "error" or event.event == "error" or "error" in payload:
        error = payload.get("error")
        message = error.get("message", "") if isinstance(error, dict) else str(error or data[:200])
        error_type = error.get("type", "") if isinstance(error, dict) else ""
        kind = RATE_LIMITED if error_type == "rate_limit_error" else SERVER_ERROR
        state.error = LLMError(kind, str(message)[:300])
        return None
    if provider == ANTHROPIC:
        kind = payload.get("type") or event.event
        if kind == "content_block_delta":
            delta = payload.get("delta") or {}
            if isinstance(delta, dict) and delta.get("type") == "text_delta":
                return str(delta.get("text") or "")
        elif kind == "message_delta":
            delta = payload.get("delta") or {}
            if isinstance(delta, dict) and delta.get("stop_reason"):
                state.stop_reason = str(delta["stop_reason"])
        elif kind == "message_stop":
            state.done = True
        return None
    choices = payload.get("choices")
    if not isinstance(choices, list):
        return None  # usage-only chunks and other extras
    pieces = []
    for choice in choices:
        if not isinstance(choice, dict):
            continue
        delta = choice.get("delta") or choice.get("message") or {}
        content = delta.get("content") if isinstance(delta, dict) else None
        if isinstance(content, str):
            pieces.append(content)
        if choice.get("finish_reason"):
            state.stop_reason = str(choice["finish_reason"])
    return "".join(pieces) or None


def stream_completion(settings: LLMSettings, system: str, prompt: str, api_key: Optional[str],
                      on_text: Callable[[str], None], cancellation: Optional[Cancellation] = None,
                      connect_timeout: float = 5.0) -> StreamResult:
    """Send one request and stream its text to `on_text`; never raises for network or server trouble."""
    import httpx  # lazily: see the module docstring

    cancellation = cancellation or Cancellation()
    if api_key and not key_may_travel(settings):
        return StreamResult(error=LLMError(INSECURE))
    started = time.monotonic()
    result = StreamResult()
    timer = threading.Timer(settings.total_timeout_seconds, lambda: cancellation.cancel(TIMEOUT))
    timer.daemon = True
    timer.start()
    timeout = httpx.Timeout(connect=connect_timeout, read=settings.read_timeout_seconds, write=30.0, pool=5.0)
    client = httpx.Client(timeout=timeout, follow_redirects=False, trust_env=False,
                          verify=_tls_setting(settings.base_url))
    remove_closer = cancellation.on_cancel(client.close)
    state = _StreamState()
    try:
        for attempt in range(2):
            request = build_request(settings, system, prompt, api_key, compatible_tokens_field=attempt == 1)
            with client.stream("POST", request["url"], headers=request["headers"], json=request["body"]) as response:
                remove_socket_closer = cancellation.on_cancel(lambda: _shut_socket(response))
                if response.status_code != 200:
                    body = response.read()
                    error = _status_error(response.status_code, body, response.headers.get("retry-after"))
                    lowered = body[:ERROR_BODY_LIMIT].lower()
                    if (attempt == 0 and response.status_code == 400 and settings.provider != ANTHROPIC
                            and (b"max_tokens" in lowered or b"temperature" in lowered)):
                        continue
                    result.error = error
                    return result
                try:
                    _read_stream(settings.provider, response, state, result, on_text, started, cancellation)
                finally:
                    remove_socket_closer()
                break
    except httpx.TimeoutException as exc:
        state.error = state.error or LLMError(TIMEOUT, type(exc).__name__)
    except (httpx.ConnectError, httpx.UnsupportedProtocol) as exc:
        state.error = LLMError(NO_SERVER, str(exc)[:200])
    except (httpx.RemoteProtocolError, httpx.ReadError, httpx.StreamError, httpx.CloseError) as exc:
        # A connection closed mid-body: what arrived is kept and the result is marked incomplete.
        state.error = state.error or LLMError(CUT, str(exc)[:200])
    except (httpx.HTTPError, RuntimeError, OSError, ValueError) as exc:
        # httpx raises RuntimeError when the client was closed by Stop while a read was pending.
        state.error = state.error or LLMError(CUT if cancellation.cancelled else HTTP, str(exc)[:200])
    finally:
        timer.cancel()
        remove_closer()
        try:
            client.close()
        except Exception:
            pass
    if cancellation.cancelled:
        state.error = LLMError(cancellation.reason or STOPPED)
    result.text = "".join(state.text_parts)
    result.stop_reason = state.stop_reason
    result.error = state.error
    if not result.error and not state.done:
        result.error = LLMError(CUT, "the stream ended before its end marker")
    result.complete = result.error is None
    return result


_ssl_context: Any = None
_ssl_lock = threading.Lock()


def _tls_setting(base_url: str) -> Any:
    """Certificate checking for the client: a shared context for https, none for plain http.

    Building a context loads the CA bundle (~30 ms); a plain-http server (Ollama, LM Studio on this
    machine) never uses it, and https reuses one context for every request of the process.
    """
    if not base_url.lower().startswith("https://"):
        return False  # no TLS happens on http://, so there is nothing to verify
    global _ssl_context
    with _ssl_lock:
        if _ssl_context is None:
            import ssl

            import certifi

            _ssl_context = ssl.create_default_context(cafile=certifi.where())
        return _ssl_context


def _shut_socket(response: Any) -> None:
    """Interrupt a read blocked in another thread: closing the client alone does not wake it up."""
    stream = response.extensions.get("network_stream")
    sock = stream.get_extra_info("socket") if stream is not None else None
    if sock is not None:
        import socket

        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def _read_stream(provider: str, response: Any, state: _StreamState, result: StreamResult,
                 on_text: Callable[[str], None], started: float, cancellation: Cancellation) -> None:
    parser = EventParser()
    for line in response.iter_lines():
        if cancellation.cancelled:
            return
        event = parser.feed(line)
        if event is None:
            continue
        text = _handle_event(provider, event, state)
        if text:
            if result.first_token_seconds is None:
                result.first_token_seconds = time.monotonic() - started
            state.text_parts.append(text)
            on_text(text)
        if state.error or state.done:
            return
    event = parser.flush()
    if event is not None and not state.done and not state.error:
        text = _handle_event(provider, event, state)
        if text:
            state.text_parts.append(text)
            on_text(text)
