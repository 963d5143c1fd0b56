"""Plays in bearing off with no tray in view, and boards the rules name no rule for.

With no tray in view a checker missing from the board may be borne off or
hidden (held in a hand, covered).  The referee calls the play only when it
is illegal wherever the missing checker is; otherwise it asks the players
to look.  A board the rules engine calls only ``unreachable`` is called when
one checker set right makes it a legal play (a pip off in bearing off, a die
left unplayed), and is a warning when further from every legal play.
"""

import dataclasses

import pytest

from controller.referee.board import read_board
from controller.referee.machine import Referee
from controller.referee.plays import (
    Plausibility,
    hidden_could_be_legal,
    judge_play,
    near_legal,
)
from controller.referee.settings import RefereeSettings
from controller.rules.judge import judge
from controller.rules.notation import parse_play
from controller.rules.physical import Seating
from controller.rules.position import Position
from tests.referee_streams import LIGHT, SEATINGS, Script, names, observe, run, shifted
from vision.observation import Counts, Observation

STRICT = RefereeSettings(mode="strict")
PLAYERS = RefereeSettings(mode="players")


def position(light: dict[int, int], dark: dict[int, int]) -> Position:
    """Light (on roll) and dark by point from each one's own side; the rest borne off."""
    rows = []
    for counts in (light, dark):
        row = [0] * 26
        for point, count in counts.items():
            row[point] = count
        row[0] = 15 - sum(row)
        rows.append(row)
    return Position(rows[0], rows[1], LIGHT)


OUTSIDE = position({8: 1, 6: 4, 5: 3, 4: 3, 3: 2, 2: 2}, {6: 5, 5: 5, 4: 5})
"""Light has one checker outside, on the 8-point; no contact."""
HOME = position({6: 2, 5: 3, 3: 4, 2: 3, 1: 1}, {6: 5, 5: 5, 4: 5})
"""Light bearing off, two checkers already off."""


def _script(seating: Seating, start: Position, dice: tuple[int, int], after: Position, *,
            tray: bool, seen: Observation | None = None) -> Script:
    """From ``start`` (set by hand, light on roll): light throws, shows ``after`` (or the
    observation ``seen``) and picks up the dice."""
    script = Script(seating, tray=tray).setup()
    script.operator("set_position", position_id=start.position_id(), turn="light")
    thrown = script.throw(start, LIGHT, dice)
    if seen is None:
        script.stable(after, thrown)
        script.stable(after)
    else:
        script.observation(dataclasses.replace(seen, dice=thrown))
        script.observation(seen)
    return script


def _judge(before: Position, seen: Observation, dice: tuple[int, int],
           seating: Seating = SEATINGS[0]) -> str:
    return judge_play(before, read_board(seen), seating, dice).kind


def _without_a_checker_on(seen: Observation, seating: Seating, point: int) -> Observation:
    """``seen`` with one of light's checkers on light's ``point`` not on the board."""
    index = _physical_index(seating, point)
    points = list(seen.points)
    c = points[index]
    assert c.light > 0
    points[index] = Counts(c.light - 1, c.dark)
    return dataclasses.replace(seen, points=tuple(points))


def _physical_index(seating: Seating, point: int) -> int:
    """Where light's ``point`` lies among the camera's 24 points under ``seating``."""
    probe = position({point: 1}, {})
    board = observe(probe, seating)
    return next(i for i, c in enumerate(board.points) if c.light)


# -- no tray in view: borne off or hidden? -------------------------------------


def test_bearing_off_with_a_checker_outside_is_illegal_wherever_the_missing_one_is() -> None:
    after = shifted(OUTSIDE, "8/7 6/off")        # 6-1: the 6 borne off, the 8-point checker out
    assert not judge(OUTSIDE, after, 6, 1).legal
    assert not hidden_could_be_legal(OUTSIDE, after, (6, 1))
    seen = observe(after, SEATINGS[0], tray=False)
    assert seen.off is None
    assert _judge(OUTSIDE, seen, (6, 1)) == "illegal"


def test_a_legal_play_with_a_checker_in_the_hand_is_a_warning() -> None:
    play = parse_play(OUTSIDE, "8/2 6/5", 6, 1)
    after = OUTSIDE.result_of(play)
    for seating in SEATINGS:
        seen = _without_a_checker_on(observe(after, seating, tray=False), seating, 5)
        judgement = judge_play(OUTSIDE, read_board(seen), seating, (6, 1))
        assert judgement.kind == "unclear"
        assert "borne off or hidden" in judgement.reasons[0]


def test_a_die_left_unplayed_in_bearing_off_is_illegal_without_a_tray() -> None:
    after = shifted(HOME, "3/off")                # 3-1: the 1 could be played (3/2 3/off)
    assert not hidden_could_be_legal(HOME, after, (3, 1))
    assert _judge(HOME, observe(after, SEATINGS[1], tray=False), (3, 1), SEATINGS[1]) == "illegal"
    # With the 2-point checker held in a hand instead (3/2 3/off, the checker on 2 lifted),
    # a legal play fits: a warning.
    legal = shifted(HOME, "3/2 3/off")
    seen = _without_a_checker_on(observe(legal, SEATINGS[1], tray=False), SEATINGS[1], 2)
    held = position({6: 2, 5: 3, 3: 2, 2: 3, 1: 1}, {6: 5, 5: 5, 4: 5})   # as inferred
    assert hidden_could_be_legal(HOME, held, (3, 1))
    assert _judge(HOME, seen, (3, 1), SEATINGS[1]) == "unclear"


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_strict_calls_a_bear_off_from_outside_with_no_tray(seating: Seating) -> None:
    after = shifted(OUTSIDE, "8/7 6/off")
    script = _script(seating, OUTSIDE, (6, 1), after, tray=False)
    _, events = run(Referee.new(STRICT), script.inputs)
    assert names(events)[-3:] == ["roll", "play", "illegal_play"]
    assert events[-1].data["reasons"] == ["bearing off with a checker outside the home board"]


def test_players_mode_a_bear_off_from_outside_with_no_tray_lights_the_call() -> None:
    after = shifted(OUTSIDE, "8/7 6/off")
    script = _script(SEATINGS[3], OUTSIDE, (6, 1), after, tray=False)
    referee, events = run(Referee.new(PLAYERS), script.inputs)
    assert names(events)[-2:] == ["roll", "play"] and events[-1].data["legal"] is False
    assert referee.panel().call_steady


@pytest.mark.parametrize("mode", [STRICT, PLAYERS], ids=["strict", "players"])
def test_a_checker_held_after_a_legal_play_is_never_a_call(mode: RefereeSettings) -> None:
    seating = SEATINGS[2]
    after = OUTSIDE.result_of(parse_play(OUTSIDE, "8/2 6/5", 6, 1))
    seen = _without_a_checker_on(observe(after, seating, tray=False), seating, 2)
    script = _script(seating, OUTSIDE, (6, 1), after, tray=False, seen=seen)
    _, events = run(Referee.new(mode), script.inputs)
    assert "illegal_play" not in names(events)
    assert names(events)[-1] == "warning:look"
    assert not any(e.event == "play" and e.data["legal"] is False for e in events)


def test_a_checker_back_from_an_unseen_tray_is_a_warning() -> None:
    # Three light checkers off before; the board shows thirteen (one back on the 3-point).
    before = position({6: 2, 5: 3, 3: 3, 2: 3, 1: 1}, {6: 5, 5: 5, 4: 5})
    seen = observe(HOME, SEATINGS[0], tray=False)
    judgement = judge_play(before, read_board(seen), SEATINGS[0], (4, 1))
    assert judgement.kind == "unclear"
    assert "borne off or hidden" in judgement.reasons[0]


# -- boards the rules engine names no rule for ---------------------------------


def test_an_unreachable_board_one_checker_from_a_legal_play_is_called() -> None:
    after = shifted(HOME, "3/off")                # 3-2: the 2 left unplayed
    verdict = judge(HOME, after, 3, 2)
    assert [k.value for k in verdict.kinds] == ["unreachable"]
    assert near_legal(HOME, after, (3, 2), 1)
    judgement = judge_play(HOME, read_board(observe(after, SEATINGS[0])), SEATINGS[0], (3, 2))
    assert judgement.kind == "illegal"
    assert judgement.reasons == verdict.reasons
    # Asking for a board nearer than one checker turns it back into a warning.
    judgement = judge_play(HOME, read_board(observe(after, SEATINGS[0])), SEATINGS[0], (3, 2),
                           Plausibility(vague_within=0))
    assert judgement.kind == "unclear"


def test_an_unreachable_board_further_from_every_legal_play_is_a_warning() -> None:
    after = shifted(OUTSIDE, "8/3 6/off")         # 6-1: two checkers from any legal play
    verdict = judge(OUTSIDE, after, 6, 1)
    assert [k.value for k in verdict.kinds] == ["unreachable"]
    assert not near_legal(OUTSIDE, after, (6, 1), 1)
    judgement = judge_play(OUTSIDE, read_board(observe(after, SEATINGS[0])), SEATINGS[0], (6, 1))
    assert judgement.kind == "unclear"


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_strict_calls_a_die_left_unplayed_in_bearing_off(seating: Seating) -> None:
    after = shifted(HOME, "3/off")
    script = _script(seating, HOME, (3, 2), after, tray=True)
    _, events = run(Referee.new(STRICT), script.inputs)
    assert names(events)[-3:] == ["roll", "play", "illegal_play"]
    assert "cannot be reached with 3-2" in events[-1].data["reason"]
