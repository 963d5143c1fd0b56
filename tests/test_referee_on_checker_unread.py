"""A die read as lying on a checker while the checkers cannot be accounted for, then
picked up after a play with no clear board between: the roll is inferred from the play.

Rendered 1ebf74df850d seed 9 t=97 (strict mode): dark threw 4-3 beside a light
checker; the camera read the 4 as lying on it and counted the die as a sixteenth light
checker in every state until dark picked the dice up.  The throw was only a ``look``
("... lies on a checker, but the checkers cannot be accounted for"), judged again on the
next clear board, and the next clear board was the one after the pick-up: a ``moved``
warning, and dark's roll and play waited for light's throw (1.4 s).  The two dice seen
in the thrower's half are now kept as a throw seen in part (``glimpsed``), so the
pick-up infers the roll from the play with them, as for a die missed.  Never a call:
a play the dice seen do not make legal stays a ``moved`` warning.
"""

import dataclasses

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
    observe,
    run,
    shifted,
)
from vision.observation import Counts, Die

MODES = [RefereeSettings(mode="strict"), RefereeSettings(mode="players")]


def _unaccountable(script: Script, position: Position, dice: tuple[Die, ...]) -> None:
    """A stable state of ``position`` with ``dice``, the first of them read as lying on
    a checker and counted as a light checker too (sixteen light checkers)."""
    seen = observe(position, script.seating, dice)
    points = list(seen.points)
    index = next(i for i, c in enumerate(points) if c.light)
    points[index] = Counts(points[index].light + 1, points[index].dark)
    script.observation(dataclasses.replace(seen, points=tuple(points)))


def _throw_on_a_checker(seating: Seating) -> tuple[Script, Position, tuple[Die, ...]]:
    script, dark = dark_to_throw(seating)
    half = half_of(seating, DARK)
    dice = (die(4, half, 0, on_checker=True), die(3, half, 1))
    _unaccountable(script, dark, dice)
    return script, dark, dice


@pytest.mark.parametrize("settings", MODES, ids=lambda s: s.mode)
@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_the_roll_is_inferred_at_the_pick_up(seating: Seating,
                                             settings: RefereeSettings) -> None:
    script, dark, dice = _throw_on_a_checker(seating)
    after = shifted(dark, "13/9 24/21")
    _unaccountable(script, shifted(dark, "13/9"), dice)
    _unaccountable(script, after, dice)
    referee, events = run(Referee.new(settings), script.inputs)
    assert "roll" not in names(events)[2:]
    # The pick-up, the board read right: 4-3, and the play with it, at once.
    script.stable(after)
    referee, events = run(Referee.new(settings), script.inputs)
    assert names(events)[-2:] == ["roll", "play"]
    roll, played = events[-2:]
    assert roll.player == "dark" and roll.data == {"dice": [4, 3], "inferred": True}
    assert played.player == "dark" and played.data["legal"] is True
    assert played.data["move"] == "24/21 13/9"
    assert not [e for e in events if e.event in ("illegal_play", "reroll")]
    assert referee.stage is Stage.ROLL and referee.game.turn == LIGHT
    assert referee.game.position == after.with_turn(LIGHT)


@pytest.mark.parametrize("settings", MODES, ids=lambda s: s.mode)
@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_play_the_dice_seen_do_not_make_is_no_call(seating: Seating,
                                                     settings: RefereeSettings) -> None:
    script, dark, dice = _throw_on_a_checker(seating)
    wrong = shifted(dark, "13/8 24/21")
    _unaccountable(script, wrong, dice)
    script.stable(wrong)
    referee, events = run(Referee.new(settings), script.inputs)
    assert not [e for e in events if e.event in ("illegal_play", "reroll", "roll")][1:]
    assert names(events)[-1] == "warning:moved"
    assert referee.game.turn == DARK


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_the_die_read_clear_again_is_judged_as_before(seating: Seating) -> None:
    # The next clear board with the die still on the checker: a void throw, as before.
    script, dark, dice = _throw_on_a_checker(seating)
    script.stable(dark, dice)
    _, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    voids = [e for e in events if e.event == "reroll"]
    assert [(e.player, e.data["reason"]) for e in voids] == [("dark", "on_checker")]
