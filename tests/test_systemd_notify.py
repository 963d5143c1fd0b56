"""sd_notify against real AF_UNIX datagram sockets: a path and an abstract name."""

import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.systemd_notify import Notifier, NotifyError, WatchdogPinger, watchdog_interval


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
        sock.settimeout(2.0)
        yield sock, str(path)


def test_ready_status_and_watchdog_reach_the_socket(listener: tuple[socket.socket, str]) -> None:
    sock, path = listener
    notifier = Notifier(path)
    assert notifier.ready("watching the board")
    assert sock.recv(4096) == b"READY=1\nSTATUS=watching the board"
    assert notifier.watchdog()
    assert sock.recv(4096) == b"WATCHDOG=1"
    assert notifier.status("camera lost\nretrying")
    assert sock.recv(4096) == b"STATUS=camera lost retrying"
    assert notifier.stopping()
    assert sock.recv(4096) == b"STOPPING=1"


def test_the_environment_names_the_socket(listener: tuple[socket.socket, str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    sock, path = listener
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    assert Notifier().ready()
    assert sock.recv(4096) == b"READY=1"


def test_an_abstract_socket() -> None:
    name = f"bgref-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(2.0)
        assert Notifier("@" + name).watchdog()
        assert sock.recv(4096) == b"WATCHDOG=1"


def test_without_systemd_nothing_is_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    notifier = Notifier()
    assert not notifier.enabled
    assert notifier.ready() is False


def test_a_vanished_socket_is_reported_not_raised(tmp_path: Path) -> None:
    assert Notifier(str(tmp_path / "gone")).watchdog() is False


def test_an_unusable_address_is_refused() -> None:
    with pytest.raises(NotifyError, match="vsock"):
        Notifier("vsock:2:1234")


def test_the_watchdog_interval_is_only_ours_when_the_pid_matches() -> None:
    mine = str(os.getpid())
    assert watchdog_interval({"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": mine}) == 20.0
    assert watchdog_interval({"WATCHDOG_USEC": "20000000"}) == 20.0
    assert watchdog_interval({"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "1"}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "soon"}) is None
    assert watchdog_interval({}) is None


def test_the_pinger_pings_twice_per_interval(listener: tuple[socket.socket, str]) -> None:
    sock, path = listener
    now = [100.0]
    pinger = WatchdogPinger(Notifier(path), interval=10.0, clock=lambda: now[0])
    sent = []
    for t in (100.0, 101.0, 104.9, 105.0, 106.0, 110.0):
        now[0] = t
        sent.append(pinger.tick())
    assert sent == [True, False, False, True, False, True]
    assert [sock.recv(4096) for _ in range(3)] == [b"WATCHDOG=1"] * 3
    sock.setblocking(False)
    with pytest.raises(BlockingIOError):
        sock.recv(4096)


def test_no_watchdog_no_pings(listener: tuple[socket.socket, str],
                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    sock, path = listener
    assert WatchdogPinger(Notifier(path)).tick() is False
    sock.setblocking(False)
    with pytest.raises(BlockingIOError):
        sock.recv(4096)
