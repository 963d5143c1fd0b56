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
  recall of dice at least 90 % visible, false dice (reported where there is
  none: a die found on a partly hidden die is neither found nor false, and
  counted apart), cocked recall and false-alarm rate (also per split),
  on-checker accuracy with a checker mask drawn from the truth; boards and
  checkers of ``bench/vision_accuracy.py``'s HELD_OUT styles on their own row;
  ``--hires`` renders each scene a second time at twice the size and reads the
  dice from it; ``--dump DIR`` writes a crop of every miss, misread and false
  die.
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

from bench.shared_data import data_folder
from bench.vision_accuracy import HELD_OUT
from vision.dice.board import BoardDiceConfig, read_board_dice
from vision.dice.reader import read_dice
from vision.image_io import load_image
from vision.observation import Corners, Die
from vision.profile import TOURNAMENT, BoardProfile
from vision.rectify import FieldMap


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


def matches(dice: list[Die], truth: list[tuple[int, float, float, float]]) -> list[int | None]:
    """Per label (value, x, y, reach), the index of the die it takes: the nearest
    unused one within its reach, or None."""
    used: set[int] = set()
    out: list[int | None] = []
    for _, x, y, reach in truth:
        best: tuple[float, int] | None = None
        for i, die in enumerate(dice):
            d = math.dist(die.center, (x, y))
            if i not in used and d <= reach and (best is None or d < best[0]):
                best = (d, i)
        out.append(None if best is None else best[1])
        if best is not None:
            used.add(best[1])
    return out


def match(dice: list[Die], truth: list[tuple[int, float, float, float]]) -> tuple[int, int, int]:
    """(found, value right, false): each label takes the nearest unused die
    within its reach."""
    taken = matches(dice, truth)
    found = sum(i is not None for i in taken)
    right = sum(i is not None and dice[i].value == t[0] for i, t in zip(taken, truth,
                                                                        strict=True))
    return found, right, len(dice) - found


def photos(split: str) -> Tally:
    tally = Tally()
    for label in sorted(glob.glob(str(data_folder("dice-photos") / split / "*.txt"))):
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
    for label in sorted(glob.glob(str(data_folder("real-boards") / "*.json"))):
        data = json.loads(Path(label).read_text())
        c = data["corners"]
        field_map = FieldMap.from_corners(Corners(*(tuple(c[k]) for k in (
            "top_left", "top_right", "bottom_right", "bottom_left"))))
        image = load_image(label[:-4] + "jpg")
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


def _place(u: float, v: float, profile: BoardProfile) -> str:
    """Where on the board a field point lies, in words (for the dump's names)."""
    if not (0.0 <= u <= 1.0 and 0.0 <= v <= 1.0):
        return "off-field"
    return "bar" if profile.half(u) is None else "field"


def synth(n: int, seed: int, hires: bool, dump: Path | None = None) -> None:
    """Rendered boards: dice at least 90 % visible are the labels; a die found on a die
    less visible (under a hand, behind the cube) is neither found nor false; every other
    die reported is false.  Boards and checkers of HELD_OUT are tallied apart."""
    try:
        from vision.synth.generate import random_scene
        from vision.synth.render import render
    except ImportError as exc:  # the renderer is another stage's
        print(f"rendered boards: renderer not available ({exc})")
        return
    rng = np.random.default_rng(seed)
    tallies = {"tuned": Tally(), "held-out": Tally()}
    hidden_found = hidden = 0
    cocked = cocked_hit = flat = flat_alarm = on_total = on_ok = 0
    poses = {name: [0, 0, 0, 0] for name in tallies}  # cocked, called cocked, flat, called cocked
    for index in range(n):
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
        held = scene.style.board.name in HELD_OUT or scene.style.checkers.name in HELD_OUT
        tally = tallies["held-out" if held else "tuned"]
        tally.seconds += time.perf_counter() - start
        tally.images += 1

        def label(d: Die) -> tuple[int, float, float, float]:
            reach = 0.75 * max(d.box[2], d.box[3]) if d.box else 15.0
            return (d.value or 0, d.center[0], d.center[1], reach)

        visible = [d for d, v in zip(obs.dice, truth.dice_visible, strict=True) if v >= 0.9]
        partly = [d for d, v in zip(obs.dice, truth.dice_visible, strict=True) if 0 < v < 0.9]
        labels = [label(d) for d in visible]
        tally.labelled += len(labels)
        taken = matches(dice, labels)
        found = sum(i is not None for i in taken)
        right = sum(i is not None and dice[i].value == t[0] for i, t in zip(taken, labels,
                                                                            strict=True))
        rest = [x for i, x in enumerate(dice) if i not in set(taken)]
        excused = [i for i in matches(rest, [label(d) for d in partly]) if i is not None]
        hidden += len(partly)
        hidden_found += len(excused)
        false = [x for i, x in enumerate(rest) if i not in set(excused)]
        tally.found, tally.value_ok = tally.found + found, tally.value_ok + right
        tally.false += len(false)
        for d in visible:
            near = [x for x in dice if math.dist(x.center, d.center) <= 15.0]
            if not near:
                continue
            split = poses["held-out" if held else "tuned"]
            if d.flat:
                flat += 1
                flat_alarm += not near[0].flat
                split[2], split[3] = split[2] + 1, split[3] + (not near[0].flat)
            else:
                cocked += 1
                cocked_hit += not near[0].flat
                split[0], split[1] = split[0] + 1, split[1] + (not near[0].flat)
            on_total += 1
            on_ok += near[0].on_checker == d.on_checker
        if dump is not None:
            style = f"{scene.style.board.name}+{scene.style.checkers.name}+{scene.style.dice.name}"
            shown: list[tuple[str, tuple[float, float]]] = []
            for d, i in zip(visible, taken, strict=True):
                where = _place(*field_map.field_point(d.center), profile)
                pose = ("flat" if d.flat else "cocked") + ("-on-checker" if d.on_checker else "")
                if i is None:
                    shown.append((f"miss_{d.value}_{pose}_{where}", d.center))
                elif dice[i].value != d.value:
                    shown.append((f"wrong_{d.value}-read-{dice[i].value}_{pose}_{where}",
                                  d.center))
            for x in false:
                where = _place(*field_map.field_point(x.center), profile)
                shown.append((f"false_{x.value}_{where}", x.center))
            dump.mkdir(parents=True, exist_ok=True)
            die_px = config.die_size * math.dist(field_map.image_point(0.0, 0.5),
                                                 field_map.image_point(1.0, 0.5))
            for name, (cx, cy) in shown:
                r = max(8, round(2.5 * die_px))
                x0, y0 = max(0, round(cx) - r), max(0, round(cy) - r)
                crop = frame[y0:round(cy) + r, x0:round(cx) + r]
                crop = np.asarray(cv2.resize(crop, None, fx=4, fy=4,
                                             interpolation=cv2.INTER_NEAREST), np.uint8)
                cv2.imwrite(str(dump / f"{index:04d}_{name}_{style}.png"), crop)
    print(header(f"rendered{' from a 2x capture' if hires else ''} (held out: "
                 f"{', '.join(HELD_OUT)})"))
    for name, tally in tallies.items():
        print(tally.row(name))
    print(f"partly hidden dice (visible 0-90 %) found {hidden_found}/{hidden}, counted as "
          "neither found nor false")
    print(f"cocked recall {cocked_hit}/{cocked}, flat false alarms {flat_alarm}/{flat}, "
          f"on-checker right {on_ok}/{on_total} (dice found)")
    print("  by split: " + "; ".join(
        f"{name} cocked {c_hit}/{c_all}, flat false alarms {f_hit}/{f_all}"
        for name, (c_all, c_hit, f_all, f_hit) in poses.items())
        + " (bench/dice_pose_accuracy.py: scenes with a cocked die each, by tilt)")


def header(title: str) -> str:
    return (f"\n{title}\n{'set':<10} {'images':>6} {'labels':>7} {'recall':>7} {'value':>8}"
            f" {'overall':>8} {'false':>6} {'ms/img':>7}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--synth", type=int, default=40, help="rendered boards (0: none)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--hires", action="store_true",
                        help="also read rendered boards from a 2x capture")
    parser.add_argument("--dump", type=Path, default=None,
                        help="write a crop of every rendered miss, misread and false die here "
                             "(named by frame, truth, pose, place and styles)")
    args = parser.parse_args()
    print(header("real dice photos (value = accuracy of dice found; overall = of all labels)"))
    for split in ("train", "valid"):
        print(photos(split).row(split))
    tally, side_ok, flat_ok = boards()
    print(header("real board frames, 20-px dice, no high-resolution capture"))
    print(tally.row("boards"))
    print(f"side right {side_ok}/{tally.labelled}, flat agreeing {flat_ok}/{tally.labelled}")
    if args.synth:
        synth(args.synth, args.seed, False, args.dump / "frame" if args.dump else None)
        if args.hires:
            synth(args.synth, args.seed, True, args.dump / "hires" if args.dump else None)


if __name__ == "__main__":
    main()
