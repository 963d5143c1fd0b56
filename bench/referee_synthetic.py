"""False calls and planted faults caught on synthetic streams, fast: no rendering, no vision.

    .venv/bin/python bench/referee_synthetic.py [--games 200] [--seed 0] [--check]

Self-played one-game matches are staged by ``tests/referee_streams`` as
observations (the rules' positions drawn as the camera reports them), with
illegal plays a pip off, void throws of every kind and early throws planted
at 10 % each, then turned into raw frames with flicker (5 % of frames
misread), hands over the board and checkers lifted while moving, and fed
through the real stabiliser into the referee, half the games in each mode.
Every seating is used in turn, and every third game is seen with no tray in
view (borne-off checkers simply vanish from the board).

The table counts games, plays, the faults planted and caught by kind, and
the false calls (any ``illegal_play``, ``reroll`` or ``call_upheld`` beyond
the planted faults).  This isolates the referee and the stabiliser from the
vision; ``bench/referee_accuracy.py`` measures the whole chain on rendered
frames.  Goal: zero false calls, every planted fault caught.  ``--check``
exits 1 when the goal is missed.
"""

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.game.selfplay import selfplay_match
from controller.referee.machine import Referee
from controller.referee.settings import RefereeSettings
from tests.referee_streams import SEATINGS, Plant, frames, run, script_match, stabilised

MODES = ("strict", "players")


def tray_seen(seed: int) -> bool:
    """Whether game ``seed`` is seen with the tray in view (two games in three)."""
    return seed % 3 != 2


def referee_game(seed: int) -> tuple[str, Counter[str], Counter[str], int]:
    """(mode, planted, caught, plays) of one planted, noisy game."""
    mode = MODES[seed % 2]
    match = selfplay_match(seed, 1)
    plant = Plant(mode, illegal=0.1, void=0.1, early=0.1, seed=seed)  # type: ignore[arg-type]
    script = script_match(match, SEATINGS[seed % 4], seed=seed, lifted=True, plant=plant,
                          tray=tray_seen(seed))
    inputs = list(stabilised(frames(script, seed=seed)))
    _, events = run(Referee.new(RefereeSettings(mode=mode, match_length=1)), inputs)  # type: ignore[arg-type]
    caught: Counter[str] = Counter()
    for event in events:
        if event.event == "reroll":
            reason = event.data["reason"]
            caught["early" if reason == "early" else f"void:{reason}"] += 1
        elif event.event == ("illegal_play" if mode == "strict" else "call_upheld"):
            caught["illegal"] += 1
    plays = sum(1 for e in events if e.event == "play")
    return mode, Counter(plant.planted), caught, plays


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--check", action="store_true", help="exit 1 when the goal is missed")
    args = parser.parse_args()
    start = time.perf_counter()
    planted = {mode: Counter[str]() for mode in MODES}
    caught = {mode: Counter[str]() for mode in MODES}
    false_calls = {mode: 0 for mode in MODES}
    missed = {mode: 0 for mode in MODES}
    games = Counter[str]()
    plays = Counter[str]()
    for seed in range(args.seed, args.seed + args.games):
        mode, p, c, n = referee_game(seed)
        games[mode] += 1
        plays[mode] += n
        planted[mode].update(p)
        caught[mode].update(c)
        for kind in set(p) | set(c):
            false_calls[mode] += max(0, c[kind] - p[kind])
            missed[mode] += max(0, p[kind] - c[kind])
    kinds = sorted(set().union(*planted.values(), *caught.values()))
    print(f"referee on synthetic streams: {args.games} games, seeds {args.seed}.."
          f"{args.seed + args.games - 1}, {time.perf_counter() - start:.0f} s")
    print(f"{'':<24}{'strict':>10}{'players':>10}")
    print(f"{'games':<24}{games['strict']:>10}{games['players']:>10}")
    no_tray = {m: sum(1 for seed in range(args.seed, args.seed + args.games)
                      if MODES[seed % 2] == m and not tray_seen(seed)) for m in MODES}
    print(f"{'  with no tray in view':<24}{no_tray['strict']:>10}{no_tray['players']:>10}")
    print(f"{'plays judged':<24}{plays['strict']:>10}{plays['players']:>10}")
    for kind in kinds:
        cells = [f"{caught[m][kind]}/{planted[m][kind]}" for m in MODES]
        print(f"{'caught ' + kind:<24}{cells[0]:>10}{cells[1]:>10}")
    print(f"{'planted faults missed':<24}{missed['strict']:>10}{missed['players']:>10}")
    print(f"{'FALSE CALLS':<24}{false_calls['strict']:>10}{false_calls['players']:>10}")
    met = not any(false_calls.values()) and not any(missed.values())
    print(f"goal (no false call, every planted fault caught): {'met' if met else 'MISSED'}")
    return 0 if met or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
