"""Dice the vision misreads: a legal play that looks illegal is no call.

Seen on rendered streams (``bench/referee_accuracy.py``, streams fe67551d4c6d, strict
mode unless said):

* A die misread the same way in every frame makes a legal play look illegal: seed
  113 (4-3 read 3-2, a 4 as a 2) and seed 23 (6-3 read 3-3, the play a double
  played a die short).  Where the referee calls at once, a play that is legal with
  one die read again as the vision misreads dice (``Plausibility.dice_confusions``)
  is recorded as that roll's, with a ``dice`` warning.  A 1 read as a 2 (seed 63)
  is still called: read again, a checker moved a pip short with a 2 is a legal 1,
  exactly a planted ``distance`` mistake.
* Players mode too (at first only strict; 7e15fdd04acc seed 60: 4-2 read 2-2;
  28de820384cd seed 96: 6-3 read 3-3): the call light lit on a legal play invites
  the opponent to call it.
"""

import pytest

from controller.referee.events import RefereeEvent
from controller.referee.machine import Referee
from controller.referee.settings import RefereeSettings
from controller.rules.notation import parse_play
from controller.rules.physical import Seating
from tests.referee_streams import DARK, SEATINGS, run, shifted
from tests.test_referee_vision_doubts import _to_roll

CALLS = ("illegal_play", "reroll", "call_upheld")


def _calls(events: list[RefereeEvent]) -> list[tuple[str, str | None]]:
    return [(e.event, e.player) for e in events if e.event in CALLS]


def _plays(events: list[RefereeEvent]) -> list[tuple[str | None, object, object, object]]:
    return [(e.player, e.data["legal"], e.data["move"], e.data["dice"]) for e in events
            if e.event == "play"]


def _dark_plays(seating: Seating, dice: tuple[int, int], text: str,
                true_dice: tuple[int, int], mode: str = "strict") -> list[RefereeEvent]:
    """Dark (to roll after light's opening) throws ``dice`` as read and shows the board of
    ``text`` played with ``true_dice``, then picks up."""
    script, dark = _to_roll(seating)
    thrown = script.throw(dark, DARK, dice)
    after = dark.result_of(parse_play(dark, text, *true_dice))
    script.stable(after, thrown)
    script.stable(after)
    return run(Referee.new(RefereeSettings(mode=mode)), script.inputs)[1]


# -- a die misread ---------------------------------------------------------------------


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_four_read_as_a_two_is_the_roll_the_play_fits(seating: Seating) -> None:
    # Seed 113: 4-3 read 3-2, played 13/9 8/5.
    events = _dark_plays(seating, (3, 2), "13/9 8/5", (4, 3))
    assert not _calls(events)
    warning = [e for e in events if e.event == "warning" and e.data["reason"] == "dice"][-1]
    assert warning.data["dice"] == [4, 3]
    assert _plays(events)[-1] == ("dark", True, "13/9 8/5", [4, 3])


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_in_players_mode_a_four_read_as_a_two_lights_no_call_light(
        seating: Seating) -> None:
    # Players mode too: the call light lit on a legal play invites a false call
    # (rendered 7e15fdd04acc seed 60: 4-2 read 2-2, 9/5 4/2 judged illegal).
    events = _dark_plays(seating, (3, 2), "13/9 8/5", (4, 3), mode="players")
    assert not _calls(events)
    assert _plays(events)[-1] == ("dark", True, "13/9 8/5", [4, 3])


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_in_players_mode_a_six_read_as_a_three_in_a_double_is_the_roll_the_play_fits(
        seating: Seating) -> None:
    # Rendered 28de820384cd seed 96: 6-3 read 3-3, 8/off judged illegal in players mode.
    events = _dark_plays(seating, (3, 3), "24/21 13/7", (6, 3), mode="players")
    assert not _calls(events)
    assert _plays(events)[-1] == ("dark", True, "24/21 13/7", [6, 3])


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_six_read_as_a_three_in_a_double_is_the_roll_the_play_fits(
        seating: Seating) -> None:
    # Seed 23: 6-3 read 3-3; 24/21 13/7 is 3-3 played three times and the legal 6-3.
    events = _dark_plays(seating, (3, 3), "24/21 13/7", (6, 3))
    assert not _calls(events)
    assert _plays(events)[-1] == ("dark", True, "24/21 13/7", [6, 3])


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_double_played_a_die_short_that_no_misreading_explains_is_called(
        seating: Seating) -> None:
    # 4-4 played three times (13/5 24/20): no die read again makes it legal.
    script, dark = _to_roll(seating)
    thrown = script.throw(dark, DARK, (4, 4))
    after = shifted(dark, "13/5 24/20")
    script.stable(after, thrown)
    script.stable(after)
    _, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert _calls(events) == [("illegal_play", "dark")]


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_one_read_as_a_two_is_still_called(seating: Seating) -> None:
    # Seed 63's misreading: 4-1 read 4-2, played 13/9 6/5.  Read as a 1 the 2 would
    # excuse a checker a pip short, a planted distance mistake: called.
    events = _dark_plays(seating, (4, 2), "13/9 6/5", (4, 1))
    assert _calls(events) == [("illegal_play", "dark")]
