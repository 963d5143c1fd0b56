"""Telling systemd how the referee is doing (``sd_notify``), without libsystemd.

``bgref.service`` is ``Type=notify`` with ``WatchdogSec=``: systemd counts
the referee as started when it says ``READY=1``, and restarts it when its
main loop stops saying ``WATCHDOG=1`` in time, so a hung camera read or a
dead lock ends in a restart instead of a silent board.  The protocol is one
datagram of ``KEY=value`` lines to the AF_UNIX socket named in
``NOTIFY_SOCKET`` (a path, or ``@name`` for the abstract namespace), so a
few lines of ``socket`` do it and no dependency is needed.

Outside systemd (``NOTIFY_SOCKET`` unset) every call does nothing, so the
same code runs by hand and in tests.  A failed send is reported by the
return value, never raised: the referee must not stop refereeing because
systemd went away.
"""

import os
import socket
import time
from collections.abc import Callable, Mapping


class NotifyError(ValueError):
    """``NOTIFY_SOCKET`` holds an address this client cannot use."""


def _address(raw: str) -> str:
    if raw.startswith("@"):
        return "\0" + raw[1:]
    if raw.startswith("/"):
        return raw
    raise NotifyError(f"NOTIFY_SOCKET={raw!r} is neither a path nor an abstract socket "
                      "(vsock and other address kinds are not supported)")


def watchdog_interval(env: Mapping[str, str] | None = None) -> float | None:
    """The watchdog timeout systemd set for this process, in seconds, if any.

    systemd sets ``WATCHDOG_USEC`` and ``WATCHDOG_PID``; a PID other than
    ours means the variables were inherited from a parent and are not for us.
    """
    values = os.environ if env is None else env
    usec = values.get("WATCHDOG_USEC")
    if not usec:
        return None
    pid = values.get("WATCHDOG_PID")
    if pid and pid.strip() != str(os.getpid()):
        return None
    try:
        seconds = int(usec) / 1_000_000
    except ValueError:
        return None
    return seconds if seconds > 0 else None


class Notifier:
    """A client of systemd's notification socket."""

    def __init__(self, socket_name: str | None = None) -> None:
        """``socket_name`` defaults to ``NOTIFY_SOCKET``; None or empty disables."""
        raw = os.environ.get("NOTIFY_SOCKET", "") if socket_name is None else socket_name
        self._address = _address(raw) if raw else None

    @property
    def enabled(self) -> bool:
        return self._address is not None

    def notify(self, **fields: str) -> bool:
        """Send ``KEY=value`` lines in one datagram; True when systemd got it.

        Values lose their line breaks: a newline would start a new field.
        """
        if self._address is None:
            return False
        text = "\n".join(f"{key}={' '.join(str(value).splitlines())}"
                         for key, value in fields.items())
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
                sock.sendto(text.encode("utf-8"), self._address)
        except OSError:
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        """Start-up is done (systemd considers the service started)."""
        return self.notify(READY="1", **({} if status is None else {"STATUS": status}))

    def watchdog(self) -> bool:
        """The main loop is alive."""
        return self.notify(WATCHDOG="1")

    def status(self, text: str) -> bool:
        """One line for ``systemctl status`` (e.g. "camera lost")."""
        return self.notify(STATUS=text)

    def stopping(self) -> bool:
        return self.notify(STOPPING="1")


class WatchdogPinger:
    """Pings at most twice per watchdog interval, however fast the loop spins.

    Call :meth:`tick` from every turn of the main loop; it sends
    ``WATCHDOG=1`` when half the interval has passed since the last ping.
    """

    def __init__(self, notifier: Notifier, interval: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._notifier = notifier
        given = watchdog_interval() if interval is None else interval
        self._every = None if given is None else given / 2
        self._clock = clock
        self._last: float | None = None

    def tick(self) -> bool:
        """True when a ping was sent now."""
        if self._every is None or not self._notifier.enabled:
            return False
        now = self._clock()
        if self._last is not None and now - self._last < self._every:
            return False
        self._last = now
        return self._notifier.watchdog()
