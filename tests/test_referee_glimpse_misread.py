"""A throw seen in part whose one die seen was misread, played and picked up (issue 5).

Rendered 7e15fdd04acc seed 44 t=109: dark's 6-6, thrown again after a die off the
field, was seen as a single 3 (the vision misses a six's column of pips); dark
played ``13/1 13/7(2)`` and picked up.  No roll with a 3 makes that board a legal
play, so nothing was recorded and the referee went on from the board at light's
throw.  Once the play is over, the die seen is read again as the vision misreads
dice (``Plausibility.dice_confusions``: a 3 that is a 6, a 2 that is a 4); when a
roll so read makes the board a legal play, the roll (inferred) and the play are
recorded with a ``dice`` warning.  Never a call; with a roll the die as seen fits
nothing is read again, and a board no such roll explains stays a ``moved`` warning.
"""

import pytest

from controller.referee.machine import Referee, Stage
from controller.referee.settings import RefereeSettings
from controller.rules.physical import Seating
from controller.rules.position import Position
from tests.referee_streams import (
    DARK,
    LIGHT,
    SEATINGS,
    Script,
    dark_to_throw,
    die,
    half_of,
    names,
    run,
    shifted,
)

MODES = [RefereeSettings(mode="strict"), RefereeSettings(mode="players")]


def _glimpsed_play(seating: Seating, seen: int, move: str) -> tuple[Script, Position]:
    """Dark throws, the camera sees one die read as ``seen``; dark plays ``move``
    with the die down and picks it up."""
    script, dark = dark_to_throw(seating)
    lone = die(seen, half_of(seating, DARK), 1)
    script.stable(dark, (lone,))
    after = shifted(dark, move)
    script.stable(after, (lone,))
    script.stable(after)
    return script, after


@pytest.mark.parametrize("settings", MODES, ids=lambda s: s.mode)
@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_six_read_as_a_three_is_read_again_at_the_pick_up(
        seating: Seating, settings: RefereeSettings) -> None:
    # Dark's 6-5 with the 6 read as a 3 and the 5 missed: 13/7 13/8 fits no 3-x.
    script, after = _glimpsed_play(seating, 3, "13/7 13/8")
    referee, events = run(Referee.new(settings), script.inputs)
    rolls = [e for e in events if e.event == "roll" and e.player == "dark"]
    plays = [e for e in events if e.event == "play" and e.player == "dark"]
    assert rolls and rolls[-1].data == {"dice": [6, 5], "inferred": True}
    assert plays and plays[-1].data["legal"] is True and plays[-1].data["move"] == "13/8 13/7"
    warned = [e for e in events if e.event == "warning" and e.data["reason"] == "dice"
              and "read again as a 6" in str(e.data["detail"])]
    assert warned
    assert not [e for e in events if e.event in ("illegal_play", "reroll")]
    assert referee.stage is Stage.ROLL and referee.game.turn == LIGHT
    assert referee.game.position == after.with_turn(LIGHT)


@pytest.mark.parametrize("settings", MODES, ids=lambda s: s.mode)
@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_four_read_as_a_two_is_read_again_at_the_pick_up(
        seating: Seating, settings: RefereeSettings) -> None:
    # Dark's 4-6 with the 4 read as a 2: 24/14 (one checker, 10 pips) fits no 2-x.
    script, _ = _glimpsed_play(seating, 2, "24/18/14")
    _, events = run(Referee.new(settings), script.inputs)
    rolls = [e for e in events if e.event == "roll" and e.player == "dark"]
    assert rolls and rolls[-1].data == {"dice": [4, 6], "inferred": True}
    assert "warning:dice" in names(events)
    assert not [e for e in events if e.event in ("illegal_play", "reroll")]


@pytest.mark.parametrize("settings", MODES, ids=lambda s: s.mode)
@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_die_seen_that_fits_is_not_read_again(
        seating: Seating, settings: RefereeSettings) -> None:
    # 13/10 13/7 is 3-6 with the 3 seen: taken as seen, no dice warning about it.
    script, _ = _glimpsed_play(seating, 3, "13/10 13/7")
    _, events = run(Referee.new(settings), script.inputs)
    rolls = [e for e in events if e.event == "roll" and e.player == "dark"]
    assert rolls and rolls[-1].data == {"dice": [3, 6], "inferred": True}
    assert not [e for e in events if e.event == "warning"
                and "read again" in str(e.data["detail"])]


@pytest.mark.parametrize("settings", MODES, ids=lambda s: s.mode)
@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_board_no_misread_explains_stays_a_warning(
        seating: Seating, settings: RefereeSettings) -> None:
    # 13/7(2) 13/8 is no play of any roll with a 3 or a 6: nothing recorded, no call.
    script, _ = _glimpsed_play(seating, 3, "13/7 13/7 13/8")
    referee, events = run(Referee.new(settings), script.inputs)
    assert not [e for e in events if e.event in ("roll", "play") and e.player == "dark"]
    assert not [e for e in events if e.event in ("illegal_play", "reroll")]
    assert "warning:moved" in names(events)
    assert referee.game.turn == DARK
