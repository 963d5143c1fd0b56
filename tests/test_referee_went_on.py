"""Back in step after a call the players did not act on (RESTORE, strict mode or a
call upheld in players mode).

The referee waits for the position before the play.  When the opponent throws on the
board as it stands, that is a ``dice`` warning (the position must be put right
first), and the players may still put it right.  But when the opponent then moves
their checkers, the players went on without the call (the call was the camera's
mistake, or the restoring and the replay were not seen): the referee resyncs from
the board the throw lay on (a ``look`` warning), the throw is the opponent's roll,
and their play is judged.  Waiting instead left the referee out of step for the rest
of the game (rendered 28de820384cd seed 39: a stack of five read as six called in
strict mode at 195.7 s, and nothing judged after it).
"""

import pytest

from controller.referee.events import RefereeEvent
from controller.referee.machine import Referee, Stage
from controller.referee.settings import RefereeSettings
from controller.rules.notation import parse_play
from controller.rules.physical import Seating
from controller.rules.position import Position
from tests.referee_streams import DARK, LIGHT, SEATINGS, Script, names, run, shifted

START = Position.initial()
CALLS = ("illegal_play", "reroll", "call_upheld")


def _called(seating: Seating, mode: str) -> tuple[Script, Position]:
    """Light opens 3-1 and plays 13/7 (six pips), picks up; strict mode calls it, and in
    players mode dark's call is upheld.  The script and the board as it stands."""
    script = Script(seating).setup()
    dice = script.opening(3, 1)
    after = shifted(START, "13/7")
    script.stable(after, dice)
    script.stable(after)
    if mode == "players":
        script.press("call", DARK)
    return script, after


def _referee(mode: str) -> Referee:
    return Referee.new(RefereeSettings(mode=mode))  # type: ignore[arg-type]


def _calls(events: list[RefereeEvent]) -> list[str]:
    return [e.event for e in events if e.event in CALLS]


@pytest.mark.parametrize("mode", ["strict", "players"])
@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_the_opponent_playing_on_a_board_not_put_right_resyncs(seating: Seating,
                                                               mode: str) -> None:
    script, after = _called(seating, mode)
    referee, _ = run(_referee(mode), script.inputs)
    assert referee.stage is Stage.RESTORE
    dark = after.with_turn(DARK)
    dice = script.throw(dark, DARK, (6, 5), spot=2)
    held, events = run(_referee(mode), script.inputs)
    assert held.stage is Stage.RESTORE and names(events)[-1] == "warning:dice"
    # Dark plays on: the players went on from the board as it stands.
    play = parse_play(dark, "24/18 18/13", 6, 5)
    later = script.play(dark, play, dice)
    referee, events = run(_referee(mode), script.inputs)
    called = 1  # the call on light's play, made before
    assert len(_calls(events)) == called
    resync = [e for e in events if e.event == "warning" and e.data.get("resync")]
    assert len(resync) == 1 and resync[0].data["reason"] == "look"
    rolls = [(e.player, e.data["dice"]) for e in events if e.event == "roll"]
    assert rolls[-1] == ("dark", [6, 5])
    plays = [(e.player, e.data["legal"]) for e in events if e.event == "play"]
    assert plays[-1] == ("dark", True)
    assert referee.stage is Stage.ROLL and referee.game.turn == LIGHT
    assert referee.game.position.key == later.key


@pytest.mark.parametrize("mode", ["strict", "players"])
@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_throw_then_the_position_put_right_still_waits_for_the_replay(
        seating: Seating, mode: str) -> None:
    # Dark throws too soon, picks the dice up, and light puts the position right: the
    # referee is still waiting for light's replay, no resync.
    script, after = _called(seating, mode)
    script.throw(after.with_turn(DARK), DARK, (4, 2), spot=2)
    script.stable(after)
    script.stable(START)
    legal = parse_play(START, "8/5 6/5", 3, 1)
    script.stable(START.result_of(legal))
    script.throw(START.result_of(legal).with_turn(DARK), DARK, (4, 2), spot=1)
    referee, events = run(_referee(mode), script.inputs)
    assert not any(e.data.get("resync") for e in events if e.event == "warning")
    assert names(events)[-4:] == ["warning:dice", "position_restored", "play", "roll"]
    assert referee.stage is Stage.PLAY and referee.game.turn == DARK
