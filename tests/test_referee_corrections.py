"""The operator's corrections: undo the last play, set the position, adjust the score."""

from controller.records.matfile import format_mat
from controller.referee.machine import Referee, Stage
from controller.referee.settings import RefereeSettings
from controller.rules.match_state import MatchState
from controller.rules.notation import parse_play
from controller.rules.position import Position
from controller.rules.xgid import Xgid, format_xgid
from tests.referee_streams import DARK, LIGHT, SEATINGS, Script, names, run

START = Position.initial()
OPENING = parse_play(START, "8/5 6/5", 3, 1)


def _opened() -> Script:
    script = Script(SEATINGS[1]).setup()
    dice = script.opening(3, 1)
    script.play(START, OPENING, dice)
    return script


def test_undo_the_last_play_and_play_it_again() -> None:
    script = _opened()
    script.operator("undo")
    undone, _ = run(Referee.new(), script.inputs)
    assert f"light to take {OPENING} back" in undone.expecting()
    script.stable(START)
    other = parse_play(START, "24/21 24/23", 3, 1)
    script.stable(START.result_of(other))
    script.throw(START.result_of(other), DARK, (2, 1), spot=2)
    referee, events = run(Referee.new(), script.inputs)
    assert names(events)[3:] == ["correction", "position_restored", "play", "roll"]
    assert events[3].data["action"] == "undo"
    assert events[3].data["position_id"] == START.position_id()
    assert events[-2].data["move"] == str(other)
    assert referee.game.position == START.result_of(other)
    moves = [e for e in referee.game.events if e.__class__.__name__ == "Move"]
    assert len(moves) == 1  # the undone play left the record


def test_undo_with_nothing_to_undo_is_a_warning() -> None:
    script = Script(SEATINGS[0]).setup().operator("undo")
    referee, events = run(Referee.new(), script.inputs)
    assert names(events) == ["game_start", "warning:correction"]
    assert referee.stage is Stage.OPENING


def test_set_the_position_by_xgid_and_play_on_from_it() -> None:
    position = START.result_of(OPENING).with_turn(LIGHT)
    xgid = format_xgid(Xgid(position, MatchState(match_length=0, cube_value=2,
                                                 cube_owner=DARK, on_roll=LIGHT,
                                                 turn=LIGHT)))
    script = Script(SEATINGS[2]).setup().operator("set_position", xgid=xgid)
    dice = script.throw(position, LIGHT, (6, 4))
    play = position.legal_plays(6, 4)[0]
    after = script.play(position, play, dice)
    referee, events = run(Referee.new(), script.inputs)
    assert names(events) == ["game_start", "correction", "roll", "play"]
    assert events[-1].data["legal"] is True
    assert referee.game.position == after
    assert (referee.game.cube_value, referee.game.cube_owner) == (2, DARK)
    assert any("set by hand" in c for c in referee.match_record().comments)


def test_bad_correction_arguments_are_warnings_naming_them() -> None:
    script = _opened()
    script.operator("set_position", position_id="nonsense", turn="light")
    script.operator("set_position", position_id=START.position_id(), turn="blue")
    script.operator("set_position")
    script.operator("adjust_score", light=9)
    before, _ = run(Referee.new(RefereeSettings(match_length=5)), script.inputs[:-4])
    referee, events = run(Referee.new(RefereeSettings(match_length=5)), script.inputs)
    warned = [e.data["detail"] for e in events if e.event == "warning"]
    assert [w.split(":")[0] for w in warned] == ["set_position"] * 3 + ["adjust_score"]
    assert "position_id" in warned[0] and "turn" in warned[1] and "light" in warned[3]
    assert referee.session == before.session


def test_adjust_the_score_of_a_match() -> None:
    script = _opened().operator("adjust_score", light=2, dark=3)
    referee, events = run(Referee.new(RefereeSettings(match_length=5)), script.inputs)
    assert events[-1].event == "correction" and events[-1].data["score"] == {"light": 2,
                                                                             "dark": 3}
    panel = referee.panel()
    assert (panel.score_light, panel.score_dark) == (2, 3)
    record = referee.match_record()
    assert any("set the score" in c for c in record.comments)
    assert " Game 1" in format_mat(record)


def test_money_play_has_no_score_to_adjust() -> None:
    script = _opened().operator("adjust_score", light=2)
    _, events = run(Referee.new(), script.inputs)
    assert names(events)[-1] == "warning:correction"
