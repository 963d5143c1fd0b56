"""Misread stacks and dice lost mid-play: a look, never a call.

Seen on rendered streams (``bench/referee_accuracy.py``, streams 960b5e2b053c):

* A stack of seven read as six in a bear-off, the checker taken for borne off
  (the vision makes the tray's count agree with the board's, so the tray in
  view shows it too): the board read as one checker more borne off than the
  roll allows (seed 125, strict mode: a false ``illegal_play``).
* A stack read one too many already on the board the throw lay on, and the
  same after the play (a stack of five read as six, the tray a checker
  short): a legal play read as one checker kept back.  The board at the throw
  differed from the record, so the same difference after the play is the
  camera's, not the player's.
* Dice in both halves on a board far from the record (seed 101: the next
  game's opening dice after the end of a game was missed), and a throw in the
  opponent's half after one taken back with nothing moved (seed 106): the
  record is out of step, so no ``wrong_half`` call.

What stays a call: a stack read one too many with the tray one short, when
nothing showed it wrong before the play, looks exactly like a die left
unplayed (a checker moved onto the stack instead of borne off, the planted
``one_die`` mistakes): the referee calls it (excusing it lost 16 of 482
planted illegal plays with a perfect reader).
"""

import dataclasses

import pytest

from controller.referee.board import read_board
from controller.referee.events import RefereeEvent
from controller.referee.machine import Referee, Stage
from controller.referee.plays import Plausibility, judge_play, tall_stack_misread
from controller.referee.settings import RefereeSettings
from controller.rules.judge import judge
from controller.rules.notation import parse_play
from controller.rules.physical import Seating
from controller.rules.player import Player
from controller.rules.position import Position
from tests.referee_streams import (
    DARK,
    LIGHT,
    SEATINGS,
    Script,
    die,
    half_of,
    names,
    observe,
    run,
    shifted,
)
from tests.test_referee_tray import position
from tests.test_referee_vision_doubts import _to_roll
from vision.observation import Counts, Die, Observation

CALLS = ("illegal_play", "reroll", "call_upheld")


DARK_HOME = {6: 5, 5: 5, 4: 5}
SEVEN = position({1: 7, 5: 1, 6: 1}, DARK_HOME)
"""Light bearing off with seven on the 1-point; 6-5 bears off the 6 and the 5."""
FIVE = position({1: 5, 2: 1, 3: 2}, DARK_HOME)
"""Light bearing off with five on the 1-point; 3-2 bears off two (3/off 2/off)."""


def _calls(events: list[RefereeEvent]) -> list[tuple[str, str | None]]:
    return [(e.event, e.player) for e in events if e.event in CALLS]


def _with_counts(seen: Observation, seating: Seating, point: int, light: int,
                 off: int) -> Observation:
    """``seen`` with light's ``point`` holding ``light`` and ``off`` light checkers in the
    tray (a misreading)."""
    probe = observe(position({point: 1}, {}), seating)
    index = next(i for i, c in enumerate(probe.points) if c.light)
    points = list(seen.points)
    points[index] = Counts(light, points[index].dark)
    assert seen.off is not None
    return dataclasses.replace(seen, points=tuple(points), off=Counts(off, seen.off.dark))


# -- a tall stack read a checker short ---------------------------------------------


def test_a_stack_of_seven_read_as_six_is_a_tall_stack_misread() -> None:
    legal = SEVEN.result_of(parse_play(SEVEN, "6/off 5/off", 6, 5))
    rows = [list(legal.layout(p)) for p in (LIGHT, DARK)]
    rows[LIGHT][1] -= 1
    rows[LIGHT][0] += 1
    seen = Position(rows[0], rows[1], DARK)
    reading = read_board(observe(seen, SEATINGS[0]))
    assert judge_play(SEVEN, reading, SEATINGS[0], (6, 5)).kind == "illegal"
    found = tall_stack_misread(SEVEN, seen, (6, 5), Plausibility().tall_stack)
    assert found is not None and found[0] == 1 and found[1] == legal.with_turn(DARK)
    assert tall_stack_misread(SEVEN, seen, (6, 5), 8) is None
    # One checker more on the stack and one fewer off (the other direction): no.
    rows = [list(legal.layout(p)) for p in (LIGHT, DARK)]
    rows[LIGHT][1] += 1
    rows[LIGHT][0] -= 1
    assert tall_stack_misread(SEVEN, Position(rows[0], rows[1], DARK), (6, 5), 6) is None


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_stack_read_short_with_one_more_in_the_tray_is_a_look_then_the_legal_play(
        seating: Seating) -> None:
    legal = SEVEN.result_of(parse_play(SEVEN, "6/off 5/off", 6, 5))
    read = _with_counts(observe(legal, seating), seating, 1, 6, legal.off(LIGHT) + 1)
    script = Script(seating).setup()
    script.operator("set_position", position_id=SEVEN.position_id(), turn="light")
    thrown = script.throw(SEVEN, LIGHT, (6, 5))
    script.observation(dataclasses.replace(read, dice=thrown))
    script.observation(read)
    script.throw(legal.with_turn(DARK), DARK, (4, 1), spot=2)
    referee, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert not _calls(events)
    assert "warning:look" in names(events)
    plays = [(e.player, e.data["legal"], e.data["move"]) for e in events if e.event == "play"]
    assert plays[-1] == ("light", True, "6/off 5/off")
    assert names(events)[-1] == "roll" and events[-1].player == "dark"
    assert referee.stage is Stage.PLAY and referee.game.position.layout(LIGHT) == \
        legal.layout(LIGHT)


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_in_players_mode_the_verdict_is_left_to_the_opponent(seating: Seating) -> None:
    # Players mode calls nothing itself: the board is judged as read (the play stands
    # if the opponent throws), so the record keeps up with the board when it is the
    # record that was wrong.
    legal = SEVEN.result_of(parse_play(SEVEN, "6/off 5/off", 6, 5))
    read = _with_counts(observe(legal, seating), seating, 1, 6, legal.off(LIGHT) + 1)
    script = Script(seating).setup()
    script.operator("set_position", position_id=SEVEN.position_id(), turn="light")
    thrown = script.throw(SEVEN, LIGHT, (6, 5))
    script.observation(dataclasses.replace(read, dice=thrown))
    script.observation(read)
    _, events = run(Referee.new(RefereeSettings(mode="players")), script.inputs)
    assert not _calls(events)
    plays = [(e.player, e.data["legal"]) for e in events if e.event == "play"]
    assert plays[-1] == ("light", False)


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_checker_kept_on_a_tall_stack_with_the_tray_one_short_is_still_called(
        seating: Seating) -> None:
    # 3-2: 3/off 2/off is legal; the board shows 3/off 2/1 (the 2 played inside, the 3
    # borne off): a die's worth kept back, which a stack of five read as six with the
    # tray one short also shows.  Nothing was seen wrong before: a call.
    seen = shifted(FIVE, "3/off 2/1")
    assert seen.layout(LIGHT)[1] == 6
    script = Script(seating).setup()
    script.operator("set_position", position_id=FIVE.position_id(), turn="light")
    thrown = script.throw(FIVE, LIGHT, (3, 2))
    script.stable(seen, thrown)
    script.stable(seen)
    _, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert _calls(events) == [("illegal_play", "light")]


# -- a board misread already at the throw ------------------------------------------


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_stack_misread_at_the_throw_and_after_the_play_is_a_look_not_a_call(
        seating: Seating) -> None:
    legal = FIVE.result_of(parse_play(FIVE, "3/off 2/off", 3, 2))
    before = FIVE.off(LIGHT)
    # The 1-point's five read as six and the tray a checker short, from the throw on.
    at_throw = _with_counts(observe(FIVE, seating), seating, 1, 6, before - 1)
    after = _with_counts(observe(legal, seating), seating, 1, 6, legal.off(LIGHT) - 1)
    script = Script(seating).setup()
    script.operator("set_position", position_id=FIVE.position_id(), turn="light")
    thrown = script.throw(FIVE, LIGHT, (3, 2))
    script.inputs.pop()
    script.observation(dataclasses.replace(at_throw, dice=thrown))
    script.observation(dataclasses.replace(after, dice=thrown))
    script.observation(after)
    referee, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert [e.event for e in events if e.event == "roll"] == ["roll"]
    assert not _calls(events)
    assert names(events)[-1] == "warning:look"
    assert "at the throw" in str(events[-1].data["detail"])
    # Dark throws: the play is over, and the legal play the board was misread from is
    # recorded.
    script.throw(legal.with_turn(DARK), DARK, (4, 1), spot=2)
    referee, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert not _calls(events)
    plays = [(e.player, e.data["legal"], e.data["move"]) for e in events if e.event == "play"]
    assert plays[-1] == ("light", True, "3/off 2/off")
    assert referee.game.turn == DARK and referee.stage is Stage.PLAY


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_the_same_play_read_right_at_the_throw_is_called(seating: Seating) -> None:
    legal = FIVE.result_of(parse_play(FIVE, "3/off 2/off", 3, 2))
    after = _with_counts(observe(legal, seating), seating, 1, 6, legal.off(LIGHT) - 1)
    script = Script(seating).setup()
    script.operator("set_position", position_id=FIVE.position_id(), turn="light")
    thrown = script.throw(FIVE, LIGHT, (3, 2))
    script.observation(dataclasses.replace(after, dice=thrown))
    script.observation(after)
    _, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert _calls(events) == [("illegal_play", "light")]


# -- out of step: dice in both halves, or after a throw taken back --------------------


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_split_dice_on_a_board_far_from_the_record_are_a_look_not_wrong_half(
        seating: Seating) -> None:
    # Rendered seed 101: the end of a game was missed and the next begun; its opening
    # dice, one in each half, lay on a board played on.  Here: dark's play was missed
    # (two checkers moved unseen) and dice lie in both halves.
    script, dark = _to_roll(seating)
    unseen = shifted(dark, "24/18 13/11")
    script.stable(unseen, (die_at(seating, DARK, 6, 0), die_at(seating, LIGHT, 2, 1)))
    _, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert not _calls(events)
    assert names(events)[-1] == "warning:look"


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
@pytest.mark.parametrize("moved", ["", "8/7"], ids=["as-recorded", "one-checker-off"])
def test_split_dice_on_the_records_board_or_one_checker_off_are_wrong_half(
        seating: Seating, moved: str) -> None:
    script, dark = _to_roll(seating)
    board = shifted(dark, moved) if moved else dark
    script.stable(board, (die_at(seating, DARK, 6, 0), die_at(seating, LIGHT, 2, 1)))
    _, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    calls = [(e.event, e.player, e.data["reason"]) for e in events if e.event in CALLS]
    assert calls == [("reroll", "dark", "wrong_half")]


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_after_a_throw_taken_back_dice_in_the_opponents_half_are_theirs(
        seating: Seating) -> None:
    # Rendered seed 106: the camera missed a play, so the record had the wrong player on
    # turn; the opponent's void throw (in the wrong half, which was the record's
    # thrower's) was taken as a roll and picked up with nothing moved; the opponent's
    # rethrow in their own half was then called wrong_half on the other player.
    script, dark = _to_roll(seating)
    script.throw(dark, DARK, (4, 3))
    script.stable(dark)  # picked up with nothing moved: taken back
    script.throw(dark.with_turn(LIGHT), LIGHT, (1, 1), spot=2)
    referee, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert not _calls(events)
    rolls = [(e.player, e.data["dice"]) for e in events if e.event == "roll"]
    assert rolls[-1] == ("light", [1, 1])
    assert referee.game.turn == LIGHT and referee.stage is Stage.PLAY


def die_at(seating: Seating, player: Player, value: int, spot: int) -> Die:
    """A die resting in ``player``'s half."""
    return die(value, half_of(seating, player), spot)


# -- a six read as a three ------------------------------------------------------------


def _dark_plays(seating: Seating, dice: tuple[int, int], text: str, true_dice: tuple[int, int],
                mode: str = "strict") -> list[RefereeEvent]:
    """Dark (to roll after light's opening) throws ``dice`` as read and shows the board of
    ``text`` played with ``true_dice``, then picks up."""
    script, dark = _to_roll(seating)
    thrown = script.throw(dark, DARK, dice)
    after = dark.result_of(parse_play(dark, text, *true_dice))
    script.stable(after, thrown)
    script.stable(after)
    return run(Referee.new(RefereeSettings(mode=mode)), script.inputs)[1]


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
@pytest.mark.parametrize("mode", ["strict", "players"])
def test_a_six_read_as_a_three_is_the_roll_the_play_fits(seating: Seating, mode: str) -> None:
    # 3c64a794ac91 seeds 7 and 21: 6-2 read 3-2, the play legal with 6-2: a call.
    events = _dark_plays(seating, (3, 2), "13/7 6/4", (6, 2), mode)
    assert not _calls(events)
    warning = [e for e in events if e.event == "warning" and e.data["reason"] == "dice"][-1]
    assert warning.data["dice"] == [6, 2]
    plays = [(e.player, e.data["legal"], e.data["move"], e.data["dice"]) for e in events
             if e.event == "play"]
    assert plays[-1] == ("dark", True, "13/7 6/4", [6, 2])


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_checker_one_pip_too_far_is_still_called(seating: Seating) -> None:
    # 13/9 6/4 with 3-2: a checker a pip long (a legal play of 4-2, no misreading).
    events = _dark_plays(seating, (3, 2), "13/9 6/4", (4, 2))
    assert _calls(events) == [("illegal_play", "dark")]


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_double_played_three_times_is_the_six_three_in_players_mode_too(
        seating: Seating) -> None:
    # 3-3 played three times (24/21 13/7) is also the legal 6-3 24/21 13/7: a planted
    # one_die mistake looks exactly like a 6 read as a 3 (960b5e2b053c seed 23).  It is
    # recorded as 6-3 in both modes (tests/test_referee_dice_confusions.py: no planted
    # catch lost with a perfect reader over 200 games, in either mode); in players
    # mode the call light lit on the legal 6-3 invited a false call (28de820384cd
    # seed 96: 6-3 read 3-3, 8/off).
    events = _dark_plays(seating, (3, 3), "24/21 13/7", (6, 3), mode="players")
    assert not _calls(events)
    plays = [(e.player, e.data["legal"], e.data["dice"]) for e in events if e.event == "play"]
    assert plays[-1] == ("dark", True, [6, 3])


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_an_opening_six_read_as_a_three_is_the_roll_the_play_fits(seating: Seating) -> None:
    script = Script(seating).setup()
    bottom_is_light = seating.bottom == LIGHT
    # Light's 2 and dark's 6, dark's read as 3: dark starts either way.
    dice = (die(2 if bottom_is_light else 3, "right", 0), die(3 if bottom_is_light else 2,
                                                               "left", 1))
    script.stable(Position.initial(), dice)
    start = Position.initial().with_turn(DARK)
    after = start.result_of(parse_play(start, "13/7 6/4", 6, 2))
    script.stable(after, dice)
    script.stable(after)
    referee, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert not _calls(events)
    plays = [(e.player, e.data["legal"], e.data["move"], e.data["dice"]) for e in events
             if e.event == "play"]
    assert plays == [("dark", True, "13/7 6/4", [6, 2])]
    assert referee.game.turn == LIGHT


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_one_die_played_that_a_six_would_explain_is_still_called(seating: Seating) -> None:
    # 960b5e2b053c seed 16: 5-3, only the 5 played.  Here dark holds light's 4- and
    # 3-points: with 6-5 the 6 cannot be played and 10/5 alone is legal, but with 5-3
    # it leaves the 3 unplayed, and that is what it looks like.
    start = position({10: 1, 9: 1, 6: 3, 5: 3, 2: 3, 1: 4}, {21: 2, 22: 2, 13: 3, 8: 3, 6: 5})
    after = shifted(start, "10/5")
    assert judge(start, after.with_turn(DARK), 5, 3).legal is False
    assert judge_play(start, read_board(observe(after.with_turn(DARK), seating)), seating,
                      (6, 5)).kind == "legal"
    script = Script(seating).setup()
    script.operator("set_position", position_id=start.position_id(), turn="light")
    thrown = script.throw(start, LIGHT, (5, 3))
    script.stable(after, thrown)
    script.stable(after)
    _, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert _calls(events) == [("illegal_play", "light")]
