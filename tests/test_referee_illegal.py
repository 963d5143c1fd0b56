"""Etiquette 4 and 5: illegal plays in strict and players mode, and what is never a call."""

import dataclasses

import pytest

from controller.records.matfile import format_mat
from controller.referee.machine import Referee, Stage
from controller.referee.settings import RefereeSettings
from controller.rules.judge import judge
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
    run,
    shifted,
    throw,
)
from vision.observation import Counts

START = Position.initial()
STRICT = RefereeSettings(mode="strict")
PLAYERS = RefereeSettings(mode="players")


def _illegal(seating: Seating, text: str = "13/7") -> tuple[Script, Position]:
    """Light opens 3-1 and plays ``text`` (13/7: six pips with a 3-1), then picks up."""
    script = Script(seating).setup()
    dice = script.opening(3, 1)
    after = shifted(START, text)
    script.stable(after, dice)
    script.stable(after)
    return script, after


def test_the_default_mode_is_the_etiquette_texts() -> None:
    assert RefereeSettings().mode == "players"


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_strict_calls_at_once_and_waits_for_the_position(seating: Seating) -> None:
    script, after = _illegal(seating)
    referee, events = run(Referee.new(STRICT), script.inputs)
    verdict = judge(START, after, 3, 1)
    assert not verdict.legal
    assert names(events) == ["game_start", "opening_roll", "play", "illegal_play"]
    play, call = events[2], events[3]
    assert play.data["legal"] is False and play.data["move"] == "13/7"
    assert call.player == "light"
    assert call.data["reason"] == "; ".join(verdict.reasons)
    assert call.data["legal_plays"] == [str(p) for p in verdict.closest]
    assert referee.stage is Stage.RESTORE
    assert referee.panel().call_blink == {"light"} and referee.panel().beeps == 1
    assert referee.expecting().startswith("waiting for the position to be restored: light "
                                          "to take 13/7 back")

    # Dark may not throw yet; the position is restored, then a legal play is made.
    script.stable(after, throw((4, 2), half_of(seating, DARK), 2))
    script.stable(after)
    script.stable(START)
    legal = parse_play(START, "8/5 6/5", 3, 1)
    script.stable(shifted(START, "8/5"))
    script.stable(START.result_of(legal))
    script.throw(START.result_of(legal), DARK, (4, 2), spot=1)
    referee, events = run(Referee.new(STRICT), script.inputs)
    assert names(events)[4:] == ["warning:dice", "position_restored", "play", "roll"]
    assert events[-2].data == {**events[-2].data, "move": str(legal), "legal": True}
    assert referee.game.turn == DARK and referee.stage is Stage.PLAY


def test_strict_accepts_a_legal_play_made_without_restoring_first() -> None:
    script, _ = _illegal(SEATINGS[3])
    legal = parse_play(START, "24/21 24/23", 3, 1)
    script.stable(START.result_of(legal))
    held, _ = run(Referee.new(STRICT), script.inputs)
    assert held.stage is Stage.RESTORE  # the replay may not be finished yet
    script.throw(START.result_of(legal), DARK, (4, 2), spot=1)
    referee, events = run(Referee.new(STRICT), script.inputs)
    assert names(events)[-2:] == ["play", "roll"] and events[-2].data["move"] == str(legal)
    assert referee.stage is Stage.PLAY and referee.game.turn == DARK


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_players_mode_lights_the_call_and_a_call_is_upheld(seating: Seating) -> None:
    script, after = _illegal(seating)
    referee, events = run(Referee.new(PLAYERS), script.inputs)
    assert names(events) == ["game_start", "opening_roll", "play"]
    assert events[-1].data["legal"] is False
    assert referee.panel().call_steady == {"dark"}
    assert "call" in referee.expecting()

    script.press("call", LIGHT)  # the mover cannot call their own play
    script.press("call", DARK)
    legal = parse_play(START, "8/5 6/5", 3, 1)
    script.stable(START)
    script.stable(START.result_of(legal))
    script.throw(START.result_of(legal), DARK, (5, 5), spot=1)
    referee, events = run(Referee.new(PLAYERS), script.inputs)
    assert names(events)[3:] == ["warning:call", "call_upheld", "position_restored", "play",
                                 "roll"]
    upheld = events[4]
    assert upheld.player == "dark"
    assert upheld.data["reason"] == "; ".join(judge(START, after, 3, 1).reasons)
    assert events[-2].data["legal"] is True
    assert referee.game.position == START.result_of(legal)
    assert referee.stage is Stage.PLAY and referee.game.turn == DARK


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_players_mode_the_play_stands_after_the_opponents_throw(seating: Seating) -> None:
    script, after = _illegal(seating)
    dark_to_roll = after.with_turn(DARK)
    dice = script.throw(dark_to_roll, DARK, (6, 5), spot=2)
    # Dark's play is judged from the position as played, one the rules never reach.
    play = dark_to_roll.legal_plays(6, 5)[0]
    later = script.play(dark_to_roll, play, dice)
    script.press("call", LIGHT)  # too late for anything: dark's play was legal
    referee, events = run(Referee.new(PLAYERS), script.inputs)
    assert names(events)[3:] == ["play_stands", "roll", "play", "warning:call"]
    assert events[3].player == "light" and events[3].data["move"] == "13/7"
    assert events[5].data == {**events[5].data, "move": str(play), "legal": True}
    assert referee.game.position == later
    record = referee.match_record()
    assert any("stood" in c for c in record.comments)
    assert " Game 1" in format_mat(record)


def test_doubling_ends_the_chance_to_call() -> None:
    script, _ = _illegal(SEATINGS[0])
    script.press("double", DARK)
    script.press("call", DARK)
    _, events = run(Referee.new(PLAYERS), script.inputs)
    assert names(events)[3:] == ["play_stands", "double", "warning:call"]


@pytest.mark.parametrize("mode", [STRICT, PLAYERS], ids=["strict", "players"])
def test_a_vanished_checker_is_a_warning_never_a_call(mode: RefereeSettings) -> None:
    seating = SEATINGS[2]
    script = Script(seating).setup()
    dice = script.opening(3, 1)
    after = START.result_of(parse_play(START, "8/5 6/5", 3, 1))
    script.stable(after, dice)
    from tests.referee_streams import observe

    seen = observe(after, seating)
    points = list(seen.points)
    index = next(i for i, c in enumerate(points) if c.light >= 2)
    points[index] = Counts(points[index].light - 1, 0)
    script.observation(dataclasses.replace(seen, points=tuple(points)))
    _, events = run(Referee.new(mode), script.inputs)
    assert names(events)[2:] == ["warning:look"]
    assert "14 light checkers" in events[-1].data["detail"]
    # It reappears: the play is judged, legal.
    script.stable(after)
    _, events = run(Referee.new(mode), script.inputs)
    assert names(events)[2:] == ["warning:look", "play"] and events[-1].data["legal"] is True


@pytest.mark.parametrize("mode", [STRICT, PLAYERS], ids=["strict", "players"])
def test_an_opponents_checker_moving_is_a_warning_never_a_call(mode: RefereeSettings) -> None:
    script = Script(SEATINGS[1]).setup()
    dice = script.opening(3, 1)
    legal = START.result_of(parse_play(START, "8/5 6/5", 3, 1))
    # A dark checker knocked from dark's 13-point to dark's 11-point.
    assert legal.turn == DARK
    knocked = shifted(legal, "13/11")
    script.stable(knocked, dice)
    script.stable(knocked)
    _, events = run(Referee.new(mode), script.inputs)
    assert names(events)[2:] == ["warning:look"]


def test_without_a_tray_a_missing_checker_is_not_taken_for_a_bear_off() -> None:
    seating = SEATINGS[0]
    script = Script(seating, tray=False).setup()
    dice = script.opening(3, 1)
    seen_after = START.result_of(parse_play(START, "8/5 6/5", 3, 1))
    from tests.referee_streams import observe

    seen = observe(seen_after, seating, tray=False)
    points = list(seen.points)
    index = next(i for i, c in enumerate(points) if c.light >= 2)
    points[index] = Counts(points[index].light - 1, 0)
    script.stable(seen_after, dice)
    script.observation(dataclasses.replace(seen, points=tuple(points)))
    _, events = run(Referee.new(STRICT), script.inputs)
    assert names(events)[2:] == ["warning:look"]
    assert "no tray" in events[-1].data["detail"]


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_players_mode_the_mover_may_put_their_own_play_right(seating: Seating) -> None:
    script, _ = _illegal(seating)
    legal = parse_play(START, "13/10 6/5", 3, 1)
    script.stable(START.result_of(legal))  # changed to a legal play before dark throws
    referee, events = run(Referee.new(PLAYERS), script.inputs)
    assert names(events)[2:] == ["play", "play"]
    assert events[-1].data == {**events[-1].data, "move": str(legal), "legal": True}
    assert referee.call is None and not referee.panel().call_steady
    assert referee.game.position == START.result_of(legal)
    assert not referee.match_record().comments  # the record holds the legal play only


def test_players_mode_the_mover_may_take_their_play_back() -> None:
    script, _ = _illegal(SEATINGS[2])
    script.stable(START)
    legal = parse_play(START, "24/21 24/23", 3, 1)
    script.stable(shifted(START, "24/21"))
    script.stable(START.result_of(legal))
    script.press("double", DARK)
    referee, events = run(Referee.new(PLAYERS), script.inputs)
    assert names(events)[2:] == ["play", "position_restored", "play", "double"]
    assert events[-2].data["legal"] is True
    assert referee.stage is Stage.ROLL and referee.game.turn == DARK


@pytest.mark.parametrize("mode", [STRICT, PLAYERS], ids=["strict", "players"])
def test_a_board_one_checker_off_a_legal_play_is_that_play_once_the_opponent_throws(
        mode: RefereeSettings) -> None:
    from tests.referee_streams import observe

    seating = SEATINGS[3]
    script = Script(seating).setup()
    dice = script.opening(3, 1)
    played = parse_play(START, "8/5 6/5", 3, 1)
    after = START.result_of(played)
    script.stable(after, dice)
    seen = observe(after, seating)
    points = list(seen.points)
    index = next(i for i, c in enumerate(points) if c.light >= 2)
    points[index] = Counts(points[index].light - 1, 0)  # a checker not seen
    misread = dataclasses.replace(seen, points=tuple(points))
    script.observation(misread)
    throw_dice = throw((6, 2), half_of(seating, DARK), 2)
    script.observation(dataclasses.replace(misread, dice=throw_dice))
    referee, events = run(Referee.new(mode), script.inputs)
    assert names(events)[2:] == ["warning:look", "warning:look", "play", "roll"]
    assert events[-2].data == {**events[-2].data, "move": str(played), "legal": True}
    assert referee.game.position == after and referee.stage is Stage.PLAY
