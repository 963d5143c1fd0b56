"""A throw seen in part whose play fits several rolls: decided at the pick-up.

Seen on rendered streams (``bench/referee_stream_latency.py --causes``, streams
7e15fdd04acc seed 28 t=497.4 and t=167.3): dark threw 6-2 and the camera read
the 2 only; dark played 13/5, which 2-2 makes as well as 6-2, and picked the
dice up.  The board after the pick-up read right, but with two rolls fitting
the play was only taken as over when light threw, 1.5-1.8 s later.  The 2 seen
lying in the state before and gone now is the pick-up, which ends the play as
the opponent's throw does: the play is recorded at once, the roll in doubt
(a ``look`` warning naming the rolls).  A die gone a state before the board
changed is no pick-up seen: the referee waits for the throw, as before.
"""

import pytest

from controller.referee.machine import Referee, Stage
from controller.referee.settings import RefereeSettings
from controller.rules.physical import Seating
from tests.referee_streams import (
    DARK,
    LIGHT,
    SEATINGS,
    dark_to_throw,
    die,
    half_of,
    names,
    run,
    shifted,
)

MODES = [RefereeSettings(mode="strict"), RefereeSettings(mode="players")]


@pytest.mark.parametrize("settings", MODES, ids=lambda s: s.mode)
@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_play_fitting_two_rolls_is_recorded_at_the_pick_up(
        seating: Seating, settings: RefereeSettings) -> None:
    script, dark = dark_to_throw(seating)
    # Dark throws 6-2; the camera sees the 2 only.
    two = die(2, half_of(seating, DARK), 1)
    script.stable(dark, (two,))
    # 13/7 half-way (a whole play of 4-2) with the die down: nothing decided.
    script.stable(shifted(dark, "13/7"), (two,))
    after = shifted(dark, "13/5")
    script.stable(after, (two,))
    referee, events = run(Referee.new(settings), script.inputs)
    assert "roll" not in names(events)[-3:] and referee.game.turn == DARK
    # The pick-up: 13/5 fits 6-2 and 2-2, the play is over.
    script.stable(after)
    referee, events = run(Referee.new(settings), script.inputs)
    assert names(events)[-3:] == ["warning:look", "roll", "play"]
    look, roll, played = events[-3:]
    assert "2-2" in str(look.data["detail"]) and "2-6" in str(look.data["detail"])
    assert roll.player == "dark" and roll.data == {"dice": [2, 6], "inferred": True}
    assert played.player == "dark" and played.data["legal"] is True
    assert played.data["move"] == "13/5"
    assert not [e for e in events if e.event in ("illegal_play", "reroll")]
    assert referee.stage is Stage.ROLL and referee.game.turn == LIGHT
    assert referee.game.position == after.with_turn(LIGHT)


@pytest.mark.parametrize("settings", MODES, ids=lambda s: s.mode)
@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_die_gone_before_the_board_changed_waits_for_the_next_throw(
        seating: Seating, settings: RefereeSettings) -> None:
    script, dark = dark_to_throw(seating)
    two = die(2, half_of(seating, DARK), 1)
    script.stable(dark, (two,))
    # The 2 not seen while nothing moved (missed, or picked up before the play):
    # no pick-up seen after the play, so the play is not taken as over.
    script.stable(dark)
    after = shifted(dark, "13/5")
    script.stable(after)
    referee, events = run(Referee.new(settings), script.inputs)
    assert names(events)[-1] == "warning:moved" and referee.game.turn == DARK
    assert "roll" not in names(events)[3:]
    # Light's throw ends it, as before.
    script.throw(after.with_turn(LIGHT), LIGHT, (5, 4))
    referee, events = run(Referee.new(settings), script.inputs)
    assert names(events)[-4:] == ["warning:look", "roll", "play", "roll"]
    assert events[-3].data == {"dice": [2, 6], "inferred": True}
    assert events[-1].player == "light" and events[-1].data["dice"] == [5, 4]
    assert referee.stage is Stage.PLAY and referee.game.turn == LIGHT
