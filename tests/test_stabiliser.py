"""The stabiliser: hold time, occlusion, dice settling, one emission per stable state."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from itertools import pairwise

import pytest

from vision.errors import ConfigError, ObservationError
from vision.observation import Counts, Cube, Die, Observation
from vision.stabiliser import (
    Event,
    Stabiliser,
    StabiliserConfig,
    StableState,
    StatusChange,
    same_state,
)

START = [Counts()] * 24


def board(moved: int = 0, dice: Sequence[Die] = (), cube: Cube | None = None, *,
          t: float | None = 0.0, occluded: bool = False, found: bool = True) -> Observation:
    """A board with two light checkers on point ``moved`` (0-23) and five dark on 23."""
    points = list(START)
    points[23] = Counts(dark=5)
    points[moved] = Counts(light=2, dark=points[moved].dark)
    return Observation(board_found=found, points=tuple(points), dice=tuple(dice), cube=cube,
                       occluded=occluded, t=t)


def die(value: int, x: float, y: float = 300.0, flat: bool = True) -> Die:
    return Die(value, (x, y), flat, False, "right")


def at(observation: Observation, t: float) -> Observation:
    return Observation(observation.board_found, observation.corners, observation.points,
                       observation.bar, observation.off, observation.dice, observation.cube,
                       observation.occluded, t)


def run(stabiliser: Stabiliser, frames: Iterable[Observation]) -> list[tuple[float, Event]]:
    """Every event, with the time of the frame that caused it."""
    out: list[tuple[float, Event]] = []
    for frame in frames:
        assert frame.t is not None
        out.extend((frame.t, event) for event in stabiliser.push(frame))
    return out


def stable_times(events: list[tuple[float, Event]]) -> list[float]:
    return [round(t, 6) for t, e in events if isinstance(e, StableState)]


def every(observation: Observation, start: float, stop: float,
          step: float = 0.1) -> list[Observation]:
    """The observation at start, start + step, ... up to stop inclusive."""
    n = round((stop - start) / step)
    return [at(observation, start + i * step) for i in range(n + 1)]


def test_a_state_is_emitted_once_after_the_hold_time() -> None:
    stabiliser = Stabiliser()
    events = run(stabiliser, every(board(), 0.0, 2.0))
    stables = [(t, e) for t, e in events if isinstance(e, StableState)]
    assert len(stables) == 1
    t, event = stables[0]
    assert t == pytest.approx(0.3)
    assert event.since == 0.0
    assert event.observation.t == pytest.approx(0.3)
    assert stabiliser.last_stable is event.observation
    changes = [(t, e) for t, e in events if isinstance(e, StatusChange)]
    assert [(t, e.condition, e.since) for t, e in changes] == [
        (0.0, "settling", 0.0), (pytest.approx(0.3), "stable", 0.0)]


def test_the_hold_time_is_configurable() -> None:
    events = run(Stabiliser(StabiliserConfig(hold=1.0)), every(board(), 0.0, 2.0))
    assert stable_times(events) == [1.0]
    events = run(Stabiliser(StabiliserConfig(hold=0.0)), every(board(), 0.0, 0.5))
    assert stable_times(events) == [0.0]


def test_a_change_restarts_the_hold() -> None:
    frames = every(board(0), 0.0, 0.2) + every(board(5), 0.3, 1.0)
    events = run(Stabiliser(), frames)
    assert stable_times(events) == [0.6]
    event = next(e for _, e in events if isinstance(e, StableState))
    assert event.observation.points[5] == Counts(light=2)
    assert event.since == pytest.approx(0.3)


def test_each_distinct_state_once_and_a_return_counts_as_new() -> None:
    frames = (every(board(0), 0.0, 1.0) + every(board(5), 1.1, 2.0)
              + every(board(0), 2.1, 3.0))
    events = run(Stabiliser(), frames)
    assert stable_times(events) == [0.3, 1.4, 2.4]


def test_any_occluded_frame_resets_the_hold_and_is_never_emitted() -> None:
    hand = board(0, occluded=True)
    frames = [*every(board(0), 0.0, 0.2), at(hand, 0.25), *every(board(0), 0.3, 1.0)]
    events = run(Stabiliser(), frames)
    assert stable_times(events) == [0.6]           # 0.3 s after the hand left, not 0.3
    emitted = [e.observation for _, e in events if isinstance(e, StableState)]
    assert not any(o.occluded for o in emitted)
    conditions = [(t, e.condition, e.since) for t, e in events if isinstance(e, StatusChange)]
    assert conditions == [(0.0, "settling", 0.0), (0.25, "occluded", 0.25),
                          (0.3, "settling", 0.3), (pytest.approx(0.6), "stable", 0.3)]


def test_an_occluded_stream_is_never_a_state() -> None:
    stabiliser = Stabiliser()
    events = run(stabiliser, every(board(0, occluded=True), 0.0, 3.0))
    assert stable_times(events) == []
    assert stabiliser.condition == "occluded" and stabiliser.since == 0.0


def test_a_hand_passing_over_an_unchanged_board_emits_nothing_new() -> None:
    hand = board(0, occluded=True)
    frames = every(board(0), 0.0, 1.0) + every(hand, 1.1, 1.5) + every(board(0), 1.6, 3.0)
    events = run(Stabiliser(StabiliserConfig(occluded_credit=0)), frames)
    assert stable_times(events) == [0.3]
    changes = [(t, e.condition) for t, e in events if isinstance(e, StatusChange)]
    assert changes == [(0.0, "settling"), (pytest.approx(0.3), "stable"), (1.1, "occluded"),
                       (1.6, "settling"), (pytest.approx(1.9), "stable")]
    # The last two frames under the hand read the board as after it: they count in the
    # hold (the vision's hysteresis), so the board is stable again two frames sooner.
    events = run(Stabiliser(), frames)
    assert stable_times(events) == [0.3]
    changes = [(t, e.condition) for t, e in events if isinstance(e, StatusChange)]
    assert changes[-1] == (pytest.approx(1.7), "stable")


def test_board_not_found_frames_are_not_states_and_reset() -> None:
    lost = board(0, found=False)
    frames = [*every(board(0), 0.0, 0.2), at(lost, 0.25), *every(board(0), 0.3, 0.7)]
    stabiliser = Stabiliser()
    events = run(stabiliser, frames)
    assert stable_times(events) == [0.6]
    assert (0.25, StatusChange("no_board", 0.25)) in events
    stabiliser = Stabiliser()
    assert stable_times(run(stabiliser, every(lost, 0.0, 2.0))) == []
    assert stabiliser.condition == "no_board"


def test_dice_are_reported_once_they_have_settled() -> None:
    # Tumbling: the dice move 40 px and change face every frame until 0.5 s ...
    tumbling = [board(0, dice=(die(1 + i % 6, 500 + 40 * i), die(6 - i % 6, 600 - 40 * i)),
                      t=0.1 * i) for i in range(6)]
    # ... then lie still, jittering by a pixel or two in detection.
    resting = [board(0, dice=(die(3, 700 + (i % 3), 301), die(5, 402, 299 - (i % 2))),
                     t=0.6 + 0.1 * i) for i in range(10)]
    events = run(Stabiliser(), tumbling + resting)
    assert stable_times(events) == [0.9]
    state = next(e for _, e in events if isinstance(e, StableState))
    assert sorted(d.value for d in state.observation.dice if d.value) == [3, 5]
    assert state.since == pytest.approx(0.6)


def test_a_die_flickering_between_readings_is_not_settled() -> None:
    frames = [board(0, dice=(die(3 if i % 2 else 5, 500), die(2, 600)), t=0.1 * i)
              for i in range(20)]
    assert stable_times(run(Stabiliser(), frames)) == []


def test_a_cocked_die_is_a_different_state() -> None:
    flat = board(0, dice=(die(3, 500), die(2, 600)))
    cocked = board(0, dice=(die(3, 500, flat=False), die(2, 600)))
    assert not same_state(flat, cocked, 6.0)
    events = run(Stabiliser(), every(flat, 0.0, 0.5) + every(cocked, 0.6, 1.2))
    assert stable_times(events) == [0.3, 0.9]


def test_dice_order_does_not_matter_but_positions_do() -> None:
    a = board(0, dice=(die(3, 500), die(5, 600)))
    swapped = board(0, dice=(die(5, 603), die(3, 498)))
    assert same_state(a, swapped, 6.0)
    moved = board(0, dice=(die(5, 600), die(3, 520)))
    assert not same_state(a, moved, 6.0)
    assert not same_state(a, board(0, dice=(die(3, 500),)), 6.0)


def test_dice_hold_can_be_longer() -> None:
    config = StabiliserConfig(hold=0.3, dice_hold=0.8)
    with_dice = board(0, dice=(die(3, 500), die(5, 600)))
    assert stable_times(run(Stabiliser(config), every(with_dice, 0.0, 1.5))) == [0.8]
    assert stable_times(run(Stabiliser(config), every(board(0), 0.0, 1.5))) == [0.3]


def test_the_cube_is_part_of_the_state() -> None:
    centre = Cube(64, (900.0, 350.0), "centre")
    nudged = Cube(64, (902.0, 351.0), "centre")
    offered = Cube(2, (900.0, 120.0), "top")
    assert same_state(board(cube=centre), board(cube=nudged), 6.0)
    assert not same_state(board(cube=centre), board(cube=offered), 6.0)
    assert not same_state(board(cube=centre), board(), 6.0)
    frames = every(board(cube=centre), 0.0, 0.5) + every(board(cube=offered), 0.6, 1.2)
    assert stable_times(run(Stabiliser(), frames)) == [0.3, 0.9]


def test_bar_and_off_are_part_of_the_state() -> None:
    base = board()
    on_bar = Observation(True, None, base.points, Counts(dark=1), base.off, t=0.0)
    borne_off = Observation(True, None, base.points, base.bar, Counts(light=1), t=0.0)
    assert not same_state(base, on_bar, 6.0)
    assert not same_state(base, borne_off, 6.0)


def test_a_gap_in_the_stream_restarts_the_hold() -> None:
    frames = [at(board(), 0.0), at(board(), 2.0), at(board(), 2.1), at(board(), 2.3)]
    assert stable_times(run(Stabiliser(), frames)) == [2.3]


def test_time_going_backwards_restarts_the_hold() -> None:
    frames = [at(board(), 5.0), at(board(), 5.2), at(board(), 1.0), at(board(), 1.2),
              at(board(), 1.3)]
    assert stable_times(run(Stabiliser(), frames)) == [1.3]


def test_observations_need_a_time() -> None:
    with pytest.raises(ObservationError, match="time"):
        Stabiliser().push(board(t=None))


def test_reset_forgets_the_last_state() -> None:
    stabiliser = Stabiliser()
    run(stabiliser, every(board(), 0.0, 0.5))
    stabiliser.reset()
    assert stabiliser.condition is None and stabiliser.last_stable is None
    assert stable_times(run(stabiliser, every(board(), 0.6, 1.0))) == [0.9]


@pytest.mark.parametrize("kwargs", [
    {"hold": -1.0}, {"dice_hold": -0.1}, {"position_tolerance": -1.0}, {"max_gap": 0.0},
    {"hold": float("nan")},
])
def test_config_checks(kwargs: dict[str, float]) -> None:
    with pytest.raises(ConfigError):
        StabiliserConfig(**kwargs)


# -- flicker: lone misread frames ---------------------------------------------


def test_a_lone_misread_frame_does_not_restart_the_hold() -> None:
    misread = board(7)                      # a checker read on the wrong point, one frame
    frames = [at(board(0), 0.0), at(misread, 0.1), *every(board(0), 0.2, 1.0)]
    events = run(Stabiliser(), frames)
    assert stable_times(events) == [0.3]    # not 0.5: the hold runs on from 0.0
    event = next(e for _, e in events if isinstance(e, StableState))
    assert event.since == 0.0 and event.observation.points == board(0).points
    # Without forgiveness the misread restarts the hold.
    events = run(Stabiliser(StabiliserConfig(outlier_share=0.0)), frames)
    assert stable_times(events) == [0.5]


def test_a_misread_on_the_last_frame_of_the_hold_costs_one_frame() -> None:
    frames = [*every(board(0), 0.0, 0.2), at(board(7), 0.3), *every(board(0), 0.4, 1.0)]
    events = run(Stabiliser(), frames)
    assert stable_times(events) == [0.4]
    emitted = [e.observation for _, e in events if isinstance(e, StableState)]
    assert [o.points for o in emitted] == [board(0).points]   # never the misread frame


def test_a_lone_misread_of_a_stable_board_changes_nothing() -> None:
    frames = [*every(board(0), 0.0, 1.0), at(board(7), 1.1), *every(board(0), 1.2, 2.0)]
    events = run(Stabiliser(), frames)
    assert stable_times(events) == [0.3]
    changes = [(t, e.condition) for t, e in events if isinstance(e, StatusChange)]
    assert changes == [(0.0, "settling"), (pytest.approx(0.3), "stable")]


def test_a_die_missed_for_one_frame_is_forgiven_once_the_dice_have_settled() -> None:
    dice = (die(3, 700), die(5, 400))
    tumbling = [board(0, dice=(die(1 + i % 6, 500 + 40 * i), die(6 - i % 6, 600 - 40 * i)),
                      t=0.1 * i) for i in range(5)]
    resting = every(board(0, dice=dice), 0.5, 1.5)
    resting[2] = at(board(0, dice=dice[:1]), resting[2].t or 0.0)   # the 5 missed at 0.7
    events = run(Stabiliser(), tumbling + resting)
    assert stable_times(events) == [0.8]
    state = next(e for _, e in events if isinstance(e, StableState))
    assert len(state.observation.dice) == 2 and state.since == pytest.approx(0.5)


def test_a_real_change_is_reported_from_its_first_frame() -> None:
    frames = every(board(0), 0.0, 1.0) + every(board(5), 1.1, 2.0)
    events = run(Stabiliser(), frames)
    assert stable_times(events) == [0.3, 1.4]      # 0.3 s after the change, as before
    second = [e for _, e in events if isinstance(e, StableState)][1]
    assert second.since == pytest.approx(1.1)
    assert second.observation.points == board(5).points
    changes = [(t, e.condition, e.since) for t, e in events if isinstance(e, StatusChange)]
    assert changes[-2:] == [(pytest.approx(1.2), "settling", pytest.approx(1.1)),
                            (pytest.approx(1.4), "stable", pytest.approx(1.1))]


def test_a_change_whose_first_frame_is_misread_costs_one_frame() -> None:
    frames = [*every(board(0), 0.0, 1.0), at(board(5), 1.1), at(board(9), 1.2),
              *every(board(5), 1.3, 2.0)]
    events = run(Stabiliser(), frames)
    assert stable_times(events) == [0.3, 1.4]
    assert [e.since for _, e in events if isinstance(e, StableState)][1] == pytest.approx(1.1)


def test_two_differing_frames_in_a_row_are_a_change_not_an_outlier() -> None:
    # Two frames of board(7) between board(0)s: board(0) must hold again from 0.3.
    frames = [*every(board(0), 0.0, 0.0), *every(board(7), 0.1, 0.2), *every(board(0), 0.3, 1.0)]
    events = run(Stabiliser(), frames)
    assert stable_times(events) == [0.6]
    # And a change that lasts two frames and holds no longer is never reported.
    assert all(e.observation.points == board(0).points
               for _, e in events if isinstance(e, StableState))


def test_a_reading_that_alternates_never_holds() -> None:
    # Every other frame misread: neither reading held (a die read 3, 5, 3, 5 likewise).
    frames = [at(board(0) if i % 2 == 0 else board(7 + i % 3), 0.1 * i) for i in range(30)]
    assert stable_times(run(Stabiliser(), frames)) == []
    frames = [at(board(0) if i % 2 == 0 else board(7), 0.1 * i) for i in range(30)]
    assert stable_times(run(Stabiliser(), frames)) == []
    # One frame in three misread: each 0.3 s (four frames) holds one misread, so it holds.
    frames = [at(board(7) if i % 3 == 1 else board(0), 0.1 * i) for i in range(30)]
    assert stable_times(run(Stabiliser(), frames)) == [0.3]


def test_an_occluded_frame_is_never_forgiven_nor_emitted() -> None:
    hand = board(3, occluded=True)                     # reads another board than after it
    frames = [*every(board(0), 0.0, 0.1), at(hand, 0.2), *every(board(0), 0.3, 1.0)]
    events = run(Stabiliser(), frames)
    assert stable_times(events) == [0.6]                # the hold restarts after the hand
    assert not any(e.observation.occluded for _, e in events if isinstance(e, StableState))
    # A misread next to the hand does not bridge it either.
    frames = [*every(board(0), 0.0, 0.1), at(board(7), 0.2), at(hand, 0.3),
              *every(board(0), 0.4, 1.0)]
    assert stable_times(run(Stabiliser(), frames)) == [0.7]


def test_a_board_lost_for_one_frame_is_never_forgiven() -> None:
    lost = board(0, found=False)
    frames = [*every(board(0), 0.0, 0.1), at(lost, 0.2), *every(board(0), 0.3, 1.0)]
    assert stable_times(run(Stabiliser(), frames)) == [0.6]


def _held_reference(frames: Sequence[Observation], index: int, hold: float,
                    share: float) -> bool:
    """The stabiliser's promise, checked the slow way: frame ``index``'s state was seen
    at least ``hold`` before, every frame since is clean, frames showing something else
    come alone, and they are at most ``share`` of the frames since that start."""
    state = frames[index]
    t = state.t or 0.0
    for start in range(index, -1, -1):
        span = frames[start:index + 1]
        if any(f.occluded or not f.board_found for f in span):
            return False
        others = [not same_state(f, state, 6.0) for f in span]
        if any(a and b for a, b in pairwise(others)):
            return False
        if not others[0] and t - (span[0].t or 0.0) >= hold - 1e-9:
            return sum(others) <= share * len(span) + 1e-9
    return False


@pytest.mark.parametrize("seed", range(8))
def test_every_state_emitted_held_apart_from_lone_misreads(seed: int) -> None:
    """Random streams of three boards, misreads and hands (seeded): every state the
    stabiliser reports held by the reference's reckoning, none is occluded, and each
    report comes on the first frame the reference says it held (not later)."""
    rng = random.Random(seed)
    frames: list[Observation] = []
    t = 0.0
    current = board(0)
    for _ in range(400):
        roll = rng.random()
        if roll < 0.08:
            current = board(rng.choice([0, 5, 9]))
        if roll > 0.96:
            frame = board(0, occluded=True)
        elif roll > 0.88:
            frame = board(rng.choice([7, 11, 13]))      # a misread
        else:
            frame = current
        frames.append(at(frame, round(t, 3)))
        t += 0.1
    # The outlier rule alone: no credit for occluded frames (tested on their own below).
    stabiliser = Stabiliser(StabiliserConfig(occluded_credit=0))
    emitted = 0
    for index, frame in enumerate(frames):
        events = stabiliser.push(frame)
        stables = [e for e in events if isinstance(e, StableState)]
        for event in stables:
            assert not event.observation.occluded
            assert event.observation is frame
            assert _held_reference(frames, index, 0.3, 0.25)
            emitted += 1
        last = stabiliser.last_stable
        if not stables and _held_reference(frames, index, 0.3, 0.25):
            # Held by the reference: reported now, or already the latest state reported.
            assert last is not None and same_state(last, frame, 6.0)
    assert emitted >= 10


def test_outlier_share_is_checked() -> None:
    for share in (-0.1, 0.5, float("nan")):
        with pytest.raises(ConfigError, match="outlier_share"):
            StabiliserConfig(outlier_share=share)
