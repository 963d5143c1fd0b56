"""Planted faults the referee missed on rendered streams, by cause: what the vision showed.

    .venv/bin/python bench/referee_misses.py [--games 200] [--seed 0] [--seeds 3,7,12]
        [--gap 15] [--examples 8]

Referees the cached streams of ``bench/referee_accuracy.py`` (only those in the
cache, as ``--cached-only`` there; pin old streams with ``BGREF_STREAM_VERSION``)
and sorts every planted illegal play and void throw it missed by what the
vision reported, frame by frame against the truth's moments:

* a void throw: the frames from its dice coming to rest until they were picked
  up, clear of hands, by their commonest reading: the fault not shown (a cocked
  die read flat or not seen, a die on a checker read beside it, the die off the
  field not seen, the die on the field not seen, a hand throughout), or shown;
* an illegal play: the frame the play was due to be judged on (the bench's
  own check: checkers or dice misread, a hand reported), or read right.

A miss the vision showed right is the referee's when nothing went wrong
shortly before it in the same session; after another problem less than
``--gap`` seconds earlier (a roll not seen, a play not recorded, a false call,
in a chain) it is counted as that problem's knock-on, named by the chain's
first problem.  The chain is a heuristic: a knock-on may outlast the gap, and
an independent miss may fall inside it.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.streams.evaluate import officiate, streams_for
from bench.streams.scoring import Problem
from bench.streams.store import StreamFiles

Frame = dict[str, Any]


def _pose(die: dict[str, Any]) -> tuple[Any, ...]:
    return (die["value"], die["flat"], die["on_checker"], die["side"])


def void_cause(reason: str, frames: list[Frame]) -> str:
    """What the vision showed of a void throw, from its clear frames while it lay."""
    if not frames:
        return "vision: a hand reported over the throw throughout"
    readings: Counter[tuple[tuple[tuple[Any, ...], ...], int]] = Counter()
    for frame in frames:
        on = tuple(sorted((_pose(d) for d in frame["dice"]), key=str))
        readings[(on, len(frame.get("dice_off_field", [])))] += 1
    (on, off), _ = readings.most_common(1)[0]
    if reason == "off_field":
        if on and not off:
            return "vision: the die off the field not seen"
        if not on and off:
            return "vision: the die on the field not seen"
        return "vision: neither die seen" if not on else "shown"
    if reason == "cocked":
        if not on:
            return "vision: neither die seen"
        if len(on) == 1:
            return "vision: the cocked die not seen"
        return "shown" if any(not d[1] for d in on) else "vision: the cocked die read flat"
    if reason == "on_checker":
        if any(d[2] for d in on):
            return "shown" if len(on) == 2 else "vision: the other die not seen"
        return "vision: the die on a checker read beside it" if len(on) == 2 else \
            "vision: the die on a checker not seen"
    if reason == "wrong_half":
        return "shown" if len(on) == 2 else \
            "vision: a die not seen" if len(on) < 2 else "vision: a die too many"
    if reason == "early":
        return "shown" if len(on) >= 4 else "vision: a die of the four not seen"
    return "shown"


def play_cause(problem: Problem) -> str:
    """What the vision showed of an illegal play, from the bench's explanation."""
    if problem.vision.startswith("vision right") or not problem.vision:
        return "shown"
    if "point " in problem.vision or "bar " in problem.vision:
        return "vision: checkers misread at the pick-up"
    if "dice " in problem.vision:
        return "vision: dice read at the pick-up (a die left behind or a mark)"
    return "vision: a hand reported at the pick-up"


def _roll_read(truth: Any, frames: list[Frame], t_final: float) -> bool:
    """Whether some frame between the play's throw coming to rest and its pick-up at
    ``t_final`` read the throw's two dice with their values."""
    play = min(truth.plays, key=lambda p: abs(p.t_final - t_final))
    throws = [t for t in truth.throws if t.player == play.player and t.void is None
              and t.t_settled < t_final]
    if not throws:
        return True
    throw = max(throws, key=lambda t: t.t_settled)
    want = sorted(throw.dice)
    return any(sorted(d["value"] or 0 for d in f["dice"]) == want for f in frames
               if throw.t_settled - 1e-6 <= f["t"] < t_final)


def causes(files: StreamFiles, gap: float) -> list[tuple[str, str]]:
    """(cause, example) for every planted fault missed in one stream."""
    truth = files.load_truth()
    _, tally = officiate(files)
    frames = [f for f in files.read_lines() if "schema" in f]
    problems = sorted(tally.problems, key=lambda p: p.t)
    out: list[tuple[str, str]] = []
    for index, problem in enumerate(problems):
        void = re.match(r"void throw missed \((\w+)\)", problem.kind)
        illegal = re.match(r"illegal play missed \((\w+)\)", problem.kind)
        if not (void or illegal):
            continue
        if void:
            throw = min(truth.throws, key=lambda t: abs(t.t_settled - problem.t))
            end = throw.t_gone if throw.t_gone > throw.t_settled else throw.t_settled + 3.0
            clear = [f for f in frames if throw.t_settled - 1e-6 <= f["t"] < end - 1e-6
                     and not f["occluded"]]
            cause = void_cause(void[1], clear)
            what = f"void {void[1]}"
        else:
            assert illegal is not None
            cause = play_cause(problem)
            if cause == "shown" and not _roll_read(truth, frames, problem.t):
                cause = "vision: the roll's dice never read (the roll inferred from the play)"
            what = f"illegal {illegal[1]}"
        first = index
        while first > 0 and problems[first].t - problems[first - 1].t < gap:
            first -= 1
        if cause == "shown":
            if first == index:
                cause = "REFEREE: shown right, nothing wrong before"
            else:
                root = problems[first]
                kind = "a false call" if root.kind.startswith("false") else \
                    f"'{root.kind.split(':')[0]}'"
                cause = f"knock-on: out of step since {kind} ({root.cause})"
        out.append((cause, f"{files.seed}@{problem.t:.1f} {what}"))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--seeds", default=None, help="these sessions only (comma-separated)")
    parser.add_argument("--gap", type=float, default=15.0,
                        help="seconds after another problem within which a miss shown "
                             "right counts as its knock-on")
    parser.add_argument("--examples", type=int, default=8)
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")] if args.seeds else None
    streams = streams_for(args.games, args.seed, 1, cached_only=True, seeds=seeds)
    found: list[tuple[str, str]] = []
    for files in streams:
        found.extend(causes(files, args.gap))
    by_cause: dict[str, list[str]] = defaultdict(list)
    for cause, example in found:
        by_cause[cause].append(example)
    print(f"Planted faults missed on {len(streams)} cached sessions, by cause ({len(found)}):")
    for cause, examples in sorted(by_cause.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        print(f"  {len(examples):4}  {cause}")
        print(f"          {', '.join(examples[:args.examples])}")
    groups = Counter("vision" if c.startswith("vision") else c.split(":")[0]
                     for c, _ in found)
    print()
    print("  " + ", ".join(f"{name} {count}" for name, count in groups.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
