"""Cube and resignation buttons, checked against the cube rules, and the cube the camera sees."""

import pytest

from controller.game.events import Double, Move, OpeningRoll, Pass, Take
from controller.game.game import Game
from controller.game.match import Match, MatchRules
from controller.referee.machine import Referee, Stage
from controller.referee.settings import RefereeSettings
from controller.rules.notation import parse_play
from controller.rules.physical import Seating
from controller.rules.position import Position
from tests.referee_streams import DARK, LIGHT, SEATINGS, Script, cube_at, names, run

START = Position.initial()
OPENING = parse_play(START, "8/5 6/5", 3, 1)
AFTER_OPENING = START.result_of(OPENING)


def _dark_to_roll(seating: Seating = SEATINGS[0]) -> Script:
    script = Script(seating).setup()
    dice = script.opening(3, 1)
    script.play(START, OPENING, dice)
    return script


def _game_after(*events: object) -> Game:
    game = Game.new()
    for event in (OpeningRoll((3, 1)), Move(LIGHT, OPENING), *events):
        game = game.apply(event)  # type: ignore[arg-type]
    return game


def test_double_take_and_the_owner_redoubles() -> None:
    script = _dark_to_roll()
    script.press("double", DARK).press("take", LIGHT)
    referee, events = run(Referee.new(), script.inputs)
    assert names(events)[-2:] == ["double", "take"]
    assert events[-2].data["cube"] == 2 and events[-1].data["cube"] == 2
    game = _game_after(Double(DARK), Take(LIGHT))
    assert (referee.game.cube_value, referee.game.cube_owner) == (game.cube_value,
                                                                   game.cube_owner)
    assert referee.panel().cube_owner == "light" and referee.panel().cube_value == 2


def test_double_refused_when_not_on_turn_after_rolling_and_by_the_non_owner() -> None:
    script = _dark_to_roll()
    script.press("double", LIGHT)  # not light's turn
    script.press("take", LIGHT)  # nothing offered
    script.throw(AFTER_OPENING, DARK, (6, 5), spot=2)
    script.press("double", DARK)  # after rolling
    referee, events = run(Referee.new(), script.inputs)
    refused = [e for e in events if e.event == "cube_refused"]
    assert [(e.player, e.data["button"]) for e in refused] == [
        ("light", "double"), ("light", "take"), ("dark", "double")]
    assert refused[0].data["reason"] == _game_after().double_refusal(LIGHT)
    assert "before rolling" in refused[2].data["reason"]
    assert referee.game.cube_value == 1


def test_only_the_owner_may_redouble() -> None:
    # Dark doubles, light takes and owns the cube; light plays, then dark may not double.
    script = _dark_to_roll()
    script.press("double", DARK).press("take", LIGHT)
    dice = script.throw(AFTER_OPENING, DARK, (6, 5), spot=2)
    play = parse_play(AFTER_OPENING, "24/13", 6, 5)
    after = script.play(AFTER_OPENING, play, dice)
    script.throw(after, LIGHT, (2, 1), spot=1)
    light_play = after.legal_plays(2, 1)[0]
    later = script.play(after, light_play, script.inputs[-1].observation.dice)  # type: ignore[union-attr]
    script.press("double", DARK)
    referee, events = run(Referee.new(), script.inputs)
    assert events[-1].event == "cube_refused"
    assert events[-1].data["reason"] == "the cube belongs to the opponent"
    assert referee.game.position == later


def test_pass_ends_the_game_at_the_value_before_the_offer() -> None:
    script = _dark_to_roll(SEATINGS[3])
    script.press("double", DARK).press("pass", LIGHT)
    referee, events = run(Referee.new(RefereeSettings(match_length=5)), script.inputs)
    assert names(events)[-3:] == ["double", "pass", "game_over"]
    game = _game_after(Double(DARK), Pass(LIGHT))
    assert game.result is not None
    over = events[-1]
    assert over.data["winner"] == "dark" and over.data["points"] == game.result.points
    assert over.data["result"] == "pass"
    assert referee.stage is Stage.SETUP and referee.session.score == (0, 1)


def test_no_doubling_in_the_crawford_game_and_the_cube_returns_after() -> None:
    match = Match.new(MatchRules(length=3))
    script = _dark_to_roll()
    script.press("resign", LIGHT, "gammon").press("accept", DARK)  # dark leads 2-0: Crawford
    script.setup()
    dice = script.opening(3, 1)
    script.play(START, OPENING, dice)
    script.press("double", DARK)
    referee, events = run(Referee.new(RefereeSettings(match_length=3)), script.inputs)
    assert names(events)[-5:] == ["game_over", "game_start", "opening_roll", "play",
                                  "cube_refused"]
    assert events[-1].data["reason"] == "no doubling in the Crawford game"
    assert referee.panel().crawford and not referee.panel().cube_in_play
    # The game layer agrees that this is the Crawford game.
    for event in (OpeningRoll((3, 1)), Move(LIGHT, OPENING)):
        match = match.apply(event)
    from controller.game.events import AcceptResignation, Resign, ResignLevel

    match = match.apply(Resign(LIGHT, ResignLevel.GAMMON)).apply(AcceptResignation(DARK))
    assert match.crawford_game and match.score == referee.session.score


def test_the_cube_is_off_in_a_one_point_match() -> None:
    script = _dark_to_roll()
    script.press("double", DARK)
    _, events = run(Referee.new(RefereeSettings(match_length=1)), script.inputs)
    assert events[-1].event == "cube_refused"
    assert events[-1].data["reason"] == "the cube is not in play in this game"


@pytest.mark.parametrize(("level", "points"), [("single", 1), ("gammon", 2), ("backgammon", 3)])
def test_resignations_accepted_and_rejected(level: str, points: int) -> None:
    script = _dark_to_roll(SEATINGS[1])
    script.press("resign", DARK, level).press("accept", DARK).press("reject", LIGHT)
    script.press("resign", DARK, level).press("accept", LIGHT)
    referee, events = run(Referee.new(RefereeSettings(match_length=7)), script.inputs)
    assert names(events)[-6:] == ["resign", "warning:accept", "resign_rejected", "resign",
                                  "accept", "game_over"]
    assert events[-1].data == {**events[-1].data, "winner": "light", "points": points,
                               "result": "resign"}
    assert referee.session.score == (points, 0)


def test_the_cube_on_the_board_is_checked_against_the_record() -> None:
    seating = SEATINGS[2]
    script = _dark_to_roll(seating)
    script.stable(AFTER_OPENING, cube=cube_at(seating, None))  # centred: fine
    script.press("double", DARK).press("take", LIGHT)
    script.stable(AFTER_OPENING, cube=cube_at(seating, LIGHT, 2))  # light's side: fine
    script.stable(AFTER_OPENING, cube=cube_at(seating, DARK, 2))  # the wrong side
    referee, events = run(Referee.new(), script.inputs)
    assert names(events)[-3:] == ["double", "take", "warning:cube"]
    seat = "bottom" if seating.bottom == DARK else "top"
    assert f"the cube is at the {seat}" in events[-1].data["detail"]
    assert referee.game.cube_owner == LIGHT


def test_buttons_before_the_game_are_refused() -> None:
    script = Script(SEATINGS[0]).setup().press("double", LIGHT).press("resign", DARK)
    referee, events = run(Referee.new(), script.inputs)
    assert names(events) == ["game_start", "cube_refused", "warning:resign"]
    assert referee.stage is Stage.OPENING
