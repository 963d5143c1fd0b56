"""The host's end of the scoreboard link, over pyserial.

It is built for a cable that gets pulled: every serial error closes the
port and the link tries again every :data:`RECONNECT_MS`; every new
connection starts with a hello (a fresh session, so the board starts its
sequence window afresh) and is followed by the full state.  A board that
stops answering, or whose heartbeat shows it has forgotten our session (it
rebooted), gets a new hello too.  Nothing here raises to the referee:
problems are a :attr:`ScoreboardLink.status` and a readable
:attr:`ScoreboardLink.problem`.

:meth:`ScoreboardLink.poll` does one step and takes no time, so tests drive
it with their own clock; :meth:`ScoreboardLink.start` runs it in a thread.
"""

import contextlib
import enum
import os
import termios
import threading
import time
from collections.abc import Callable
from typing import Protocol

from controller.panel import PanelState
from controller.scoreboard.convert import board_from_panel
from firmware import bgproto

RECONNECT_MS = 1000
"""How often an unplugged or missing port is tried again."""
BAUD = 115200
"""USB CDC ignores it; a real UART bridge would not."""
POLL_S = 0.005


class SerialPort(Protocol):
    """What the link needs of a ``serial.Serial``."""

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def close(self) -> None: ...

    def reset_input_buffer(self) -> None: ...


def open_serial(port: str) -> SerialPort:
    """A non-blocking pyserial port; ``port`` may be a device or a pyserial
    URL (``loop://``, ``socket://``...)."""
    import serial

    handle: SerialPort = serial.serial_for_url(port, baudrate=BAUD, timeout=0, write_timeout=1)
    return handle


def monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


def random_session() -> int:
    """1..65535: 0 means 'no session' to the board."""
    return int.from_bytes(os.urandom(2), "big") or 1


class LinkStatus(enum.Enum):
    DISCONNECTED = "disconnected"
    """No port open (unplugged, missing, or not yet tried)."""
    CONNECTING = "connecting"
    """Port open, hello sent, no answer yet."""
    UP = "up"
    """Hello answered with our protocol version; states are being delivered."""
    VERSION_MISMATCH = "version mismatch"
    """The board speaks another protocol version: it needs reflashing."""


class PortClosedError(Exception):
    """Writing with no port open (it was lost a moment ago)."""


class ScoreboardLink:
    """Keeps the scoreboard showing the latest panel state."""

    def __init__(self, port: str, *, clock: Callable[[], int] = monotonic_ms,
                 opener: Callable[[str], SerialPort] = open_serial,
                 session_source: Callable[[], int] = random_session,
                 on_status: Callable[[LinkStatus, str | None], None] | None = None) -> None:
        self.port_name = port
        self._clock = clock
        self._opener = opener
        self._new_session = session_source
        self._on_status = on_status
        self._lock = threading.RLock()
        self._serial: SerialPort | None = None
        self._decoder = bgproto.Decoder()
        self._sender = bgproto.Sender(self._write, session_source() & 0xFFFF)
        self.status = LinkStatus.DISCONNECTED
        self.problem: str | None = None
        """Why the link is not up, in words for the operator; None when up."""
        self.firmware_version: int | None = None
        self.session = 0
        self.epoch = 0
        """The board's epoch for our session, from its answer to our hello."""
        self._hello_seq = -1
        self._next_open = clock()
        self._last_heard = 0
        self._board: bgproto.Board | None = None
        self._text = ""
        self.delivered: bgproto.Board | None = None
        """The last state the board acknowledged."""
        self._in_flight: bgproto.Board | None = None
        self._text_delivered = ""
        self._text_in_flight = ""
        self._hello_at = 0
        self.connects = 0
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    # -- what the referee calls -----------------------------------------------

    def __call__(self, panel: PanelState) -> None:
        self.show(panel)

    def show(self, panel: PanelState) -> None:
        """Show this state from now on (sent at once when the link is up)."""
        board = board_from_panel(panel)
        with self._lock:
            if board == self._board:
                return
            self._board = board
            self._guarded(lambda: self._pump(self._clock()))

    def show_text(self, text: str) -> None:
        """An extra page of up to 16 ASCII characters; "" removes it."""
        if len(text) > bgproto.MESSAGE_LENGTH or not bgproto.is_ascii_text(text):
            raise bgproto.ProtocolError(
                f"scoreboard text {text!r}: at most 16 printable ASCII characters")
        with self._lock:
            self._text = text
            self._guarded(lambda: self._pump(self._clock()))

    @property
    def acknowledged(self) -> bool:
        """The board has acknowledged the current state (and text, if any)."""
        with self._lock:
            return (self.status is LinkStatus.UP and self._sender.pending is None
                    and self.delivered is not None and self.delivered == self._board
                    and self._text_delivered == self._text)

    # -- the engine -------------------------------------------------------------

    def poll(self) -> None:
        """One step: open the port if due, read and answer, repeat, keep alive."""
        with self._lock:
            now = self._clock()
            if self._serial is None:
                if now >= self._next_open:
                    self._open(now)
                return
            self._guarded(lambda: self._step(now))

    def _step(self, now: int) -> None:
        assert self._serial is not None
        data = self._serial.read(4096)
        if data:
            for frame in self._decoder.feed(data):
                self._handle(frame, now)
        if self._serial is None:
            return
        silent = f"no answer from the scoreboard on {self.port_name}"
        if not self._sender.poll(now):
            self._restart(now, "the scoreboard stopped acknowledging"
                          if self.status is LinkStatus.UP else silent)
        elif now - self._last_heard >= bgproto.LINK_TIMEOUT_MS:
            self._restart(now, silent)
        elif (self.status is LinkStatus.VERSION_MISMATCH
              and now - self._hello_at >= bgproto.LINK_TIMEOUT_MS):
            self._hello(now)  # perhaps it has been reflashed meanwhile
        elif now - self._sender.last_sent >= bgproto.HEARTBEAT_MS:
            self._sender.send(bgproto.HEARTBEAT, _u16(self.session), now)

    def _handle(self, frame: bgproto.Frame, now: int) -> None:
        if frame.kind == bgproto.HELLO:
            try:
                version, session = bgproto.decode_hello(frame.payload)
            except bgproto.ProtocolError:
                return
            if frame.seq != self._hello_seq or session != self.session:
                return  # an answer to an older hello
            self._last_heard = now
            self._sender.acknowledged(frame.seq)
            self.firmware_version = version
            if version == bgproto.VERSION:
                try:
                    self.epoch = bgproto.hello_epoch(frame.payload)
                except bgproto.ProtocolError:
                    return
            if version != bgproto.VERSION:
                self._set_status(LinkStatus.VERSION_MISMATCH, (
                    f"the scoreboard's firmware speaks protocol version {version}, this bgref "
                    f"speaks {bgproto.VERSION}: flash the firmware that came with this bgref "
                    "(see firmware/README.md)"))
                return
            self._set_status(LinkStatus.UP, None)
            self._pump(now)
        elif frame.kind == bgproto.ACK:
            self._last_heard = now
            kind = self._sender.pending_kind
            if self._sender.acknowledged(frame.seq):
                if kind == bgproto.STATE:
                    self.delivered = self._in_flight
                elif kind == bgproto.TEXT:
                    self._text_delivered = self._text_in_flight
                self._pump(now)
        elif frame.kind == bgproto.HEARTBEAT:
            self._last_heard = now
            known = (frame.payload[0] << 8) | frame.payload[1] if len(frame.payload) >= 2 else 0
            if self.status is LinkStatus.UP and known != self.session:
                self._restart(now, "the scoreboard restarted")

    def _pump(self, now: int) -> None:
        """Sends what the board lacks, one frame in flight at a time.

        A changed state goes out at once, even over a text or an older state
        in flight (the score matters most); a text waits for the state's
        acknowledgement and is sent again after a state pushed it aside.
        """
        if self.status is not LinkStatus.UP:
            return
        busy = self._sender.pending is not None
        board = self._board
        if board is not None and board != self.delivered and not (
                busy and self._sender.pending_kind == bgproto.STATE
                and self._in_flight == board):
            self._in_flight = board
            self._sender.send(bgproto.STATE,
                              bgproto.scoped(self.epoch, bgproto.encode_state(board)), now)
        elif not busy and self._text != self._text_delivered:
            self._text_in_flight = self._text
            self._sender.send(bgproto.TEXT, bgproto.scoped(self.epoch, self._text.encode()), now)

    def _hello(self, now: int) -> None:
        self.session = (self._new_session() & 0xFFFF) or 1
        self._hello_at = now
        self._hello_seq = self._sender.send(
            bgproto.HELLO, bgproto.encode_hello(bgproto.VERSION, self.session), now)

    def _restart(self, now: int, why: str) -> None:
        """Same port, new session: the board resets its window, gets everything again."""
        self._sender.clear()
        self.delivered = None
        self._text_delivered = ""  # a new session starts the board's text afresh
        self._last_heard = now
        if self.status is not LinkStatus.VERSION_MISMATCH:
            self._set_status(LinkStatus.CONNECTING, why)
        self._hello(now)

    def _open(self, now: int) -> None:
        handle: SerialPort | None = None
        try:
            handle = self._opener(self.port_name)
            handle.reset_input_buffer()
        except Exception as exc:  # pyserial raises SerialException, OSError, ValueError
            if handle is not None:
                with contextlib.suppress(Exception):
                    handle.close()
            self._next_open = now + RECONNECT_MS
            self._set_status(LinkStatus.DISCONNECTED,
                             f"cannot open the scoreboard on {self.port_name}: {exc}")
            return
        self._serial = handle
        self._decoder = bgproto.Decoder()
        self.connects += 1
        self.delivered = None
        self._text_delivered = ""
        self._last_heard = now
        self._sender.clear()
        self._set_status(LinkStatus.CONNECTING, f"waiting for the scoreboard on {self.port_name}")
        self._guarded(lambda: self._hello(now))

    def _guarded(self, action: Callable[[], object]) -> None:
        """Runs a port action; a serial error closes the port for a retry later."""
        try:
            action()
        except (PortClosedError, OSError, termios.error) as exc:
            # pyserial's SerialException is an OSError; a vanished tty can
            # also fail in termios calls
            self._drop(str(exc) or type(exc).__name__)

    def _write(self, data: bytes) -> None:
        if self._serial is None:
            raise PortClosedError("the port is closed")
        self._serial.write(data)

    @property
    def retransmits(self) -> int:
        """Frames sent again for want of an acknowledgement, so far."""
        return self._sender.repeats

    def _drop(self, why: str) -> None:
        handle, self._serial = self._serial, None
        if handle is not None:
            # closing a vanished device may fail too; it is gone either way
            with contextlib.suppress(Exception):
                handle.close()
        self._sender.clear()
        self.delivered = None
        self._text_delivered = ""
        self._next_open = self._clock() + RECONNECT_MS
        self._set_status(LinkStatus.DISCONNECTED,
                         f"lost the scoreboard on {self.port_name}: {why}")

    def _set_status(self, status: LinkStatus, problem: str | None) -> None:
        changed = status is not self.status or problem != self.problem
        self.status = status
        self.problem = problem
        if changed and self._on_status is not None:
            self._on_status(status, problem)

    # -- a thread of its own ----------------------------------------------------

    def start(self) -> None:
        """Run :meth:`poll` in a daemon thread until :meth:`close`."""
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="scoreboard-link", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(POLL_S):
            self.poll()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        with self._lock:
            if self._serial is not None:
                self._drop("closed by the referee")
            self._set_status(LinkStatus.DISCONNECTED, "closed")

    def __enter__(self) -> "ScoreboardLink":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _u16(value: int) -> bytes:
    return bytes(((value >> 8) & 0xFF, value & 0xFF))
