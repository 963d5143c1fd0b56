"""Etiquette rule 1, a die off the field (issue 5): the vision reports dice lying off the
playing field in ``dice_off_field``; a throw with one of them is void, a die lying off
the field from before the throw (a spare die, the idle pair put aside on the rail) is
no throw.  Every test runs in all four seatings (light or dark at the bottom, home
boards right or left)."""

from dataclasses import replace

import pytest

from controller.referee.machine import Referee, Stage
from controller.rules.notation import parse_play
from controller.rules.physical import Seating
from controller.rules.position import Position
from tests.referee_streams import (
    DARK,
    LIGHT,
    SEATINGS,
    Script,
    colour,
    die,
    half_of,
    names,
    observe,
    run,
)
from vision.observation import Die

RAIL_TOP = Die(2, (620.0, 20.0))
"""A die on the top rail, just past the field's edge (the field is y 50-650 here)."""
RAIL_BOTTOM = Die(5, (300.0, 680.0))
SPARE = Die(6, (975.0, 350.0))
"""A spare die on the right-hand rail, there from the start."""


def _show(script: Script, position: Position, dice: tuple[Die, ...] = (),
          off: tuple[Die, ...] = ()) -> None:
    """A stable state with dice on the field and dice off it."""
    script.observation(replace(observe(position, script.seating, dice, tray=script.tray),
                               dice_off_field=off))


def _to_roll(seating: Seating, spare: tuple[Die, ...] = ()) -> tuple[Script, Position]:
    """Light opens 5-2 with 13/8 13/11 (``spare`` lying off the field all along);
    dark is to roll."""
    script = Script(seating)
    start = Position.initial()
    _show(script, start, (), spare)
    bottom, top = seating.bottom, seating.top
    values = {LIGHT: 5, DARK: 2}
    dice = (die(values[bottom], "right", 0), die(values[top], "left", 1))
    _show(script, start, dice, spare)
    position = start.with_turn(LIGHT)
    play = parse_play(position, "13/8 13/11", 5, 2)
    after = position.result_of(play)
    _show(script, after, dice, spare)
    _show(script, after, (), spare)  # the dice picked up
    return script, after


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
@pytest.mark.parametrize("off_die", [RAIL_TOP, RAIL_BOTTOM], ids=["top", "bottom"])
def test_a_die_off_the_field_voids_the_throw_and_the_rethrow_is_taken(
        seating: Seating, off_die: Die) -> None:
    script, position = _to_roll(seating)
    half = half_of(seating, DARK)
    _show(script, position, (die(4, half, 0),), (off_die,))
    voided, so_far = run(Referee.new(), script.inputs)
    call = so_far[-1]
    assert call.event == "reroll" and call.player == colour(DARK)
    assert call.data["reason"] == "off_field"
    assert call.data["die"] == {"value": off_die.value, "center": list(off_die.center)}
    assert voided.panel().call_blink == {"dark"} and voided.panel().message == "ROLL AGAIN"
    # picked up, thrown again onto the field: a roll
    _show(script, position)
    script.throw(position, DARK, (4, 3), spot=2)
    referee, events = run(Referee.new(), script.inputs)
    assert names(events[-2:]) == ["reroll", "roll"]
    assert events[-1].data["dice"] == [4, 3]
    assert referee.stage is Stage.PLAY and not referee.panel().call_blink


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_the_opening_throw_with_a_die_off_the_field_is_void(seating: Seating) -> None:
    script = Script(seating)
    start = Position.initial()
    _show(script, start)
    # the top player's die bounced onto the top rail, the bottom player's lies well
    _show(script, start, (die(5, "right", 0),), (RAIL_TOP,))
    _, events = run(Referee.new(), script.inputs)
    assert names(events) == ["game_start", "reroll"]
    assert events[-1].data["reason"] == "off_field"
    assert events[-1].data["die"]["value"] == RAIL_TOP.value


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_spare_die_off_the_field_from_before_is_no_throw(seating: Seating) -> None:
    script, position = _to_roll(seating, spare=(SPARE,))
    half = half_of(seating, DARK)
    _show(script, position, (die(4, half, 0), die(3, half, 1)), (SPARE,))
    referee, events = run(Referee.new(), script.inputs)
    assert "reroll" not in names(events)
    assert names(events)[-1] == "roll" and events[-1].data["dice"] == [4, 3]
    assert referee.stage is Stage.PLAY


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_the_idle_pair_put_aside_on_the_rail_is_no_throw(seating: Seating) -> None:
    """Light's dice, picked up after the play, are laid on the rail beside the board;
    their pips read differently from frame to frame; dark then throws well."""
    script, position = _to_roll(seating)
    aside = (Die(5, (120.0, 680.0)), Die(2, (160.0, 680.0)))
    _show(script, position, (), aside)
    _show(script, position, (), (Die(6, (121.0, 681.0)), Die(None, (160.0, 679.0))))
    half = half_of(seating, DARK)
    _show(script, position, (die(6, half, 0), die(1, half, 1)), aside)
    referee, events = run(Referee.new(), script.inputs)
    assert "reroll" not in names(events)
    assert names(events)[-1] == "roll" and events[-1].data["dice"] == [6, 1]
    assert referee.stage is Stage.PLAY


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_void_throw_next_to_a_spare_die_names_the_die_thrown(seating: Seating) -> None:
    script, position = _to_roll(seating, spare=(SPARE,))
    half = half_of(seating, DARK)
    _show(script, position, (die(4, half, 0),), (SPARE, RAIL_BOTTOM))
    _, events = run(Referee.new(), script.inputs)
    assert events[-1].event == "reroll" and events[-1].data["reason"] == "off_field"
    assert events[-1].data["die"]["value"] == RAIL_BOTTOM.value


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_both_dice_off_the_field_are_a_warning_then_the_rethrow_is_taken(
        seating: Seating) -> None:
    """Two dice appearing off the field at once, none on it, may be a throw that landed
    wholly off the field, or the idle pair laid aside: a warning, never a call."""
    script, position = _to_roll(seating)
    _show(script, position, (), (RAIL_TOP, RAIL_BOTTOM))
    _, so_far = run(Referee.new(), script.inputs)
    assert names(so_far)[-1] == "warning:dice"
    assert "reroll" not in names(so_far)
    _show(script, position)  # picked up
    half = half_of(seating, DARK)
    _show(script, position, (die(4, half, 0), die(3, half, 1)))
    referee, events = run(Referee.new(), script.inputs)
    assert "reroll" not in names(events)
    assert names(events)[-1] == "roll" and events[-1].data["dice"] == [4, 3]
    assert referee.stage is Stage.PLAY
