"""Dice in the opponent's half while the player on turn could have danced unseen.

Rendered 7e15fdd04acc and 28de820384cd seed 102 (players mode): light on the bar,
light's 6-6 (a dance) lay 2.9 s and the camera never saw it; dark's 6-2 then lay in
dark's half with nothing moved, exactly a throw of light's in the wrong half, and
was called ``wrong_half``.  When the player on turn could have danced (a checker on
the bar, a roll that shuts it out), the call waits for what the players do: the dice
picked up with nothing moved (or the same player's throw again into their own
half) is the thrower's void throw, ``reroll`` (wrong_half) then; the opponent's
checkers played is the opponent's throw, the dance unseen (a ``look`` with
``resync``, or the dance recorded when only one roll dances), and the opponent's
play is judged.  A player who cannot dance is called at once, as before.
"""

import pytest

from controller.referee.events import RefereeEvent
from controller.referee.machine import Referee, Stage
from controller.referee.settings import RefereeSettings
from controller.rules.notation import parse_play
from controller.rules.physical import Seating
from controller.rules.position import Position
from tests.referee_streams import DARK, LIGHT, SEATINGS, Script, names, run, shifted
from tests.test_referee_tray import position

CALLS = ("illegal_play", "reroll", "call_upheld")
MODES = [RefereeSettings(mode="strict"), RefereeSettings(mode="players")]
MODE_IDS = ["strict", "players"]


def _on_bar(bar: int = 1) -> Position:
    """Light to roll with ``bar`` checkers on the bar against dark's home board closed
    but for the 6-point: every roll without a 6 dances (25 of 36)."""
    light = {6: 5, 8: 3, 13: 7 - bar, 25: bar}
    return position(light, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 13: 5})


def _calls(events: list[RefereeEvent]) -> list[tuple[str, str | None, object]]:
    return [(e.event, e.player, e.data.get("reason")) for e in events if e.event in CALLS]


def _start(seating: Seating, start: Position) -> Script:
    script = Script(seating).setup()
    script.operator("set_position", position_id=start.position_id(), turn="light")
    return script


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
@pytest.mark.parametrize("settings", MODES, ids=MODE_IDS)
def test_the_opponents_throw_after_a_dance_never_seen_is_no_call(
        seating: Seating, settings: RefereeSettings) -> None:
    start = _on_bar()
    script = _start(seating, start)
    # Light's dance is never seen; dark throws 6-2 into dark's half and plays it.
    dark = start.with_turn(DARK)
    dice = script.throw(dark, DARK, (6, 2))
    after = script.play(dark, parse_play(dark, "13/7 13/11", 6, 2), dice)
    referee, events = run(Referee.new(settings), script.inputs)
    assert not _calls(events)
    plays = [(e.player, e.data["legal"], e.data["move"]) for e in events if e.event == "play"]
    assert plays == [("dark", True, "13/11 13/7")]
    assert any(e.event == "warning" and e.data.get("resync") for e in events)
    assert referee.game.turn == LIGHT and referee.stage is Stage.ROLL
    assert referee.game.position.key == after.with_turn(LIGHT).key


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
@pytest.mark.parametrize("settings", MODES, ids=MODE_IDS)
def test_a_throw_in_the_wrong_half_picked_up_with_nothing_moved_is_called(
        seating: Seating, settings: RefereeSettings) -> None:
    start = _on_bar()
    script = _start(seating, start)
    # Light throws 6-3 into dark's half, picks it up and throws again into their own.
    script.throw(start, DARK, (6, 3))
    held = len(script.inputs)
    script.stable(start)
    script.throw(start, LIGHT, (6, 3))
    referee, events = run(Referee.new(settings), script.inputs)
    assert _calls(events) == [("reroll", "light", "wrong_half")]
    # Not before the pick-up: the dice lying there are a warning.
    _, before = run(Referee.new(settings), script.inputs[:held])
    assert not _calls(before) and names(before)[-1] == "warning:dice"
    rolls = [(e.player, e.data["dice"]) for e in events if e.event == "roll"]
    assert rolls == [("light", [6, 3])]
    assert referee.stage is Stage.PLAY and referee.game.turn == LIGHT


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_throw_in_the_wrong_half_thrown_again_at_once_is_called(seating: Seating) -> None:
    # The pick-up too quick to settle: the rethrow into light's own half tells.
    start = _on_bar()
    script = _start(seating, start)
    script.throw(start, DARK, (6, 3))
    script.throw(start, LIGHT, (5, 4), spot=2)
    referee, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert _calls(events) == [("reroll", "light", "wrong_half")]
    assert [(e.player, e.data["dice"]) for e in events if e.event == "roll"] == \
        [("light", [5, 4])]
    assert referee.stage is Stage.PLAY and referee.game.turn == LIGHT


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_the_thrower_playing_a_throw_in_the_wrong_half_is_called(seating: Seating) -> None:
    start = _on_bar()
    script = _start(seating, start)
    dice = script.throw(start, DARK, (6, 3))
    script.move_to(start, shifted(start, "bar/19 13/10"), dice)
    _, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert _calls(events) == [("reroll", "light", "wrong_half")]


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_player_who_cannot_dance_is_called_at_once(seating: Seating) -> None:
    start = _on_bar(bar=0)
    script = _start(seating, start)
    script.throw(start, DARK, (6, 3))
    _, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert _calls(events) == [("reroll", "light", "wrong_half")]


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_the_opponent_hitting_after_a_dance_never_seen_is_their_play(seating: Seating) -> None:
    # Light's checkers change only by being hit: still the opponent's play.
    start = position({6: 5, 8: 2, 13: 6, 18: 1, 25: 1},
                     {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 13: 5})
    script = _start(seating, start)
    dark = start.with_turn(DARK)
    dice = script.throw(dark, DARK, (6, 1))
    script.play(dark, parse_play(dark, "13/7*/6", 6, 1), dice)
    _, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert not _calls(events)
    plays = [(e.player, e.data["legal"]) for e in events if e.event == "play"]
    assert plays == [("dark", True)]


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_both_sides_checkers_changed_at_the_pick_up_is_no_call(seating: Seating) -> None:
    start = _on_bar()
    script = _start(seating, start)
    dice = script.throw(start, DARK, (6, 3))
    both = shifted(shifted(start, "13/10"), "13/7")  # light's 13/10, then dark's 13/7
    script.move_to(start, both, dice)
    _, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert not _calls(events)
    assert any(e.event == "warning" and e.data.get("resync") for e in events)


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_the_held_dice_read_elsewhere_in_that_half_are_still_waited_on(
        seating: Seating) -> None:
    # The dice read in another place of the opponent's half (a die nudged, read again):
    # still no pick-up, so no call; the opponent then plays them.
    start = _on_bar()
    script = _start(seating, start)
    dark = start.with_turn(DARK)
    script.throw(dark, DARK, (6, 2))
    moved = script.throw(dark, DARK, (6, 2), spot=2)
    script.play(dark, parse_play(dark, "13/7 13/11", 6, 2), moved)
    _, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert not _calls(events)
    assert [(e.player, e.data["legal"]) for e in events if e.event == "play"] == \
        [("dark", True)]
