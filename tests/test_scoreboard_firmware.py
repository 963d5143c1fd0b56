"""The firmware's behaviour (firmware/main.py) under CPython, with a clock the
test moves: no sleeps."""

import pytest

from firmware import bgproto
from firmware.bgproto import Board, encode_frame, encode_hello, encode_state, scoped
from firmware.main import (
    PIN_MAINTENANCE,
    REINIT_MS,
    RETIRED_SESSIONS,
    Firmware,
    TicksClock,
    UsbPort,
    run,
)
from tests.scoreboard_fakes import FakeClock, FirmwarePort, PageDisplay

SCORE_3_5 = Board(match_length=7, score_light=3, score_dark=5, turn=bgproto.LIGHT)
PAGE_3_5 = "L.  3d  5P 7 -  1"
SCORE_4_5 = Board(match_length=7, score_light=4, score_dark=5, turn=bgproto.DARK)
PAGE_4_5 = "L  4d.  5P 7 -  1"


EPOCH = 0x10
"""The rig's firmware starts here; its first session gets 0x11, the next 0x12."""


def rig() -> tuple[Firmware, FirmwarePort, PageDisplay, FakeClock]:
    clock = FakeClock()
    port = FirmwarePort()
    display = PageDisplay()
    return Firmware(port, display, clock, epoch=EPOCH), port, display, clock


def at(firmware: Firmware, clock: FakeClock, t: int) -> str:
    """Step the firmware at ``t`` ms after the rig started; the page on show."""
    clock.t = firmware.started + t
    firmware.step()
    return firmware.display.shown[-1]  # type: ignore[attr-defined, no-any-return]


def hello(port: FirmwarePort, seq: int, session: int, version: int = bgproto.VERSION) -> None:
    port.inbox += encode_frame(bgproto.HELLO, seq, encode_hello(version, session))


def state(port: FirmwarePort, seq: int, board: Board, epoch: int = EPOCH + 1) -> bytes:
    wire = encode_frame(bgproto.STATE, seq, scoped(epoch, encode_state(board)))
    port.inbox += wire
    return wire


def test_hello_then_state_shows_the_score_and_acknowledges() -> None:
    firmware, port, _display, clock = rig()
    assert at(firmware, clock, 0) == "     HELLO"
    hello(port, 10, session=0x4242)
    at(firmware, clock, 5)
    # version 1, the session, the epoch
    assert port.frames() == [bgproto.Frame(bgproto.HELLO, 10, b"\x01\x42\x42\x00\x11")]
    state(port, 11, SCORE_3_5)
    assert at(firmware, clock, 10) == PAGE_3_5
    assert port.frames() == [bgproto.Frame(bgproto.ACK, 11, b"")]


def test_no_state_before_a_hello() -> None:
    firmware, port, display, clock = rig()
    state(port, 1, SCORE_3_5)
    at(firmware, clock, 5)
    assert firmware.board is None and PAGE_3_5 not in display.shown
    assert port.frames() == []  # not acknowledged: the host will say hello again


def test_no_link_after_three_seconds_keeps_the_last_score() -> None:
    firmware, port, _display, clock = rig()
    hello(port, 1, session=7)
    state(port, 2, SCORE_3_5)
    assert at(firmware, clock, 0) == PAGE_3_5  # page 0 of the cycle is the score
    assert at(firmware, clock, 2999) == PAGE_3_5
    # 3 s after the last frame: the score and NO LINK take turns
    shown = {at(firmware, clock, 3000 + i * 500) for i in range(8)}
    assert shown == {PAGE_3_5, "    NO LINK"}
    assert firmware.board == SCORE_3_5
    # the host comes back: NO LINK goes at once
    port.inbox += encode_frame(bgproto.HEARTBEAT, 3, b"\x00\x07")
    assert {at(firmware, clock, 8000 + i * 500) for i in range(8)} == {PAGE_3_5}


def test_no_link_at_boot_without_a_host() -> None:
    firmware, _, _, clock = rig()
    assert at(firmware, clock, 2999) == "     HELLO"
    assert at(firmware, clock, 3000) == "    NO LINK"


def test_replayed_and_repeated_states_are_acknowledged_never_shown_again() -> None:
    firmware, port, _display, clock = rig()
    hello(port, 100, session=9)
    old = state(port, 101, SCORE_3_5)
    state(port, 102, SCORE_4_5)
    assert at(firmware, clock, 0) == PAGE_4_5
    port.frames()
    port.inbox += old  # a replay of the older state
    port.inbox += encode_frame(bgproto.STATE, 102,  # same seq again
                               scoped(EPOCH + 1, encode_state(SCORE_3_5)))
    assert at(firmware, clock, 10) == PAGE_4_5
    assert port.frames() == [bgproto.Frame(bgproto.ACK, 101, b""),
                             bgproto.Frame(bgproto.ACK, 102, b"")]
    assert firmware.board == SCORE_4_5


def test_a_replayed_hello_does_not_reopen_old_states() -> None:
    firmware, port, _, clock = rig()
    hello(port, 1, session=5)
    old_state = state(port, 2, SCORE_3_5)
    at(firmware, clock, 0)
    hello(port, 3, session=6)  # the host restarted its session
    state(port, 4, SCORE_4_5, epoch=EPOCH + 2)
    at(firmware, clock, 10)
    port.frames()
    hello(port, 1, session=5)  # replays of the first session
    port.inbox += old_state
    assert at(firmware, clock, 20) == PAGE_4_5
    assert port.frames() == []  # no answer to the old hello, the old state not ours
    assert firmware.session == 6


def test_sequence_window_wraps() -> None:
    firmware, port, _, clock = rig()
    hello(port, 0xFFFE, session=1)
    state(port, 0xFFFF, SCORE_3_5)
    state(port, 0, SCORE_4_5)
    assert at(firmware, clock, 0) == PAGE_4_5


def test_version_mismatch_is_shown_and_states_refused() -> None:
    firmware, port, _, clock = rig()
    hello(port, 1, session=3, version=bgproto.VERSION + 1)
    state(port, 2, SCORE_3_5)
    assert at(firmware, clock, 0) == f" HOST V{bgproto.VERSION + 1} FW V{bgproto.VERSION}"
    frames = port.frames()
    assert frames[0].kind == bgproto.HELLO and frames[0].seq == 1
    assert bgproto.decode_hello(frames[0].payload) == (bgproto.VERSION, 3)
    assert all(frame.kind != bgproto.ACK for frame in frames)
    assert firmware.board is None


def test_content_errors_with_a_good_crc_are_refused() -> None:
    firmware, port, _, clock = rig()
    hello(port, 1, session=3)
    state(port, 2, SCORE_3_5)
    bad = bytearray(encode_state(SCORE_4_5))
    bad[7] = 9  # cube exponent out of range
    port.inbox += encode_frame(bgproto.STATE, 3, scoped(EPOCH + 1, bytes(bad)))
    port.inbox += encode_frame(0x7E, 4, b"?")
    state(port, 5, SCORE_4_5, epoch=EPOCH)  # an epoch not this session's
    port.inbox += encode_frame(bgproto.STATE, 6, b"\x00")  # no room for an epoch
    assert at(firmware, clock, 0) == PAGE_3_5
    assert firmware.rejected == 4


def test_heartbeat_every_second_carries_the_session() -> None:
    firmware, port, _, clock = rig()
    at(firmware, clock, 999)
    assert port.frames() == []
    at(firmware, clock, 1000)
    assert [(f.kind, f.payload) for f in port.frames()] == [(bgproto.HEARTBEAT, b"\x00\x00")]
    hello(port, 1, session=0x1234)
    at(firmware, clock, 1001)
    port.frames()
    at(firmware, clock, 2001)
    assert [(f.kind, f.payload) for f in port.frames()] == [(bgproto.HEARTBEAT, b"\x12\x34")]


def test_display_is_set_up_again_every_ten_seconds_and_redrawn() -> None:
    firmware, _, display, clock = rig()
    assert at(firmware, clock, REINIT_MS - 1) == "    NO LINK"
    assert display.inits == 0
    shown = len(display.shown)
    at(firmware, clock, REINIT_MS)
    assert display.inits == 1
    # redrawn though the page is the same: init blanked the digits
    assert display.shown[shown:] == ["    NO LINK"]


def test_old_states_stay_dead_even_when_their_session_is_forgotten() -> None:
    firmware, port, _, clock = rig()
    hello(port, 1, session=5)
    old_state = state(port, 2, SCORE_3_5)
    at(firmware, clock, 0)
    seq = 3
    for session in range(6, 6 + RETIRED_SESSIONS + 1):  # session 5 drops off the list
        hello(port, seq, session=session)
        seq += 1
    state(port, seq, SCORE_4_5, epoch=EPOCH + 2 + RETIRED_SESSIONS)
    assert at(firmware, clock, 10) == PAGE_4_5
    assert 5 not in firmware.retired
    hello(port, 1, session=5)  # the first session's hello comes back, and is taken up...
    port.inbox += old_state  # ...but its state carries an epoch long gone
    assert at(firmware, clock, 20) == PAGE_4_5
    assert firmware.board == SCORE_4_5


class FakeTicks:
    """MicroPython's time: ticks_ms wraps at 2**30, ticks_diff undoes the wrap."""

    PERIOD = 1 << 30

    def __init__(self, start: int) -> None:
        self.ms = start
        self.slept = 0

    def ticks_ms(self) -> int:
        return self.ms % self.PERIOD

    def ticks_diff(self, later: int, earlier: int) -> int:
        half = self.PERIOD // 2
        return ((later - earlier + half) % self.PERIOD) - half

    def sleep_ms(self, ms: int) -> None:
        self.slept += ms
        self.ms += ms


def test_ticks_clock_runs_on_past_the_wrap() -> None:
    ticks = FakeTicks(start=(1 << 30) - 1000)
    clock = TicksClock(ticks)
    readings = []
    for _ in range(5):
        ticks.ms += 600
        readings.append(clock.now())
    assert readings == [600, 1200, 1800, 2400, 3000]  # straight through 2**30


class Stdin:
    def __init__(self, data: bytes) -> None:
        self.data = bytearray(data)
        self.buffer = self

    def read(self, size: int) -> bytes:
        chunk = bytes(self.data[:size])
        del self.data[:size]
        return chunk


class Poller:
    POLLIN = 1

    def __init__(self, stream: Stdin) -> None:
        self.stream = stream
        self.registered: list[tuple[object, int]] = []

    def register(self, stream: object, mask: int) -> None:
        self.registered.append((stream, mask))

    def poll(self, timeout: int) -> list[int]:
        assert timeout == 0, "the firmware must never block on the port"
        return [1] if self.stream.data else []


def test_usb_port_reads_what_is_there_without_blocking() -> None:
    stdin = Stdin(b"\x01" * 100)
    out = FirmwarePort()
    port = UsbPort(stdin, out, Poller(stdin))
    sizes = [len(port.read()) for _ in range(4)]
    assert sizes == [39, 39, 22, 0]  # at most a frame's worth (39 bytes) per step
    port.write(b"abc")
    assert out.sent == b"abc"


class StopRunError(Exception):
    """Ends the endless main loop from the watchdog."""


class FakeMachine:
    """The Pico's machine module: pins, SPI (recorded) and a watchdog that
    ends the test's run after a number of feeds."""

    def __init__(self, maintenance_level: int, feeds: int) -> None:
        self.spi_writes: list[bytes] = []
        self.watchdog: list[int] = []
        self.feeds_left = feeds
        machine = self

        class Pin:
            IN, OUT, PULL_UP = 0, 1, 2

            def __init__(self, pin: int, mode: int = -1, pull: int = -1,
                         value: int | None = None) -> None:
                self.pin = pin
                self.level = maintenance_level if pin == PIN_MAINTENANCE else (value or 0)

            def value(self, level: int | None = None) -> int:
                if level is not None:
                    self.level = level
                return self.level

        class SPI:
            def __init__(self, bus: int, **settings: object) -> None:
                pass

            def write(self, data: bytes) -> None:
                machine.spi_writes.append(bytes(data))

        class WDT:
            def __init__(self, timeout: int) -> None:
                machine.watchdog.append(timeout)

            def feed(self) -> None:
                machine.feeds_left -= 1
                if machine.feeds_left == 0:
                    raise StopRunError

        self.Pin, self.SPI, self.WDT = Pin, SPI, WDT


class FakeMicropython:
    def __init__(self) -> None:
        self.kbd_intr_calls: list[int] = []

    def kbd_intr(self, char: int) -> None:
        self.kbd_intr_calls.append(char)


class FakeSys:
    def __init__(self, stdin: Stdin) -> None:
        self.stdin = stdin
        self.stdout = self
        self.buffer = FirmwarePort()


class FakeSelect:
    POLLIN = 1

    def __init__(self, stdin: Stdin) -> None:
        self.poller = Poller(stdin)

    def poll(self) -> Poller:
        return self.poller


def test_pico_main_loop_answers_the_host_and_feeds_the_watchdog() -> None:
    stdin = Stdin(encode_frame(bgproto.HELLO, 1, encode_hello(bgproto.VERSION, 0x99)))
    machine, micropython = FakeMachine(maintenance_level=1, feeds=50), FakeMicropython()
    system, ticks = FakeSys(stdin), FakeTicks(start=0)
    with pytest.raises(StopRunError):
        run(machine, micropython, FakeSelect(stdin), system, ticks, lambda n: b"\x12\x34"[:n])
    assert micropython.kbd_intr_calls == [-1]
    assert machine.watchdog == [5000]
    assert ticks.slept == 49 * 5
    frames = system.buffer.frames()
    assert frames[0] == bgproto.Frame(bgproto.HELLO, 1,
                                      encode_hello(bgproto.VERSION, 0x99, 0x1235))
    assert b"\x0c\x01\x0c\x01" in machine.spi_writes  # the display was switched on


def test_maintenance_jumper_keeps_the_firmware_off() -> None:
    stdin = Stdin(b"")
    machine, micropython = FakeMachine(maintenance_level=0, feeds=1), FakeMicropython()
    run(machine, micropython, FakeSelect(stdin), FakeSys(stdin), FakeTicks(0), lambda n: b"")
    assert micropython.kbd_intr_calls == [] and machine.spi_writes == []
    assert machine.watchdog == []
