"""*Players* mode: an illegal-looking play that stood was a misreading, and the mover's
next play, read right, is legal only with it set right.

A stack of six read as seven with the tray one short makes a legal ``3/off 2/off``
look like ``3/off`` alone (a die left unplayed): judged illegal, the call light lit,
and when the opponent throws instead the play stands and the record takes the board
as read.  The mover's next play, the board read right again, then looks like a
checker too many borne off against that record (rendered 28de820384cd seeds 18, 72
and 84: a second false illegal verdict).  When it is a legal play from the record
with the stood play taken as the one legal play a checker away from it, the record
follows that board (a ``look`` warning with ``resync``, a divergence) and the play is
recorded as legal; a play illegal from there too is judged illegal as before.
"""

from dataclasses import replace

import pytest

from controller.referee.events import RefereeEvent
from controller.referee.machine import Referee, Stage, _Out
from controller.referee.settings import RefereeSettings
from controller.rules.notation import parse_play
from controller.rules.physical import Seating
from controller.rules.position import Position
from tests.referee_streams import DARK, LIGHT, SEATINGS, Script, run, shifted
from tests.test_referee_tray import position

SEVEN = position({3: 1, 2: 7, 1: 2}, {6: 5, 5: 5, 4: 5})
"""Light bearing off with seven on the 2-point; 4-3 bears off two (3/off 2/off), the
only legal result, and leaves six there."""
PLAYERS = RefereeSettings(mode="players")


def _plays(events: list[RefereeEvent]) -> list[tuple[str | None, object, object]]:
    return [(e.player, e.data["legal"], e.data["move"]) for e in events if e.event == "play"]


def _stood_then(seating: Seating, second: str) -> tuple[Script, Position]:
    """Light plays 3/off 2/off with 4-3, read as 3/off (the 2-point's six read as seven,
    the tray one short); dark throws (the play stands) and plays; light throws 2-1 on
    the board misread the same way and shows the true board after ``second`` (moves
    from the true position, legal or not).  The script and the true board at the end."""
    legal = SEVEN.result_of(parse_play(SEVEN, "3/off 2/off", 4, 3))
    misread = shifted(SEVEN, "3/off")
    script = Script(seating).setup()
    script.operator("set_position", position_id=SEVEN.position_id(), turn="light")
    thrown = script.throw(SEVEN, LIGHT, (4, 3))
    script.stable(misread, thrown)
    script.stable(misread)
    dark = misread.with_turn(DARK)
    dice = script.throw(dark, DARK, (4, 1), spot=2)
    play = dark.legal_plays(4, 1)[0]
    script.play(dark, play, dice)
    truth = legal.with_turn(DARK).result_of(play).with_turn(LIGHT)
    # Light's throw still lies on the board misread the same way (the record's).
    rows = [list(truth.layout(p)) for p in (LIGHT, DARK)]
    rows[LIGHT][2] += 1
    rows[LIGHT][0] -= 1
    dice = script.throw(Position(rows[0], rows[1], LIGHT), LIGHT, (2, 1))
    after = shifted(truth, second)
    script.stable(after, dice)
    script.stable(after)
    return script, after


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_the_next_play_legal_with_the_stood_play_set_right_is_recorded(
        seating: Seating) -> None:
    script, after = _stood_then(seating, "2/off 1/off")
    referee, events = run(Referee.new(PLAYERS), script.inputs)
    assert [p[:2] for p in _plays(events)] == [("light", False), ("dark", True),
                                               ("light", True)]
    look = [e for e in events if e.event == "warning" and e.data.get("resync")]
    assert len(look) == 1 and "stood as read" in str(look[0].data["detail"])
    assert referee.stage is Stage.ROLL and referee.game.turn == DARK
    assert referee.game.position.key == after.with_turn(DARK).key


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_next_play_illegal_from_there_too_is_judged_illegal(seating: Seating) -> None:
    # Only the 2 played, the 1 left: illegal whichever board it is played from.
    script, _ = _stood_then(seating, "2/off")
    _, events = run(Referee.new(PLAYERS), script.inputs)
    assert [p[:2] for p in _plays(events)] == [("light", False), ("dark", True),
                                               ("light", False)]
    assert not any(e.data.get("resync") for e in events if e.event == "warning")


def test_what_a_stood_play_kept_is_dropped_when_a_new_game_starts() -> None:
    # A new game's record owes nothing to the last game's misreadings (nor does a
    # resync's: the record is then taken afresh from the board).
    kept = replace(Referee.new(PLAYERS), stood=(LIGHT, ((1, 1, 0), (25, -1, 0))))
    assert kept._start_game(SEATINGS[0], _Out(0.0)).stood is None
