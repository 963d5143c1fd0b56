"""The tray's count during a play is a witness against the board at the pick-up only
when the roll can reach it.

A final board with fewer of the mover's checkers borne off than the tray showed
during the play is taken as misread, never called (``Referee.off_high``; checkers do
not leave the tray).  Rendered 1ebf74df850d seed 40 t=221.4 (players mode): for one
state dark's checkers were all missed on the points and the tray read fifteen for
eight; dark's planted ``one_die`` at the pick-up (``2/off`` with 4-6, the forced play
``2/off(2)``) was then excused, the call light never lit.  More borne off than the
record's and one a die (four for a double) is no count any play reaches: not noted.
"""

import dataclasses

import pytest

from controller.referee.events import RefereeEvent
from controller.referee.machine import Referee
from controller.referee.settings import RefereeSettings
from controller.rules.notation import parse_play
from controller.rules.physical import Seating
from controller.rules.position import Position
from tests.referee_streams import LIGHT, SEATINGS, Script, observe, run, shifted
from tests.test_referee_tray_derived import ENDING
from vision.observation import Counts

MODES = ("strict", "players")


def _turn(seating: Seating, mode: str, shown: Position, light_off: int) -> list[RefereeEvent]:
    """Light throws 4-2 on ``ENDING``; a state mid-play with light's points all missed
    and the light tray read ``light_off``; then ``shown`` with the dice up."""
    script = Script(seating).setup()
    script.operator("set_position", position_id=ENDING.position_id(), turn="light")
    dice = script.throw(ENDING, LIGHT, (4, 2))
    seen = observe(ENDING, seating, dice)
    assert seen.off is not None
    points = tuple(Counts(0, c.dark) for c in seen.points)
    script.observation(dataclasses.replace(seen, points=points,
                                           off=Counts(light_off, seen.off.dark)))
    script.stable(shown)
    return run(Referee.new(RefereeSettings(mode=mode)), script.inputs)[1]  # type: ignore[arg-type]


def _verdicts(events: list[RefereeEvent]) -> list[tuple[str | None, object]]:
    return [(e.player, e.data["legal"]) for e in events if e.event == "play"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_tray_count_no_roll_reaches_is_no_witness(seating: Seating, mode: str) -> None:
    events = _turn(seating, mode, shifted(ENDING, "2/off"), 15)
    assert _verdicts(events) == [("light", False)]
    if mode == "strict":
        assert [e.player for e in events if e.event == "illegal_play"] == ["light"]


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_tray_count_the_roll_reaches_still_excuses_the_board(seating: Seating) -> None:
    # The board read as the legal 2/off(2) during the play (the tray ten, the two the
    # roll bears off), then 2/off at the pick-up, the tray nine: taken as misread, as
    # before.
    script = Script(seating).setup()
    script.operator("set_position", position_id=ENDING.position_id(), turn="light")
    dice = script.throw(ENDING, LIGHT, (4, 2))
    legal = ENDING.result_of(parse_play(ENDING, "2/off(2)", 4, 2))
    assert legal.off(LIGHT) == 10
    script.stable(legal, dice)
    script.stable(shifted(ENDING, "2/off"))
    events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)[1]
    assert not [e for e in events if e.event == "illegal_play"]
    assert not [e for e in _verdicts(events) if e[1] is False]
    assert "fewer checkers read borne off than the tray showed" in str(
        [e for e in events if e.event == "warning"][-1].data["detail"])
