"""Players mode: an illegal play left uncalled, then the opponent's throw seen in part.

Seen on rendered streams (``bench/referee_stream_latency.py --causes``, streams
28de820384cd seed 28 t=87.7, seed 12 t=133.0): dark's illegal play stood
uncalled; light threw and the camera read one die only.  Light played and
picked the dice up, but while the call window stayed open the board after
light's play was only looked at as dark putting their own play right, so
light's roll and play were inferred only when dark threw next (1.5-2 s after
the pick-up, and the ``play_stands`` too late for the opponent's throw).
Light's die seen in light's half and light's checkers moved: light has
thrown, which ends the call window (``play_stands``), and the roll is
inferred from the play at the pick-up, as without a call window.
"""

import pytest

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
    die,
    half_of,
    names,
    run,
    shifted,
)

PLAYERS = RefereeSettings(mode="players")


def _uncalled(seating: Seating) -> tuple[Script, Position]:
    """Light opens 3-1 and plays 13/7 (six pips: illegal) and picks up; dark, to roll,
    may call it until they throw."""
    script = Script(seating).setup()
    dice = script.opening(3, 1)
    after = shifted(Position.initial(), "13/7")
    script.stable(after, dice)
    script.stable(after)
    return script, after.with_turn(DARK)


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_the_opponents_throw_seen_in_part_ends_the_call_window_at_the_pick_up(
        seating: Seating) -> None:
    script, dark = _uncalled(seating)
    # Dark throws 6-4; the camera sees the 6 only.  Dark plays 24/18 13/9, picks up.
    six = die(6, half_of(seating, DARK), 1)
    script.stable(dark, (six,))
    play = parse_play(dark, "24/18 13/9", 6, 4)
    mid = shifted(dark, "24/18")
    script.stable(mid, (six,))
    after = dark.result_of(play)
    script.stable(after, (six,))
    script.stable(after)
    referee, events = run(Referee.new(PLAYERS), script.inputs)
    # Decided at the pick-up, not when light throws next.
    assert names(events)[-3:] == ["play_stands", "roll", "play"]
    stands, roll, played = events[-3:]
    assert stands.player == "light" and stands.data["move"] == "13/7"
    assert roll.player == "dark" and roll.data == {"dice": [6, 4], "inferred": True}
    assert played.player == "dark" and played.data["legal"] is True
    assert played.data["move"] == str(play)
    assert not [e for e in events if e.event in ("illegal_play", "reroll", "call_upheld")]
    assert referee.stage is Stage.ROLL and referee.game.turn == LIGHT
    assert referee.game.position == after.with_turn(LIGHT)
    assert referee.call is None
    # A call now is too late.
    script.press("call", LIGHT)
    referee, events = run(Referee.new(PLAYERS), script.inputs)
    assert names(events)[-1] == "warning:call"


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_board_no_roll_with_the_die_seen_explains_keeps_the_call_window(
        seating: Seating) -> None:
    script, dark = _uncalled(seating)
    six = die(6, half_of(seating, DARK), 1)
    script.stable(dark, (six,))
    # 24/18 13/9 13/10: more than any roll with a 6 (but a double) can make: no roll fits.
    after = shifted(dark, "24/18 13/9 13/10")
    script.stable(after, (six,))
    script.stable(after)
    referee, events = run(Referee.new(PLAYERS), script.inputs)
    assert "play_stands" not in names(events) and "roll" not in names(events)[-2:]
    assert referee.call is not None and referee.game.turn == DARK
    # Nothing decided on a guess: dark may still call light's play.
    script.press("call", DARK)
    referee, events = run(Referee.new(PLAYERS), script.inputs)
    assert "call_upheld" in names(events)


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_the_mover_putting_their_play_right_is_still_seen_with_a_die_down(
        seating: Seating) -> None:
    script, dark = _uncalled(seating)
    six = die(6, half_of(seating, DARK), 1)
    script.stable(dark, (six,))
    # Light takes back 13/7 (the board as before the opening play) while dark's lone
    # die lies: nothing inferred for dark, the call window is what it was.
    start = Position.initial().with_turn(LIGHT)
    script.stable(start, (six,))
    script.stable(start)
    referee, events = run(Referee.new(PLAYERS), script.inputs)
    assert referee.stage is Stage.RESTORE
    assert "play_stands" not in names(events) and "roll" not in names(events)[3:]
    assert names(events)[-1] == "position_restored" and events[-1].player == "light"
    assert not [e for e in events if e.event in ("illegal_play", "reroll", "call_upheld")]
