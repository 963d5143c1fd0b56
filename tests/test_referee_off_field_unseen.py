"""Etiquette rule 1, a die off the field whose partner on the field the camera missed
(issue 5): a lone die comes to lie beside the field while the player on turn is to
throw, no die on the field is seen with it, it is picked up, and the same player
throws again with the checkers as they were.  The rethrow shows the throw was void,
and the die beside the field was part of it: ``reroll`` (``off_field``) before the
rethrow is judged (rendered 28de820384cd seeds 28 and 44).  A die still lying beside
the field, a pair of dice beside it, checkers moved or the other player throwing are
no such evidence.  Every test runs in all four seatings."""


import pytest

from controller.referee.machine import Referee, Stage
from controller.rules.notation import parse_play
from controller.rules.physical import Seating
from tests.referee_streams import (
    DARK,
    LIGHT,
    SEATINGS,
    colour,
    die,
    half_of,
    names,
    run,
)
from tests.test_referee_off_field import RAIL_BOTTOM, RAIL_TOP, _show, _to_roll
from vision.observation import Die


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
@pytest.mark.parametrize("off_die", [RAIL_TOP, RAIL_BOTTOM], ids=["top", "bottom"])
def test_a_lone_die_beside_the_field_picked_up_and_thrown_again_was_off_field(
        seating: Seating, off_die: Die) -> None:
    script, position = _to_roll(seating)
    _show(script, position, (), (off_die,))  # the die on the field is not seen
    _, so_far = run(Referee.new(), script.inputs)
    assert "reroll" not in names(so_far)  # a die beside the field alone is no throw
    _show(script, position)  # picked up
    script.throw(position, DARK, (4, 3), spot=2)
    referee, events = run(Referee.new(), script.inputs)
    assert names(events[len(so_far):]) == ["reroll", "roll"]
    call = events[-2]
    assert call.player == colour(DARK) and call.data["reason"] == "off_field"
    assert call.data["die"] == {"value": off_die.value, "center": list(off_die.center)}
    assert events[-1].data["dice"] == [4, 3]
    assert referee.stage is Stage.PLAY and not referee.panel().call_blink


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_the_rethrow_seen_in_part_still_shows_the_void_throw(seating: Seating) -> None:
    script, position = _to_roll(seating)
    _show(script, position, (), (RAIL_TOP,))
    _show(script, position)
    half = half_of(seating, DARK)
    _show(script, position, (die(3, half, 2),))  # one die of the rethrow seen
    _, events = run(Referee.new(), script.inputs)
    assert names(events[-2:]) == ["reroll", "warning:dice"]
    assert events[-2].player == colour(DARK) and events[-2].data["reason"] == "off_field"


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_die_still_beside_the_field_at_the_throw_is_no_call(seating: Seating) -> None:
    """A die laid beside the field and left there: the throw beside it stands."""
    script, position = _to_roll(seating)
    _show(script, position, (), (RAIL_TOP,))
    half = half_of(seating, DARK)
    _show(script, position, (die(4, half, 2), die(3, half, 3)), (RAIL_TOP,))
    referee, events = run(Referee.new(), script.inputs)
    assert "reroll" not in names(events)
    assert names(events)[-1] == "roll" and events[-1].data["dice"] == [4, 3]
    assert referee.stage is Stage.PLAY


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_pair_beside_the_field_then_the_throw_is_no_call(seating: Seating) -> None:
    """Two dice beside the field at once may be the idle pair laid aside and taken."""
    script, position = _to_roll(seating)
    _show(script, position, (), (RAIL_TOP, RAIL_BOTTOM))
    _show(script, position)
    script.throw(position, DARK, (4, 3), spot=2)
    _, events = run(Referee.new(), script.inputs)
    assert "reroll" not in names(events)
    assert names(events)[-1] == "roll"


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_the_opponent_throwing_after_the_lone_die_is_no_call(seating: Seating) -> None:
    """Dark's throw was missed and played (a move the camera did not follow); light's
    throw afterwards says nothing about a die beside the field."""
    script, position = _to_roll(seating)
    _show(script, position, (), (RAIL_BOTTOM,))
    _show(script, position)
    turn = position.swap_turn()
    played = turn.result_of(parse_play(turn, "13/9 13/10", 4, 3))
    _show(script, played)
    script.throw(played, LIGHT, (6, 1), spot=2)
    _, events = run(Referee.new(), script.inputs)
    assert "reroll" not in names(events)


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_checkers_moved_before_the_rethrow_is_no_call(seating: Seating) -> None:
    """The checkers moved after the lone die left: not a throw taken back."""
    script, position = _to_roll(seating)
    _show(script, position, (), (RAIL_BOTTOM,))
    _show(script, position)
    turn = position.swap_turn()
    moved = turn.result_of(parse_play(turn, "13/9 13/10", 4, 3)).swap_turn()
    _show(script, moved)
    script.throw(moved, DARK, (5, 2), spot=2)
    _, events = run(Referee.new(), script.inputs)
    assert "reroll" not in names(events)
