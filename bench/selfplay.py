"""Self-play soak: many complete matches per variant, with the time taken.

    .venv/bin/python bench/selfplay.py [--matches 1000] [--length 5] [--jobs 2]

Every match is played by the random-but-legal players of
``controller.game.selfplay`` (they also double, take, pass and resign), each
event checked by the game's own rules.  The table shows how many matches,
games and events ran, how many raised an exception (the goal is none), and
how long it took.  Seeds are 0..matches-1 for every variant, so a failure
can be replayed with ``bgref selfplay --seed S --match-to N --variant V``.
"""

import argparse
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.game.selfplay import selfplay_match
from controller.rules.variant import Variant


def run_one(args: tuple[int, int, str]) -> tuple[int, int, str | None]:
    """(games, events, error) for one seeded match."""
    seed, length, variant = args
    try:
        match = selfplay_match(seed, length, Variant(variant))
    except Exception:
        return 0, 0, f"seed {seed}: {traceback.format_exc(limit=3)}"
    events = sum(len(game.events) for game in match.games)
    return len(match.games), events, None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--length", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    print(f"{args.matches} matches to {args.length} points per variant, {args.jobs} processes\n")
    header = ("variant", "matches", "games", "events", "errors", "seconds")
    print(f"{header[0]:<12} " + " ".join(f"{h:>8}" for h in header[1:]))
    failures: list[str] = []
    for variant in Variant:
        start = time.perf_counter()
        jobs = [(seed, args.length, variant.value) for seed in range(args.matches)]
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(run_one, jobs, chunksize=8))
        seconds = time.perf_counter() - start
        errors = [error for _, _, error in results if error]
        failures.extend(f"{variant.value} {error}" for error in errors)
        print(f"{variant.value:<12} {len(results):>8} {sum(r[0] for r in results):>8} "
              f"{sum(r[1] for r in results):>8} {len(errors):>8} {seconds:>8.1f}")
    for failure in failures[:10]:
        print("\n" + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
