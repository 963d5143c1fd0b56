"""Decision latency on rendered streams: dice at rest or picked up, to the roll or play event.

    .venv/bin/python bench/referee_stream_latency.py [--games 200] [--seed 0] [--jobs 1] [--fps 10]

``bench/referee_latency.py`` measures the same on frames built from the
truth (flicker drawn at random); this one uses the streams of
``bench/referee_accuracy.py`` (same seeds, same cache: run after it, only the
refereeing is repeated), rendered and read by the real pipeline, so the
vision's own delays count too.  For every valid
throw, the time from the first frame showing its dice at rest (the last
change the camera saw) to the ``roll`` (or ``opening_roll``) event; for every
legal play, the time from the first frame without the mover's dice to the
``play`` event.  Both are stream times: they include the stabiliser's hold
(0.3 s by default, ``--hold``), the frame interval and anything the vision
adds (a stale reading until its motion gate looks again, a hand it still
reports).  The referee's own computing time is measured apart: each stream is
also fed through a :class:`~controller.referee.session.Session` with a
journal on disk (SQLite, synchronous writes, as the kiosk runs it), timing
the steps that announce a roll or a play.

``--perfect-vision`` measures the same timelines as a perfect reader would
report them (``bench/streams/oracle.py``, no rendering): the stabiliser and
the referee alone, over as many games as wanted.  With ``--flicker F`` each
of the perfect reader's frames (board in view, no hand) is misread with
chance F, as a reader flickers: one die missed, or one checker missed on a
point (seeded by the session's seed); the false calls and the planted
faults missed under that flicker are printed too.

Goal: every decision under 0.5 s, the stabiliser's wait included.  The
table gives median, 95th and 99th percentiles and maximum, the slowest cases with
their seed and time, and ``--check`` exits 1 when the maximum is 0.5 s or
more.

``--causes`` (rendered streams) breaks the decisions of 0.5 s or more down by
what the vision reported from the dice coming to rest (or being picked up)
until the event, frame by frame against the truth's moments, and by what the
stabiliser made of it (a stable state with the right reading that the referee
did not act on is the referee's).  Each slow decision gets one cause, the
first that applies:

* ``referee``: a stable state with the right reading (dice and checkers)
  came 0.05 s or more before the event;
* ``the pick-up unseen`` (plays): the three clear frames before the dice were
  picked up already read the board after it (the mover's dice not read while
  they lay), so nothing in the frames changed at the pick-up;
* ``dice wrong throughout`` (missed / value / cocked / extra / half): no frame
  before the last two read the throw's dice right (the roll is then inferred
  from the play, or waits for the next throw);
* ``checkers misread``: the dice right, the checkers (points, bar or tray) not;
* ``hand reported after it left``: frames flagged occluded while the truth has
  no hand (the occlusion tracker's hysteresis), then the right reading;
* ``re-read`` (from missed / value / cocked / extra): the first frames read the
  dice wrongly and a later frame (the still, two frames on) rightly;
* ``read wrongly after the right reading`` (vision): right from the first
  frame, then frames reading the dice wrongly (a phantom die) restarted it;
* ``reading changed`` / ``hand over the board``: right from the first frame,
  then a differing frame (still read right) or a hand restarted the hold.

``--seeds A,B,C`` measures those sessions only (a fixed set, while a filming
job adds to the cache).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.streams.evaluate import direction_of, officiate, plan, streams_for
from bench.streams.referee import referee_events, settings_for
from bench.streams.scoring import Tally, percentile, score, summary
from bench.streams.store import StreamFiles, make_perfect_stream
from controller.simulation.director import Direction

GOAL = 0.5


def flickered(files: StreamFiles, rate: float, folder: Path) -> StreamFiles:
    """``files`` with each clear frame misread with chance ``rate`` (written to ``folder``)."""
    import gzip
    import json

    rng = random.Random(files.seed)
    out = replace(files, lines=folder / f"{files.seed}.flicker.jsonl.gz")
    with gzip.open(out.lines, "wt", compresslevel=1) as handle:
        for line in files.read_lines():
            clear = "schema" in line and line.get("board_found") and not line.get("occluded")
            written = _misread(line, rng) if clear and rng.random() < rate else line
            handle.write(json.dumps(written, separators=(",", ":")) + "\n")
    return out


def _misread(line: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """One die missed (half the time when there are dice), else one checker missed."""
    if line.get("dice") and rng.random() < 0.5:
        dice = list(line["dice"])
        del dice[rng.randrange(len(dice))]
        return {**line, "dice": dice}
    points = [dict(c) for c in line["points"]]
    filled = [(i, colour) for i, c in enumerate(points) for colour in ("light", "dark")
              if c[colour]]
    if not filled:
        return line
    index, colour = rng.choice(filled)
    points[index][colour] -= 1
    return {**line, "points": points}


def compute_times(files: StreamFiles, hold: float | None) -> list[float]:
    """Seconds the session took on each input that announced a roll or a play."""
    from controller.referee.inputs import ButtonInput
    from controller.referee.journal import Journal
    from controller.referee.session import Session
    from controller.referee.settings import settings_from_json
    from vision.errors import ObservationError
    from vision.observation import Observation

    truth = files.load_truth()
    settings = settings_from_json(settings_for(truth, hold))
    out: list[float] = []
    with tempfile.TemporaryDirectory(prefix="bgref-latency-") as tmp:
        journal = Journal.open(Path(tmp) / "journal.sqlite")
        try:
            session = Session(journal, settings)
            for line in files.read_lines():
                if "schema" in line:
                    try:
                        observation = Observation.from_json(line)
                    except ObservationError:
                        # The replay reports a bad line and skips it (a reader's
                        # count beyond 15, rendered 7e15fdd04acc seed 28 t=466.9);
                        # the timing does the same instead of stopping.
                        continue
                    start = time.perf_counter()
                    events = session.observe(observation)
                else:
                    start = time.perf_counter()
                    events = session.step(ButtonInput(line["t"], line["button"],
                                                      line["player"], line.get("level")))
                spent = time.perf_counter() - start
                if any(e.event in ("roll", "opening_roll", "play") for e in events):
                    out.append(spent)
        finally:
            journal.close()
    return out


RIGHT_SLACK = 0.05
"""Seconds a right stable state may precede the event and still be the one acted on."""
UNSEEN_FRAMES = 3
"""Clear frames just before a pick-up that, all read as the board after it (no dice,
the checkers right), make it a pick-up the vision never saw: the mover's dice were
not read while they lay (rendered 7e15fdd04acc seed 60 t=77.7), so nothing changed
in the frames when they were picked up and the play waits for the next throw.  Three
frames (0.3 s, the hold) are enough for that board to have been reported already."""


def _dice_key(d: dict[str, Any]) -> tuple[Any, ...]:
    return (d["value"], d["flat"], d["on_checker"], d["side"])


def _dice_verdict(seen: list[tuple[Any, ...]], want: list[list[Any]]) -> str:
    """How a frame's dice compare with the truth's: right, missed, extra, cocked
    (a flat die read tilted), value, half (or on a checker)."""
    truth = sorted((tuple(d) for d in want), key=str)
    got = sorted(seen, key=str)
    if got == truth:
        return "right"
    if len(got) < len(truth):
        return "missed"
    if len(got) > len(truth):
        return "extra"
    if any(not g[1] for g in got) and all(w[1] for w in truth):
        return "cocked"
    if sorted(g[0] or 0 for g in got) != sorted(w[0] for w in truth):
        return "value"
    return "half"


def _moment_at(moments: list[dict[str, Any]], t: float) -> dict[str, Any]:
    found = moments[0]
    for moment in moments:
        if moment["t"] > t + 1e-6:
            break
        found = moment
    return found


def _checkers_right(frame: dict[str, Any], moment: dict[str, Any]) -> bool:
    if [[p["light"], p["dark"]] for p in frame["points"]] != moment["points"]:
        return False
    if [frame["bar"]["light"], frame["bar"]["dark"]] != moment["bar"]:
        return False
    off = frame.get("off")
    truth_off = moment.get("off")
    return truth_off is None or off is None or [off["light"], off["dark"]] == truth_off


def _pickup_unseen(before: list[dict[str, Any]], want: list[list[Any]],
                   moment: dict[str, Any]) -> bool:
    """True when the last ``UNSEEN_FRAMES`` frames ``before`` a pick-up, all clear, already
    read the board after it: the dice ``want`` (none) and the ``moment``'s checkers."""
    lead = before[-UNSEEN_FRAMES:]
    return len(lead) == UNSEEN_FRAMES and all(
        not f["occluded"] and f["board_found"]
        and _dice_verdict([_dice_key(d) for d in f["dice"]], want) == "right"
        and _checkers_right(f, moment) for f in lead)


def _changed_after_right(later: list[str]) -> str:
    """The cause when the reading changed after a right one: the vision's when some later
    frame reads the dice wrongly (a phantom die read beside the board after a pick-up,
    rendered 7e15fdd04acc seed 105), else the stabiliser's (a right reading that moved)."""
    wrong = [h for h in later if h not in ("right", "hand", "late hand")]
    if wrong:
        common = max(sorted(set(wrong)), key=wrong.count)
        return f"vision: read wrongly after the right reading ({common})"
    return "stabiliser: the reading changed after it was right"


def slow_causes(files: StreamFiles, hold: float | None,
                goal: float = GOAL) -> list[tuple[str, str]]:
    """(cause, example line) for each decision of ``goal`` seconds or more in one
    stream (see the module's doc for the causes)."""
    from controller.referee.session import stabiliser_config
    from controller.referee.settings import settings_from_json
    from vision.errors import ObservationError
    from vision.observation import Observation
    from vision.stabiliser import Stabiliser, StableState, same_state

    truth = files.load_truth()
    events = referee_events(files, truth, hold)
    tally = score(truth, events)
    moments = files.load_moments()
    frames: list[dict[str, Any]] = []
    for line in files.read_lines():
        if "schema" not in line:
            continue
        try:
            Observation.from_json(line)
        except ObservationError:
            continue  # the replay skips it too
        frames.append(line)
    config = stabiliser_config(settings_from_json(settings_for(truth, hold)))
    stabiliser = Stabiliser(config)
    stables: list[tuple[float, Observation]] = []
    for frame in frames:
        for change in stabiliser.push(Observation.from_json(frame)):
            if isinstance(change, StableState) and change.observation.t is not None:
                stables.append((change.observation.t, change.observation))
    out: list[tuple[str, str]] = []
    todo = [(v, t, "roll") for v, _, t in tally.settle_latency] + \
           [(v, t, "play") for v, _, t in tally.pickup_latency]
    for latency, t0, what in todo:
        if latency < goal - 1e-6:
            continue
        want = _moment_at(moments, t0)["dice"]
        end = t0 + latency + 1e-6
        marks: list[str] = []
        verdicts: list[str] = []
        checkers: list[bool] = []
        previous: Observation | None = None
        for frame in (f for f in frames if t0 - 1e-6 <= f["t"] <= end):
            moment = _moment_at(moments, frame["t"])
            observation = Observation.from_json(frame)
            if frame["occluded"] or not frame["board_found"]:
                verdict = "hand" if moment["occluded"] else "late hand"
                previous = None
            else:
                verdict = _dice_verdict([_dice_key(d) for d in frame["dice"]], want)
                if previous is not None and not same_state(previous, observation,
                                                           config.position_tolerance):
                    verdict += "~"
                previous = observation
            verdicts.append(verdict)
            checkers.append(_checkers_right(frame, moment))
            marks.append({"right": "r", "missed": "m", "extra": "x", "cocked": "c",
                          "value": "v", "half": "h", "hand": "H",
                          "late hand": "O"}[verdict.rstrip("~")]
                         + ("" if checkers[-1] else "k") + ("~" if "~" in verdict else ""))
        heads = [v.rstrip("~") for v in verdicts]
        right_stable = [t for t, o in stables if t0 - 1e-6 <= t <= end and _dice_verdict(
            [(d.value, d.flat, d.on_checker, d.side) for d in o.dice], want) == "right"
            and _checkers_right(o.to_json(), _moment_at(moments, t))]
        first_right = heads.index("right") if "right" in heads else None
        unseen = what == "play" and _pickup_unseen(
            [f for f in frames if f["t"] < t0 - 1e-6], want, _moment_at(moments, t0))
        if right_stable and right_stable[0] < t0 + latency - RIGHT_SLACK:
            cause = "referee: a right stable state not acted on"
        elif unseen:
            cause = "vision: the pick-up unseen (the board read without the dice before it)"
        elif first_right is None or (what == "roll" and first_right >= len(heads) - 2):
            wrong = [h for h in heads if h not in ("right", "hand", "late hand")]
            common = max(set(wrong), key=wrong.count) if wrong else "hand"
            cause = f"vision: dice wrong throughout ({common})"
        elif not all(checkers[first_right:]) and not right_stable:
            cause = "vision: checkers misread (points, bar or tray)"
        elif first_right > 0:
            before = [h for h in heads[:first_right] if h != "late hand"]
            if not before:
                cause = "vision: hand reported after it left (occlusion hysteresis)"
            elif "hand" in before:
                cause = "vision: hand over the board, then read right"
            else:
                common = max(set(before), key=before.count)
                cause = f"vision: re-read right later (first read: {common})"
        elif any("~" in v for v in verdicts[first_right + 1:]):
            cause = _changed_after_right(heads[first_right + 1:])
        elif any(h in ("hand", "late hand") for h in heads):
            cause = "stabiliser: a hand (or the hysteresis) after the right reading"
        else:
            cause = "other"
        example = (f"{latency:4.1f} s {what} seed {files.seed} t={t0:.1f}: "
                   f"{' '.join(marks)}")
        out.append((f"{what}: {cause}", example))
    return out


def row(name: str, values: list[float]) -> str:
    median, p95, worst = summary(values)
    p99 = percentile(values, 0.99)
    under = sum(v < GOAL for v in values)
    share = f"{100.0 * under / len(values):.1f} %" if values else "-"
    return (f"{name:<34} {len(values):>6} {median:>8.3f} {p95:>8.3f} {p99:>8.3f} "
            f"{worst:>8.3f} {share:>9}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--fps", type=float, default=10.0)
    parser.add_argument("--hold", type=float, default=None,
                        help="the stabiliser's hold in seconds (default: the referee's, 0.3)")
    parser.add_argument("--slowest", type=int, default=10)
    parser.add_argument("--compute-streams", type=int, default=10,
                        help="streams also timed in-process with a journal on disk")
    parser.add_argument("--cached-only", action="store_true",
                        help="referee only the planned streams already in the cache")
    parser.add_argument("--perfect-vision", action="store_true",
                        help="the perfect reader's streams (no rendering): the referee and "
                             "the stabiliser alone")
    parser.add_argument("--flicker", type=float, default=0.0,
                        help="with --perfect-vision: the chance that a clear frame is misread "
                             "(a die or a checker missed)")
    parser.add_argument("--seeds", default=None,
                        help="these sessions only (comma-separated seeds)")
    parser.add_argument("--causes", type=int, default=0, metavar="N",
                        help="break the decisions of 0.5 s or more down by cause, with N "
                             "examples each (rendered streams)")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    if args.flicker and not args.perfect_vision:
        parser.error("--flicker needs --perfect-vision")
    seeds = [int(s) for s in args.seeds.split(",")] if args.seeds else None
    base = replace(Direction(), fps=args.fps)
    with tempfile.TemporaryDirectory(prefix="bgref-perfect-") as tmp:
        if args.perfect_vision:
            streams = [make_perfect_stream(s, direction_of(s, base), Path(tmp))
                       for s in seeds or plan(args.games, args.seed, base)]
            if args.flicker:
                streams = [flickered(f, args.flicker, Path(tmp)) for f in streams]
        else:
            streams = streams_for(args.games, args.seed, args.jobs, base, args.cached_only,
                                  seeds=seeds)
        total = Tally()
        for files in streams:
            total.add(officiate(files, args.hold, explain=False)[1])
        compute: list[float] = []
        for files in streams[:args.compute_streams]:
            compute.extend(compute_times(files, args.hold))
        causes: list[tuple[str, str]] = []
        if args.causes and not args.perfect_vision:
            for files in streams:
                causes.extend(slow_causes(files, args.hold))
    settle = [v for v, _, _ in total.settle_latency]
    pickup = [v for v, _, _ in total.pickup_latency]
    what = "perfect reader" if args.perfect_vision else "rendered, real pipeline"
    if args.flicker:
        what += f", {args.flicker:g} of frames misread"
    print(f"Referee decision latency, {what} ({total.games} games in {total.streams} sessions, "
          f"{args.fps:g} frames/s, hold {args.hold if args.hold is not None else 0.3} s)")
    print()
    print(f"{'from -> to (seconds)':<34} {'n':>6} {'median':>8} {'p95':>8} {'p99':>8} "
          f"{'max':>8} {'< 0.5 s':>9}")
    print(row("dice at rest -> roll", settle))
    print(row("dice picked up -> play", pickup))
    print(row("both", settle + pickup))
    print(row("referee computing (per decision)", compute))
    print()
    print(f"not decided at all: {total.rolls_expected - total.rolls_seen} of "
          f"{total.rolls_expected} rolls, {total.plays_expected - total.plays_seen} of "
          f"{total.plays_expected} plays (see bench/referee_accuracy.py)")
    if args.flicker:
        missed = (sum(total.illegal_planted.values()) - sum(total.illegal_caught.values())
                  + sum(total.void_planted.values()) - sum(total.void_caught.values()))
        print(f"under flicker: false calls {sum(total.false_calls.values())}, planted faults "
              f"missed {missed} of "
              f"{sum(total.illegal_planted.values()) + sum(total.void_planted.values())}")
    slow = sorted([(v, s, t, "roll") for v, s, t in total.settle_latency]
                  + [(v, s, t, "play") for v, s, t in total.pickup_latency], reverse=True)
    print()
    print(f"slowest {min(args.slowest, len(slow))}:")
    for v, seed, t, what in slow[:args.slowest]:
        print(f"  {v:6.2f} s  {what:<4} seed {seed} t={t:.1f}")
    if causes:
        print()
        print(f"decisions of {GOAL} s or more by cause ({len(causes)}; per frame from the "
              "moment on: r right, m a die missed, v a value misread, c a flat die read "
              "cocked, x a die too many, h wrong half or on a checker, H a hand, O "
              "occluded with no hand; k checkers misread; ~ the reading changed):")
        by_cause: dict[str, list[str]] = {}
        for cause, example in causes:
            by_cause.setdefault(cause, []).append(example)
        for cause, examples in sorted(by_cause.items(), key=lambda kv: -len(kv[1])):
            print(f"  {len(examples):5d}  {cause}")
            for example in sorted(examples, reverse=True)[:args.causes]:
                print(f"           {example}")
    worst = max(settle + pickup, default=0.0)
    met = worst < GOAL and bool(settle + pickup)
    mean = statistics.fmean(settle + pickup) if settle + pickup else float("nan")
    print()
    print(f"mean {mean:.3f} s; goal (every decision < {GOAL} s): {'met' if met else 'MISSED'}")
    return 1 if args.check and not met else 0


if __name__ == "__main__":
    sys.exit(main())
