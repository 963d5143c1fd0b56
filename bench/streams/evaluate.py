"""Plan a set of sessions, make their streams, referee them and tally the results.

Shared by the two benchmarks and the end-to-end test.  Sessions alternate
the illegal-play mode (even seeds *players*, odd seeds *strict*) and cycle
through money play, 1-point and 3-point matches, so every count is split
fairly between the modes and the kinds of play.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from bench.streams.referee import referee_events
from bench.streams.scoring import Tally, score
from bench.streams.store import StreamFiles, files_for, make_perfect_stream, make_streams
from controller.simulation.director import Direction, Director

MATCH_LENGTHS = (0, 1, 3)


def direction_of(seed: int, base: Direction | None = None) -> Direction:
    """The direction of session ``seed``: its mode and match length, on ``base``'s rates."""
    base = base or Direction()
    return replace(base, mode="strict" if seed % 2 else "players",
                   match_length=MATCH_LENGTHS[(seed // 2) % len(MATCH_LENGTHS)])


def plan(games: int, first_seed: int, base: Direction | None = None) -> list[int]:
    """Seeds from ``first_seed`` on until their sessions hold at least ``games`` games
    (directing is cheap: no rendering)."""
    seeds: list[int] = []
    total = 0
    seed = first_seed
    while total < games:
        truth = Director(seed, direction_of(seed, base)).run()[2]
        total += len(truth.games)
        seeds.append(seed)
        seed += 1
    return seeds


def officiate(files: StreamFiles, hold: float | None = None,
              explain: bool = True) -> tuple[str, Tally]:
    """Referee one stream; (mode, tally)."""
    truth = files.load_truth()
    events = referee_events(files, truth, hold)
    lines = files.read_lines() if explain else None
    moments = files.load_moments() if explain else None
    return truth.mode, score(truth, events, lines, moments)


def streams_for(games: int, first_seed: int, jobs: int, base: Direction | None = None,
                cached_only: bool = False,
                log: Callable[[str], None] = lambda s: print(s, file=sys.stderr, flush=True),
                seeds: list[int] | None = None) -> list[StreamFiles]:
    """The streams of the planned sessions (or of ``seeds`` when given): made (or found
    in the cache), or with ``cached_only`` just those already in the cache."""
    if seeds is None:
        seeds = plan(games, first_seed, base)
        log(f"{len(seeds)} sessions (seeds {seeds[0]}-{seeds[-1]}) for {games}+ games")
    else:
        log(f"{len(seeds)} sessions (seeds {', '.join(map(str, seeds))})")
    if cached_only:
        found = [files_for(s, direction_of(s, base)) for s in seeds]
        found = [f for f in found if f.lines.exists() and f.truth.exists()
                 and f.moments.exists()]
        log(f"{len(found)} of them in the cache")
        return found
    return make_streams(seeds, lambda s: direction_of(s, base), jobs)


def run(games: int, first_seed: int, jobs: int, base: Direction | None = None,
        hold: float | None = None, cached_only: bool = False,
        perfect: Path | None = None, seeds: list[int] | None = None) -> dict[str, Tally]:
    """Tallies by mode (``strict``, ``players``) and ``all``.

    ``perfect``: a folder for the perfect reader's streams (:mod:`.oracle`),
    refereed instead of rendered ones.  ``seeds``: these sessions instead of the
    plan for ``games`` from ``first_seed``."""
    if perfect is not None:
        seeds = seeds if seeds is not None else plan(games, first_seed, base)
        streams = [make_perfect_stream(s, direction_of(s, base), perfect) for s in seeds]
    else:
        streams = streams_for(games, first_seed, jobs, base, cached_only, seeds=seeds)
    tallies = {"strict": Tally(), "players": Tally(), "all": Tally()}
    with ThreadPoolExecutor(max(1, jobs)) as pool:
        for mode, tally in pool.map(lambda f: officiate(f, hold), streams):
            tallies[mode].add(tally)
            tallies["all"].add(tally)
    return tallies
