"""How well the dice stage finds and reads dice, on real photos and boards.

    .venv/bin/python bench/dice_accuracy.py [--synth N] [--seed S] [--hires]

Prints one table per data set:

- the real dice photos (``shared/data/dice-photos``, ``train`` and the
  held-out ``valid``; their labels box the top face's pips): labelled dice,
  recall (a die found whose box holds the label's centre), value accuracy of
  the dice found, value accuracy over all labelled dice, false detections and
  time per photo.  The goal is 97 % value accuracy on ``valid``.
- the real board frames (``shared/data/real-boards``, 20-pixel black dice, no
  high-resolution capture): found, value, side and flat agreement, false
  detections.
- rendered boards (``vision.synth``, when it is there): value accuracy,
  recall of visible dice, cocked recall and false-alarm rate, on-checker
  accuracy with a checker mask drawn from the truth; ``--hires`` renders each
  scene a second time at twice the size and reads the dice from it.
"""

import argparse
import glob
import json
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.dice.board import BoardDiceConfig, read_board_dice
from vision.dice.reader import read_dice
from vision.observation import Corners, Die
from vision.profile import TOURNAMENT
from vision.rectify import FieldMap

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


@dataclass
class Tally:
    labelled: int = 0
    found: int = 0
    value_ok: int = 0
    false: int = 0
    images: int = 0
    seconds: float = 0.0

    def row(self, name: str) -> str:
        recall = self.found / max(self.labelled, 1)
        matched = self.value_ok / max(self.found, 1)
        overall = self.value_ok / max(self.labelled, 1)
        ms = 1000.0 * self.seconds / max(self.images, 1)
        return (f"{name:<10} {self.images:>6} {self.labelled:>7} {recall:>7.1%} {matched:>8.1%}"
                f" {overall:>8.1%} {self.false:>6} {ms:>7.1f}")


def match(dice: list[Die], truth: list[tuple[int, float, float, float]]) -> tuple[int, int, int]:
    """(found, value right, false): each label takes the nearest unused die
    within its reach."""
    used: set[int] = set()
    found = right = 0
    for value, x, y, reach in truth:
        best: tuple[float, int] | None = None
        for i, die in enumerate(dice):
            d = math.dist(die.center, (x, y))
            if i not in used and d <= reach and (best is None or d < best[0]):
                best = (d, i)
        if best is not None:
            used.add(best[1])
            found += 1
            right += dice[best[1]].value == value
    return found, right, len(dice) - len(used)


def photos(split: str) -> Tally:
    tally = Tally()
    for label in sorted(glob.glob(str(SHARED / "dice-photos" / split / "*.txt"))):
        if label.endswith("classes.txt"):
            continue
        truth = []
        for line in filter(None, Path(label).read_text().split("\n")):
            cls, cx, cy, w, h = (float(v) for v in line.split())
            reach = max(w * 640, h * 480, 20.0)
            truth.append((int(cls) + 1, cx * 640, cy * 480, reach))
        start = time.perf_counter()
        dice = read_dice(label[:-3] + "jpg")
        tally.seconds += time.perf_counter() - start
        tally.images += 1
        tally.labelled += len(truth)
        found, right, false = match(dice, truth)
        tally.found, tally.value_ok, tally.false = (tally.found + found, tally.value_ok + right,
                                                    tally.false + false)
    return tally


def boards() -> tuple[Tally, int, int]:
    tally, side_ok, flat_ok = Tally(), 0, 0
    for label in sorted(glob.glob(str(SHARED / "real-boards" / "*.json"))):
        data = json.loads(Path(label).read_text())
        c = data["corners"]
        field_map = FieldMap.from_corners(Corners(*(tuple(c[k]) for k in (
            "top_left", "top_right", "bottom_right", "bottom_left"))))
        image = cv2.imread(label[:-4] + "jpg")
        start = time.perf_counter()
        dice = list(read_board_dice(image, field_map, TOURNAMENT))
        tally.seconds += time.perf_counter() - start
        tally.images += 1
        truth = [(d["value"], d["center"][0], d["center"][1], 12.0) for d in data["dice"]]
        tally.labelled += len(truth)
        found, right, false = match(dice, truth)
        tally.found, tally.value_ok, tally.false = (tally.found + found, tally.value_ok + right,
                                                    tally.false + false)
        for d in data["dice"]:
            near = [x for x in dice if math.dist(x.center, d["center"]) <= 12.0]
            side_ok += bool(near) and near[0].side == d["side"]
            flat_ok += bool(near) and near[0].flat == d["flat"]
    return tally, side_ok, flat_ok


def synth(n: int, seed: int, hires: bool) -> None:
    try:
        from vision.synth.generate import random_scene
        from vision.synth.render import render
    except ImportError as exc:  # the renderer is another stage's
        print(f"rendered boards: renderer not available ({exc})")
        return
    rng = np.random.default_rng(seed)
    tally = Tally()
    cocked = cocked_hit = flat = flat_alarm = on_total = on_ok = 0
    for _ in range(n):
        scene = random_scene(rng)
        frame, truth = render(scene)
        obs = truth.observation
        if obs.corners is None:
            continue
        field_map = FieldMap.from_corners(obs.corners)
        profile = scene.profile if hasattr(scene, "profile") else TOURNAMENT
        mask = np.zeros(frame.shape[:2], np.uint8)
        for checker in truth.checkers:
            cv2.ellipse(mask, (checker.center, checker.axes, checker.angle_deg), 255, -1)
        kwargs = {}
        if hires:
            big, _ = render(scene, (frame.shape[1] * 2, frame.shape[0] * 2))
            kwargs = {"hires": big, "scale": 2.0}
        config = BoardDiceConfig(die_size=scene.dimensions.die_mm
                                 / scene.dimensions.field_width_mm)
        start = time.perf_counter()
        dice = list(read_board_dice(frame, field_map, profile, checker_mask=mask,
                                    config=config, **kwargs))  # type: ignore[arg-type]
        tally.seconds += time.perf_counter() - start
        tally.images += 1
        visible = [(d, v) for d, v in zip(obs.dice, truth.dice_visible, strict=True) if v >= 0.9]
        labels = [(d.value or 0, d.center[0], d.center[1],
                   0.75 * max(d.box[2], d.box[3]) if d.box else 15.0) for d, _ in visible]
        tally.labelled += len(labels)
        found, right, false = match(dice, labels)
        tally.found, tally.value_ok, tally.false = (tally.found + found, tally.value_ok + right,
                                                    tally.false + false)
        for d, _ in visible:
            near = [x for x in dice if math.dist(x.center, d.center) <= 15.0]
            if not near:
                continue
            if d.flat:
                flat += 1
                flat_alarm += not near[0].flat
            else:
                cocked += 1
                cocked_hit += not near[0].flat
            on_total += 1
            on_ok += near[0].on_checker == d.on_checker
    print(header("rendered"))
    print(tally.row("hires" if hires else "frame"))
    print(f"cocked recall {cocked_hit}/{cocked}, flat false alarms {flat_alarm}/{flat}, "
          f"on-checker right {on_ok}/{on_total} (dice found)")


def header(title: str) -> str:
    return (f"\n{title}\n{'set':<10} {'images':>6} {'labels':>7} {'recall':>7} {'value':>8}"
            f" {'overall':>8} {'false':>6} {'ms/img':>7}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--synth", type=int, default=40, help="rendered boards (0: none)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--hires", action="store_true",
                        help="also read rendered boards from a 2x capture")
    args = parser.parse_args()
    print(header("real dice photos (value = accuracy of dice found; overall = of all labels)"))
    for split in ("train", "valid"):
        print(photos(split).row(split))
    tally, side_ok, flat_ok = boards()
    print(header("real board frames, 20-px dice, no high-resolution capture"))
    print(tally.row("boards"))
    print(f"side right {side_ok}/{tally.labelled}, flat agreeing {flat_ok}/{tally.labelled}")
    if args.synth:
        synth(args.synth, args.seed, False)
        if args.hires:
            synth(args.synth, args.seed, True)


if __name__ == "__main__":
    main()
