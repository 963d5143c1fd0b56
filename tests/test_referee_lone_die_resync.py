"""A play no roll explains, then the opponent's throw seen as one die: the referee goes
on from the board (a resync, a look), so the game is followed again.

The referee waited for two dice of the opponent's throw before leaving a play it
could not judge; with the vision missing one of the opponent's dice throw after
throw (rendered 7e15fdd04acc seed 7 from t=208: the record taken from a misread
board, then every dark throw seen as one die) no play was recorded for the rest of
the game.  One die in the opponent's half on a board no play explains is the
opponent's throw seen in part: the game goes on from the board, the opponent to
play, and the roll stage infers the roll from their play (or goes on from the board
again).  Never a call.
"""

import pytest

from controller.referee.events import RefereeEvent
from controller.referee.machine import Referee
from controller.referee.settings import RefereeSettings
from controller.rules.notation import parse_play
from controller.rules.physical import Seating
from tests.referee_streams import DARK, LIGHT, SEATINGS, Script, die, half_of, run, shifted
from tests.test_referee_tray import position

RACE = position({6: 2, 5: 2, 4: 2, 3: 2, 2: 1, 1: 1}, {6: 3, 5: 3, 4: 3, 3: 2, 2: 1})
"""Both bearing off, light on roll."""
CALLS = ("illegal_play", "reroll", "call_upheld")


def _plays(events: list[RefereeEvent]) -> list[tuple[str | None, object]]:
    return [(e.player, e.data["move"]) for e in events if e.event == "play"]


@pytest.mark.parametrize("mode", ("strict", "players"))
@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_lone_die_of_the_opponent_after_a_play_no_roll_explains_resyncs(
        seating: Seating, mode: str) -> None:
    script = Script(seating).setup()
    script.operator("set_position", position_id=RACE.position_id(), turn="light")
    dice = script.throw(RACE, LIGHT, (2, 1))
    # Four checkers gone with 2-1: two checkers from every legal play of the roll (the
    # record, or the reading, gone wrong): not judged.
    seen = shifted(RACE, "6/off 6/off 5/off 5/off").with_turn(DARK)
    script.stable(seen, dice)
    script.stable(seen)
    # Dark throws 4-3; only the 4 is seen.  Dark plays 4/off 3/off.
    lone = (die(4, half_of(seating, DARK), 2),)
    script.stable(seen, lone)
    after = seen.result_of(parse_play(seen, "4/off 3/off", 4, 3))
    script.stable(after, lone)
    script.stable(after)
    # Light throws 2-1 and plays 2/off 1/off: recorded.
    light = after.with_turn(LIGHT)
    thrown = script.throw(light, LIGHT, (2, 1))
    script.play(light, parse_play(light, "2/off 1/off", 2, 1), thrown)
    script.throw(light.result_of(parse_play(light, "2/off 1/off", 2, 1)), DARK, (6, 6),
                 spot=2)
    _, events = run(Referee.new(RefereeSettings(mode=mode)), script.inputs)  # type: ignore[arg-type]
    assert not [e for e in events if e.event in CALLS]
    assert any(e.event == "warning" and e.data.get("resync")
               and "dark has thrown" in str(e.data["detail"]) for e in events)
    assert ("light", "2/off 1/off") in _plays(events)
