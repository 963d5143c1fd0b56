"""A double read with one die's pips missed (6-6 read as 6-3), played in full.

The dice reader misses a six's column of pips (``Plausibility.pips_missed``: a 6
read as a 3).  A play illegal with the roll as read and legal with one 3 read again
as a 6 is recorded with that roll (a ``dice`` warning), never called, when both dice
are played; a roll that becomes a double must be played in full, all four, for the
same reason (a part played is what a die left unplayed looks like).  Before, only
two moves counted as "both dice", so a 6-6 read 6-3 and played in full was judged
illegal (rendered 28de820384cd seed 44, players mode: the call light lit for a legal
``24/18(2) 13/7 8/2``).  The same two sixes played of a 6-3 read right stay illegal.
"""

import pytest

from controller.referee.machine import Referee
from controller.referee.settings import RefereeSettings
from controller.rules.physical import Seating
from tests.referee_streams import DARK, SEATINGS, run, shifted
from tests.test_referee_stacks import _calls, _dark_plays
from tests.test_referee_vision_doubts import _to_roll


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
@pytest.mark.parametrize("mode", ["strict", "players"])
def test_a_six_six_read_as_six_three_and_played_in_full_is_six_six(seating: Seating,
                                                                   mode: str) -> None:
    events = _dark_plays(seating, (6, 3), "24/18(2) 13/7(2)", (6, 6), mode)
    assert not _calls(events)
    warning = [e for e in events if e.event == "warning" and e.data["reason"] == "dice"][-1]
    assert warning.data["dice"] == [6, 6]
    plays = [(e.player, e.data["legal"], e.data["move"], e.data["dice"]) for e in events
             if e.event == "play"]
    assert plays[-1] == ("dark", True, "24/18(2) 13/7(2)", [6, 6])


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
@pytest.mark.parametrize("mode", ["strict", "players"])
def test_two_sixes_of_a_six_three_are_still_judged_illegal(seating: Seating,
                                                           mode: str) -> None:
    # 24/18 13/7 with 6-3: a 6 played twice (no legal 6-3, and only half a 6-6).
    script, dark = _to_roll(seating)
    thrown = script.throw(dark, DARK, (6, 3))
    after = shifted(dark, "24/18 13/7")
    script.stable(after, thrown)
    script.stable(after)
    events = run(Referee.new(RefereeSettings(mode=mode)),  # type: ignore[arg-type]
                 script.inputs)[1]
    plays = [(e.player, e.data["legal"], e.data["dice"]) for e in events if e.event == "play"]
    assert plays[-1] == ("dark", False, [6, 3])
    assert _calls(events) == ([("illegal_play", "dark")] if mode == "strict" else [])
