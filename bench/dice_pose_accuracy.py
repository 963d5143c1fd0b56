"""How well the board stage tells cocked dice from flat ones, on rendered boards.

    .venv/bin/python bench/dice_pose_accuracy.py [--n N] [--seed S] [--mix]
        [--still-scale X] [--default-size] [--any-support] [--live-mask] [--dump DIR]
        [--causes]

Renders ``N`` scenes with two dice, the first cocked (``random_scene(rng,
dice=2, cocked=True)``: tilted 15-35 degrees against a checker, 12-35 against
the rail, or about 11.5 partly on a checker; the second cocked 12 % of the
time), or with ``--mix`` the benchmark's natural mix (``random_scene(rng)``),
each at 1280x720 and again at ``--still-scale`` times that (2 by default; a
Pi Camera Module 2 still is 2.56 times the video's view, a Module 3 still
3.6, see ``hardware/camera.md``), and reads the dice from the frame alone
and from the still with the frame's calibration (as the live reader does).
The dice are read with the truth's checker mask and the scene's own die size,
or with ``--default-size`` the configured one (3 % of the field, as the
pipeline reads the renderer's 12-17 mm dice).  Only dice
at least 90 % visible and found within 15 pixels of their truth count.  Prints
per path the cocked recall and the flat false alarms, for the tuned styles
and apart for the boards and checkers of
``bench/vision_accuracy.py``'s HELD_OUT (never looked at while tuning), and
the cocked recall by tilt and by dice style.  The issue's goal: 95 % recall at
most 1 % false alarms, on held-out styles.  Flat dice with something to lean on
(:mod:`vision.dice.support`) are judged on slighter evidence; the renderer
places flat dice clear of checkers, so few have support: their count and
false alarms are printed apart, and ``--any-support`` reads every die as if it
had (the nearest checker, rail, bar or other die within five die edges counts,
:class:`~vision.dice.support.SupportConfig` ``reach``), as on a real board where
flat dice often lie against a checker: the false alarms the looser tests would
give there.

``--live-mask`` reads the dice with the checker mask the pipeline draws from the
checkers it finds (:class:`vision.pipeline.BoardReader` on the frame) instead of the
truth's, as ``bench/vision_accuracy.py`` does.  ``--dump DIR`` writes a crop of the still
around every cocked die not called cocked (not found, or found and read flat) and every
flat die called cocked, named by what happened, the truth (value, tilt, lean, resting on
a checker, size in mm) and the dice, board and checker styles; the cocked dice not found
(at least 90 % visible) are counted too.  Dump tune seeds only (21-26, not 5 or 8).

``--causes`` prints, for the still, why each cocked die was missed (tuned and held-out
apart): not found, with or without a blob of the quick look (:mod:`vision.dice.propose`,
the frame's blobs before the board stage drops those on the bar's middle) within half a
die edge of it; read flat with nothing found to lean on (``cocked_needs_support``), with
support but not judged by every cue (not sharp, or its face under ``fine_min_size``: no
cue vector), or sharp with support and every cue inside its bound; and apart, the cocked
dice found with the wrong value (called cocked or not).  The dice are read with
``PoseConfig.measure_cues`` on for it, which changes no verdict.

A cocked die whose tipped-up face the camera cannot see (leaning toward the
point below the lens by more than its tilt lets the face show: under
``HIDDEN_WIDTH`` die edges wide in the rectified field, from the truth's camera
pose, :func:`tipped_face_width`) shows only its top face's few per cent of
squash: such dice are counted apart, and the recall is printed without them too.
"""

import argparse
import math
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.vision_accuracy import HELD_OUT
from vision.calibration import Calibration
from vision.dice.board import BoardDiceConfig, BoardDie, read_board_dice, read_board_dice_details
from vision.dice.propose import blobs
from vision.dice.support import SupportConfig, supported
from vision.observation import Corners, Die
from vision.pipeline import BoardReader
from vision.rectify import FieldMap
from vision.synth.camera import Camera
from vision.synth.generate import random_scene
from vision.synth.geometry import BoardGeometry
from vision.synth.render import render
from vision.synth.scene import DiePlacement, Scene

PATHS = ("frame", "still")
ANY_SUPPORT = SupportConfig(reach=5.0, rings=(0.55, 0.65, 0.8, 1.0, 1.3, 1.7, 2.2, 3.0, 4.0),
                            die_reach=10.0)
"""Support as far as five die edges (the nearest thing's direction found on rings out
to there): nearly every die on a board has some (``--any-support``)."""
TILTS = ((0.0, 14.0), (14.0, 20.0), (20.0, 26.0), (26.0, 46.0))
HIDDEN_WIDTH = 0.1
"""A tipped-up face narrower than this (die edges, in the rectified field) counts as
one the camera cannot see: a pixel or two of a 2x still's 30-47 pixel dice."""


def tipped_face_width(scene: Scene, die: DiePlacement) -> float:
    """How wide the widest face a cocked die tipped up looks in the rectified field
    (die edges; 0 or less: out of sight), from the truth's camera.  The die leans
    toward ``L`` by ``t``: the face on the other side turns up, ``sin(t)`` die edges
    wide seen straight down; its top edge, ``cos(t)`` die edges above the board, is
    pushed from the nadir by perspective, so a die leaning toward the nadir shows it
    narrower (``(P - N).L`` of the die's distance along ``L``, over the lens height).
    A face turned ``phi`` from the side away from the lean shows ``cos(phi)`` of that
    (a tilt about a diagonal shows two faces)."""
    geo = BoardGeometry.of(scene)
    _, top, _, bottom = geo.outer
    camera = Camera.build(scene.camera, (geo.width, geo.height), bottom - top, (1280, 720))
    lens_height = -float(camera.centre[2])
    lean = math.radians(die.lean_deg)
    lx, ly = math.cos(lean), math.sin(lean)
    along = (die.u * geo.width - float(camera.centre[0])) * lx \
        + (die.v * geo.height - float(camera.centre[1])) * ly
    tilt = math.radians(die.tilt_deg)
    rise = geo.die * math.cos(tilt)
    width = (geo.die * math.sin(tilt) + along * rise / (lens_height - rise)) / geo.die
    # the faces' outward normals lie at the yaw plus quarter turns; the one nearest
    # the side away from the lean shows most
    turn = (die.yaw_deg - (die.lean_deg + 180.0)) % 90.0
    return width * max(math.cos(math.radians(turn)), math.cos(math.radians(90.0 - turn)))


class Tally:
    """Counts of one path: (split, truth) -> [dice, called cocked]."""

    def __init__(self) -> None:
        self.counts: Counter[tuple[str, str]] = Counter()
        self.by_tilt: Counter[tuple[int, bool]] = Counter()
        self.by_style: Counter[tuple[str, bool]] = Counter()

    def add(self, split: str, tilt: float, style: str, called_cocked: bool,
            leaning: bool, hidden: bool = False) -> None:
        truth = "cocked" if tilt > 0.0 else "flat"
        self.counts[(split, "hidden")] += hidden
        self.counts[(split, "hidden+")] += hidden and called_cocked
        self.counts[(split, truth)] += 1
        self.counts[(split, truth + "+")] += called_cocked
        self.counts[(split, truth + " supported")] += leaning
        self.counts[(split, truth + " supported+")] += leaning and called_cocked
        if tilt > 0.0:
            band = next(i for i, (lo, hi) in enumerate(TILTS) if lo <= tilt < hi)
            self.by_tilt[(band, False)] += 1
            self.by_tilt[(band, True)] += called_cocked
            self.by_style[(style, False)] += 1
            self.by_style[(style, True)] += called_cocked

    def report(self, name: str) -> None:
        print(f"\n{name}")
        for split in ("tuned", "held-out"):
            cocked, hit = self.counts[(split, "cocked")], self.counts[(split, "cocked+")]
            flat, alarm = self.counts[(split, "flat")], self.counts[(split, "flat+")]
            leaning = self.counts[(split, "flat supported")]
            leaning_alarm = self.counts[(split, "flat supported+")]
            print(f"  {split:<9} cocked recall {hit}/{cocked} ({hit / max(cocked, 1):.1%}), "
                  f"flat false alarms {alarm}/{flat} ({alarm / max(flat, 1):.2%}); "
                  f"flat dice with support {leaning}, of them called cocked {leaning_alarm}")
            hidden, seen = self.counts[(split, "hidden")], self.counts[(split, "hidden+")]
            if self.counts[(split, "cocked lost")]:
                print(f"  {'':<9} cocked dice not found at all (not counted above): "
                      f"{self.counts[(split, 'cocked lost')]}")
            print(f"  {'':<9} of the cocked, tipped-up face out of sight (under "
                  f"{HIDDEN_WIDTH:g} die edges) {hidden}, called cocked {seen}; recall without "
                  f"them {hit - seen}/{cocked - hidden} "
                  f"({(hit - seen) / max(cocked - hidden, 1):.1%})")
        print("  cocked recall by tilt: " + ", ".join(
            f"{lo:.0f}-{hi:.0f} deg {self.by_tilt[(i, True)]}/{self.by_tilt[(i, False)]}"
            for i, (lo, hi) in enumerate(TILTS)))
        styles = sorted({s for s, _ in self.by_style})
        print("  cocked recall by dice style: " + ", ".join(
            f"{s} {self.by_style[(s, True)]}/{self.by_style[(s, False)]}" for s in styles))


CAUSES = ("not found, no blob near it", "not found, a blob near it",
          "read flat, nothing to lean on", "read flat, with support, not every cue",
          "read flat, sharp with support, every cue inside its bound",
          "found, value wrong (called cocked)", "found, value wrong (read flat)")
"""Why a cocked die read from the still was missed (``--causes``): the first five split the
misses, the last two count the cocked dice found with the wrong value."""


def miss_causes(die: Die, near: list[BoardDie], uv: tuple[float, float], leaning: bool,
                proposed: list[tuple[float, float]], die_size: float, aspect: float
                ) -> list[str]:
    """The :data:`CAUSES` of one cocked die (``near``: the dice read within 15 pixels of
    it; ``uv`` its field point; ``leaning``: support within reach; ``proposed``: the quick
    look's blobs, field points; ``die_size`` in field widths; ``aspect`` the field's)."""
    if not near:
        close = any(math.hypot((u - uv[0]) / die_size, (v - uv[1]) / (die_size * aspect)) <= 0.5
                    for u, v in proposed)
        return [CAUSES[1] if close else CAUSES[0]]
    found = near[0]
    causes: list[str] = []
    if found.die.flat:
        causes.append(CAUSES[2] if not leaning else
                      CAUSES[3] if found.cues is None else CAUSES[4])
    if found.die.value != die.value:
        causes.append(CAUSES[6] if found.die.flat else CAUSES[5])
    return causes


def live_mask(frame: np.ndarray, corners: Corners, scene: Scene) -> np.ndarray:
    """The checker mask the pipeline reads the dice with: drawn from the checkers
    :class:`~vision.pipeline.BoardReader` finds in ``frame``."""
    height, width = frame.shape[:2]
    reader = BoardReader(calibration=Calibration(corners, "manual", (width, height),
                                                 profile=scene.profile))
    reader.read(frame)
    inputs = reader._dice_inputs  # the mask the dice stage was given (no public getter)
    if inputs is None:
        raise RuntimeError("the pipeline read no board on a rendered frame")
    return inputs[2]


def dump(folder: Path, still: np.ndarray, scale: float, centre: tuple[float, float],
         name: str, half: int = 60) -> None:
    """A crop of ``still`` around ``centre`` (pixels of the frame), four times enlarged."""
    x, y = round(centre[0] * scale), round(centre[1] * scale)
    crop = still[max(0, y - half):y + half, max(0, x - half):x + half]
    cv2.imwrite(str(folder / f"{name}.png"),
                cv2.resize(crop, None, fx=4, fy=4, interpolation=cv2.INTER_NEAREST))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=100, help="rendered scenes")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--mix", action="store_true",
                        help="the natural mix of scenes instead of a cocked die in each")
    parser.add_argument("--still-scale", type=float, default=2.0,
                        help="the still's size over the 1280x720 frame's (2; Module 3: 3.6)")
    parser.add_argument("--default-size", action="store_true",
                        help="read with the configured die size, not the scene's")
    parser.add_argument("--any-support", action="store_true",
                        help="read every die as if it had something to lean on")
    parser.add_argument("--live-mask", action="store_true",
                        help="the checker mask the pipeline draws from the checkers it finds")
    parser.add_argument("--causes", action="store_true",
                        help="print why each cocked die read from the still was missed")
    parser.add_argument("--dump", type=Path, default=None,
                        help="write a crop of every cocked die missed or read flat and every "
                             "flat die called cocked (still path) here")
    args = parser.parse_args()
    if args.dump is not None:
        args.dump.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    tallies = {path: Tally() for path in PATHS}
    causes: Counter[tuple[str, str]] = Counter()
    start = time.perf_counter()
    for index in range(args.n):
        scene = random_scene(rng) if args.mix else random_scene(rng, dice=2, cocked=True)
        frame, truth = render(scene)
        corners = truth.observation.corners
        if corners is None:
            continue
        big, _ = render(scene, (round(frame.shape[1] * args.still_scale),
                                round(frame.shape[0] * args.still_scale)))
        field_map = FieldMap.from_corners(corners)
        mask = np.zeros(frame.shape[:2], np.uint8)
        for checker in truth.checkers:
            cv2.ellipse(mask, (checker.center, checker.axes, checker.angle_deg), 255, -1)
        if args.live_mask:
            mask = live_mask(frame, corners, scene)
        config = BoardDiceConfig() if args.default_size else BoardDiceConfig(
            die_size=scene.dimensions.die_mm / scene.dimensions.field_width_mm)
        if args.any_support:
            config = replace(config, pose=replace(config.pose, support=ANY_SUPPORT))
        if args.causes:  # the cue vector tells the sharp dice with support; no verdict moves
            config = replace(config, pose=replace(config.pose, measure_cues=True))
        held = scene.style.board.name in HELD_OUT or scene.style.checkers.name in HELD_OUT
        split = "held-out" if held else "tuned"
        # the truth's dice are the scene's, in order, where the camera sees them
        placements = {(round(d.u, 6), round(d.v, 6)): d for d in scene.dice}
        for path in PATHS:
            if path == "frame":
                dice = read_board_dice(frame, field_map, scene.profile, checker_mask=mask,
                                       config=config)
            else:
                details = read_board_dice_details(frame, field_map, scene.profile, hires=big,
                                                  scale=big.shape[1] / frame.shape[1],
                                                  checker_mask=mask, config=config)
                dice = tuple(d.die for d in details)
                proposed = [(b.u, b.v) for b in blobs(
                    frame, field_map, config.die_size, config.field_margin, config.propose,
                    mask)] if args.causes else []
            for die, visible in zip(truth.observation.dice, truth.dice_visible, strict=True):
                if visible < 0.9:
                    continue
                near = [x for x in dice if math.dist(x.center, die.center) <= 15.0]
                u, v = field_map.field_point(die.center)
                placement = min(placements.values(),
                                key=lambda d: math.hypot(d.u - u, d.v - v))
                if path == "still" and args.dump is not None and (
                        (not die.flat and (not near or near[0].flat))
                        or (die.flat and near and not near[0].flat)):
                    what = "flat-called-cocked" if die.flat else (
                        "cocked-read-flat" if near else "cocked-not-found")
                    dump(args.dump, big, big.shape[1] / frame.shape[1], die.center,
                         f"{what}_{args.seed}-{index:04d}_{die.value}_t{placement.tilt_deg:.0f}"
                         f"_lean{placement.lean_deg % 360.0:.0f}"
                         f"{'_on' if placement.on_checker else ''}"
                         f"_{scene.dimensions.die_mm:.1f}mm_{scene.style.dice.name}"
                         f"_{scene.style.board.name}_{scene.style.checkers.name}_{split}")
                leaning = supported((u, v), config.die_size, field_map, scene.profile, mask,
                                    config.pose.support)
                if path == "still" and args.causes and not die.flat:
                    for cause in miss_causes(
                            die, [d for d in details if d.die in near], (u, v), leaning,
                            proposed, config.die_size, scene.profile.field_aspect):
                        causes[(split, cause)] += 1
                if not near:
                    if not die.flat:
                        tallies[path].counts[(split, "cocked lost")] += 1
                    continue
                tilt = 0.0 if die.flat else max(placement.tilt_deg, 1e-3)
                hidden = tilt > 0.0 and tipped_face_width(scene, placement) < HIDDEN_WIDTH
                tallies[path].add(split, tilt, scene.style.dice.name, not near[0].flat, leaning,
                                  hidden)
    print(f"{args.n} {'mixed' if args.mix else 'cocked-die'} scenes, seed {args.seed}, "
          f"still {args.still_scale:g}x, "
          f"{'configured' if args.default_size else 'scene'} die size, "
          f"{'any support within five die edges, ' if args.any_support else ''}"
          f"{time.perf_counter() - start:.0f} s; held out: {', '.join(HELD_OUT)}")
    for path in PATHS:
        tallies[path].report("read from the 1280x720 frame" if path == "frame"
                             else f"read from a {args.still_scale:g}x still")
    if args.causes:
        print(f"\ncocked dice missed from the {args.still_scale:g}x still, by cause")
        for split in ("tuned", "held-out"):
            print(f"  {split}: " + "; ".join(f"{cause} {causes[(split, cause)]}"
                                            for cause in CAUSES))


if __name__ == "__main__":
    main()
