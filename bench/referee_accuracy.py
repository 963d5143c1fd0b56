"""The referee on realistic streams: false calls, and planted faults caught, over whole games.

    .venv/bin/python bench/referee_accuracy.py [--games 200] [--seed 0] [--jobs 2] [--fps 10]
        [--cached-only] [--perfect-vision] [--seeds 3,7,12] [--problems 40] [--check]

Whole self-played games are staged as a camera over the table would see
them (set-up, throws with the cup and tumbling dice, hands moving checkers,
checkers held off the board, dice picked up, cube and resignation buttons),
with illegal plays, void throws and early throws planted and labelled
(``bench/streams``).  Every distinct scene is rendered, every frame is read
by the real pipeline in stream mode, and the stream goes through
``bgref referee --replay -`` (stabiliser, session, machine).  Streams are
cached under ``.cache/referee-streams`` by seed and code version, so a second
run only referees.

The table, by illegal-play mode (strict, players) and in all: games, turns,
throws, plays judged, planted illegal plays caught / missed (by kind),
planted void throws caught / missed (by reason), early throws under an
exception correctly not voided, false calls (any ``illegal_play``, ``reroll``
or ``call_upheld`` the truth does not contain), legal plays judged illegal,
warnings, and how the vision read the dice of valid throws by face value.
Then the first problem of each session (the root cause: after a missed roll
the referee is out of step and what follows is knock-on) with its likely
cause, and every miss and false call with its seed and time and whether the
frame the referee acted on was misread by the vision.

Goal: zero false calls and every planted fault caught.  ``--check`` exits 1
when the goal is missed.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.streams.evaluate import run
from bench.streams.scoring import Tally, first_problems
from controller.simulation.director import Direction


def _ratio(caught: int, planted: int) -> str:
    return f"{caught}/{planted}" if planted else "-"


def table(tallies: dict[str, Tally]) -> list[str]:
    modes = ("strict", "players", "all")
    rows: list[tuple[str, ...]] = []

    def row(name: str, values: list[str]) -> None:
        rows.append((name, *values))

    t = tallies
    row("sessions", [str(t[m].streams) for m in modes])
    row("games", [str(t[m].games) for m in modes])
    row("games ended (game_over)", [str(t[m].games_ended) for m in modes])
    row("turns", [str(t[m].turns) for m in modes])
    row("throws", [str(t[m].throws) for m in modes])
    row("plays judged (play events)", [str(t[m].plays_judged) for m in modes])
    row("legal plays recorded", [_ratio(t[m].plays_seen, t[m].plays_expected) for m in modes])
    row("  recorded as another play", [str(t[m].plays_wrong_move) for m in modes])
    row("valid rolls seen", [_ratio(t[m].rolls_seen, t[m].rolls_expected) for m in modes])
    row("  dice misread", [str(t[m].rolls_wrong_dice) for m in modes])
    for value in range(1, 7):
        row(f"  dice showing {value} read right", [_ratio(t[m].dice_read[value],
                                                          t[m].dice_shown[value])
                                                   for m in modes])
    kinds = sorted(set().union(*(t[m].illegal_planted for m in modes)))
    row("illegal plays caught", [_ratio(sum(t[m].illegal_caught.values()),
                                        sum(t[m].illegal_planted.values())) for m in modes])
    for kind in kinds:
        row(f"  {kind}", [_ratio(t[m].illegal_caught[kind], t[m].illegal_planted[kind])
                          for m in modes])
    row("  mode's outcome right", [_ratio(t[m].outcome_right, t[m].outcome_expected)
                                   for m in modes])
    reasons = sorted(set().union(*(t[m].void_planted for m in modes)))
    row("void throws caught", [_ratio(sum(t[m].void_caught.values()),
                                      sum(t[m].void_planted.values())) for m in modes])
    for reason in reasons:
        row(f"  {reason}", [_ratio(t[m].void_caught[reason], t[m].void_planted[reason])
                            for m in modes])
    row("  with the wrong reason", [str(t[m].void_reason_wrong) for m in modes])
    row("early throws rightly not void", [_ratio(sum(t[m].exceptions_kept.values()),
                                                 sum(t[m].exceptions.values()))
                                          for m in modes])
    for name in ("race", "forced"):
        row(f"  {name}", [_ratio(t[m].exceptions_kept[name], t[m].exceptions[name])
                          for m in modes])
    row("FALSE CALLS", [str(sum(t[m].false_calls.values())) for m in modes])
    for name in sorted(set().union(*(t[m].false_calls for m in modes))):
        row(f"  {name}", [str(t[m].false_calls[name]) for m in modes])
    row("legal plays judged illegal", [str(t[m].false_verdicts) for m in modes])
    row("warnings", [str(sum(t[m].warnings.values())) for m in modes])
    for name in sorted(set().union(*(t[m].warnings for m in modes))):
        row(f"  {name}", [str(t[m].warnings[name]) for m in modes])
    widths = [max(len(r[i]) for r in [("", *modes), *rows]) for i in range(4)]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                       for i, (c, w) in enumerate(zip(r, widths, strict=True)))
             for r in [("", *modes), *rows]]
    return lines


def _seeds(text: str) -> list[int]:
    """``--seeds 3,7,12``: the session seeds, in order."""
    try:
        seeds = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"seeds are whole numbers separated by commas, "
                                         f"not {text!r}") from None
    if not seeds:
        raise argparse.ArgumentTypeError("no seed given")
    return seeds


def goal_met(t: Tally) -> bool:
    return (not t.false_calls and t.illegal_caught == t.illegal_planted
            and t.void_caught == t.void_planted and t.exceptions_kept == t.exceptions)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games at least (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="first session seed")
    parser.add_argument("--jobs", type=int, default=2,
                        help="processes making streams (default 2: the machine's cores)")
    parser.add_argument("--fps", type=float, default=10.0, help="camera frames per second")
    parser.add_argument("--problems", type=int, default=40,
                        help="how many misses and false calls to list")
    parser.add_argument("--cached-only", action="store_true",
                        help="referee only the planned streams already in the cache")
    parser.add_argument("--perfect-vision", action="store_true",
                        help="referee what a perfect reader would report instead of rendered "
                             "streams (the referee and stabiliser alone; no rendering)")
    parser.add_argument("--seeds", type=_seeds, default=None, metavar="A,B,C",
                        help="these sessions only (comma-separated seeds) instead of the plan "
                             "for --games from --seed")
    parser.add_argument("--check", action="store_true", help="exit 1 when the goal is missed")
    args = parser.parse_args()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bgref-perfect-") as tmp:
        tallies = run(args.games, args.seed, args.jobs, replace(Direction(), fps=args.fps),
                      cached_only=args.cached_only,
                      perfect=Path(tmp) if args.perfect_vision else None, seeds=args.seeds)
    what = "a perfect reader's streams" if args.perfect_vision else "rendered streams"
    print(f"Referee accuracy on {what} ({args.fps:g} frames/s, seeds from "
          f"{args.seed}; {time.perf_counter() - start:.0f} s)")
    print()
    for line in table(tallies):
        print(line)
    problems = tallies["all"].problems
    first = first_problems(problems)
    print()
    print(f"First problem of each session ({len(first)} of {tallies['all'].streams} sessions "
          "have one), by likely cause:")
    for cause, count in Counter(p.cause for p in first).most_common():
        print(f"  {count:4}  {cause}")
    for problem in first:
        print(f"  {problem}")
    print()
    print(f"Misses and false calls ({len(problems)}; first {min(len(problems), args.problems)}):")
    for problem in problems[:args.problems]:
        print(f"  {problem}")
    met = goal_met(tallies["all"])
    print()
    print(f"goal (no false call, every planted fault caught): {'met' if met else 'MISSED'}")
    return 1 if args.check and not met else 0


if __name__ == "__main__":
    sys.exit(main())
