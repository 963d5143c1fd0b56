"""The scoreboard firmware: reads frames from the host, shows the score.

On the Pico this file is the root ``main.py`` and runs :func:`pico_main`.
The host imports it as ``firmware.main`` and drives :class:`Firmware` with
shims (a pty for the port, a fake clock, a ``machine`` whose SPI is
recorded or drawn in the terminal).

What it guarantees: a state is shown only from a frame whose CRC is right,
which carries the epoch this board gave the host's current session (opened
with a hello of the same protocol version), and whose sequence number is
newer than the last one shown; so a damaged, replayed or stale frame can never put a wrong number
on the display.  Without a valid frame from the host for three seconds it
says NO LINK, in turns with the last score it was given.
"""

from firmware import bgproto, layout, max7219

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from firmware.bgproto import Board, Frame
    from firmware.seams import Clock, Display, Port


SPI_ID = 0
PIN_SCK = 18
PIN_MOSI = 19
PIN_CS = 17
"""GP18 (SPI0 SCK), GP19 (SPI0 TX) and GP17 (chip select); see README.md."""
PIN_MAINTENANCE = 22
"""GP22 held to ground at power-up: the firmware does not start, so the REPL
(and mpremote) stays usable.  Needed because the running firmware turns
Ctrl-C off: frames may contain 0x03."""
SPI_BAUD = 1000000
REINIT_MS = 10000
"""How often the display chips are set up again (see Max7219.init)."""

RETIRED_SESSIONS = 8
BOOT_TEXT = "HELLO"
NO_LINK = "NO LINK"


def version_notice(host_version: int) -> str:
    return f"HOST V{host_version} FW V{bgproto.VERSION}"


class Firmware:
    """The whole firmware, one :meth:`step` at a time."""

    def __init__(self, port: "Port", display: "Display", clock: "Clock",
                 epoch: int = 0) -> None:
        self.port = port
        self.display = display
        self.clock = clock
        self.decoder = bgproto.Decoder()
        self.board: Board | None = None
        """The last state applied; kept through a lost link."""
        self.text = ""
        self.session = 0
        """The host's session, from its hello; 0 until one arrives."""
        self.retired: list[int] = []
        """Sessions that have ended, newest last (at most RETIRED_SESSIONS)."""
        self.epoch = epoch & 0xFFFF
        """Moves on with every session taken up; states must carry the current one.
        Start it at a random value, so a board that rebooted cannot meet its
        previous life's epochs again."""
        self.last_seq = 0
        self.host_version = bgproto.VERSION
        self.started = clock.now()
        self.last_heard: int | None = None
        self.seq = 0
        self.last_sent = self.started
        self.shown: str | None = None
        self.last_init = self.started
        self.rejected = 0
        """Frames with a right CRC that were still not acted upon."""

    def _send(self, kind: int, seq: int, payload: bytes) -> None:
        self.port.write(bgproto.encode_frame(kind, seq, payload))
        self.last_sent = self.clock.now()

    def _heartbeat(self) -> None:
        self.seq = (self.seq + 1) & 0xFFFF
        self._send(bgproto.HEARTBEAT, self.seq, bytes(((self.session >> 8) & 0xFF,
                                                        self.session & 0xFF)))

    def handle(self, frame: "Frame", now: int) -> None:
        try:
            if frame.kind == bgproto.HELLO:
                self._hello(frame, now)
            elif frame.kind in (bgproto.STATE, bgproto.TEXT):
                self._update(frame, now)
            elif frame.kind == bgproto.HEARTBEAT:
                self.last_heard = now
            else:
                self.rejected += 1
        except bgproto.ProtocolError:
            self.rejected += 1

    def _hello(self, frame: "Frame", now: int) -> None:
        version, session = bgproto.decode_hello(frame.payload)
        if session == 0 or session in self.retired:
            # A replayed hello of a session that has ended: re-entering it
            # would let its old states count as new again.  A host that really
            # picked the number anew gets no answer and picks another.
            self.rejected += 1
            return
        self.last_heard = now
        self.host_version = version
        if version != bgproto.VERSION:
            self._retire()
        elif session != self.session:
            self._retire()
            self.session = session
            self.last_seq = frame.seq
            self.epoch = (self.epoch + 1) & 0xFFFF
            self.text = ""  # the host sends its text again if it has one
        self._send(bgproto.HELLO, frame.seq,
                   bgproto.encode_hello(bgproto.VERSION, session, self.epoch))

    def _retire(self) -> None:
        if self.session:
            self.retired.append(self.session)
            del self.retired[:-RETIRED_SESSIONS]
        self.session = 0

    def _update(self, frame: "Frame", now: int) -> None:
        epoch, payload = bgproto.unscope(frame.payload)
        if self.session == 0 or epoch != self.epoch:
            self.rejected += 1  # not ours: a session before this one, or none yet
            return
        self.last_heard = now
        if bgproto.seq_newer(frame.seq, self.last_seq):
            if frame.kind == bgproto.STATE:
                self.board = bgproto.decode_state(payload)
            else:
                self.text = bgproto.decode_text(payload)
            self.last_seq = frame.seq
        self._send(bgproto.ACK, frame.seq, b"")

    def link_up(self, now: int) -> bool:
        since = self.started if self.last_heard is None else self.last_heard
        return now - since < bgproto.LINK_TIMEOUT_MS

    def notices(self, now: int) -> "list[str]":
        result = []
        if self.host_version != bgproto.VERSION:
            result.append(version_notice(self.host_version))
        if not self.link_up(now):
            result.append(NO_LINK)
        elif self.board is None and self.host_version == bgproto.VERSION:
            result.append(BOOT_TEXT)
        if self.text:
            result.append(self.text)
        return result

    def screen(self, now: int) -> str:
        return layout.page_at(layout.pages(self.board, self.notices(now)), now)

    def step(self) -> None:
        """Read what arrived, answer it, keep the heartbeat, redraw if changed."""
        data = self.port.read()
        if data:
            for frame in self.decoder.feed(data):
                self.handle(frame, self.clock.now())
        now = self.clock.now()
        if now - self.last_sent >= bgproto.HEARTBEAT_MS:
            self._heartbeat()
        if now - self.last_init >= REINIT_MS:
            self.last_init = now
            self.display.init()
            self.shown = None
        text = self.screen(now)
        if text != self.shown:
            self.display.show(text)
            self.shown = text


def make_display(machine: "Any") -> "max7219.Max7219":
    """The display on the Pico's pins, through whatever ``machine`` is given
    (the real module on the Pico, a shim on the host)."""
    spi_class = machine.SPI
    pin_class = machine.Pin
    spi = spi_class(SPI_ID, baudrate=SPI_BAUD, polarity=0, phase=0,
                    sck=pin_class(PIN_SCK), mosi=pin_class(PIN_MOSI))
    cs = pin_class(PIN_CS, pin_class.OUT, value=1)
    display = max7219.Max7219(spi, cs, modules=2)
    display.init()
    return display


class UsbPort:
    """The Pico's USB serial (stdin/stdout), polled so it never blocks."""

    def __init__(self, stream_in: "Any", stream_out: "Any", poller: "Any") -> None:
        self._in = stream_in
        self._out = stream_out
        self._poll = poller

    def read(self) -> bytes:
        data = bytearray()
        poll = self._poll.poll
        read = self._in.read
        while len(data) < bgproto.MAX_WIRE and poll(0):
            chunk = read(1)
            if not chunk:
                break
            data.extend(chunk)
        return bytes(data)

    def write(self, data: bytes) -> None:
        self._out.write(data)


class TicksClock:
    """``time.ticks_ms`` wraps after about 12 days; the referee runs longer,
    so the wrapping ticks are summed into a count that never wraps."""

    def __init__(self, time_module: "Any") -> None:
        self._ticks = time_module.ticks_ms
        self._diff = time_module.ticks_diff
        self._last = self._ticks()
        self._total = 0

    def now(self) -> int:
        ticks = self._ticks()
        self._total += self._diff(ticks, self._last)
        self._last = ticks
        return int(self._total)


def run(machine: "Any", micropython: "Any", select: "Any", sys: "Any", time: "Any",
        urandom: "Any") -> None:
    """The Pico's main loop, given its modules (the tests give stand-ins)."""
    maintenance = machine.Pin(PIN_MAINTENANCE, machine.Pin.IN, machine.Pin.PULL_UP)
    if maintenance.value() == 0:
        return  # jumper on: leave the REPL to mpremote
    micropython.kbd_intr(-1)  # frames may hold 0x03: no Ctrl-C from the link
    display = make_display(machine)
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    firmware = Firmware(UsbPort(sys.stdin.buffer, sys.stdout.buffer, poller), display,
                        TicksClock(time), epoch=int.from_bytes(urandom(2), "big"))
    watchdog = machine.WDT(timeout=5000)
    while True:
        firmware.step()
        watchdog.feed()
        time.sleep_ms(5)


def pico_main() -> None:  # pragma: no cover - runs on the Pico only
    import os
    import select
    import sys
    import time

    import machine  # type: ignore[import-not-found]
    import micropython  # type: ignore[import-not-found]

    try:
        run(machine, micropython, select, sys, time, os.urandom)
    except Exception:  # a scoreboard must come back by itself: start again
        time.sleep_ms(500)  # type: ignore[attr-defined]
        machine.reset()


if __name__ == "__main__":  # pragma: no cover
    pico_main()
