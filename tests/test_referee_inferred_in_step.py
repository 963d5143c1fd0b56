"""A roll the camera never saw, inferred from the play, puts the record back in step.

Checkers moving with no dice seen are a ``moved`` warning: the board has parted from
the record, and the next plays are judged leniently (an illegal-looking play is a
look, not a call).  When the opponent then throws and exactly one roll's legal play
explains the board, the parting was that play: the roll and play are recorded
(inferred), the record is back with the board, and the lenience goes back to what it
was, so the opponent's own illegal play right after is judged as usual (rendered
28de820384cd seed 28: a 6-6 unseen, inferred at the opponent's throw, and the
opponent's planted one_die mistake right after it left uncalled).  When several
rolls fit and leave the same board, the roll is in doubt but the position is not:
the play is recorded with one of them, and the next play is judged the same way
(seed 9).
When no roll explains the board, the resync is lenient as before.
"""

import pytest

from controller.referee.machine import Referee
from controller.referee.settings import RefereeSettings
from controller.rules.notation import parse_play
from controller.rules.physical import Seating
from tests.referee_streams import DARK, LIGHT, SEATINGS, half_of, run, shifted, throw
from tests.test_referee_throws import _to_roll

CALLS = ("illegal_play", "reroll", "call_upheld")


def _referee(mode: str) -> Referee:
    return Referee.new(RefereeSettings(mode=mode))  # type: ignore[arg-type]


@pytest.mark.parametrize("mode", ["strict", "players"])
@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_after_a_roll_inferred_from_the_play_the_next_illegal_play_is_judged(
        seating: Seating, mode: str) -> None:
    script, position = _to_roll(seating)
    dark = position.with_turn(DARK)
    play = parse_play(dark, "24/13", 6, 5)
    after = dark.result_of(play)
    assert [(h, lo) for h in range(1, 7) for lo in range(1, h + 1)
            if dark.legal_play_to(after, h, lo)] == [(6, 5)]
    script.stable(dark.result_of(play.__class__(play.moves[:1], (6, 5))))  # no dice seen
    script.stable(after)
    light = after.with_turn(LIGHT)
    dice = script.throw(light, LIGHT, (3, 1), spot=2)
    # Light plays only the 3 (13/10), the 1 left unplayed: a mistake to judge.
    wrong = shifted(light, "13/10")
    script.stable(wrong, dice)
    script.stable(wrong)
    _, events = run(_referee(mode), script.inputs)
    rolls = [(e.player, e.data.get("inferred", False)) for e in events if e.event == "roll"]
    assert rolls[-2:] == [("dark", True), ("light", False)]
    last = [e for e in events if e.event == "play"][-1]
    assert (last.player, last.data["legal"]) == ("light", False)
    assert not any(e.data.get("resync") for e in events if e.event == "warning")
    calls = [(e.event, e.player) for e in events if e.event in CALLS]
    assert calls == ([("illegal_play", "light")] if mode == "strict" else [])


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
@pytest.mark.parametrize("mode", ["strict", "players"])
def test_when_several_rolls_leave_the_same_board_the_next_illegal_play_is_judged(
        seating: Seating, mode: str) -> None:
    # 8/5 6/5 is a legal 3-1 and a legal 1-1: the roll is in doubt (the play recorded
    # with one of them), the position is not (rendered 28de820384cd seed 9: 4-3 or 5-2).
    script, position = _to_roll(seating)
    dark = position.with_turn(DARK)
    after = dark.result_of(parse_play(dark, "8/5 6/5", 3, 1))
    assert len([(h, lo) for h in range(1, 7) for lo in range(1, h + 1)
                if dark.legal_play_to(after, h, lo)]) > 1
    script.stable(after)
    light = after.with_turn(LIGHT)
    dice = throw((3, 1), half_of(seating, LIGHT), 2)
    script.stable(light, dice)
    wrong = shifted(light, "13/10")
    script.stable(wrong, dice)
    script.stable(wrong)
    _, events = run(_referee(mode), script.inputs)
    assert not any(e.data.get("resync") for e in events if e.event == "warning")
    assert [(e.player, e.data["move"]) for e in events if e.event == "play"][-2] == \
        ("dark", "8/5 6/5")
    last = [e for e in events if e.event == "play"][-1]
    assert (last.player, last.data["legal"]) == ("light", False)
    calls = [(e.event, e.player) for e in events if e.event in CALLS]
    assert calls == ([("illegal_play", "light")] if mode == "strict" else [])


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_when_no_roll_explains_the_board_the_next_illegal_play_stays_a_look(
        seating: Seating) -> None:
    script, position = _to_roll(seating)
    dark = position.with_turn(DARK)
    after = shifted(dark, "24/23 13/2")  # three dice' worth: no roll leaves it
    assert not [(h, lo) for h in range(1, 7) for lo in range(1, h + 1)
                if dark.legal_play_to(after, h, lo)]
    script.stable(after)
    light = after.with_turn(LIGHT)
    dice = throw((3, 1), half_of(seating, LIGHT), 2)
    script.stable(light, dice)
    wrong = shifted(light, "13/10")
    script.stable(wrong, dice)
    script.stable(wrong)
    _, events = run(_referee("strict"), script.inputs)
    assert not [e for e in events if e.event in CALLS]
    assert sum(1 for e in events if e.event == "warning" and e.data.get("resync")) == 2
