"""Hypothesis throws garbage, truncated frames, bit flips, replays and lost
bytes at both ends of a working link (the real ScoreboardLink and the real
firmware, joined by an in-memory cable, on one test clock).

Checked at every 5 ms step: nothing raises, and the board only ever shows a
state the host was given, never one older than a state it already showed.
Checked at the end: once the noise stops, a new state is on the display
within a second.
"""

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.panel import PanelState
from controller.scoreboard import LinkStatus, ScoreboardLink, board_from_panel
from firmware import bgproto, layout
from firmware.bgproto import Board
from firmware.main import Firmware
from tests.scoreboard_fakes import FakeClock, FirmwarePort, MemorySerial, PageDisplay

PANELS = [
    PanelState(match_length=7, score_light=light, score_dark=dark, cube_value=cube,
               cube_owner=owner, turn=turn, message=message)
    for light, dark, cube, owner, turn, message in [
        (0, 0, 1, None, "light", ""),
        (1, 0, 2, "dark", "dark", "ILLEGAL"),
        (1, 2, 4, "light", "light", ""),
        (3, 2, 1, None, None, "ROLL AGAIN"),
        (5, 6, 2, "light", "dark", ""),
        (6, 6, 1, None, "light", ""),
    ]
]
FINAL = PanelState(match_length=9, score_light=8, score_dark=8, crawford=True,
                   cube_in_play=False, turn="dark")
TEXTS = ["", "REF CHECK", "TABLE 4", "BREAK 10 MIN"]
STEP_MS = 5

TO_BOARD, TO_HOST = "to board", "to host"


class RecordingPort(FirmwarePort):
    """Keeps every frame the firmware sends, for the adversary to replay."""

    def __init__(self) -> None:
        super().__init__()
        self.history: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.history.append(bytes(data))
        super().write(data)


class RecordingSerial(MemorySerial):
    def __init__(self, port: FirmwarePort) -> None:
        super().__init__(port)
        self.history: list[bytes] = []

    def write(self, data: bytes) -> int:
        self.history.append(bytes(data))
        return super().write(data)


class Harness:
    def __init__(self) -> None:
        self.clock = FakeClock()
        self.port = RecordingPort()
        self.display = PageDisplay()
        self.firmware = Firmware(self.port, self.display, self.clock, epoch=0x5000)
        self.serial = RecordingSerial(self.port)
        sessions = itertools.count(0x200)
        self.link = ScoreboardLink("memory", clock=self.clock, opener=lambda _: self.serial,
                                   session_source=lambda: next(sessions))
        self.given: list[Board] = []
        """Boards in the order the host was given them."""
        self.floor = 0
        """The display may show given[floor] or a later one, nothing older."""
        self.checked_pages = 0

    def show(self, panel: PanelState) -> None:
        board = board_from_panel(panel)
        if not self.given or self.given[-1] != board:
            self.given.append(board)
        self.link.show(panel)

    def step(self) -> None:
        self.firmware.step()
        self.link.poll()
        self.clock.t += STEP_MS
        self.check()

    def check(self) -> None:
        board = self.firmware.board
        if board is not None:
            later = [i for i in range(self.floor, len(self.given)) if self.given[i] == board]
            assert later, (f"the board shows {board}, not a state given at or after "
                           f"{self.given[self.floor]}")
            self.floor = later[0]
        assert self.firmware.text in TEXTS
        allowed = {layout.score_page(b) for b in self.given[self.floor:]}
        for page in self.display.shown[self.checked_pages:]:
            if page.startswith("L"):  # a score page: its digits must be a current state's
                assert page in allowed, f"the display showed {page!r}"
        self.checked_pages = len(self.display.shown)

    def inject(self, direction: str, data: bytes) -> None:
        if direction == TO_BOARD:
            self.port.inbox += data
        else:
            self.port.sent += data

    def recorded(self, direction: str) -> list[bytes]:
        return self.serial.history if direction == TO_BOARD else self.port.history


directions = st.sampled_from([TO_BOARD, TO_HOST])
actions = st.one_of(
    st.tuples(st.just("show"), st.integers(0, len(PANELS) - 1)),
    st.tuples(st.just("text"), st.integers(0, len(TEXTS) - 1)),
    st.tuples(st.just("garbage"), directions, st.binary(min_size=1, max_size=80)),
    st.tuples(st.just("truncate"), directions, st.integers(0, 999), st.integers(1, 40),
              st.booleans()),
    st.tuples(st.just("flip"), directions, st.integers(0, 999),
              st.lists(st.integers(0, 9999), min_size=1, max_size=3, unique=True)),
    st.tuples(st.just("replay"), directions, st.integers(0, 999)),
    st.tuples(st.just("drop"), directions),
    st.tuples(st.just("wait"), st.integers(1, 80)),
)


def run(harness: Harness, action: tuple[object, ...]) -> None:
    kind = action[0]
    if kind == "show":
        index = action[1]
        assert isinstance(index, int)
        harness.show(PANELS[index])
    elif kind == "text":
        index = action[1]
        assert isinstance(index, int)
        harness.link.show_text(TEXTS[index])
    elif kind == "wait":
        steps = action[1]
        assert isinstance(steps, int)
        for _ in range(steps):
            harness.step()
    elif kind == "drop":
        if action[1] == TO_BOARD:
            harness.port.inbox.clear()
        else:
            harness.port.sent.clear()
    elif kind == "garbage":
        direction, data = action[1], action[2]
        assert isinstance(direction, str) and isinstance(data, bytes)
        harness.inject(direction, data)
    else:
        direction, which = action[1], action[2]
        assert isinstance(direction, str) and isinstance(which, int)
        frames = harness.recorded(direction)
        if not frames:
            return
        frame = bytearray(frames[which % len(frames)])
        if kind == "truncate":
            size, delimited = action[3], action[4]
            assert isinstance(size, int)
            frame = frame[:min(size, len(frame) - 1)] + (b"\x00" if delimited else b"")
        elif kind == "flip":
            bits = action[3]
            assert isinstance(bits, list)
            for bit in bits:
                frame[(bit // 8) % len(frame)] ^= 1 << (bit % 8)
        harness.inject(direction, bytes(frame))
    harness.step()


@settings(derandomize=True, max_examples=250, deadline=None)
@given(st.lists(actions, min_size=5, max_size=60))
def test_noise_never_shows_a_wrong_number_and_the_link_recovers(
        script: list[tuple[object, ...]]) -> None:
    harness = Harness()
    harness.show(PANELS[0])
    for _ in range(10):
        harness.step()
    assert harness.link.acknowledged

    for action in script:
        run(harness, action)

    # the noise stops; a new state must be on the display within a second
    harness.show(FINAL)
    final = board_from_panel(FINAL)
    start = harness.clock.t
    while not (harness.firmware.board == final and harness.link.acknowledged):
        assert harness.clock.t - start <= 1000, (
            f"not recovered within a second: link {harness.link.status}, "
            f"{harness.link.problem}; board {harness.firmware.board}")
        harness.step()
    assert harness.link.status is LinkStatus.UP


def test_the_harness_catches_a_stale_state() -> None:
    """The checker itself must be able to fail: a board put back to an older
    state by hand is reported."""
    harness = Harness()
    harness.show(PANELS[0])
    harness.show(PANELS[1])
    for _ in range(10):
        harness.step()
    harness.firmware.board = board_from_panel(PANELS[0])
    try:
        harness.check()
    except AssertionError as exc:
        assert "not a state given at or after" in str(exc)
    else:
        raise AssertionError("a stale state went unnoticed")


def test_frames_from_the_host_survive_a_flood_of_zeros_and_noise() -> None:
    harness = Harness()
    harness.show(PANELS[2])
    harness.inject(TO_BOARD, b"\x00" * 300 + bytes(range(1, 256)) * 3)
    harness.inject(TO_HOST, b"\xff" * 1000)
    for _ in range(200):
        harness.step()
    assert harness.firmware.board == board_from_panel(PANELS[2])
    assert harness.link.acknowledged and harness.firmware.decoder.errors >= 1
    assert bgproto.MAX_WIRE < 1000
