"""The kiosk's web server: the page, a JSON snapshot and a stream of snapshots.

Built on :class:`http.server.ThreadingHTTPServer` so the Pi needs nothing
beyond Python.  Routes (``docs/kiosk.md``):

``GET /``            the page (``static/index.html``, its ``kiosk.css`` and ``kiosk.js``)
``GET /api/state``   the current snapshot (JSON)
``GET /events``      Server-Sent Events: a ``state`` event with every new snapshot,
                     a ``ping`` every ``heartbeat`` seconds
``GET /health``      JSON: the server's own view (sequence number, clients, outputs)

The server faces a browser it does not control, so it must outlive any
client: a request line or header that is malformed, too long or too slow
gets a JSON 4xx (or the connection is dropped after ``client_timeout``); a
client that vanishes mid-stream ends only its own thread; a slow reader
skips snapshots (see :mod:`controller.kiosk.feed`) instead of piling them
up.  Nothing a client sends can change the referee: every route is read-only.
"""

from __future__ import annotations

import json
import logging
import sys
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any, Final
from urllib.parse import urlsplit

from controller.kiosk.feed import KioskFeed

log = logging.getLogger(__name__)

DEFAULT_HOST: Final = "127.0.0.1"
DEFAULT_PORT: Final = 8080
MAX_STREAMS: Final = 16
"""Event streams open at once; the Pi's screen needs one, a few more for an
operator's laptop through an SSH tunnel."""

STATIC: Final[dict[str, tuple[str, str]]] = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/index.html": ("index.html", "text/html; charset=utf-8"),
    "/kiosk.css": ("kiosk.css", "text/css; charset=utf-8"),
    "/kiosk.js": ("kiosk.js", "text/javascript; charset=utf-8"),
}
CSP: Final = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
              "img-src 'self' data:; base-uri 'none'; form-action 'none'; "
              "frame-ancestors 'none'")
"""The page loads only its own files: no CDN, no inline code."""


class KioskServerError(Exception):
    """The server cannot start (the port is in use, the address is not this machine's)."""


def _static_files() -> dict[str, bytes]:
    folder = resources.files("controller.kiosk").joinpath("static")
    return {name: folder.joinpath(name).read_bytes()
            for name in {name for name, _ in STATIC.values()}}


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self, address: tuple[str, int], kiosk: KioskServer) -> None:
        self.kiosk = kiosk
        super().__init__(address, _Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        # One client's trouble ends its own request only.  A client that hung up is
        # ordinary (a reload, a closed tab); anything else is a bug worth a traceback.
        error = sys.exc_info()[1]
        if isinstance(error, OSError):
            log.debug("kiosk: %s went away: %s", client_address, error)
        else:
            log.warning("kiosk: a request from %s failed", client_address, exc_info=True)


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    server_version = "bgref-kiosk"
    sys_version = ""

    def setup(self) -> None:
        super().setup()
        # A client too slow to send its request, or to read the stream, is let go.
        self.connection.settimeout(self.server.kiosk.client_timeout)

    # -- routes -----------------------------------------------------------------

    def do_GET(self) -> None:
        self._route(body=True)

    def do_HEAD(self) -> None:
        self._route(body=False)

    def _not_allowed(self) -> None:
        self._json(HTTPStatus.METHOD_NOT_ALLOWED,
                   {"error": 405, "message": f"{self.command} is not allowed here: the kiosk is "
                                             "read-only (GET or HEAD)"},
                   headers={"Allow": "GET, HEAD"})

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _not_allowed  # noqa: N815

    def _route(self, *, body: bool) -> None:
        kiosk = self.server.kiosk
        path = urlsplit(self.path).path
        if path in STATIC:
            name, kind = STATIC[path]
            self._send(HTTPStatus.OK, kiosk.files[name], kind, body=body)
        elif path == "/api/state":
            self._send(HTTPStatus.OK, kiosk.feed.current()[1].encode(), "application/json",
                       body=body)
        elif path == "/health":
            self._json(HTTPStatus.OK, kiosk.health(), body=body)
        elif path == "/events":
            if not body:
                self._not_allowed()
            else:
                self._stream()
        else:
            self._json(HTTPStatus.NOT_FOUND,
                       {"error": 404, "message": f"no such page: {path[:200]}; the kiosk serves "
                                                 "/, /api/state, /events and /health"},
                       body=body)

    # -- the event stream ---------------------------------------------------------

    def _stream(self) -> None:
        kiosk = self.server.kiosk
        if not kiosk.open_stream():
            self._json(HTTPStatus.SERVICE_UNAVAILABLE,
                       {"error": 503, "message": f"{MAX_STREAMS} event streams are open already"})
            return
        try:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            # Reconnect quickly after a restart; the first state follows at once.
            self._write(b"retry: 1000\n\n")
            seen = -1
            while not kiosk.closing:
                got = kiosk.feed.wait(seen, kiosk.heartbeat, lambda: kiosk.closing) \
                    if seen >= 0 else kiosk.feed.current()
                if got is None:
                    if kiosk.closing:
                        break
                    self._write(f"event: ping\ndata: {seen}\n\n".encode())
                    continue
                seen, text = got
                self._write(f"id: {seen}\nevent: state\ndata: {text}\n\n".encode())
        except (OSError, ValueError):
            # The browser went away (closed tab, reload, reset) or stopped reading
            # (timeout): this stream ends, the server goes on.
            pass
        finally:
            kiosk.close_stream()

    def _write(self, data: bytes) -> None:
        self.wfile.write(data)
        self.wfile.flush()

    # -- answers --------------------------------------------------------------------

    def _send(self, status: HTTPStatus, payload: bytes, kind: str, *, body: bool = True,
              headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", CSP)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if body:
            self.wfile.write(payload)

    def _json(self, status: HTTPStatus, obj: object, *, body: bool = True,
              headers: dict[str, str] | None = None) -> None:
        self._send(status, json.dumps(obj).encode(), "application/json", body=body,
                   headers=headers)

    def parse_request(self) -> bool:
        ok = super().parse_request()
        self._no_http09()
        return ok

    def _no_http09(self) -> None:
        # HTTP/0.9 answers have no status line or headers: no client would learn
        # what went wrong, so even a one-word request line gets an HTTP/1.0 answer.
        if self.request_version == "HTTP/0.9":
            self.request_version = "HTTP/1.0"

    def send_error(self, code: int, message: str | None = None,
                   explain: str | None = None) -> None:
        """Every error the request parser finds, as JSON, and always a 4xx: the client
        is at fault, never the server (an unknown method is a 405, an HTTP version
        from the future a 400)."""
        self._no_http09()
        if code == HTTPStatus.HTTP_VERSION_NOT_SUPPORTED:
            code = HTTPStatus.BAD_REQUEST
            message = f"{message or 'unsupported HTTP version'}; the kiosk speaks HTTP/1.0 " \
                      "and HTTP/1.1"
            explain = None
        if code == HTTPStatus.NOT_IMPLEMENTED:
            code = HTTPStatus.METHOD_NOT_ALLOWED
            message = f"method {self.command!r} is not allowed: the kiosk is read-only " \
                      "(GET or HEAD)"
        status = HTTPStatus(code)
        text = message or status.phrase
        if explain and explain != text:
            text = f"{text}: {explain}"
        try:
            self.close_connection = True
            self._json(status, {"error": int(code), "message": text},
                       body=self.command != "HEAD" and code >= 200
                       and code not in (HTTPStatus.NO_CONTENT, HTTPStatus.NOT_MODIFIED),
                       headers={"Connection": "close",
                                **({"Allow": "GET, HEAD"}
                                   if code == HTTPStatus.METHOD_NOT_ALLOWED else {})})
        except OSError:
            pass

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("kiosk %s: " + format, self.address_string(), *args)


class KioskServer:
    """The page's server on ``host:port`` (port 0: any free port), in a thread of its own."""

    def __init__(self, feed: KioskFeed, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *,
                 heartbeat: float = 15.0, client_timeout: float = 10.0) -> None:
        self.feed = feed
        self.host = host
        self.port = port
        self.heartbeat = heartbeat
        self.client_timeout = client_timeout
        self.files = _static_files()
        self._lock = threading.Lock()
        self._streams = 0
        self._started = time.monotonic()
        self._server: _Server | None = None
        self.closing = False
        self._thread: threading.Thread | None = None

    @property
    def address(self) -> tuple[str, int]:
        """Where it listens (the real port once started with port 0)."""
        if self._server is None:
            return self.host, self.port
        host, port = self._server.server_address[:2]
        return str(host), int(port)

    @property
    def url(self) -> str:
        host, port = self.address
        return f"http://{'[' + host + ']' if ':' in host else host}:{port}/"

    def start(self) -> None:
        """Listen and serve; raises :class:`KioskServerError` when it cannot listen."""
        if self._server is not None:
            return
        self.closing = False
        try:
            server = _Server((self.host, self.port), self)
        except (OSError, OverflowError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise KioskServerError(f"the kiosk page cannot listen on {self.host}:{self.port}: "
                                   f"{reason}") from exc
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2},
                                        name="bgref-kiosk", daemon=True)
        self._thread.start()

    def open_stream(self) -> bool:
        with self._lock:
            if self._streams >= MAX_STREAMS:
                return False
            self._streams += 1
            return True

    def close_stream(self) -> None:
        with self._lock:
            self._streams -= 1

    @property
    def streams(self) -> int:
        with self._lock:
            return self._streams

    def health(self) -> dict[str, Any]:
        seq, _ = self.feed.current()
        return {"status": "ok", "seq": seq, "streams": self.streams,
                "uptime": round(time.monotonic() - self._started, 1),
                "outputs": self.feed.outputs()}

    def close(self) -> None:
        """Stop serving; open streams end within a moment."""
        self.closing = True
        self.feed.wake()
        server, self._server = self._server, None
        if server is not None:
            server.shutdown()
            server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> KioskServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


