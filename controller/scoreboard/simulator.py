"""The scoreboard's firmware running on the host, behind a pseudo-terminal.

The firmware (:mod:`firmware.main`, the very file the Pico runs) gets the
pty's master end as its USB serial and a ``machine`` shim whose SPI feeds a
model of the MAX7219 chips; the referee (or a test) opens the pty's other
end with pyserial as if it were ``/dev/scoreboard``.  Unplugging is closing
the pty; plugging back is a new pty behind the same symlink, as udev does
for the real board.
"""

import contextlib
import errno
import os
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from controller.scoreboard.segments import MachineShim, Max7219Chain
from firmware import main as firmware_main

if TYPE_CHECKING:
    from firmware.seams import Clock


class PtyPort:
    """The firmware's end of a pty: never blocks; writes nobody reads are
    dropped, as the Pico's USB serial drops them with no host attached."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        os.set_blocking(fd, False)

    def read(self) -> bytes:
        try:
            return os.read(self.fd, 4096)
        except BlockingIOError:
            return b""
        except OSError as exc:
            if exc.errno == errno.EIO:  # nobody has the other end open
                return b""
            raise

    def write(self, data: bytes) -> None:
        with contextlib.suppress(BlockingIOError):
            os.write(self.fd, data)


class WallClock:
    def now(self) -> int:
        return time.monotonic_ns() // 1_000_000


class SimulatedBoard:
    """A Pico with its display, plugged into a pty until :meth:`unplug`."""

    def __init__(self, link: str | Path | None = None, clock: "Clock | None" = None,
                 step_s: float = 0.002,
                 epoch_source: "Callable[[], int] | None" = None) -> None:
        self.chain = Max7219Chain(modules=2)
        self.machine = MachineShim(self.chain)
        self.display = firmware_main.make_display(self.machine)
        self.clock: Clock = clock if clock is not None else WallClock()
        self.link = Path(link) if link is not None else None
        self.step_s = step_s
        self._epoch = epoch_source or (lambda: int.from_bytes(os.urandom(2), "big"))
        self._lock = threading.Lock()
        self.firmware: firmware_main.Firmware | None = None
        self._fds: tuple[int, int] | None = None
        self.path = ""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def plug(self, restart: bool = True) -> str:
        """A new pty (a new /dev/pts/N, like a re-enumerated USB device); with
        ``restart`` the firmware boots afresh, as a Pico powered by the cable does."""
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo or line editing before the host opens it
        with self._lock:
            self._fds = (master, slave)
            self.path = os.ttyname(slave)
            if restart or self.firmware is None:
                self.firmware = firmware_main.Firmware(PtyPort(master), self.display, self.clock,
                                                       epoch=self._epoch())
            else:
                self.firmware.port = PtyPort(master)
        if self.link is not None:
            tmp = self.link.with_name(self.link.name + ".new")
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            tmp.symlink_to(self.path)
            tmp.replace(self.link)
        return self.path

    def reboot(self) -> None:
        """The firmware starts afresh on the same pty (a watchdog reset that
        the host's USB stack did not notice)."""
        with self._lock:
            if self._fds is None:
                raise RuntimeError("the simulated board is unplugged")
            self.firmware = firmware_main.Firmware(PtyPort(self._fds[0]), self.display,
                                                   self.clock, epoch=self._epoch())

    def unplug(self) -> None:
        with self._lock:
            fds, self._fds = self._fds, None
        if self.link is not None:
            with contextlib.suppress(FileNotFoundError):
                self.link.unlink()
        if fds is not None:
            for fd in fds:
                os.close(fd)

    @property
    def plugged(self) -> bool:
        return self._fds is not None

    def step(self) -> None:
        with self._lock:
            if self._fds is not None and self.firmware is not None:
                self.firmware.step()

    def text(self) -> str:
        """What the firmware last put on the display (its own record)."""
        with self._lock:
            return "" if self.firmware is None or self.firmware.shown is None else \
                self.firmware.shown

    def snapshot(self) -> tuple[list[str], str]:
        """The drawn digits and the firmware's text, taken between two steps
        (never halfway through the eight writes of one update)."""
        with self._lock:
            text = "" if self.firmware is None or self.firmware.shown is None else \
                self.firmware.shown
            return self.chain.art(), text

    def start(self) -> None:
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="scoreboard-sim", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.step_s):
            self.step()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        self.unplug()

    def __enter__(self) -> "SimulatedBoard":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
