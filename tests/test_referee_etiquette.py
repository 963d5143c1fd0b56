"""Etiquette 2 and 3: a play is final when the dice are picked up, and an early throw is void
(except in a bear-off race with contact broken, or after a forced play)."""

import dataclasses

import pytest

from controller.referee.machine import Referee, Stage
from controller.referee.settings import RefereeSettings
from controller.rules.notation import parse_play
from controller.rules.physical import Seating
from controller.rules.player import Player
from controller.rules.position import Position
from tests.referee_streams import (
    DARK,
    LIGHT,
    SEATINGS,
    Script,
    half_of,
    names,
    run,
    shifted,
    throw,
)

FORCED = Position([14] + [0] * 24 + [1], [0, 2, 2, 2, 2, 2] + [0] * 7 + [5] + [0] * 12, LIGHT)
"""Light's last checker on the bar, dark's board open only on the 6-point: 6-6 is forced."""
RACE = Position([0] + [3] * 5 + [0] * 20, [0] + [3] * 5 + [0] * 20, LIGHT)
"""Both players bearing off, contact broken."""


def _set(seating: Seating, position: Position) -> Script:
    script = Script(seating).setup()
    script.operator("set_position", position_id=position.position_id(),
                    turn="light" if position.turn == LIGHT else "dark")
    return script


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_play_may_change_until_the_dice_are_picked_up(seating: Seating) -> None:
    script = Script(seating).setup()
    dice = script.opening(6, 1)
    start = Position.initial()
    # First an illegal 13/6 (one checker 7 pips), then changed to 13/7 8/7, then picked up.
    script.stable(shifted(start, "13/6"), dice)
    script.stable(start, dice)  # put back
    played = parse_play(start, "13/7 8/7", 6, 1)
    after = script.play(start, played, dice)
    referee, events = run(Referee.new(), script.inputs)
    assert names(events) == ["game_start", "opening_roll", "play"]
    assert events[-1].data == {**events[-1].data, "move": str(played), "legal": True}
    assert referee.game.position == after
    assert referee.stage is Stage.ROLL and referee.game.turn == DARK


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_throw_before_the_dice_are_picked_up_is_void(seating: Seating) -> None:
    script = Script(seating).setup()
    dice = script.opening(5, 2)
    start = Position.initial()
    play = parse_play(start, "13/8 13/11", 5, 2)
    after = script.play(start, play, dice, pick_up=False)
    early = throw((3, 3), half_of(seating, DARK), 2)
    script.stable(after, (*dice, *early))
    script.stable(after, early)  # light picks up: the play is final now
    script.stable(after)  # dark picks up the void dice
    script.throw(after, DARK, (6, 4), spot=3)
    referee, events = run(Referee.new(), script.inputs)
    assert names(events) == ["game_start", "opening_roll", "reroll", "play", "roll"]
    assert events[2].data["reason"] == "early" and events[2].player == "dark"
    assert events[3].data["move"] == str(play)
    assert events[4].data["dice"] == [6, 4]
    assert referee.stage is Stage.PLAY


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_an_early_throw_stands_after_a_forced_play(seating: Seating) -> None:
    assert len(FORCED.legal_positions(6, 6)) == 1
    script = _set(seating, FORCED)
    dice = script.throw(FORCED, LIGHT, (6, 6))
    play = FORCED.legal_plays(6, 6)[0]
    after = script.play(FORCED, play, dice, pick_up=False)
    script.stable(after, (*dice, *throw((2, 1), half_of(seating, DARK), 2)))
    referee, events = run(Referee.new(), script.inputs)
    assert names(events)[-3:] == ["roll", "play", "roll"]
    assert events[-2].data["move"] == str(play)
    assert events[-1].player == "dark" and events[-1].data["dice"] == [2, 1]
    assert referee.game.position.turn == DARK and referee.stage is Stage.PLAY


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_an_early_throw_stands_in_a_bear_off_race(seating: Seating) -> None:
    assert not RACE.is_contact() and len(RACE.legal_positions(2, 1)) > 1
    script = _set(seating, RACE)
    dice = script.throw(RACE, LIGHT, (2, 1))
    play = parse_play(RACE, "2/off 1/off", 2, 1)
    after = script.play(RACE, play, dice, pick_up=False)
    script.stable(after, (*dice, *throw((5, 4), half_of(seating, DARK), 2)))
    _, events = run(Referee.new(), script.inputs)
    assert names(events)[-3:] == ["roll", "play", "roll"]
    assert events[-1].data["dice"] == [5, 4]


def test_contact_makes_an_early_throw_void_even_when_bearing_off() -> None:
    # Light bears off, but a dark checker still sits on light's 1-point (dark's 24): contact.
    light = [0, 0, 3, 3, 3, 3, 3] + [0] * 19
    dark = [0, 3, 3, 3, 3, 2] + [0] * 18 + [1, 0]
    position = Position(light, dark, LIGHT)
    seating = SEATINGS[0]
    assert position.is_contact() and len(position.legal_positions(6, 5)) > 1
    script = _set(seating, position)
    dice = script.throw(position, LIGHT, (6, 5))
    play = position.legal_plays(6, 5)[0]
    after = script.play(position, play, dice, pick_up=False)
    script.stable(after, (*dice, *throw((5, 4), half_of(seating, DARK), 2)))
    _, events = run(Referee.new(), script.inputs)
    assert names(events)[-1] == "reroll" and events[-1].data["reason"] == "early"


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_dice_nudged_during_the_play_are_still_the_movers(seating: Seating) -> None:
    script = Script(seating).setup()
    dice = script.opening(4, 1)
    start = Position.initial()
    moved = dataclasses.replace(dice[1], center=(dice[1].center[0] + 20, dice[1].center[1] + 15))
    pushed = (dice[0], moved)
    play = parse_play(start, "24/23 13/9", 4, 1)
    mid = start.result_of(play.__class__(play.moves[:1], (4, 1)))
    script.stable(mid, pushed)
    after = script.play(start, play, pushed)
    _, events = run(Referee.new(), script.inputs)
    assert names(events) == ["game_start", "opening_roll", "play"]
    assert events[-1].data["legal"] is True and after.turn == DARK


def test_the_turn_passes_only_after_the_pick_up() -> None:
    script = Script(SEATINGS[1]).setup()
    dice = script.opening(3, 1)
    start = Position.initial()
    play = parse_play(start, "8/5 6/5", 3, 1)
    script.play(start, play, dice, pick_up=False)
    referee, _ = run(Referee.new(), script.inputs)
    assert referee.stage is Stage.PLAY and referee.game.turn == Player.ZERO
    assert "pick up the dice" in referee.expecting()


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_dice_picked_up_without_a_play_are_thrown_again_not_called(seating: Seating) -> None:
    script = Script(seating).setup()
    dice = script.opening(5, 2)
    start = Position.initial()
    play = parse_play(start, "13/8 13/11", 5, 2)
    after = script.play(start, play, dice)
    dark = after.with_turn(DARK)
    script.throw(dark, DARK, (4, 3), spot=2)  # taken for good by the camera
    script.stable(dark)  # picked up, nothing moved: a rethrow follows
    dice = script.throw(dark, DARK, (6, 1), spot=1)
    dark_play = parse_play(dark, "13/7 8/7", 6, 1)
    script.play(dark, dark_play, dice)
    referee, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert names(events)[3:] == ["roll", "warning:dice", "roll", "play"]
    assert events[-1].data["legal"] is True and events[-2].data["dice"] == [6, 1]
    assert "illegal_play" not in names(events)
    rolls = [e for e in referee.game.events if e.__class__.__name__ == "Roll"]
    assert [r.dice for r in rolls] == [(6, 1)]  # the taken-back roll left the record


def test_opening_dice_picked_up_without_a_play_are_thrown_again() -> None:
    script = Script(SEATINGS[1]).setup()
    script.opening(5, 2)
    script.setup()  # picked up, nothing moved
    script.opening(3, 1)
    referee, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert names(events) == ["game_start", "opening_roll", "warning:dice", "opening_roll"]
    assert referee.game.dice == (3, 1) and referee.stage is Stage.PLAY


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_the_movers_dice_left_lying_after_an_early_throw_that_stands_are_no_throw(
        seating: Seating) -> None:
    # Light bears off 2/off 1/off and dark throws 5-4 before light picks up (a race:
    # the throw stands).  Light's dice still lie while dark plays: they are no throw of
    # light's, and dark's play is judged at dark's pick-up, not at the first board with
    # light's dice still there (rendered 1ebf74df850d seed 3 t=196.1: dark's play
    # recorded before the pick-up and light's old dice taken for a new roll).
    script = _set(seating, RACE)
    dice = script.throw(RACE, LIGHT, (2, 1))
    play = parse_play(RACE, "2/off 1/off", 2, 1)
    after = script.play(RACE, play, dice, pick_up=False)
    early = throw((5, 4), half_of(seating, DARK), 2)
    script.stable(after, (*dice, *early))
    dark = after.with_turn(DARK)
    reply = parse_play(dark, "5/off 4/off", 5, 4)
    done = dark.result_of(reply)
    script.stable(done, (*dice, *early))
    referee, events = run(Referee.new(), script.inputs)
    assert names(events)[-3:] == ["roll", "play", "roll"]
    assert referee.stage is Stage.PLAY and referee.game.turn == DARK
    script.stable(done, early)  # light picks up at last
    script.stable(done)  # dark picks up: the play is final
    referee, events = run(Referee.new(), script.inputs)
    assert names(events)[-4:] == ["roll", "play", "roll", "play"]
    assert events[-1].player == "dark" and events[-1].data["move"] == str(reply)
    assert referee.stage is Stage.ROLL and referee.game.turn == LIGHT
    assert not referee.ignored
