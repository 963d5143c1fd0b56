"""The kiosk's server, through real sockets: the snapshot, the event stream, and bad clients."""

import http.client
import json
import socket
import struct
import time
from collections.abc import Iterator
from typing import Any

import pytest

from controller.kiosk.feed import KioskFeed
from controller.kiosk.server import KioskServer, KioskServerError
from controller.referee.journal import MEMORY, Journal
from controller.referee.session import Session
from tests.referee_streams import SEATINGS, Script


@pytest.fixture
def session() -> Session:
    return Session(Journal.open(MEMORY, create=True))


@pytest.fixture
def server(session: Session) -> Iterator[KioskServer]:
    feed = KioskFeed()
    feed.attach(session)
    with KioskServer(feed, port=0, heartbeat=0.3, client_timeout=1.0) as kiosk:
        yield kiosk


def _get(server: KioskServer, path: str, method: str = "GET"
         ) -> tuple[int, dict[str, str], bytes]:
    host, port = server.address
    connection = http.client.HTTPConnection(host, port, timeout=10)
    try:
        connection.request(method, path)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def _raw(server: KioskServer, data: bytes, wait: float = 5.0) -> bytes:
    """Send bytes as they are and read the whole answer (the server closes)."""
    with socket.create_connection(server.address, timeout=wait) as sock:
        sock.sendall(data)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def _json_body(answer: bytes) -> tuple[int, dict[str, Any]]:
    head, _, body = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    assert b"content-type: application/json" in head.lower(), head
    return status, json.loads(body)


class Stream:
    """One event-stream client on a raw socket, read event by event."""

    def __init__(self, server: KioskServer) -> None:
        self.sock = socket.create_connection(server.address, timeout=10)
        self.sock.sendall(b"GET /events HTTP/1.1\r\nHost: kiosk\r\nAccept: text/event-stream\r\n"
                          b"\r\n")
        self.buffer = b""
        head = self._until(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.0 200"), head
        assert b"text/event-stream" in head

    def _until(self, mark: bytes) -> bytes:
        while mark not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError(self.buffer)
            self.buffer += chunk
        part, self.buffer = self.buffer.split(mark, 1)
        return part

    def event(self) -> dict[str, str]:
        """The next event's fields (``event``, ``data``, ``id``, ``retry``)."""
        fields: dict[str, str] = {}
        for line in self._until(b"\n\n").decode().split("\n"):
            name, _, value = line.partition(": ")
            fields[name] = value
        return fields

    def state(self, within: float = 20.0) -> dict[str, Any]:
        """The next snapshot, passing pings by.  The server's pings keep the
        socket busy, so without a deadline a snapshot that never comes would
        hang the suite instead of failing it."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            fields = self.event()
            if fields.get("event") == "state":
                state: dict[str, Any] = json.loads(fields["data"])
                assert int(fields["id"]) == state["seq"]
                return state
        raise AssertionError(f"no state event within {within} s, only pings")

    def close(self) -> None:
        self.sock.close()


def test_the_snapshot_health_and_page(server: KioskServer, session: Session) -> None:
    script = Script(SEATINGS[0]).setup()
    script.opening(4, 2)
    for inp in script.inputs:
        session.step(inp)
    status, headers, body = _get(server, "/api/state")
    assert status == 200 and headers["content-type"] == "application/json"
    state = json.loads(body)
    assert state["stage"] == "play" and state["dice"]["values"] == [4, 2]
    status, _, body = _get(server, "/health")
    health = json.loads(body)
    assert status == 200 and health["status"] == "ok" and health["seq"] == state["seq"]
    status, headers, page = _get(server, "/?from=kiosk")
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert b'src="/kiosk.js"' in page and b'href="/kiosk.css"' in page
    assert b"http://" not in page and b"https://" not in page  # nothing from elsewhere
    assert "script-src 'self'" in headers["content-security-policy"]
    for path, kind in (("/kiosk.js", "text/javascript"), ("/kiosk.css", "text/css")):
        status, headers, body = _get(server, path)
        assert status == 200 and headers["content-type"].startswith(kind) and body
        assert b"http://" not in body.replace(b"http://www.w3.org/2000/svg", b"")
    status, headers, body = _get(server, "/api/state", method="HEAD")
    assert status == 200 and body == b"" and int(headers["content-length"]) > 100


@pytest.mark.parametrize(("method", "path", "status", "words"), [
    ("GET", "/nope", 404, "no such page: /nope"),
    ("GET", "/api/state/../../etc/passwd", 404, "no such page"),
    ("POST", "/api/state", 405, "read-only"),
    ("DELETE", "/", 405, "read-only"),
    ("BREW", "/", 405, "not allowed"),
    ("HEAD", "/events", 405, ""),
])
def test_unknown_requests_get_a_json_4xx(server: KioskServer, method: str, path: str,
                                         status: int, words: str) -> None:
    got, headers, body = _get(server, path, method)
    assert got == status
    assert headers["content-type"] == "application/json"
    if method != "HEAD":
        answer = json.loads(body)
        assert answer["error"] == status and words in answer["message"]
    if status == 405:
        assert headers["allow"] == "GET, HEAD"


@pytest.mark.parametrize(("data", "status"), [
    (b"GARBAGE\r\n\r\n", 400),
    (b"GET / HTTP/7.3\r\n\r\n", 400),
    (b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\n\r\n", 414),
    (b"GET / HTTP/1.1\r\n" + b"X-Long: " + b"b" * 70000 + b"\r\n\r\n", 431),
    (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 tls hello\r\n\r\n", 400),
])
def test_malformed_requests_get_a_clear_json_error(server: KioskServer, data: bytes,
                                                   status: int) -> None:
    got, body = _json_body(_raw(server, data))
    assert got == status and body["error"] == status and body["message"]
    if b"HTTP/7.3" in data:
        assert "HTTP/1.1" in body["message"]
    assert _get(server, "/health")[0] == 200  # and the server goes on


def test_a_slow_client_is_let_go_and_others_are_served_meanwhile(server: KioskServer) -> None:
    with socket.create_connection(server.address, timeout=10) as slow:
        slow.sendall(b"GET /api/st")  # and then nothing
        started = time.monotonic()
        assert _get(server, "/health")[0] == 200  # not blocked by the slow one
        assert slow.recv(1024) == b""  # dropped after client_timeout, without an answer
        assert time.monotonic() - started < 5


def test_the_stream_sends_the_state_at_once_then_every_change(server: KioskServer,
                                                             session: Session) -> None:
    stream = Stream(server)
    try:
        assert stream.event() == {"retry": "1000"}
        first = stream.state()
        assert first["stage"] == "setup" and first["board"] is None
        script = Script(SEATINGS[3]).setup()
        session.step(script.inputs[-1])
        state = stream.state()
        while state["stage"] != "opening":  # a panel change and the step may come as two
            state = stream.state()
        assert state["seq"] > first["seq"]
        assert state["seating"] == {"bottom": "dark", "home": "left"}
        assert state["log"][-1]["event"] == "game_start"
        # Nothing new: the stream says it is alive.
        assert stream.event() == {"event": "ping", "data": str(state["seq"])}
    finally:
        stream.close()


def test_a_reader_that_paused_gets_the_latest_state(server: KioskServer,
                                                    session: Session) -> None:
    stream = Stream(server)
    try:
        stream.event()
        stream.state()
        for t in range(1, 41):  # forty changes while the client does not read
            session.camera_lost(float(t), f"gone {t}")
        latest = server.feed.current()[0]
        state = stream.state()
        seqs = [state["seq"]]
        while state["seq"] != latest:
            state = stream.state()
            seqs.append(state["seq"])
        assert seqs == sorted(set(seqs))  # newer each time, never a state twice
        assert state["log"][-1]["detail"] == "gone 40"
    finally:
        stream.close()


def test_a_client_vanishing_mid_stream_ends_only_its_stream(server: KioskServer,
                                                          session: Session) -> None:
    streams = [Stream(server) for _ in range(3)]
    for stream in streams:
        stream.state()
    deadline = time.monotonic() + 5
    while json.loads(_get(server, "/health")[2])["streams"] != 3:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    # One closes cleanly, one resets the connection mid-stream.
    streams[0].close()
    reset = struct.pack("ii", 1, 0)  # linger on, 0 s: close sends a reset
    streams[1].sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, reset)
    streams[1].close()
    for t in range(1, 4):
        session.camera_lost(float(t), f"gone {t}")
    deadline = time.monotonic() + 5
    while json.loads(_get(server, "/health")[2])["streams"] != 1:
        assert time.monotonic() < deadline, "the vanished streams were not noticed"
        time.sleep(0.05)
    state = streams[2].state()
    while state["log"][-1]["detail"] != "gone 3":
        state = streams[2].state()
    streams[2].close()


def test_a_restarted_server_streams_the_current_state_again(session: Session) -> None:
    feed = KioskFeed()
    feed.attach(session)
    first = KioskServer(feed, port=0, heartbeat=0.3)
    first.start()
    port = first.address[1]
    stream = Stream(first)
    stream.state()
    first.close()
    with pytest.raises((EOFError, OSError)):  # the stream ends with the server
        while True:
            stream.event()
    stream.close()
    session.camera_lost(1.0, "while the server was down")
    again = KioskServer(feed, port=port, heartbeat=0.3)
    again.start()
    try:
        stream = Stream(again)
        stream.event()
        state = stream.state()
        assert state["log"][-1]["detail"] == "while the server was down"
        stream.close()
    finally:
        again.close()


def test_a_port_in_use_is_a_clear_error(server: KioskServer) -> None:
    host, port = server.address
    with pytest.raises(KioskServerError, match=f"cannot listen on {host}:{port}: "):
        KioskServer(KioskFeed(), host, port).start()


def test_idle_connections_do_not_keep_the_page_from_others(server: KioskServer) -> None:
    idle = [socket.create_connection(server.address, timeout=10) for _ in range(30)]
    try:
        assert _get(server, "/api/state")[0] == 200
        for sock in idle:  # each let go after client_timeout, with nothing sent back
            assert sock.recv(1024) == b""
    finally:
        for sock in idle:
            sock.close()


def test_streams_beyond_the_limit_are_told_to_come_back(server: KioskServer) -> None:
    from controller.kiosk.server import MAX_STREAMS

    streams = [Stream(server) for _ in range(MAX_STREAMS)]
    try:
        for stream in streams:
            stream.state()
        status, body = _json_body(_raw(server, b"GET /events HTTP/1.1\r\nHost: k\r\n\r\n"))
        assert status == 503 and f"{MAX_STREAMS} event streams" in body["message"]
        streams.pop().close()
        deadline = time.monotonic() + 5
        while json.loads(_get(server, "/health")[2])["streams"] != MAX_STREAMS - 1:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        again = Stream(server)
        assert again.state()["schema"] == 1
        streams.append(again)
    finally:
        for stream in streams:
            stream.close()
