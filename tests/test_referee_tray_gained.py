"""What the tray's own count gained since the throw, as a witness to a stack misread.

The vision holds the tray's count to what the board leaves off, so a tray read a
checker short makes a stack of five read as six.  The tray's own reading
(``off_read``) was already a witness when it showed the legal play's borne-off
count (``Plausibility.over_stack``).  A tray read one short at the throw is
usually read one short after the play too (rendered 7e15fdd04acc seed 76, players
mode: dark's ``5/off`` with 6-1 read as ``5/2``, the stack of six on the 2-point
read as seven, the tray's own count one short before and after; the call light
was lit for a legal play).  Its count then *gained* what the legal play bore off
while the board's count did not: the camera disagreeing with itself, a look and no
illegal verdict.  A checker truly moved onto the stack instead of off (the planted
``one_die`` mistakes) leaves the tray's own count where it was at the throw, and is
still called.
"""

import dataclasses

import pytest

from controller.referee.events import RefereeEvent
from controller.referee.machine import Referee
from controller.referee.settings import RefereeSettings
from controller.rules.notation import parse_play
from controller.rules.physical import Seating
from controller.rules.position import Position
from tests.referee_streams import (
    DARK,
    LIGHT,
    SEATINGS,
    Script,
    half_of,
    observe,
    run,
    shifted,
    throw,
)
from tests.test_referee_tray import position
from vision.observation import Counts, Observation

STRICT = RefereeSettings(mode="strict")
PLAYERS = RefereeSettings(mode="players")
FIVE = position({1: 5, 2: 1, 3: 2}, {6: 5, 5: 5, 4: 5})
"""Light bearing off, seven borne off, five on the 1-point; 3-2 bears off two
(3/off 2/off)."""
CALLS = ("illegal_play", "reroll", "call_upheld")


def _tray(board: Observation, light: int) -> Observation:
    """``board`` with the tray's own count of light's checkers ``light``."""
    assert board.off is not None
    return dataclasses.replace(board, off_read=Counts(light, board.off.dark))


def _played(seating: Seating, at_throw: int, after: int, move: str = "3/off 2/1"
            ) -> tuple[Script, Position]:
    """FIVE with the tray's own count ``at_throw`` (the board's: 7), light throws 3-2
    and the board after shows ``move`` (by default 3/off 2/1: the 1-point's five read
    as six with a checker missing from the tray, or a checker played inside instead of
    off) with the tray's own count ``after``; the dice picked up.  The script and the
    board after."""
    seen = shifted(FIVE, move)
    script = Script(seating).setup()
    script.operator("set_position", position_id=FIVE.position_id(), turn="light")
    thrown = throw((3, 2), half_of(seating, LIGHT))
    script.observation(_tray(observe(FIVE, seating, thrown), at_throw))
    board = _tray(observe(seen, seating), after)
    script.observation(dataclasses.replace(board, dice=thrown))
    script.observation(board)
    return script, seen


def _calls(events: list[RefereeEvent]) -> list[tuple[str, str | None]]:
    return [(e.event, e.player) for e in events if e.event in CALLS]


def _verdicts(events: list[RefereeEvent]) -> list[tuple[str | None, object]]:
    return [(e.player, e.data["legal"]) for e in events if e.event == "play"]


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
@pytest.mark.parametrize("settings", [STRICT, PLAYERS], ids=["strict", "players"])
def test_a_tray_read_short_before_and_after_that_gained_the_legal_count_is_a_look(
        seating: Seating, settings: RefereeSettings) -> None:
    # The tray's own count 6 at the throw (the board's 7), 8 after: it gained the two
    # 3/off 2/off bears off, the board only one (a stack of five read as six).
    script, _ = _played(seating, at_throw=6, after=8)
    _, events = run(Referee.new(settings), script.inputs)
    assert not _calls(events)
    assert not _verdicts(events)
    looks = [e for e in events if e.event == "warning" and e.data["reason"] == "look"]
    assert looks and "tray's own count" in str(looks[-1].data["detail"])


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
@pytest.mark.parametrize("after", [7, 10], ids=["gained-one", "gained-four"])
def test_a_tray_that_gained_other_than_the_legal_count_leaves_the_call(
        seating: Seating, after: int) -> None:
    # Read short at the throw, and gaining one (a checker played onto the 1-point
    # instead of off: the planted one_die mistake) or four: the board as read.
    script, _ = _played(seating, at_throw=6, after=after)
    _, events = run(Referee.new(STRICT), script.inputs)
    assert _calls(events) == [("illegal_play", "light")]


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_players_mode_lights_the_call_light_when_the_tray_gained_only_what_the_board_did(
        seating: Seating) -> None:
    script, _ = _played(seating, at_throw=6, after=7)
    _, events = run(Referee.new(PLAYERS), script.inputs)
    assert _verdicts(events) == [("light", False)]


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_tray_read_right_at_the_throw_is_judged_as_before(seating: Seating) -> None:
    # At the throw the tray's own count is the board's (7): only the count itself
    # witnesses (over_stack), and 8 is the board's count after, no witness.
    script, _ = _played(seating, at_throw=7, after=8)
    _, events = run(Referee.new(STRICT), script.inputs)
    assert _calls(events) == [("illegal_play", "light")]


def test_a_legal_play_with_the_tray_read_short_throughout_is_recorded() -> None:
    # Nothing misread on the board: 3/off 2/off with the tray's own count one short
    # before (6) and after (8) is the legal play it is.
    seating = SEATINGS[0]
    script, _ = _played(seating, at_throw=6, after=8, move="3/off 2/off")
    script.throw(FIVE.result_of(parse_play(FIVE, "3/off 2/off", 3, 2)).with_turn(DARK),
                 DARK, (4, 1), spot=2)
    _, events = run(Referee.new(STRICT), script.inputs)
    assert not _calls(events)
    assert _verdicts(events) == [("light", True)]
