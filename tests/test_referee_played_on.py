"""The opponent's throw seen only once they have played on it (issue 5).

Rendered 7e15fdd04acc seed 112 t=41.6: the vision reported a hand over the board
(wrongly) through dark's play, light's throw and light's play; the first clear
board showed light's dice lying and both plays made.  Dark's play could not be
judged (light's checkers had moved too), the referee went on from the board as it
stood with light's play taken into it, and light's pick-up then looked like dice
taken back without playing: neither play was recorded.  When exactly one legal
play of the mover's roll leaves a position from which the board is a legal play
of the dice lying there, that is the mover's play (recorded, a ``look``), and the
thrower's play is judged at their pick-up as usual.  Anything else goes on from
the board as before; never a call.
"""

import pytest

from controller.referee.machine import Referee, Stage
from controller.referee.settings import RefereeSettings
from controller.rules.physical import Seating
from controller.rules.position import Position
from tests.referee_streams import (
    DARK,
    LIGHT,
    SEATINGS,
    Script,
    half_of,
    run,
    shifted,
    throw,
)

MODES = [RefereeSettings(mode="strict"), RefereeSettings(mode="players")]


def _dark_threw(seating: Seating) -> tuple[Script, Position]:
    """Light opens 3-1 with 8/5 6/5; dark throws 4-2 (seen); dark on roll."""
    script = Script(seating).setup()
    dice = script.opening(3, 1)
    after = shifted(Position.initial(), "8/5 6/5")
    script.stable(after, dice)
    script.stable(after)
    dark = after.with_turn(DARK)
    script.throw(dark, DARK, (4, 2))
    return script, dark


@pytest.mark.parametrize("settings", MODES, ids=lambda s: s.mode)
@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_the_movers_play_is_recorded_and_the_throwers_judged_at_the_pick_up(
        seating: Seating, settings: RefereeSettings) -> None:
    script, dark = _dark_threw(seating)
    played = shifted(dark, "13/9 13/11").with_turn(LIGHT)
    both = shifted(played, "13/7 13/8")
    lying = throw((6, 5), half_of(seating, LIGHT), 2)
    script.stable(both, lying)   # first clear board: both plays made, light's dice down
    script.stable(both)          # light picks up
    referee, events = run(Referee.new(settings), script.inputs)
    plays = [(e.player, e.data["move"], e.data["legal"]) for e in events if e.event == "play"]
    assert plays[-2:] == [("dark", "13/11 13/9", True), ("light", "13/8 13/7", True)]
    assert [e.data["dice"] for e in events if e.event == "roll"][-1] == [6, 5]
    assert any(e.event == "warning" and e.data["reason"] == "look"
               and "dark's play taken as 13/11 13/9" in str(e.data["detail"]) for e in events)
    assert not [e for e in events if e.event in ("illegal_play", "reroll")]
    assert not [e for e in events if e.event == "warning" and e.data.get("resync")]
    assert referee.stage is Stage.ROLL and referee.game.turn == DARK
    assert referee.game.position == both.with_turn(DARK)


@pytest.mark.parametrize("settings", MODES, ids=lambda s: s.mode)
@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_board_no_pair_of_plays_explains_goes_on_from_the_board(
        seating: Seating, settings: RefereeSettings) -> None:
    # Light moved 13/3 13/10 with 6-5 (13 pips, two checkers): no legal play of light's from
    # any play of dark's: the game goes on from the board as before, nothing recorded.
    script, dark = _dark_threw(seating)
    played = shifted(dark, "13/9 13/11").with_turn(LIGHT)
    both = shifted(played, "13/3 13/10")
    lying = throw((6, 5), half_of(seating, LIGHT), 2)
    script.stable(both, lying)
    referee, events = run(Referee.new(settings), script.inputs)
    assert not [e for e in events if e.event == "play" and e.player == "dark"]
    assert any(e.event == "warning" and e.data.get("resync") for e in events)
    assert not [e for e in events if e.event in ("illegal_play", "reroll")]
    assert referee.stage is Stage.PLAY and referee.game.turn == LIGHT
