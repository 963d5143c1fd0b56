"""The stabiliser's credits: frames under a hand that read the board as after it, and a
re-read of dice lying still (the vision's still), count in the hold."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tests.test_stabiliser import at, board, die, every, run, stable_times
from vision.errors import ConfigError
from vision.observation import Counts, Cube, Die, Observation
from vision.stabiliser import (
    Stabiliser,
    StabiliserConfig,
    StableState,
    StatusChange,
    dice_reread,
    same_state,
)

THROW = (die(3, 500), die(5, 600))


def _stables(stabiliser: Stabiliser, frames: list[Observation]) -> list[StableState]:
    return [e for _, e in run(stabiliser, frames) if isinstance(e, StableState)]


def _after(frames: list[Observation], config: StabiliserConfig | None = None,
           before: Observation | None = None) -> list[float]:
    """The times of the states reported from 0 on, the board (``before``, or board 0
    with no dice) having been reported before (frames from -1.0 to -0.1)."""
    lead = every(before or board(0), -1.0, -0.1)
    return [t for t in stable_times(run(Stabiliser(config), [*lead, *frames])) if t >= 0]


# -- occluded frames (the vision's hysteresis after a hand) ---------------------

def test_the_last_hand_frames_reading_the_board_count_in_its_hold() -> None:
    # The hand leaves at 0.5; the vision still says "occluded" at 0.5 and 0.6 (its
    # hysteresis), with the dice read as they lie; clear from 0.7.
    hand = board(0, occluded=True)
    frames = [*every(hand, 0.0, 0.4), *every(board(0, THROW, occluded=True), 0.5, 0.6),
              *every(board(0, THROW), 0.7, 1.5)]
    assert _after(frames) == [0.8]
    assert _after(frames, StabiliserConfig(occluded_credit=0)) == [1.0]
    lead = every(board(0), -1.0, -0.1)
    state = _stables(Stabiliser(), [*lead, *frames])[-1]
    assert not state.observation.occluded and state.observation.t == pytest.approx(0.8)
    changes = [(t, e.condition, e.since) for t, e in run(Stabiliser(), [*lead, *frames])
               if isinstance(e, StatusChange)]
    assert changes[-1] == (pytest.approx(0.8), "stable", pytest.approx(0.7))
    # Nothing reported before the hand: nothing to tell a throw under it from the
    # hand's own misreading, no credit.
    assert stable_times(run(Stabiliser(), frames)) == [1.0]


def test_no_credit_for_checkers_read_otherwise_than_before_the_hand() -> None:
    # Rendered 28de820384cd seed 16: between two hands, two clear frames (and the
    # hand's frames before them) read nine checkers borne off.
    odd = board(5, THROW)
    frames = [*every(board(0, THROW, occluded=True), 0.0, 0.4),
              *every(replace(odd, occluded=True), 0.5, 0.6), *every(odd, 0.7, 0.8),
              *every(board(0, THROW, occluded=True), 0.9, 1.2),
              *every(board(0, THROW), 1.3, 2.0)]
    assert _after(frames, before=board(0, THROW)) == []
    # The same with the checkers as before the hand: the dice read through it, credit.
    other = (die(3, 500), die(6, 600))
    frames = [*every(board(0, THROW, occluded=True), 0.0, 0.4),
              *every(board(0, other, occluded=True), 0.5, 0.6),
              *every(board(0, other), 0.7, 0.8),
              *every(board(0, THROW, occluded=True), 0.9, 1.2)]
    assert _after(frames, before=board(0, THROW)) == [0.8]


def test_a_play_made_under_a_hand_gets_one_frame_of_credit() -> None:
    # The checkers moved and the dice picked up under one hand (the usual end of a
    # turn): the vision flags 0.5 and 0.6 as occluded, reading the board after the
    # play; clear from 0.7.  One hand frame counts: reported on the third clear frame
    # (0.4 s after the hand left), not the fourth.
    played = board(5)
    frames = [*every(board(0, occluded=True), 0.0, 0.4),
              *every(replace(played, occluded=True), 0.5, 0.6), *every(played, 0.7, 1.5)]
    assert _after(frames, before=board(0, THROW)) == [0.9]
    assert _after(frames, StabiliserConfig(changed_credit=0), before=board(0, THROW)) \
        == [1.0]
    assert _after(frames, StabiliserConfig(changed_credit=2, vanished_credit=2),
                  before=board(0, THROW)) == [0.8]
    # The checkers moved with the dice left lying: one frame as well.
    moved = board(5, THROW)
    frames = [*every(board(0, THROW, occluded=True), 0.0, 0.4),
              *every(replace(moved, occluded=True), 0.5, 0.6), *every(moved, 0.7, 1.5)]
    assert _after(frames, before=board(0, THROW)) == [0.9]
    # A board read otherwise in only two clear frames between two hands (seed 16) is
    # still never reported, the hand's frames before them reading it too.
    frames = [*every(board(0, THROW, occluded=True), 0.0, 0.4),
              *every(replace(moved, occluded=True), 0.5, 0.6), *every(moved, 0.7, 0.8),
              *every(board(0, THROW, occluded=True), 0.9, 1.2)]
    assert _after(frames, before=board(0, THROW)) == []
    # Three clear frames are reported (as four were without the credit).
    frames = [*every(board(0, THROW, occluded=True), 0.0, 0.4),
              *every(replace(moved, occluded=True), 0.5, 0.6), *every(moved, 0.7, 0.9),
              *every(board(0, THROW, occluded=True), 1.0, 1.2)]
    assert _after(frames, before=board(0, THROW)) == [0.9]


def _bearing_off(light_on_point: int, light_off: int, dice: tuple[Die, ...] = (),
                 occluded: bool = False) -> Observation:
    """Light bearing off: ``light_on_point`` on point 0, ``light_off`` in the tray, and
    dark's five on point 23 with ten borne off."""
    points = [Counts()] * 24
    points[0] = Counts(light=light_on_point)
    points[23] = Counts(dark=5)
    return Observation(board_found=True, points=tuple(points), off=Counts(light_off, 10),
                       dice=dice, occluded=occluded, t=0.0)


def test_a_changed_board_gets_credit_only_when_it_accounts_for_every_checker() -> None:
    before = _bearing_off(4, 11, THROW)
    hand = [*every(_bearing_off(4, 11, THROW, occluded=True), 0.0, 0.4)]
    # Two borne off under the hand, the tray read 13: fifteen light checkers, credit.
    played = _bearing_off(2, 13)
    frames = [*hand, *every(replace(played, occluded=True), 0.5, 0.6),
              *every(played, 0.7, 1.5)]
    assert _after(frames, before=before) == [0.9]
    # Rendered 7e15fdd04acc seed 72 t=187.7: the hand still over the tray, unflagged, the
    # tray read empty for three clear frames: three light checkers in all, no credit
    # (the hand came back before a fourth).
    short = _bearing_off(3, 0, THROW)
    frames = [*hand, *every(replace(short, occluded=True), 0.5, 0.6),
              *every(short, 0.7, 0.9), *every(replace(short, occluded=True), 1.0, 1.2)]
    assert _after(frames, before=before) == []
    # The same three frames with the tray read right (twelve): credit.
    right = _bearing_off(3, 12, THROW)
    frames = [*hand, *every(replace(right, occluded=True), 0.5, 0.6),
              *every(right, 0.7, 0.9), *every(replace(right, occluded=True), 1.0, 1.2)]
    assert _after(frames, before=before) == [0.9]


def test_a_changed_board_gets_no_re_read_credit() -> None:
    # Rendered 7e15fdd04acc seed 83 t=181.9: a board read mid-play (three dark borne
    # off, the hand still there and not flagged), the hand frame before it missing a
    # die: no credit from a re-read for a board that changed under the hand.
    before = board(0, THROW)
    moved = board(5, THROW)
    frames = [*every(board(0, THROW, occluded=True), 0.0, 0.5),
              at(replace(moved, occluded=True, dice=THROW[:1]), 0.6),
              *every(moved, 0.7, 0.9), *every(board(0, THROW, occluded=True), 1.0, 1.2)]
    assert _after(frames, before=before) == []
    # The same board, its dice checkers unchanged: the re-read credit as before.
    frames = [*every(board(0, THROW, occluded=True), 0.0, 0.5),
              at(board(0, THROW[:1], occluded=True), 0.6),
              *every(board(0, THROW), 0.7, 0.9), *every(board(0, THROW, occluded=True),
                                                         1.0, 1.2)]
    assert _after(frames, before=board(0)) == [0.8]


def test_a_hand_frame_with_the_cube_unread_still_counts() -> None:
    # Rendered 7e15fdd04acc seed 3 t=7.1: the last hand frame reads the cube where it
    # lies with no value (or misses it): it still counts, as the clear frames read it.
    cube = Cube(64, (960.0, 380.0), "centre")
    played = board(5, cube=cube)
    for unread in (Cube(None, (961.0, 380.0), "centre"), None):
        frames = [*every(board(0, cube=cube, occluded=True), 0.0, 0.4),
                  at(replace(played, occluded=True), 0.5),
                  at(replace(played, occluded=True, cube=unread), 0.6),
                  *every(played, 0.7, 1.5)]
        assert _after(frames, before=board(0, THROW, cube=cube)) == [0.9]
        assert _after(frames, StabiliserConfig(unread_cube_credit=False),
                      before=board(0, THROW, cube=cube)) == [1.0]
    # Nor when the clear frames miss the cube the hand frame read (seeds 15, 27).
    frames = [*every(board(0, cube=cube, occluded=True), 0.0, 0.5),
              at(replace(played, occluded=True), 0.6),
              *every(replace(played, cube=None), 0.7, 1.5)]
    assert _after(frames, before=board(0, THROW, cube=cube)) == [0.9]
    # A cube read elsewhere, or with another value, under the hand is the cube handled.
    for handled in (Cube(None, (990.0, 380.0), "centre"), Cube(2, (960.0, 380.0), "centre")):
        frames = [*every(board(0, cube=cube, occluded=True), 0.0, 0.5),
                  at(replace(played, occluded=True, cube=handled), 0.6),
                  *every(played, 0.7, 1.5)]
        assert _after(frames, before=board(0, THROW, cube=cube)) == [1.0]


def test_dice_gone_under_a_hand_get_one_frame_of_credit() -> None:
    # The dice picked up under the hand: the board without them is reported on the
    # third clear frame (0.4 s after the hand left), not the fifth.
    frames = [*every(board(0, occluded=True), 0.0, 0.6), *every(board(0), 0.7, 1.5)]
    assert _after(frames, before=board(0, THROW)) == [0.9]
    assert _after(frames, StabiliserConfig(vanished_credit=2), before=board(0, THROW)) \
        == [0.8]
    assert _after(frames, StabiliserConfig(vanished_credit=0), before=board(0, THROW)) \
        == [1.0]
    # Rendered 28de820384cd seed 17: a throw made while the mover's dice lay, every die
    # missed by the frame after the hand until the still found all four on the third
    # clear frame: the board without dice is never reported.
    four = (*THROW, die(1, 300), die(4, 200))
    frames = [*every(board(0, occluded=True), 0.0, 0.6), *every(board(0), 0.7, 0.8),
              *every(board(0, four), 0.9, 1.5)]
    times = _after(frames, before=board(0, THROW))
    assert times == [1.2]


def test_only_the_latest_hand_frames_and_never_the_first_clear_frame_alone() -> None:
    hidden = board(0, THROW, occluded=True)
    frames = [*every(hidden, 0.0, 1.0), *every(board(0, THROW), 1.1, 2.0)]
    # However many hand frames read the board, the hold still needs a second clear
    # frame: credit for two frames (0.9, 1.0), stable at 1.2.
    assert _after(frames) == [1.2]
    assert _after(frames, StabiliserConfig(occluded_credit=9)) == [1.2]
    assert _after(frames, StabiliserConfig(occluded_credit=1)) == [1.3]


def test_a_hand_frame_reading_another_board_gets_no_credit() -> None:
    # Under the hand a checker is still held (point 5 read short), a die lies
    # elsewhere, or no die is read where the dice then lie.
    for under in (board(5, THROW, occluded=True), board(0, occluded=True),
                  board(0, (die(3, 530), die(5, 600)), occluded=True)):
        frames = [at(under, 0.5), at(under, 0.6), *every(board(0, THROW), 0.7, 1.5)]
        assert _after(frames) == [1.0]


def test_a_hand_frame_reading_the_dice_otherwise_where_they_lie_is_a_re_read() -> None:
    # The frame misses a die under the vision's hysteresis; the still, taken on the
    # first clear frame, finds it: the one re-read credit.
    frames = [*every(board(0, THROW[:1], occluded=True), 0.5, 0.6),
              *every(board(0, THROW), 0.7, 1.5)]
    assert _after(frames) == [0.8]
    assert _after(frames, StabiliserConfig(reread_within=0.0)) == [1.0]
    # Used up: a second re-read (a value read again) then waits its own hold.
    frames = [*every(board(0, THROW[:1], occluded=True), 0.5, 0.6),
              *every(board(0, THROW), 0.7, 0.8),
              *every(board(0, (die(3, 500), die(6, 600))), 0.9, 1.5)]
    assert _after(frames) == [0.8, 1.2]


def test_credit_only_for_the_frames_just_before() -> None:
    same = board(0, THROW, occluded=True)
    other = board(5, THROW, occluded=True)
    # The frame nearest the clear ones differs: nothing before it counts either.
    frames = [at(same, 0.4), at(other, 0.5), *every(board(0, THROW), 0.6, 1.5)]
    assert stable_times(run(Stabiliser(), frames)) == [0.9]
    # A frame without a board between the hand and the clear frames: no credit.
    frames = [at(same, 0.4), at(board(0, found=False), 0.5), *every(board(0, THROW), 0.6, 1.5)]
    assert stable_times(run(Stabiliser(), frames)) == [0.9]
    # A gap in the watching (frames dropped) after the hand: no credit.
    frames = [at(same, 0.4), at(same, 0.5), *every(board(0, THROW), 2.0, 3.0)]
    assert stable_times(run(Stabiliser(), frames)) == [2.3]


# -- a re-read of dice lying still (the vision's still) -------------------------

def _settle(first: tuple[Die, ...], then: tuple[Die, ...], at_frame: int = 2,
            config: StabiliserConfig | None = None) -> list[StableState]:
    """Dice read as ``first`` from 0.0, then as ``then`` from frame ``at_frame`` on."""
    frames = [board(0, first if i < at_frame else then, t=round(0.1 * i, 6))
              for i in range(12)]
    return _stables(Stabiliser(config), frames)


def test_a_die_read_again_with_another_value_where_it_lies_keeps_the_start() -> None:
    stables = _settle((die(3, 500), die(5, 600)), (die(3, 500), die(6, 601)))
    assert [s.observation.t for s in stables] == [pytest.approx(0.3)]
    assert sorted(d.value or 0 for d in stables[0].observation.dice) == [3, 6]
    # With the credit off, the hold starts again on the re-read.
    off = _settle((die(3, 500), die(5, 600)), (die(3, 500), die(6, 601)),
                  config=StabiliserConfig(reread_within=0.0))
    assert [s.observation.t for s in off] == [pytest.approx(0.5)]


def test_a_die_read_flat_again_or_found_beside_the_other_keeps_the_start() -> None:
    cocked = (die(3, 500), die(5, 600, flat=False))
    assert [s.observation.t for s in _settle(cocked, THROW)] == [pytest.approx(0.3)]
    assert [s.observation.t for s in _settle(THROW[:1], THROW)] == [pytest.approx(0.3)]
    # But a die read before and not now is no re-read (a die lost for two frames, or
    # picked up): the state without it waits its own hold.
    extra = (*THROW, die(2, 800))
    assert [s.observation.t for s in _settle(extra, THROW)] == [pytest.approx(0.5)]


def test_a_die_missed_in_two_frames_in_a_row_is_not_reported_at_once() -> None:
    # Synthetic seed 38: the dice settle, then one is missed in two frames in a row
    # before the hold is over; the state without it must hold on its own (it never
    # does).  The die read again is found where it lay: both dice, at 0.5.
    frames = [board(0, THROW, t=0.0), board(0, THROW, t=0.1), board(0, THROW[1:], t=0.2),
              board(0, THROW[1:], t=0.3), *every(board(0, THROW), 0.4, 1.0)]
    stables = _stables(Stabiliser(), frames)
    assert [s.observation.t for s in stables] == [pytest.approx(0.5)]
    assert len(stables[0].observation.dice) == 2


def test_dice_found_where_none_were_read_wait_their_hold() -> None:
    # No die lay still to show the scene was still: the dice may have just landed.
    assert [s.observation.t for s in _settle((), THROW)] == [pytest.approx(0.5)]


def test_a_die_somewhere_else_is_no_re_read() -> None:
    moved = (die(3, 500), die(5, 640))
    assert [s.observation.t for s in _settle(THROW, moved)] == [pytest.approx(0.5)]


def test_a_bounce_seen_in_one_frame_gives_no_credit() -> None:
    # A tumbling die read once where it comes to rest with another face.
    assert [s.observation.t for s in _settle((die(3, 500), die(2, 600)), THROW, at_frame=1)] \
        == [pytest.approx(0.4)]


def test_a_re_read_after_the_window_waits_its_hold() -> None:
    # The state before held and was reported; a later re-read is a state of its own.
    stables = _settle(THROW[:1], THROW, at_frame=4)
    assert [s.observation.t for s in stables] == [pytest.approx(0.3), pytest.approx(0.7)]


def test_checkers_changed_with_the_dice_is_no_re_read() -> None:
    frames = [board(0, THROW[:1], t=0.0), board(0, THROW[:1], t=0.1),
              *every(board(5, THROW), 0.2, 1.0)]
    assert stable_times(run(Stabiliser(), frames)) == [0.5]


def test_a_reading_that_keeps_changing_gets_one_credit_only() -> None:
    # 3, 3, 6, 6, 3, 3, 6, 6, ...: the first change keeps the start, then each reading
    # must hold on its own (it never does).
    frames = [board(0, (die(3 if (i // 2) % 2 == 0 else 6, 500), die(5, 600)),
                    t=round(0.1 * i, 6)) for i in range(20)]
    assert stable_times(run(Stabiliser(), frames)) == [0.3]


def test_dice_reread_compares_places_not_readings() -> None:
    a = board(0, THROW)
    assert dice_reread(a, board(0, (die(4, 502), die(1, 600, flat=False))), 6.0)
    assert dice_reread(board(0, THROW[:1]), a, 6.0)
    assert not dice_reread(a, board(0, THROW[:1]), 6.0)
    assert not dice_reread(a, board(0, (die(3, 500), die(5, 620))), 6.0)
    assert not dice_reread(a, board(0), 6.0)
    assert not dice_reread(board(0), a, 6.0)
    assert not dice_reread(a, board(3, THROW), 6.0)


def test_credit_settings_are_checked() -> None:
    with pytest.raises(ConfigError, match="occluded_credit"):
        StabiliserConfig(occluded_credit=-1)
    with pytest.raises(ConfigError, match="vanished_credit"):
        StabiliserConfig(vanished_credit=-1)
    with pytest.raises(ConfigError, match="changed_credit"):
        StabiliserConfig(changed_credit=-1)
    with pytest.raises(ConfigError, match="checkers_per_side"):
        StabiliserConfig(checkers_per_side=0)
    with pytest.raises(ConfigError, match="reread_within"):
        StabiliserConfig(reread_within=float("nan"))
    with pytest.raises(ConfigError, match="reread_frames"):
        StabiliserConfig(reread_frames=0)


@pytest.mark.parametrize("seed", range(6))
def test_every_state_reported_was_seen_clear_and_with_its_credit_held(seed: int) -> None:
    """Random streams (seeded) of dice read in several ways, hands and checker misreads:
    every state reported is a clear frame's, seen clear in an earlier frame too, and
    held over the hold by frames showing it, a re-read of its dice (once), or the
    latest hand frames reading it."""
    rng = random.Random(seed)
    hold = 0.3
    frames: list[Observation] = []
    places = [(500.0, 300.0), (600.0, 320.0)]
    current = board(0, THROW)
    for i in range(500):
        roll = rng.random()
        if roll < 0.06:
            places = [(rng.uniform(400, 800), rng.uniform(200, 500)) for _ in range(2)]
        if roll < 0.12:
            dice = tuple(Die(rng.randint(1, 6), p, rng.random() > 0.1, False, "right")
                         for p in places[:rng.choice([1, 2, 2, 2])])
            current = board(rng.choice([0, 0, 5]), dice)
        frame = current
        if rng.random() > 0.93:
            frame = board(current.points.index(max(current.points, key=lambda c: c.light)),
                          current.dice, occluded=True)
        elif rng.random() > 0.93:
            frame = board(9, current.dice)
        frames.append(at(frame, round(0.1 * i, 6)))
    stabiliser = Stabiliser()
    reported = 0
    for index, frame in enumerate(frames):
        for event in stabiliser.push(frame):
            if not isinstance(event, StableState):
                continue
            reported += 1
            assert event.observation is frame and not frame.occluded
            clear = [f for f in frames[max(0, index - 3):index + 1]
                     if not f.occluded and same_state(f, frame, 6.0)]
            assert len(clear) >= 2   # never on its first clear frame alone
            # Walk back over the hold: each frame shows the state, is a lone outlier,
            # or (only before the clear run) a hand frame reading it or a re-read.
            start = frame.t - hold
            span = [f for f in frames[:index + 1] if f.t is not None and f.t >= start - 1e-9]
            for f in span:
                assert (same_state(f, frame, 6.0) or dice_reread(f, frame, 6.0)
                        or (f is not frame and _lone(frames, f)))
    assert reported >= 10


def _lone(frames: list[Observation], f: Observation) -> bool:
    """A frame between two frames that agree with each other (a lone misread)."""
    i = frames.index(f)
    return 0 < i < len(frames) - 1 and same_state(frames[i - 1], frames[i + 1], 6.0)
