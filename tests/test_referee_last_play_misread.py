"""The game's last play with the opponent's checkers read wrong (issue 5).

The mover bears off their last checkers while the camera reads a stack of the
opponent's short (or their tray wrong): no rule can judge that board, and no
throw of the opponent's follows to end the play, so the play and the game's end
were never recorded (rendered 7e15fdd04acc seeds 40, 63, 125 and 135).  The
legal play that bears the last checkers off is taken (a ``look``) and the game
ends; a board that still shows a checker of the mover's, or a roll that cannot
bear the last checkers off, stays unjudged and is never called.
"""

import pytest

from controller.game.events import Move, Roll
from controller.game.game import Game
from controller.referee.machine import Referee, Stage
from controller.referee.settings import RefereeSettings
from controller.rules.notation import parse_play
from controller.rules.physical import Seating
from controller.rules.position import Position
from tests.referee_streams import DARK, LIGHT, SEATINGS, Script, names, run

TWO_LEFT = Position([13, 1, 0, 0, 0, 1] + [0] * 20, [7, 0, 0, 0, 0, 0, 8] + [0] * 19, LIGHT)
"""Light: two checkers left, on the 1- and 5-points; dark: eight on the 6-point, seven off."""
ALL_OFF = [15] + [0] * 25
STACK_READ_SHORT = [9, 0, 0, 0, 0, 0, 6] + [0] * 19
"""Dark's stack of eight read as six, the two missing counted as borne off."""
MODES = ("strict", "players")


def _set(seating: Seating, position: Position) -> Script:
    script = Script(seating).setup()
    script.operator("set_position", position_id=position.position_id(),
                    turn="light" if position.turn == LIGHT else "dark")
    return script


def _referee(mode: str) -> Referee:
    return Referee.new(RefereeSettings(mode=mode, match_length=7))  # type: ignore[arg-type]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_the_last_checkers_off_with_a_stack_read_short_end_the_game(
        seating: Seating, mode: str) -> None:
    script = _set(seating, TWO_LEFT)
    dice = script.throw(TWO_LEFT, LIGHT, (6, 5))
    misread = Position(ALL_OFF, STACK_READ_SHORT, DARK)
    script.stable(misread, dice)
    script.stable(misread)
    referee, events = run(_referee(mode), script.inputs)
    play = parse_play(TWO_LEFT, "5/off 1/off", 6, 5)
    oracle = Game.at(TWO_LEFT).apply(Roll(LIGHT, (6, 5))).apply(Move(LIGHT, play))
    assert oracle.result is not None
    plays = [e for e in events if e.event == "play"]
    assert len(plays) == 1 and plays[0].player == "light" and plays[0].data["legal"]
    assert plays[0].data["move"] == str(play)
    over = [e for e in events if e.event == "game_over"]
    assert len(over) == 1 and over[0].data["winner"] == "light"
    assert over[0].data["points"] == oracle.result.points  # the record's dark: a single game
    assert any(e.event == "warning" and e.data["reason"] == "look"
               and "last play" in e.data["detail"] for e in events)
    assert "illegal_play" not in names(events)
    assert referee.stage is Stage.SETUP


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_checker_of_the_movers_still_on_the_board_is_no_game_end(
        seating: Seating, mode: str) -> None:
    # One checker borne off, the other still on the 5-point: not the game's end, and
    # with dark's stack read short, nothing to judge or call.
    script = _set(seating, TWO_LEFT)
    dice = script.throw(TWO_LEFT, LIGHT, (6, 5))
    misread = Position([14, 0, 0, 0, 0, 1] + [0] * 20, STACK_READ_SHORT, DARK)
    script.stable(misread, dice)
    script.stable(misread)
    referee, events = run(_referee(mode), script.inputs)
    assert not {"play", "game_over", "illegal_play"} & set(names(events))
    assert referee.stage is Stage.PLAY


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_roll_that_cannot_end_the_game_is_no_game_end(seating: Seating, mode: str) -> None:
    # 2-1 cannot bear off the checker on the 5-point: a board with every light
    # checker off and dark's stack read short is not taken for the game's end.
    script = _set(seating, TWO_LEFT)
    dice = script.throw(TWO_LEFT, LIGHT, (2, 1))
    misread = Position(ALL_OFF, STACK_READ_SHORT, DARK)
    script.stable(misread, dice)
    script.stable(misread)
    referee, events = run(_referee(mode), script.inputs)
    assert not {"play", "game_over", "illegal_play"} & set(names(events))
    assert referee.stage is Stage.PLAY


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_read_right_the_last_play_is_judged_as_before(seating: Seating) -> None:
    script = _set(seating, TWO_LEFT)
    dice = script.throw(TWO_LEFT, LIGHT, (6, 5))
    script.play(TWO_LEFT, parse_play(TWO_LEFT, "5/off 1/off", 6, 5), dice)
    _, events = run(_referee("strict"), script.inputs)
    assert names(events)[-3:] == ["roll", "play", "game_over"]
