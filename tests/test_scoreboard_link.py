"""Host and firmware end to end over real pseudo-terminals (os.openpty), with
pyserial on the host's side: unplugging, replugging, reboots, a missing port
and a board of another protocol version.

Both ends run on one test clock, stepped by hand; the only real waiting is
for the kernel to carry bytes across the pty.
"""

import os
import select
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from controller.panel import PanelState
from controller.scoreboard import LinkStatus, ScoreboardLink
from controller.scoreboard.simulator import SimulatedBoard
from firmware import bgproto
from tests.scoreboard_fakes import FakeClock

PANEL_A = PanelState(match_length=7, score_light=3, score_dark=5, cube_value=2,
                     cube_owner="dark", turn="light")
PAGE_A = "L.  3d  5P 7 d  2"
PANEL_B = PanelState(match_length=7, score_light=4, score_dark=5, cube_value=4,
                     cube_owner="light", turn="dark")
PAGE_B = "L  4d.  5P 7 L  4"


class Rig:
    def __init__(self, tmp: Path) -> None:
        self.clock = FakeClock()
        self.path = tmp / "scoreboard"
        self.board = SimulatedBoard(link=self.path, clock=self.clock)
        sessions = iter(range(0x100, 0x10000))
        self.statuses: list[LinkStatus] = []
        self.link = ScoreboardLink(str(self.path), clock=self.clock,
                                   session_source=lambda: next(sessions),
                                   on_status=lambda status, _: self.statuses.append(status))

    def step(self, ms: int = 5) -> None:
        self.board.step()
        self.link.poll()
        self.clock.t += ms
        time.sleep(0.001)  # real time for the kernel to carry the bytes across

    def until(self, condition: Callable[[], bool], limit_ms: int, what: str) -> int:
        """Steps until ``condition``; returns how many test milliseconds it took."""
        start = self.clock.t
        while self.clock.t - start <= limit_ms:
            self.step()
            if condition():
                return self.clock.t - start
        raise AssertionError(f"{what}: not within {limit_ms} ms (status {self.link.status}, "
                             f"{self.link.problem}; board shows {self.board.text()!r})")

    def shows(self, page: str) -> Callable[[], bool]:
        return lambda: self.board.text() == page


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    rig = Rig(tmp_path)
    yield rig
    rig.link.close()
    rig.board.stop()


def test_state_reaches_the_display(rig: Rig) -> None:
    rig.board.plug()
    rig.link.show(PANEL_A)
    rig.until(lambda: rig.link.acknowledged, 500, "acknowledged")
    assert rig.board.text() == PAGE_A
    assert rig.link.status is LinkStatus.UP and rig.link.problem is None
    assert rig.link.firmware_version == bgproto.VERSION
    assert rig.statuses[:2] == [LinkStatus.CONNECTING, LinkStatus.UP]
    # a new state while up goes out at once
    rig.link.show(PANEL_B)
    rig.until(rig.shows(PAGE_B), 100, "second state shown")


def test_unplug_and_replug_resends_the_full_state(rig: Rig) -> None:
    rig.board.plug()
    rig.link.show(PANEL_A)
    rig.until(lambda: rig.link.acknowledged, 500, "first state")
    rig.board.unplug()
    rig.until(lambda: rig.link.status is LinkStatus.DISCONNECTED, 500, "unplug noticed")
    assert rig.link.problem is not None and "lost the scoreboard" in rig.link.problem
    rig.link.show(PANEL_B)  # the referee goes on while the cable is out
    for _ in range(250):
        rig.step()  # retries of a missing port fail quietly
    assert rig.link.status is LinkStatus.DISCONNECTED
    assert rig.link.problem is not None and "cannot open" in rig.link.problem
    rig.board.plug(restart=True)  # a new /dev/pts/N behind the same name, a fresh Pico
    took = rig.until(lambda: rig.link.acknowledged, 2500, "state after replugging")
    assert rig.board.text() == PAGE_B
    assert took <= 1500  # the next retry of the port, then hello and state
    assert rig.link.connects == 2


def test_cable_glitch_without_a_reboot(rig: Rig) -> None:
    rig.board.plug()
    rig.link.show(PANEL_A)
    rig.until(lambda: rig.link.acknowledged, 500, "first state")
    rig.board.unplug()
    rig.until(lambda: rig.link.status is LinkStatus.DISCONNECTED, 500, "unplug noticed")
    rig.link.show(PANEL_B)
    rig.board.plug(restart=False)  # the firmware still holds the old session
    rig.until(rig.shows(PAGE_B), 2500, "state after the glitch")
    assert rig.link.acknowledged


def test_a_rebooted_board_gets_everything_again(rig: Rig) -> None:
    rig.board.plug()
    rig.link.show(PANEL_A)
    rig.until(lambda: rig.link.acknowledged, 500, "first state")
    rig.board.reboot()  # no serial error: only the heartbeat tells
    rig.until(lambda: rig.board.text() == "     HELLO", 100, "rebooted")
    took = rig.until(rig.shows(PAGE_A), 2500, "state after the reboot")
    assert took <= 1500
    assert rig.link.connects == 1 and rig.link.acknowledged


def test_board_says_no_link_when_the_host_goes_and_keeps_the_score(rig: Rig) -> None:
    rig.board.plug()
    rig.link.show(PANEL_A)
    rig.until(lambda: rig.link.acknowledged, 500, "first state")
    rig.link.close()
    start = rig.clock.t
    seen = set()
    while rig.clock.t - start < 6000:
        rig.board.step()
        rig.clock.t += 50
        if rig.clock.t - start < 2900:
            assert rig.board.text() == PAGE_A
        seen.add(rig.board.text())
    assert seen == {PAGE_A, "    NO LINK"}


def test_port_that_appears_later(rig: Rig) -> None:
    for _ in range(20):
        rig.step()
    assert rig.link.status is LinkStatus.DISCONNECTED
    assert rig.link.problem is not None and str(rig.path) in rig.link.problem
    rig.link.show(PANEL_A)
    rig.board.plug()
    rig.until(rig.shows(PAGE_A), 2500, "state once the port exists")


def test_another_protocol_version_is_reported_clearly(tmp_path: Path) -> None:
    master, slave = os.openpty()
    tty.setraw(slave)
    clock = FakeClock()
    link = ScoreboardLink(os.ttyname(slave), clock=clock, session_source=lambda: 0x0102)
    try:
        link.show(PANEL_A)
        link.poll()
        time.sleep(0.05)
        frames = bgproto.Decoder().feed(_drain(master))
        hello = frames[0]
        assert hello.kind == bgproto.HELLO
        assert bgproto.decode_hello(hello.payload) == (bgproto.VERSION, 0x0102)
        os.write(master, bgproto.encode_frame(bgproto.HELLO, hello.seq,
                                              bgproto.encode_hello(9, 0x0102)))
        time.sleep(0.05)
        clock.t += 5
        link.poll()
        assert link.status is LinkStatus.VERSION_MISMATCH
        assert link.firmware_version == 9
        assert link.problem is not None
        assert "protocol version 9" in link.problem and "flash" in link.problem
        _drain(master)
        for _ in range(300):  # a second and a half: heartbeats, never a state
            clock.t += 5
            link.poll()
        time.sleep(0.05)
        sent = bgproto.Decoder().feed(_drain(master))
        assert sent and all(frame.kind == bgproto.HEARTBEAT for frame in sent)
    finally:
        link.close()
        os.close(master)
        os.close(slave)


def _drain(fd: int) -> bytes:
    """Whatever the pty holds now, without blocking."""
    data = b""
    while select.select([fd], [], [], 0)[0]:
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        data += chunk
    return data


def test_text_page_goes_with_the_score_and_survives_a_replug(rig: Rig) -> None:
    rig.board.plug()
    rig.link.show(PANEL_A)
    rig.link.show_text("REF CHECK")
    rig.until(lambda: rig.board.firmware is not None and rig.board.firmware.text == "REF CHECK",
              500, "text delivered")
    rig.board.unplug()
    rig.until(lambda: rig.link.status is LinkStatus.DISCONNECTED, 500, "unplug noticed")
    rig.board.plug(restart=True)
    rig.until(lambda: rig.board.firmware is not None and rig.board.firmware.text == "REF CHECK",
              2500, "text resent after replugging")
    seen = set()
    for _ in range(700):  # 3.5 s: both pages come round
        rig.step()
        seen.add(rig.board.text())
    assert seen == {PAGE_A, "   REF CHECK"}


def test_text_that_cannot_be_shown_is_refused_clearly(rig: Rig) -> None:
    with pytest.raises(bgproto.ProtocolError, match="at most 16 printable ASCII"):
        rig.link.show_text("SEVENTEEN LETTERS")
    with pytest.raises(bgproto.ProtocolError, match="at most 16 printable ASCII"):
        rig.link.show_text("CAFÉ")


def test_a_new_state_goes_out_over_a_text_in_flight_and_both_arrive(rig: Rig) -> None:
    rig.board.plug()
    rig.link.show(PANEL_A)
    rig.until(lambda: rig.link.acknowledged, 500, "first state")
    rig.link.show_text("TABLE 4")  # in flight now...
    rig.link.show(PANEL_B)  # ...and pushed aside by the score
    rig.until(lambda: rig.link.acknowledged, 1000, "state and text")
    firmware = rig.board.firmware
    assert firmware is not None and firmware.text == "TABLE 4"
    assert rig.board.text() in {PAGE_B, "    TABLE 4"}
    assert firmware.board is not None and firmware.board.score_light == 4
