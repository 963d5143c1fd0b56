"""One die of the opening throw seen, the other missed, and the starter plays: the die
seen picks the opening roll out of those the play fits, at the pick-up.

Rendered 1ebf74df850d seed 34 t=5.4: light's 5-1, the 1 never read; light played
13/7, which 5-1 and 4-2 both make.  The lone 5 was not kept, so at the pick-up the
board fitted two opening plays (a ``moved`` warning) and the opening roll and play
waited for dark's throw (1.0 s after the pick-up).  The die seen is now kept as a
hint (``glimpsed``), as the dice of an opening read with a cocked die are: exactly
one fitting roll with that die is recorded (inferred) with the play.  A die that
fits none of the rolls, or several, leaves the warning as before; never a call.
"""

import pytest

from controller.referee.machine import Referee, Stage
from controller.rules.notation import parse_play
from controller.rules.physical import Seating
from controller.rules.position import Position
from tests.referee_streams import DARK, LIGHT, SEATINGS, Script, die, names, run


def _opening_played(seating: Seating, value: int, move: str) -> Script:
    """Light starts: the one die read is light's ``value`` (in light's half), then light
    plays ``move`` (made with the die not read) and picks the die up."""
    script = Script(seating).setup()
    half = "right" if seating.bottom == LIGHT else "left"
    lone = (die(value, half, 0),)
    start = Position.initial()
    script.stable(start, lone)
    after = start.result_of(parse_play(start, move, 5, 1))
    script.stable(after, lone)
    script.stable(after)
    return script


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_the_die_seen_picks_the_opening_roll_at_the_pick_up(seating: Seating) -> None:
    start = Position.initial()
    after = start.result_of(parse_play(start, "13/7", 5, 1))
    assert [(h, lo) for h in range(2, 7) for lo in range(1, h)
            if start.legal_play_to(after, h, lo)] == [(4, 2), (5, 1)]
    referee, events = run(Referee.new(), _opening_played(seating, 5, "13/7").inputs)
    assert names(events) == ["game_start", "opening_roll", "play"]
    assert events[1].player == "light"
    assert events[1].data == {"dice": {"light": 5, "dark": 1}, "tie": False, "inferred": True}
    assert events[2].data["legal"] is True and events[2].data["move"] == "13/7"
    assert referee.stage is Stage.ROLL and referee.game.turn == DARK


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_die_no_fitting_roll_holds_changes_nothing(seating: Seating) -> None:
    referee, events = run(Referee.new(), _opening_played(seating, 3, "13/7").inputs)
    assert names(events) == ["game_start", "warning:moved"]
    assert referee.stage is Stage.OPENING
