"""The dice of a play just made final, read again where they lay: not a new throw.

Seen on rendered streams (da5e5e6d489c seed 17 t=196.1): dark's 4-4 (red translucent
dice on maple) were missed by the frames for a few tenths of a second while dark bore
checkers off; the stabiliser passed on a board without dice, taken for the pick-up (the
play recorded, legal), and then the same two 4s were read again where they had lain.
Taken as a fresh throw in dark's half on light's turn, that was a false ``wrong_half``
call on light.  Dice in the very places, with the very values, of the dice just picked
up are those dice: a warning, no throw, no call; the next throw is judged as ever.
"""

import pytest

from controller.referee.machine import Referee, Stage
from controller.referee.settings import RefereeSettings
from controller.rules.notation import parse_play
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
from vision.observation import Die

MODES = [RefereeSettings(mode="strict"), RefereeSettings(mode="players")]


def _dark_played(seating: Seating) -> tuple[Script, Position, tuple[Die, ...]]:
    script, dark = dark_to_throw(seating)
    dice = script.throw(dark, DARK, (6, 4))
    after = script.play(dark, parse_play(dark, "24/18 13/9", 6, 4), dice)
    return script, after, dice


@pytest.mark.parametrize("settings", MODES, ids=lambda s: s.mode)
@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_the_dice_read_again_where_they_lay_are_no_throw(
        seating: Seating, settings: RefereeSettings) -> None:
    script, after, dice = _dark_played(seating)
    referee, events = run(Referee.new(settings), script.inputs)
    assert names(events)[-1] == "play" and referee.game.turn == LIGHT
    # The same dice, read again where they lay (twice: the vision may lose them again).
    script.stable(after, dice)
    script.stable(after)
    script.stable(after, dice)
    referee, events = run(Referee.new(settings), script.inputs)
    # Announced once (a warning is not repeated while it stands).
    assert names(events)[-2:] == ["play", "warning:dice"]
    assert "seen again" in str(events[-1].data["detail"])
    assert not [e for e in events if e.event in ("reroll", "illegal_play", "call_upheld")]
    assert referee.stage is Stage.ROLL and referee.game.turn == LIGHT
    # Picked up for good; light's throw is light's roll.
    script.stable(after)
    light = script.throw(after, LIGHT, (5, 2), spot=2)
    referee, events = run(Referee.new(settings), script.inputs)
    assert names(events)[-1] == "roll" and events[-1].player == "light"
    assert referee.game.dice == (5, 2) and light


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_dice_in_other_places_are_a_throw_as_ever(seating: Seating) -> None:
    # The mover throws again into their own half on the opponent's turn, the dice
    # elsewhere: what the referee makes of it is unchanged (a wrong-half call on
    # light, as the throw is taken for light's), and no "seen again" warning.
    script, after, dice = _dark_played(seating)
    moved = (die(3, half_of(seating, DARK), 3), die(1, half_of(seating, DARK), 4))
    script.stable(after, moved)
    _, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert not any("seen again" in str(e.data.get("detail", "")) for e in events)
    assert names(events)[-2:] == ["play", "reroll"]
    assert events[-1].player == "light" and events[-1].data["reason"] == "wrong_half"
    assert events[-1].data["die"]["value"] in (3, 1) and dice


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_after_a_call_the_dice_read_again_are_no_throw(seating: Seating) -> None:
    # Strict mode: a board read with the dice hidden (a hand the camera did not flag)
    # looked like the pick-up of an illegal play, and was called. The same dice then
    # read again where they lay are no throw of the opponent's (rendered seed 29
    # t=556.3 of da5e5e6d489c: a false wrong-half call followed); the mover puts the
    # play right and picks up, and the legal play is recorded.
    script, dark = dark_to_throw(seating)
    dice = script.throw(dark, DARK, (6, 4))
    wrong = shifted(dark, "24/18 13/11")
    script.stable(wrong, dice)
    script.stable(wrong)
    referee, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert names(events)[-1] == "illegal_play" and referee.stage is Stage.RESTORE
    # The hand withdraws: the play was not over (it ends as a legal one), the dice
    # read again where they lay.
    right = shifted(dark, "24/18 13/9")
    script.stable(right, dice)
    referee, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert "warning:dice" in names(events)[-2:]
    assert not [e for e in events if e.event == "reroll"]
    script.stable(right)
    script.throw(right.with_turn(LIGHT), LIGHT, (5, 2), spot=2)
    referee, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert not [e for e in events if e.event in ("reroll", "call_upheld")]
    plays = [(e.player, e.data["move"], e.data["legal"]) for e in events if e.event == "play"]
    assert plays[-1] == ("dark", "24/18 13/9", True)
    assert names(events)[-1] == "roll" and events[-1].player == "light"
    assert referee.game.dice == (5, 2)
