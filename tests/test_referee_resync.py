"""Out of step after the camera missed something: never a call, and the game goes on.

Etiquette 5: a board the referee cannot account for is a warning to look.  A
throw it would otherwise void for its half (the opponent's half in a turn,
both dice in one half in the opening) is no call when the board shows that
the referee has lost the thread; it resynchronises and judges the next play.
"""

from dataclasses import replace

import pytest

from controller.referee.events import RefereeEvent
from controller.referee.inputs import StableInput
from controller.referee.machine import Referee, Stage
from controller.rules.notation import parse_play
from controller.rules.physical import Seating
from controller.rules.position import Position
from tests.referee_streams import (
    DARK,
    LIGHT,
    SEATINGS,
    Script,
    half_of,
    names,
    observe,
    run,
    throw,
)
from vision.observation import Counts, Die, Observation

CALLS = {"illegal_play", "reroll", "call_upheld"}


def _to_roll(seating: Seating) -> tuple[Script, Position]:
    """Light opens 5-2 with 13/8 13/11; dark is to roll."""
    script = Script(seating).setup()
    script.opening(5, 2)
    start = Position.initial().with_turn(LIGHT)
    play = parse_play(start, "13/8 13/11", 5, 2)
    last = script.inputs[-1]
    assert isinstance(last, StableInput)
    dice = last.observation.dice
    return script, script.play(start, play, dice).with_turn(DARK)


def _one_checker_hidden(position: Position, seating: Seating,
                        dice: tuple[Die, ...]) -> Observation:
    """The board with one light checker not seen (the tray in view: 14 light in all)."""
    seen = observe(position, seating, dice)
    points = list(seen.points)
    index = next(i for i, c in enumerate(points) if c.light)
    points[index] = Counts(points[index].light - 1, points[index].dark)
    return replace(seen, points=tuple(points))


def _no_call(events: list[RefereeEvent]) -> None:
    assert not [e.to_json() for e in events if e.event in CALLS]


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_the_next_throw_after_a_missed_roll_is_no_wrong_half_call(seating: Seating) -> None:
    script, dark = _to_roll(seating)
    play = parse_play(dark, "24/13", 6, 5)
    after = dark.result_of(play)
    # Only 6-5 plays 24/13 (so the roll can be inferred once the board is clear).
    assert [(h, lo) for h in range(1, 7) for lo in range(1, h + 1)
            if dark.legal_play_to(after, h, lo)] == [(6, 5)]
    script.stable(after)  # dark's throw and play never seen: the board has moved
    light = after.with_turn(LIGHT)
    dice = throw((3, 1), half_of(seating, LIGHT), 2)
    # Light throws well; at first a light checker is hidden (the board cannot be read).
    script.observation(_one_checker_hidden(light, seating, dice))
    before = len(script.inputs)
    script.stable(light, dice)
    light_play = parse_play(light, "8/5 6/5", 3, 1)
    final = script.play(light, light_play, dice)
    referee, events = run(Referee.new(), script.inputs[:before])
    assert names(events)[-2:] == ["warning:moved", "warning:look"]
    _no_call(events)
    referee, events = run(Referee.new(), script.inputs)
    _no_call(events)
    assert names(events)[-5:] == ["warning:look", "roll", "play", "roll", "play"]
    assert events[-4].player == "dark" and events[-4].data == {"dice": [6, 5], "inferred": True}
    assert events[-2].player == "light" and events[-2].data["dice"] == [3, 1]
    assert events[-1].data["legal"] is True and events[-1].data["move"] == str(light_play)
    assert referee.stage is Stage.ROLL and referee.game.position == final
    assert referee.game.turn == DARK


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_throw_in_the_wrong_half_on_a_board_in_step_is_still_voided(seating: Seating) -> None:
    script, dark = _to_roll(seating)
    script.stable(dark, throw((3, 1), half_of(seating, LIGHT), 2))
    _, events = run(Referee.new(), script.inputs)
    assert names(events)[-1] == "reroll"
    assert events[-1].player == "dark" and events[-1].data["reason"] == "wrong_half"


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_after_a_missed_opening_roll_the_next_throw_resynchronises(seating: Seating) -> None:
    script = Script(seating).setup()
    start = Position.initial().with_turn(DARK)
    play = parse_play(start, "13/6", 6, 1)
    after = start.result_of(play)
    fits = [(p, (h, lo)) for p in (LIGHT, DARK) for h in range(2, 7) for lo in range(1, h)
            if Position.initial().with_turn(p).legal_play_to(after, h, lo)]
    assert fits == [(DARK, (4, 3)), (DARK, (5, 2)), (DARK, (6, 1))]  # no roll to infer
    script.stable(after)  # the opening roll never seen, dark played
    light = after.with_turn(LIGHT)
    dice = script.throw(light, LIGHT, (4, 2), spot=2)
    light_play = parse_play(light, "8/4 6/4", 4, 2)
    mid = script.play(light, light_play, dice).with_turn(DARK)
    dark_dice = script.throw(mid, DARK, (3, 1), spot=1)
    dark_play = parse_play(mid, "8/5 6/5", 3, 1)
    final = script.play(mid, dark_play, dark_dice)
    referee, events = run(Referee.new(), script.inputs)
    _no_call(events)
    assert names(events) == ["game_start", "warning:moved", "warning:look", "roll", "play",
                             "roll", "play"]
    assert events[3].player == "light" and events[3].data == {"dice": [4, 2]}
    assert events[4].data["legal"] is True and events[4].data["move"] == str(light_play)
    assert events[6].player == "dark" and events[6].data["legal"] is True
    assert referee.stage is Stage.ROLL and referee.game.position == final
    assert referee.divergences  # the record says where the game left the rules' path


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_missed_opening_one_roll_explains_is_inferred_at_the_next_throw(
        seating: Seating) -> None:
    script = Script(seating).setup()
    start = Position.initial().with_turn(DARK)
    play = parse_play(start, "13/7 8/7", 6, 1)
    after = start.result_of(play)
    assert [(h, lo) for h in range(2, 7) for lo in range(1, h)
            if start.legal_play_to(after, h, lo)] == [(6, 1)]
    light = after.with_turn(LIGHT)
    # The camera never saw the board without dice: light's throw is the first sight of it.
    dice = script.throw(light, LIGHT, (5, 3), spot=2)
    light_play = parse_play(light, "8/3 6/3", 5, 3)
    final = script.play(light, light_play, dice)
    referee, events = run(Referee.new(), script.inputs)
    _no_call(events)
    assert names(events) == ["game_start", "opening_roll", "play", "roll", "play"]
    assert events[1].player == "dark"
    assert events[1].data == {"dice": {"light": 1, "dark": 6}, "tie": False, "inferred": True}
    assert events[2].data["move"] == str(play)
    assert events[3].player == "light" and events[4].data["legal"] is True
    assert referee.game.position == final and referee.game.turn == DARK
    assert not referee.divergences


def test_both_dice_in_one_half_on_the_starting_board_are_still_voided() -> None:
    seating = SEATINGS[0]
    script = Script(seating).setup()
    script.stable(Position.initial(), throw((4, 2), half_of(seating, LIGHT), 0))
    _, events = run(Referee.new(), script.inputs)
    assert names(events) == ["game_start", "reroll"]
    assert events[1].data["reason"] == "wrong_half"
