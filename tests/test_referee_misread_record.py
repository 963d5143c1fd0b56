"""A board misread the same way before and after a throw: no play, so no call.

Seen on rendered streams (``bench/referee_accuracy.py``, streams fe67551d4c6d
seed 27, strict mode): in a bear-off a stack of five was read as six and the
tray a checker short, on every board from one play on.  The next throw (a
cocked die read flat) was picked up with nothing moved; the board then
differed from the record exactly as it had when the throw lay on it, and the
referee called ``off/1`` (a borne-off checker put back).  Nothing moved: the
throw was taken back, a ``dice`` warning, and the same player's next throw is
their roll.  A play made on such a board is still judged with the throw's
misreading taken out, and an illegal one is called; and the mover's checkers
already gone forward when the throw was taken (a throw seen late) are a play begun,
judged as such (28de820384cd seed 74), not a misreading.
"""

import dataclasses

import pytest

from controller.referee.events import RefereeEvent
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
    half_of,
    observe,
    run,
    shifted,
    throw,
)
from tests.test_referee_stacks import FIVE, _with_counts
from tests.test_referee_vision_doubts import _to_roll
from vision.observation import Counts, Observation

CALLS = ("illegal_play", "reroll", "call_upheld")


def _calls(events: list[RefereeEvent]) -> list[tuple[str, str | None]]:
    return [(e.event, e.player) for e in events if e.event in CALLS]


def _misread_throw(seating: Seating) -> Script:
    """Light (to bear off from FIVE) throws 3-2 on a board read with the 1-point's five
    as six and the tray a checker short."""
    at_throw = _with_counts(observe(FIVE, seating), seating, 1, 6, FIVE.off(LIGHT) - 1)
    script = Script(seating).setup()
    script.operator("set_position", position_id=FIVE.position_id(), turn="light")
    thrown = script.throw(FIVE, LIGHT, (3, 2))
    script.inputs.pop()
    script.observation(dataclasses.replace(at_throw, dice=thrown))
    return script


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_dice_picked_up_on_a_board_misread_as_at_the_throw_are_taken_back(
        seating: Seating) -> None:
    script = _misread_throw(seating)
    misread = _with_counts(observe(FIVE, seating), seating, 1, 6, FIVE.off(LIGHT) - 1)
    script.observation(misread)
    referee, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert not _calls(events)
    assert not [e for e in events if e.event == "play"]
    assert events[-1].event == "warning" and events[-1].data["reason"] == "dice"
    assert "without playing" in str(events[-1].data["detail"])
    assert referee.stage is Stage.ROLL and referee.game.turn == LIGHT
    # The same player throws again: that is the roll.
    script.throw(FIVE, LIGHT, (4, 1), spot=2)
    referee, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert not _calls(events)
    assert events[-1].event == "roll" and events[-1].data["dice"] == [4, 1]
    assert referee.stage is Stage.PLAY


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_an_illegal_play_on_a_board_misread_as_at_the_throw_is_still_called(
        seating: Seating) -> None:
    # 3/1 2/1 with 3-2: three pips of five, when both dice bear off: called, the
    # throw's misreading taken out or not.
    script = _misread_throw(seating)
    seen = shifted(FIVE, "3/1 2/1")
    assert seen.layout(LIGHT)[1] == 7
    script.observation(_with_counts(observe(seen, seating), seating, 1, 8,
                                    FIVE.off(LIGHT) - 1))
    _, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert _calls(events) == [("illegal_play", "light")]


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_legal_play_after_the_misread_throw_is_not_taken_back(seating: Seating) -> None:
    script = _misread_throw(seating)
    legal = FIVE.result_of(parse_play(FIVE, "3/off 2/off", 3, 2))
    script.stable(legal)
    _, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert not _calls(events)
    plays = [(e.player, e.data["legal"], e.data["move"]) for e in events if e.event == "play"]
    assert plays == [("light", True, "3/off 2/off")]


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
@pytest.mark.parametrize("mode", ["strict", "players"])
def test_a_play_begun_before_the_throw_was_seen_is_judged(seating: Seating, mode: str) -> None:
    # Rendered 28de820384cd seed 74: the throw was taken late (the board before it read
    # unclearly), with the mover's 8/2 already played; 8/2 alone with 6-2 leaves the 2
    # unplayed.  The checker gone forward at the throw is a play, not a misreading.
    script, dark = _to_roll(seating)
    begun = shifted(dark, "8/2")
    thrown = throw((6, 2), half_of(seating, DARK))
    script.stable(begun, thrown)
    script.stable(begun)
    _, events = run(Referee.new(RefereeSettings(mode=mode)), script.inputs)
    plays = [(e.player, e.data["legal"], e.data["move"]) for e in events if e.event == "play"]
    assert plays[-1] == ("dark", False, "8/2")
    assert _calls(events) == ([("illegal_play", "dark")] if mode == "strict" else [])


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_checker_missing_at_the_throw_with_no_tray_in_view_is_no_play(
        seating: Seating) -> None:
    # Rendered 28de820384cd seed 105: no tray in view, a checker of a tall stack hidden
    # from one board on (taken as borne off); a cocked 6-1 read flat was picked up with
    # nothing moved and called "both dice could be played" on 1/off.
    missing = shifted(FIVE, "1/off")
    script = Script(seating, tray=False).setup()
    script.operator("set_position", position_id=FIVE.position_id(), turn="light")
    script.throw(missing, LIGHT, (6, 1))
    script.stable(missing)
    referee, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert not _calls(events)
    assert "without playing" in str(events[-1].data.get("detail"))
    assert referee.stage is Stage.ROLL and referee.game.turn == LIGHT


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_in_players_mode_a_play_legal_from_the_board_the_throw_lay_on_is_recorded(
        seating: Seating) -> None:
    # Rendered fe67551d4c6d seeds 4, 12 and 38 (players mode): a misread play stood, so
    # the record took the board as read; the board read right again, the next legal
    # play looked illegal against the record and was left open to a call.  Here the
    # record has light's checker on the 24-point, the board (at the throw and after)
    # on the 23-point, and light plays 13/7 8/7 with 6-1.
    record = Position.initial().with_turn(LIGHT)
    board = shifted(record, "24/23").with_turn(LIGHT)
    after = shifted(board, "13/7 8/7")
    script = Script(seating).setup()
    script.operator("set_position", position_id=record.position_id(), turn="light")
    script.throw(board, LIGHT, (6, 1))
    script.stable(after)
    referee, events = run(Referee.new(RefereeSettings(mode="players")), script.inputs)
    assert not _calls(events)
    plays = [(e.player, e.data["legal"], e.data["move"]) for e in events if e.event == "play"]
    assert plays == [("light", True, "13/7 8/7")]
    assert referee.call is None and referee.stage is Stage.ROLL
    assert referee.game.position.key == after.with_turn(DARK).key


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_in_players_mode_an_illegal_play_from_the_board_the_throw_lay_on_is_open_to_a_call(
        seating: Seating) -> None:
    record = Position.initial().with_turn(LIGHT)
    board = shifted(record, "24/23").with_turn(LIGHT)
    after = shifted(board, "13/6 8/7")  # a pip too far with the 6
    script = Script(seating).setup()
    script.operator("set_position", position_id=record.position_id(), turn="light")
    script.throw(board, LIGHT, (6, 1))
    script.stable(after)
    referee, events = run(Referee.new(RefereeSettings(mode="players")), script.inputs)
    plays = [(e.player, e.data["legal"]) for e in events if e.event == "play"]
    assert plays == [("light", False)]
    assert referee.call is not None


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
@pytest.mark.parametrize("mode", ["strict", "players"])
def test_a_stack_read_short_at_the_throw_is_no_checker_borne_off(
        seating: Seating, mode: str) -> None:
    # Rendered 7e15fdd04acc seed 84 (players mode): in a bear-off a stack was read a
    # checker short from one throw on, the tray's count derived from the points (one
    # more) while the tray's own count stayed at the record's.  A void throw was picked
    # up with nothing moved and taken for 1/off played with it: a play left open to a
    # call, the turn passed, and the same player's rethrow called as the opponent's
    # throw in the wrong half.  The tray's own count did not see a checker arrive:
    # nothing moved, the throw is taken back.
    assert FIVE.off(LIGHT) == 7
    short = _with_counts(observe(FIVE, seating), seating, 1, 4, FIVE.off(LIGHT) + 1)
    assert short.off is not None
    short = dataclasses.replace(short, off_read=Counts(FIVE.off(LIGHT), short.off.dark))
    script = _picked_up_on(seating, FIVE, short)
    referee, events = run(Referee.new(RefereeSettings(mode=mode)), script.inputs)
    assert not _calls(events)
    assert not [e for e in events if e.event == "play"]
    assert "without playing" in str(events[-1].data.get("detail"))
    assert referee.stage is Stage.ROLL and referee.game.turn == LIGHT and referee.call is None
    # The same player throws again: that is the roll, in the thrower's own half.
    script.throw(FIVE, LIGHT, (4, 1), spot=2)
    referee, events = run(Referee.new(RefereeSettings(mode=mode)), script.inputs)
    assert not _calls(events)
    assert events[-1].event == "roll" and events[-1].player == "light"
    assert events[-1].data["dice"] == [4, 1]


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_checker_borne_off_before_the_throw_seen_by_the_tray_is_a_play_begun(
        seating: Seating) -> None:
    # The other side of the line above: the tray's own count has the checker, so it
    # was borne off (a play begun before the throw was seen), and the play is judged:
    # 1/off alone with 6-5, when both dice bear off, is called.
    begun = shifted(FIVE, "1/off")
    seen = observe(begun, seating)
    assert seen.off is not None
    seen = dataclasses.replace(seen, off_read=seen.off)
    script = _picked_up_on(seating, begun, seen)
    _, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    plays = [(e.player, e.data["legal"], e.data["move"]) for e in events if e.event == "play"]
    assert plays == [("light", False, "1/off")]
    assert _calls(events) == [("illegal_play", "light")]


def _picked_up_on(seating: Seating, board: Position, seen: Observation) -> Script:
    """Light, to bear off from FIVE, throws 6-5 onto ``board`` read as ``seen``, and the
    dice are picked up with ``seen`` left as it was."""
    script = Script(seating).setup()
    script.operator("set_position", position_id=FIVE.position_id(), turn="light")
    thrown = script.throw(board, LIGHT, (6, 5))
    script.inputs.pop()
    script.observation(dataclasses.replace(seen, dice=thrown))
    script.observation(seen)
    return script
