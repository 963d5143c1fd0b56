"""Vision speed: time per 1280x720 frame of the whole per-frame pipeline, on one core.

    .venv/bin/python bench/vision_speed.py [--n 60] [--seed 3]

Runs ``BoardReader.read`` (rectification, checkers, occlusion, dice, cube;
the calibration given, as in a running referee) on rendered frames and on
the real board frames, with OpenCV held to one thread, and prints the
median and 95th percentile per frame and per stage.  Goal (issue 4): under
30 ms median on one core of this machine.
"""

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.checkers.reader import read_checkers
from vision.cube import find_cube
from vision.dice.board import read_board_dice
from vision.observation import Corners
from vision.occlusion.single import detect_occlusion
from vision.pipeline import BoardReader, checker_mask

SHARED = Path(os.environ.get("BGREF_SHARED") or Path(__file__).resolve().parents[2] / "shared")
Frame = tuple[np.ndarray, Calibration]


def rendered(n: int, seed: int) -> list[Frame]:
    from vision.synth import random_scene, render

    out = []
    rng = np.random.default_rng(seed)
    for _ in range(n):
        scene = random_scene(rng)
        frame, truth = render(scene)
        corners = truth.observation.corners
        assert corners is not None
        out.append((frame, Calibration(corners, "manual", (frame.shape[1], frame.shape[0]),
                                       profile=scene.profile)))
    return out


def real() -> list[Frame]:
    out = []
    for label_path in sorted((SHARED / "data" / "real-boards").glob("*.json")):
        c = json.loads(label_path.read_text())["corners"]
        corners = Corners(*(tuple(c[k]) for k in ("top_left", "top_right", "bottom_right",
                                                   "bottom_left")))
        out.append((cv2.imread(str(label_path.with_suffix(".jpg"))),
                    Calibration(corners, "manual", (1280, 720))))
    return out


def timed(fn: Callable[..., object], *args: object, **kwargs: object) -> float:
    start = time.perf_counter()
    fn(*args, **kwargs)
    return (time.perf_counter() - start) * 1e3


def measure(frames: list[Frame]) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {k: [] for k in
                                     ("whole frame", "rectify", "checkers", "occlusion",
                                      "dice", "cube")}
    for frame, calibration in frames:
        reader = BoardReader(calibration=calibration)
        reader.read(frame)  # warm caches
        times["whole frame"].append(timed(reader.read, frame))
        fm, profile = calibration.field_map(), calibration.profile
        rect = fm.rectify(frame, profile, 640)
        times["rectify"].append(timed(fm.rectify, frame, profile, 640))
        checkers = read_checkers(rect, profile)
        times["checkers"].append(timed(read_checkers, rect, profile))
        times["occlusion"].append(timed(detect_occlusion, frame, fm, profile, checkers))
        mask = checker_mask(checkers, fm, frame.shape)
        times["dice"].append(timed(read_board_dice, frame, fm, profile, checker_mask=mask))
        times["cube"].append(timed(find_cube, frame, fm, profile))
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=60)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    print(f"one core (cv2 threads: {cv2.getNumThreads()}), load {os.getloadavg()[0]:.1f}\n")
    print(f"{'frames':<24}{'stage':<14}{'median ms':>10}{'p95 ms':>10}")
    median = 0.0
    for name, frames in (("rendered", rendered(args.n, args.seed)), ("real", real())):
        for stage, values in measure(frames).items():
            values.sort()
            p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
            if stage == "whole frame" and name == "rendered":
                median = statistics.median(values)
            print(f"{name + f' ({len(frames)})':<24}{stage:<14}"
                  f"{statistics.median(values):>10.1f}{p95:>10.1f}")
    still: list[float] = []
    for frame, calibration in real():
        reader = BoardReader(calibration=calibration, stream=True)
        reader.read(frame, t=0.0)
        still.extend(timed(reader.read, frame, t=i / 30) for i in range(1, 31))
    print(f"{'real, still board':<24}{'stream':<14}{statistics.median(still):>10.2f}"
          f"{sorted(still)[int(0.95 * len(still))]:>10.2f}   (motion gate: nothing moved)")
    print(f"\ngoal: under 30 ms median per frame: {'met' if median < 30 else 'MISSED'} "
          f"({median:.1f} ms on renders)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
