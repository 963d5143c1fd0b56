"""Streams on disk: made once per seed and code version, in parallel, reused after.

A stream costs 40-60 CPU seconds of rendering and reading a game (a fifth of it
the dice stills), so streams are cached under ``.cache/referee-streams/``
(ignored by git), in a folder
named by a hash of the code that makes them (the vision package, the rules
and game engines, this package) and of the direction: changing any of those
makes fresh streams, nothing else does.  Each stream is three files:

* ``S.jsonl.gz``: the ``bgref referee --replay`` lines (gzip, because held
  frames repeat);
* ``S.truth.json``: the :class:`~.timeline.Truth` (throws, plays, games,
  presses, settings);
* ``S.moments.json.gz``: per moment, what the frame truly showed.

Files are written to a temporary name and renamed, so an interrupted run
never leaves a stream that looks complete.
"""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import json
import os
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from bench.streams.camera import FilmStats, film
from controller.simulation.director import Direction, Director
from controller.simulation.timeline import Truth

ROOT = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("BGREF_STREAM_CACHE") or ROOT / ".cache" / "referee-streams")
SOURCES = ("vision", "controller/rules", "controller/game", "bench/streams/camera.py",
           "controller/simulation")


def code_version() -> str:
    """A short hash of every source file the streams depend on.

    ``BGREF_STREAM_VERSION`` pins it instead (to referee streams made by an
    earlier state of the code, e.g. while the vision changes under a long run)."""
    pinned = os.environ.get("BGREF_STREAM_VERSION")
    if pinned:
        return pinned
    digest = hashlib.sha1()
    for source in SOURCES:
        where = ROOT / source
        for path in sorted(where.rglob("*.py")) if where.is_dir() else [where]:
            digest.update(str(path.relative_to(ROOT)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


@dataclass(frozen=True)
class StreamFiles:
    """Where one stream lies, and what making it cost (zero when it came from the cache)."""

    seed: int
    lines: Path
    truth: Path
    moments: Path
    frames: int = 0
    renders: int = 0
    reads: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0

    def load_truth(self) -> Truth:
        return Truth.from_json(json.loads(self.truth.read_text()))

    def read_lines(self) -> Iterator[dict[str, Any]]:
        with gzip.open(self.lines, "rt") as handle:
            for line in handle:
                yield json.loads(line)

    def load_moments(self) -> list[dict[str, Any]]:
        with gzip.open(self.moments, "rt") as handle:
            data: list[dict[str, Any]] = json.load(handle)
        return data


def folder_for(direction: Direction, version: str | None = None) -> Path:
    params = json.dumps(dataclasses.asdict(direction), sort_keys=True)
    key = hashlib.sha1(params.encode()).hexdigest()[:8]
    return CACHE / f"{version or code_version()}-{key}"


def files_for(seed: int, direction: Direction, folder: Path | None = None) -> StreamFiles:
    base = folder or folder_for(direction)
    return StreamFiles(seed, base / f"{seed}.jsonl.gz", base / f"{seed}.truth.json",
                       base / f"{seed}.moments.json.gz")


def make_stream(seed: int, direction: Direction, folder: Path | None = None) -> StreamFiles:
    """The stream of session ``seed``, from the cache or made now."""
    files = files_for(seed, direction, folder)
    if files.lines.exists() and files.truth.exists() and files.moments.exists():
        return files
    files.lines.parent.mkdir(parents=True, exist_ok=True)
    start, cpu = time.perf_counter(), time.process_time()
    director = Director(seed, direction)
    moments, presses, truth = director.run()
    labels: list[dict[str, Any]] = []
    stats = FilmStats()
    tmp = files.lines.with_suffix(f".tmp{os.getpid()}")
    with gzip.open(tmp, "wt", compresslevel=5) as handle:
        for line in film(director.table, seed, moments, presses, direction.fps, labels, stats):
            handle.write(json.dumps(line, separators=(",", ":")) + "\n")
    moments_tmp = files.moments.with_suffix(f".tmp{os.getpid()}")
    with gzip.open(moments_tmp, "wt", compresslevel=5) as handle:
        json.dump(labels, handle, separators=(",", ":"))
    truth_tmp = files.truth.with_suffix(f".tmp{os.getpid()}")
    truth_tmp.write_text(json.dumps(truth.to_json(), indent=None))
    os.replace(tmp, files.lines)
    os.replace(moments_tmp, files.moments)
    os.replace(truth_tmp, files.truth)
    return dataclasses.replace(files, frames=stats.frames, renders=stats.renders,
                               reads=stats.reads, seconds=time.perf_counter() - start,
                               cpu_seconds=time.process_time() - cpu)


def make_perfect_stream(seed: int, direction: Direction, folder: Path) -> StreamFiles:
    """Session ``seed`` as a perfect reader would see it (:mod:`.oracle`): no rendering,
    the same moments, presses and truth; written to ``folder`` (no cache: it is cheap)."""
    from bench.streams.oracle import perfect_lines

    files = StreamFiles(seed, folder / f"{seed}.jsonl.gz", folder / f"{seed}.truth.json",
                        folder / f"{seed}.moments.json.gz")
    folder.mkdir(parents=True, exist_ok=True)
    director = Director(seed, direction)
    moments, presses, truth = director.run()
    labels: list[dict[str, Any]] = []
    t = 0.0
    with gzip.open(files.lines, "wt", compresslevel=1) as handle:
        for line in perfect_lines(director.table, moments, presses, direction.fps):
            handle.write(json.dumps(line, separators=(",", ":")) + "\n")
    # The truth of each moment is what the perfect reader reports.
    from bench.streams.oracle import PerfectReader

    reader = PerfectReader(director.table)
    for moment in moments:
        seen = reader.observe(moment.shot)
        labels.append({"t": round(t, 4), "duration": round(moment.duration, 4),
                       "label": moment.label,
                       "points": [[c["light"], c["dark"]] for c in seen["points"]],
                       "bar": [seen["bar"]["light"], seen["bar"]["dark"]],
                       "off": None if seen["off"] is None else [seen["off"]["light"],
                                                                seen["off"]["dark"]],
                       "dice": [[d["value"], d["flat"], d["on_checker"], d["side"]]
                                for d in seen["dice"]],
                       "occluded": seen["occluded"], "hand_cover": 0.0})
        t += max(1, round(moment.duration * direction.fps)) / direction.fps
    with gzip.open(files.moments, "wt", compresslevel=1) as handle:
        json.dump(labels, handle, separators=(",", ":"))
    files.truth.write_text(json.dumps(truth.to_json()))
    return files


def _make(job: tuple[int, Direction, Path]) -> StreamFiles:
    return make_stream(*job)


def make_streams(seeds: Iterable[int], direction_of: Any, jobs: int = 1,
                 progress: bool = True) -> list[StreamFiles]:
    """Every stream (``direction_of(seed)`` directs each), ``jobs`` processes at a time,
    in seed order."""
    version = code_version()
    work = [(seed, direction_of(seed), folder_for(direction_of(seed), version))
            for seed in seeds]
    out: dict[int, StreamFiles] = {}
    if jobs <= 1:
        results: Iterable[StreamFiles] = map(_make, work)
    else:
        pool = get_context("spawn").Pool(jobs)
        results = pool.imap_unordered(_make, work)
    try:
        for files in results:
            out[files.seed] = files
            if progress and files.renders:
                print(f"  stream {files.seed}: {files.renders} renders, {files.frames} frames "
                      f"({files.reads} read in full), {files.cpu_seconds:.0f} CPU s, "
                      f"{files.seconds:.0f} s ({len(out)}/{len(work)})", file=sys.stderr,
                      flush=True)
    finally:
        if jobs > 1:
            pool.close()
            pool.join()
    return [out[seed] for seed, _, _ in work]
