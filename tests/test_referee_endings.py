"""How games end (bearing off, single, gammon, backgammon), the next game, the match's end,
and the record of a game that left the rules' path."""

import pytest

from controller.game.events import Move, Roll
from controller.game.game import Game
from controller.records.matfile import format_mat
from controller.referee.machine import Referee, Stage
from controller.referee.settings import RefereeSettings
from controller.rules.notation import parse_play
from controller.rules.physical import Seating
from controller.rules.position import Position
from tests.referee_streams import DARK, LIGHT, SEATINGS, Script, names, run, shifted

LAST = [14, 1] + [0] * 24
"""Light: one checker left, on the 1-point."""
ENDINGS = {
    # dark has borne off one checker: light wins a single game
    "single": Position(LAST, [1, 0, 0, 0, 0, 0, 14] + [0] * 19, LIGHT),
    # dark has borne off nothing, all home: a gammon
    "gammon": Position(LAST, [0, 0, 0, 0, 0, 0, 15] + [0] * 19, LIGHT),
    # dark has a checker in light's home board (dark's 23-point): a backgammon
    "backgammon": Position(LAST, [0, 0, 0, 0, 0, 0, 14] + [0] * 16 + [1, 0, 0], LIGHT),
}


def _set(seating: Seating, position: Position) -> Script:
    script = Script(seating).setup()
    script.operator("set_position", position_id=position.position_id(),
                    turn="light" if position.turn == LIGHT else "dark")
    return script


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
@pytest.mark.parametrize("kind", sorted(ENDINGS))
def test_bearing_off_the_last_checker_ends_the_game(seating: Seating, kind: str) -> None:
    position = ENDINGS[kind]
    script = _set(seating, position)
    dice = script.throw(position, LIGHT, (3, 2))
    play = parse_play(position, "1/off", 3, 2)
    script.play(position, play, dice)
    referee, events = run(Referee.new(RefereeSettings(match_length=7)), script.inputs)
    oracle = Game.at(position).apply(Roll(LIGHT, (3, 2))).apply(Move(LIGHT, play))
    assert oracle.result is not None
    assert names(events)[-3:] == ["roll", "play", "game_over"]
    over = events[-1]
    assert over.player == "light"
    assert over.data["result"] == oracle.result.kind.name.lower() == kind
    assert over.data["points"] == oracle.result.points
    assert over.data["score"] == {"light": oracle.result.points, "dark": 0}
    assert referee.stage is Stage.SETUP and "set up the board" in referee.expecting()


def test_the_match_ends_and_the_next_game_needs_a_set_up() -> None:
    position = ENDINGS["gammon"]
    script = _set(SEATINGS[0], position)
    dice = script.throw(position, LIGHT, (6, 6))
    script.play(position, parse_play(position, "1/off", 6, 6), dice)
    # A 2-point match: the gammon wins it.
    referee, events = run(Referee.new(RefereeSettings(match_length=2)), script.inputs)
    assert names(events)[-2:] == ["game_over", "match_over"]
    assert events[-1].data == {"winner": "light", "score": {"light": 2, "dark": 0}}
    assert referee.stage is Stage.OVER and "match is over" in referee.expecting()
    script.setup()
    _, later = run(referee, script.inputs[-1:])
    assert later == []


def test_a_money_game_goes_on_to_the_next_set_up() -> None:
    position = ENDINGS["single"]
    script = _set(SEATINGS[3], position)
    dice = script.throw(position, LIGHT, (4, 1))
    script.play(position, parse_play(position, "1/off", 4, 1), dice)
    script.setup()
    referee, events = run(Referee.new(), script.inputs)
    assert names(events)[-2:] == ["game_over", "game_start"]
    assert events[-1].data["game"] == 2
    assert referee.panel().score_light == 1 and referee.stage is Stage.OPENING


def test_a_game_that_left_the_rules_path_is_recorded_up_to_there_and_closed() -> None:
    start = Position.initial()
    script = Script(SEATINGS[1]).setup()
    dice = script.opening(3, 1)
    wrong = shifted(start, "13/7")  # stands: dark throws without calling
    script.stable(wrong, dice)
    script.stable(wrong)
    dark = wrong.with_turn(DARK)
    dark_dice = script.throw(dark, DARK, (6, 5), spot=2)
    after = script.play(dark, dark.legal_plays(6, 5)[0], dark_dice)
    script.press("resign", LIGHT, "gammon").press("accept", DARK)
    script.setup()
    referee, events = run(Referee.new(RefereeSettings(match_length=5)), script.inputs)
    assert after.turn == LIGHT
    assert names(events)[-4:] == ["resign", "accept", "game_over", "game_start"]
    assert referee.session.score == (0, 2)
    record = referee.match_record()
    assert record.replay().score == (0, 2)  # type: ignore[union-attr]
    text = format_mat(record)
    assert "Wins 2 points" in text
    assert any("13/7 stood" in c and "resignation" in c for c in record.comments)


def test_a_game_does_not_end_on_an_illegal_play_even_in_players_mode() -> None:
    position = Position([14, 0, 0, 0, 0, 0, 1] + [0] * 19,
                        [0, 0, 0, 0, 0, 0, 15] + [0] * 19, LIGHT)
    script = _set(SEATINGS[2], position)
    dice = script.throw(position, LIGHT, (2, 1))
    wrong = shifted(position, "6/off")  # a 2-1 cannot bear off from the 6-point
    script.stable(wrong, dice)
    script.stable(wrong)
    referee, events = run(Referee.new(RefereeSettings(mode="players")), script.inputs)
    assert names(events)[-2:] == ["play", "illegal_play"]
    assert events[-1].data["mode"] == "players"
    assert referee.stage is Stage.RESTORE and referee.session.games == ()
