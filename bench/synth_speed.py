"""How fast the synthetic board renderer makes frames, per size and per kind of scene.

The accuracy benchmark renders a thousand frames and more, and the demo's
synthetic camera streams them, so the renderer's budget is well under
100 ms a frame at 1280x720.  Prints a table of milliseconds per frame
(median, 90th percentile, worst) for plain scenes, scenes with hands, and
the high-resolution dice mode, plus the share of the time spent building
the random scene itself.

    .venv/bin/python bench/synth_speed.py [--n 40] [--seed 1]
"""

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.synth import DEFAULT_SIZE, HIRES_SIZE, Scene, random_scene, render

BUDGET_MS = 100.0


def _time(make: Callable[[int], Scene], size: tuple[int, int], n: int,
          seed: int) -> tuple[list[float], list[float]]:
    scenes, scene_ms = [], []
    for i in range(n):
        started = time.perf_counter()
        scenes.append(make(seed + i))
        scene_ms.append((time.perf_counter() - started) * 1000.0)
    render(scenes[0], size)  # warm caches and lazy imports
    gc.collect()
    frame_ms = []
    for scene in scenes:
        started = time.perf_counter()
        render(scene, size)
        frame_ms.append((time.perf_counter() - started) * 1000.0)
    return frame_ms, scene_ms


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=40, help="frames per row")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    def rng(seed: int) -> np.random.Generator:
        return np.random.default_rng(seed)

    rows: list[tuple[str, Callable[[int], Scene], tuple[int, int]]] = [
        ("random mix", lambda s: random_scene(rng(s)), DEFAULT_SIZE),
        ("no hands", lambda s: random_scene(rng(s), hands=0), DEFAULT_SIZE),
        ("one hand", lambda s: random_scene(rng(s), hands=1), DEFAULT_SIZE),
        ("start position", lambda s: Scene(seed=s), DEFAULT_SIZE),
        ("640x360", lambda s: random_scene(rng(s)), (640, 360)),
        ("hi-res dice", lambda s: random_scene(rng(s), dice=2), HIRES_SIZE),
    ]
    print(f"{'scenes':16} {'size':>10} {'median':>8} {'p90':>8} {'worst':>8} {'scene':>7}")
    ok = True
    for name, make, size in rows:
        frame_ms, scene_ms = _time(make, size, args.n, args.seed)
        frame_ms.sort()
        p90 = frame_ms[min(int(0.9 * len(frame_ms)), len(frame_ms) - 1)]
        print(f"{name:16} {size[0]:>5}x{size[1]:<4} {statistics.median(frame_ms):7.1f} "
              f"{p90:7.1f} {frame_ms[-1]:7.1f} {statistics.median(scene_ms):6.1f}  ms")
        if size == DEFAULT_SIZE and statistics.median(frame_ms) > BUDGET_MS:
            ok = False
    print(f"budget: median under {BUDGET_MS:.0f} ms at 1280x720: {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
