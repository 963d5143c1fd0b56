"""A stack read a checker short with the tray read one over to match, the tray's own
count (``off_read``) against it: a look in both modes, never a call.

The vision holds the tray's count to what the board leaves off (fifteen a side), so a
stack of five read as four shows one checker more borne off: exactly the board of a
checker borne off a die too many.  When the tray's own reading is the legal play's
borne-off count, the camera disagrees with itself: strict mode does not call it, and
players mode does not light the opponent's call light (rendered 7e15fdd04acc seed 12:
``2/off(2)`` from a stack of seven read ``2/off(3)``, the tray's own count eight).  At
the opponent's throw the legal play a checker away is recorded.  A tray whose own
reading shows the checker too many (what a real mistake shows), or no ``off_read``
at all (old streams, a perfect reader), leaves the verdict as before.
"""

import dataclasses

import pytest

from controller.referee.events import RefereeEvent
from controller.referee.machine import Referee, Stage
from controller.referee.plays import Plausibility, stack_read_short
from controller.referee.settings import RefereeSettings
from controller.rules.notation import parse_play
from controller.rules.physical import Seating
from controller.rules.position import Position
from tests.referee_streams import DARK, LIGHT, SEATINGS, Script, observe, run, shifted
from tests.test_referee_tray import position
from vision.observation import Counts

FIVE = position({1: 5, 2: 1, 3: 2}, {6: 5, 5: 5, 4: 5})
"""Light bearing off with five on the 1-point; 3-2 bears off two (3/off 2/off)."""
LEGAL = FIVE.result_of(parse_play(FIVE, "3/off 2/off", 3, 2))
CALLS = ("illegal_play", "reroll", "call_upheld")
MODES = ("strict", "players")


def _calls(events: list[RefereeEvent]) -> list[tuple[str, str | None]]:
    return [(e.event, e.player) for e in events if e.event in CALLS]


def _plays(events: list[RefereeEvent]) -> list[tuple[str | None, object, object]]:
    return [(e.player, e.data["legal"], e.data["move"]) for e in events if e.event == "play"]


def _one_too_many(seating: Seating, tray: int | None) -> Script:
    """FIVE, light throws 3-2 and the board after shows 3/off 2/off 1/off (the
    1-point's five read as four, or a checker borne off a die too many), the tray's
    consistent count one over the legal 3/off 2/off and its own reading ``tray``; the
    dice picked up."""
    seen = shifted(FIVE, "3/off 2/off 1/off")
    assert seen.layout(LIGHT)[1] == 4 and seen.off(LIGHT) == LEGAL.off(LIGHT) + 1
    board = observe(seen, seating)
    assert board.off is not None
    if tray is not None:
        board = dataclasses.replace(board, off_read=Counts(tray, board.off.dark))
    script = Script(seating).setup()
    script.operator("set_position", position_id=FIVE.position_id(), turn="light")
    thrown = script.throw(FIVE, LIGHT, (3, 2))
    script.observation(dataclasses.replace(board, dice=thrown))
    script.observation(board)
    return script


def _referee(mode: str) -> Referee:
    return Referee.new(RefereeSettings(mode=mode))  # type: ignore[arg-type]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_stack_read_short_against_the_trays_own_count_is_a_look_then_the_legal_play(
        seating: Seating, mode: str) -> None:
    script = _one_too_many(seating, LEGAL.off(LIGHT))
    _, events = run(_referee(mode), script.inputs)
    assert not _calls(events) and not _plays(events)
    last = events[-1]
    assert (last.event, last.data["reason"]) == ("warning", "look")
    assert "tray's own count has not borne off" in str(last.data["detail"])
    # Dark throws: light's play is over, and the legal play a checker away is recorded.
    script.throw(LEGAL.with_turn(DARK), DARK, (4, 1), spot=2)
    referee, events = run(_referee(mode), script.inputs)
    assert not _calls(events)
    assert _plays(events) == [("light", True, "3/off 2/off")]
    assert not any(e.event == "play_stands" for e in events)
    assert referee.game.turn == DARK and referee.stage is Stage.PLAY


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("seating", SEATINGS, ids=str)
@pytest.mark.parametrize("own", ["over", "not-read"])
def test_the_same_board_is_judged_illegal_when_the_trays_own_count_agrees_or_is_not_read(
        seating: Seating, mode: str, own: str) -> None:
    # The tray's own reading one over too (what a checker borne off a die too many
    # shows), or no off_read at all: strict mode calls, players mode judges it illegal
    # and the call light is the opponent's.
    script = _one_too_many(seating, LEGAL.off(LIGHT) + 1 if own == "over" else None)
    _, events = run(_referee(mode), script.inputs)
    assert _plays(events) == [("light", False, "3/off 2/off 1/off")]
    if mode == "strict":
        assert _calls(events) == [("illegal_play", "light")]
    else:
        assert not _calls(events)


def test_stack_read_short_needs_the_tray_the_stack_and_the_count() -> None:
    seen: Position = shifted(FIVE, "3/off 2/off 1/off").with_turn(DARK)
    off = LEGAL.off(LIGHT)
    tall = Plausibility().under_stack
    found = stack_read_short(FIVE, seen, (3, 2), off, tall)
    assert found is not None and found[0] == 1 and found[1] == LEGAL.with_turn(DARK)
    assert stack_read_short(FIVE, seen, (3, 2), None, tall) is None
    assert stack_read_short(FIVE, seen, (3, 2), off + 1, tall) is None
    assert stack_read_short(FIVE, seen, (3, 2), off - 1, tall) is None
    assert stack_read_short(FIVE, seen, (3, 2), off, tall + 1) is None
