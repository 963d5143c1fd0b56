"""How well calibration finds the playing field: corner errors, found and wrongly found.

    .venv/bin/python bench/calibration_accuracy.py [--synth N] [--seed S] [--dice N]

Prints one table per data set:

- **real frames** (``shared/data/real-boards``, 8 labelled 1280x720 frames of
  one tournament board, no markers): the automatic search, frame by frame,
  with the largest and mean corner error against the labelled corners.
- **rendered boards, no markers** (``vision.synth``, random styles, cameras,
  light and hands): the automatic search, per board style: found, wrongly
  found (a corner more than ``--wrong`` pixels off), and the error of the
  correct finds (median, 95th percentile, largest).
- **rendered boards, markers pasted** (the same kind of renders with the four
  tiles pasted on the rails at their exact place, turned at random): the
  marker method, the same columns.
- **own renders, markers** (``vision.calibration.scene``: the flat board with
  the tiles drawn in, random perspective): the marker method.
- **no board**: the dice photos of ``shared/data/dice-photos``, noise, a blank
  sheet on a table, the real frames turned a quarter: how often anything is
  found (every find there is wrong).

An error is the distance in pixels between a found corner and the true one;
"max" is the largest of a frame's four, pooled over frames.

The automatic search's thresholds were tuned on renders of other seeds and
never on the styles in ``HELD_OUT`` (marked "*"): their rows, and the "held
out" total, show how it does on a board it was not tuned for.
"""

import argparse
import glob
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.shared_data import data_folder
from bench.styles import HELD_OUT_BOARDS
from vision.calibration.auto import find_field
from vision.calibration.markers import find_field_by_markers
from vision.calibration.scene import paste_markers, render
from vision.errors import BoardNotFoundError, CalibrationError
from vision.observation import Corners
from vision.profile import TOURNAMENT, BoardProfile

NAMES = ("top_left", "top_right", "bottom_right", "bottom_left")
Image = npt.NDArray[np.uint8]
Finder = Callable[[Image, BoardProfile], Corners]
HELD_OUT = HELD_OUT_BOARDS
"""Board styles the automatic search was not tuned on (the split every bench shares)."""


@dataclass
class Tally:
    frames: int = 0
    found: int = 0
    wrong: int = 0
    errors: list[float] = field(default_factory=list)
    """Largest corner error of each correct find."""
    outward: list[float] = field(default_factory=list)
    """Signed error of each corner of the correct finds along the outward diagonal."""
    seconds: float = 0.0

    def add(self, error: float | None, seconds: float, wrong_px: float,
            outward: list[float] | None = None) -> None:
        self.frames += 1
        self.seconds += seconds
        if error is None:
            return
        self.found += 1
        if error > wrong_px:
            self.wrong += 1
        else:
            self.errors.append(error)
            self.outward += outward or []

    def merge(self, other: "Tally") -> None:
        self.frames += other.frames
        self.found += other.found
        self.wrong += other.wrong
        self.errors += other.errors
        self.outward += other.outward
        self.seconds += other.seconds

    def row(self, name: str) -> str:
        e = np.array(self.errors) if self.errors else np.array([np.nan])
        ms = 1000.0 * self.seconds / max(self.frames, 1)
        bias = float(np.mean(self.outward)) if self.outward else float("nan")
        return (f"{name:<18} {self.frames:>6} {self.found / max(self.frames, 1):>7.1%} "
                f"{self.wrong:>6} {np.median(e):>7.2f} {np.percentile(e, 95):>7.2f} "
                f"{np.max(e):>7.2f} {bias:>+7.2f} {ms:>7.0f}")


HEADER = (f"{'set':<18} {'frames':>6} {'found':>7} {'wrong':>6} {'median':>7} {'p95':>7} "
          f"{'max':>7} {'bias':>7} {'ms':>7}")


def read(path: str) -> Image:
    image = cv2.imread(path, cv2.IMREAD_COLOR)
    if image is None:
        raise SystemExit(f"cannot read {path}")
    return np.asarray(image, dtype=np.uint8)


def corner_error(found: Corners, truth: Corners) -> float:
    return float(np.max(np.linalg.norm(np.array(found.as_list())
                                       - np.array(truth.as_list()), axis=1)))


def outward_errors(found: Corners, truth: Corners) -> list[float]:
    """Each corner's error along the direction from the field's centre to the corner:
    positive when the found field is too large."""
    t, f = np.array(truth.as_list()), np.array(found.as_list())
    away = t - t.mean(axis=0)
    away /= np.linalg.norm(away, axis=1)[:, None]
    return [float(v) for v in ((f - t) * away).sum(axis=1)]


@dataclass
class Attempt:
    error: float | None
    """Largest corner error (0.0 for a find without truth), None when nothing was found."""
    seconds: float
    outward: list[float] = field(default_factory=list)


def attempt(finder: Finder, frame: Image, profile: BoardProfile,
            truth: Corners | None) -> Attempt:
    start = time.perf_counter()
    try:
        found = finder(frame, profile)
    except (BoardNotFoundError, CalibrationError):
        return Attempt(None, time.perf_counter() - start)
    seconds = time.perf_counter() - start
    if truth is None:
        return Attempt(0.0, seconds)
    return Attempt(corner_error(found, truth), seconds, outward_errors(found, truth))


def auto(frame: Image, profile: BoardProfile) -> Corners:
    return find_field(frame, profile).corners


def markers(frame: Image, profile: BoardProfile) -> Corners:
    return find_field_by_markers(frame)


def real_frames(wrong_px: float) -> None:
    print("\n== real frames (automatic search; labelled corners)")
    files = sorted(glob.glob(str(data_folder("real-boards") / "*.jpg")))
    if not files:
        print("   shared/data/real-boards is not there: skipped")
        return
    tally = Tally()
    for path in files:
        frame = read(path)
        label = json.loads(Path(path).with_suffix(".json").read_text())["corners"]
        truth = Corners(*(tuple(label[n]) for n in NAMES))
        start = time.perf_counter()
        try:
            result = find_field(frame, TOURNAMENT)
        except BoardNotFoundError as exc:
            tally.add(None, time.perf_counter() - start, wrong_px)
            print(f"   {Path(path).name:<12} not found: {exc}")
            continue
        seconds = time.perf_counter() - start
        errs = np.linalg.norm(np.array(result.corners.as_list())
                              - np.array(truth.as_list()), axis=1)
        tally.add(float(errs.max()), seconds, wrong_px,
                  outward_errors(result.corners, truth))
        print(f"   {Path(path).name:<12} max {errs.max():5.2f} px  mean {errs.mean():5.2f} px  "
              f"score {result.score.total:.3f}")
    print(HEADER)
    print(tally.row("real frames"))


def synth_sets(count: int, seed: int, wrong_px: float) -> None:
    try:
        from vision.synth import random_scene
        from vision.synth import render as synth_render
    except ImportError:
        print("\n(vision.synth is not there: rendered boards skipped)")
        return
    rng = np.random.default_rng(seed)
    plain: dict[str, Tally] = {}
    marked: dict[str, Tally] = {}
    for i in range(count):
        scene = random_scene(rng)
        frame, truth_data = synth_render(scene)
        truth = truth_data.observation.corners
        assert truth is not None
        style = scene.style.board.name
        a = attempt(auto, frame, scene.profile, truth)
        plain.setdefault(style, Tally()).add(a.error, a.seconds, wrong_px, a.outward)
        projection = np.array(truth_data.projection)
        turns = tuple(int(t) for t in rng.integers(0, 4, 4))
        pasted = paste_markers(frame, projection[:, [0, 1, 3]],
                               scene.dimensions.field_width_mm, scene.profile.field_aspect,
                               turns=(turns[0], turns[1], turns[2], turns[3]), seed=i)
        a = attempt(markers, pasted, scene.profile, truth)
        marked.setdefault(style, Tally()).add(a.error, a.seconds, wrong_px, a.outward)
    for title, table in (("rendered boards, no markers (automatic search)", plain),
                         ("rendered boards, markers pasted (marker method)", marked)):
        print(f"\n== {title}")
        print(HEADER)
        total, held = Tally(), Tally()
        for style in sorted(table):
            t = table[style]
            print(t.row(style + (" *" if style in HELD_OUT else "")))
            total.merge(t)
            if style in HELD_OUT:
                held.merge(t)
        print(total.row("all"))
        if held.frames:
            print(held.row("held out *"))


def own_renders(count: int, seed: int, wrong_px: float) -> None:
    print("\n== own renders with markers (marker method), and the same without (automatic)")
    rng = np.random.default_rng(seed)
    with_markers, without = Tally(), Tally()
    for i in range(count):
        w = rng.uniform(420.0, 600.0)  # the board, rails and tiles stay in the frame
        h = w / TOURNAMENT.field_aspect
        cx, cy = 640 + rng.uniform(-60, 60), 360 + rng.uniform(-10, 10)
        base = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
        quad = base + [cx, cy] + rng.uniform(-0.03, 0.03, (4, 2)) * [w, h]
        angle = np.radians(rng.uniform(-4, 4))
        rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        quad = (quad - [cx, cy]) @ rot.T + [cx, cy]
        points = [(float(p[0]), float(p[1])) for p in quad]
        truth = Corners(points[0], points[1], points[2], points[3])
        turns = tuple(int(t) for t in rng.integers(0, 4, 4))
        frame = render(truth, turns=(turns[0], turns[1], turns[2], turns[3]),
                       checkers=int(rng.integers(0, 30)), seed=i)
        a = attempt(markers, frame, TOURNAMENT, truth)
        with_markers.add(a.error, a.seconds, wrong_px, a.outward)
        plain = render(truth, markers=False, checkers=int(rng.integers(0, 30)), seed=i)
        a = attempt(auto, plain, TOURNAMENT, truth)
        without.add(a.error, a.seconds, wrong_px, a.outward)
    print(HEADER)
    print(with_markers.row("markers"))
    print(without.row("no markers, auto"))


def no_board(dice: int, seed: int) -> None:
    print("\n== no board (every find is wrong)")
    rng = np.random.default_rng(seed)
    sets: dict[str, list[Image]] = {}
    photos = sorted(glob.glob(str(data_folder("dice-photos") / "*" / "*.jpg")))[:dice]
    sets["dice photos"] = [read(p) for p in photos]
    sets["noise"] = [rng.integers(0, 256, (720, 1280, 3), dtype=np.uint8) for _ in range(10)]
    sheets = []
    for _ in range(10):
        image = np.full((720, 1280, 3), 40, np.uint8)
        x, y = int(rng.integers(100, 400)), int(rng.integers(50, 150))
        cv2.rectangle(image, (x, y), (x + 600, y + 560), (235, 235, 230), -1)
        sheets.append(image)
    sets["blank sheet"] = sheets
    turned: list[Image] = []
    for path in sorted(glob.glob(str(data_folder("real-boards") / "*.jpg"))):
        turned.append(np.asarray(cv2.rotate(read(path), cv2.ROTATE_90_CLOCKWISE), np.uint8))
    sets["real, turned 90"] = turned
    print(f"{'set':<18} {'images':>6} {'found':>6} {'ms':>7}")
    for name, images in sets.items():
        found, seconds = 0, 0.0
        for image in images:
            for finder in (auto, markers):
                a = attempt(finder, image, TOURNAMENT, None)
                found += a.error is not None
                seconds += a.seconds
        ms = 1000.0 * seconds / max(len(images), 1)
        print(f"{name:<18} {len(images):>6} {found:>6} {ms:>7.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--synth", type=int, default=120, help="rendered boards per set")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--dice", type=int, default=400, help="dice photos as non-boards")
    parser.add_argument("--wrong", type=float, default=15.0,
                        help="a find with a corner further off (pixels) counts as wrong")
    args = parser.parse_args()
    real_frames(args.wrong)
    synth_sets(args.synth, args.seed, args.wrong)
    own_renders(max(10, args.synth // 3), args.seed, args.wrong)
    no_board(args.dice, args.seed)


if __name__ == "__main__":
    main()
