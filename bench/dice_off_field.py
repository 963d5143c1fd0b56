"""Dice off the field (etiquette rule 1, issue 5): found on the rails, and never invented.

    .venv/bin/python bench/dice_off_field.py [--n 60] [--seed 5] [--hires] [--dump DIR] [--causes]

Rendered boards (``vision.synth``: random styles, cameras, light, positions,
dice on the field, the cube, hands, trays), each rendered twice: as drawn
(no die off the field: every off-field die reported is **false**) and with
one more die lying off the field (found when an off-field die is reported
within 0.75 die edges of it, value right or not), placed as the staged
games throw them (``controller/simulation/throws.py``: on the top or bottom
rail, its inner edge 1-3 mm past the field's edge) or anywhere on a rail or
in a tray, the top and bottom rails or the side ones.  Only off-field dice
at least 90 % visible and inside the frame are labels.  The reading is the
pipeline's (``vision.pipeline.BoardReader``, one frame, the calibration's
corners given as a running referee has them): dice the board stage reads
past the field's edge and the off-field stage's own.  ``--hires`` reads
the dice from a 2x capture of the scene as the live stills do.

Boards and checkers of ``bench/vision_accuracy.py``'s HELD_OUT styles are
tallied apart (never tuned on).  Then the real board frames
(``shared/data/real-boards``, which have no die off the field): every
off-field die reported there is false (with ``--hires``, each read with itself
enlarged twice as its still).

``--causes`` tallies each missed off-field die of the tuned styles by the first step that lost it
(:func:`miss_cause`): no blob proposed near it (and whether the stills' extra
passes would have proposed one), no face read in the window, a face refused
for its size, a face outside its window's core, a face read on the field's
side of the edge, or a face the stage read and the pipeline lost after.

Goal: no false off-field die anywhere; every off-field die found.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.shared_data import data_folder
from bench.vision_accuracy import HELD_OUT
from vision.calibration import Calibration
from vision.camera.base import Still
from vision.image_io import load_image
from vision.observation import Corners, Die, Observation
from vision.pipeline import BoardReader
from vision.profile import TOURNAMENT


@dataclass
class Tally:
    boards: int = 0
    """Boards read without an off-field die."""
    false: int = 0
    """Off-field dice reported on those."""
    false_boards: int = 0
    labels: int = 0
    found: int = 0
    value_ok: int = 0
    extra: int = 0
    """Off-field dice reported besides the label on boards with one."""
    field_lost: int = 0
    """Dice on the field the board stage found without the off-field die, missing with it."""
    seconds: float = 0.0
    reads: int = 0
    places: dict[str, list[int]] = field(default_factory=dict)
    causes: dict[str, int] = field(default_factory=dict)

    def row(self, name: str) -> str:
        return (f"{name:<9} {self.boards:>6} {self.false:>6} {self.false_boards:>6}   "
                f"{self.labels:>6} {self.found:>6} {self.found / max(self.labels, 1):>7.1%} "
                f"{self.value_ok / max(self.found, 1):>7.1%} {self.extra:>6} "
                f"{1000.0 * self.seconds / max(self.reads, 1):>7.1f}")


def header(title: str) -> str:
    return (f"\n{title}\n{'set':<9} {'boards':>6} {'false':>6} {'on':>6}   {'labels':>6} "
            f"{'found':>6} {'recall':>7} {'value':>7} {'extra':>6} {'ms/read':>7}\n"
            f"{'':<9} {'(none off the field)':>20}   {'(one die off the field)':>37}")


def off_field_die(rng: np.random.Generator, scene: object) -> tuple[object, str]:
    """A die lying off the field of ``scene``: (placement, where)."""
    from vision.synth.geometry import BoardGeometry
    from vision.synth.scene import DiePlacement, Scene

    assert isinstance(scene, Scene)
    g = BoardGeometry.of(scene)
    value = int(rng.integers(1, 7))
    yaw = float(rng.uniform(0.0, 90.0))
    kind = rng.random()
    if kind < 0.5:
        # as the staged games throw them: just past the top or bottom edge
        u = float(rng.uniform(0.05, 0.95))
        beyond = (g.die * 0.5 + float(rng.uniform(1.0, 3.0))) / g.height
        top = rng.random() < 0.5
        return DiePlacement(value, u, -beyond if top else 1.0 + beyond, yaw), \
            "edge-top" if top else "edge-bottom"
    if kind < 0.75:
        # anywhere across the top or bottom rail
        u = float(rng.uniform(0.03, 0.97))
        beyond = (g.die * 0.5 + float(rng.uniform(1.0, max(1.5, g.rail - g.die)))) / g.height
        top = rng.random() < 0.5
        return DiePlacement(value, u, -beyond if top else 1.0 + beyond, yaw), \
            "rail-top" if top else "rail-bottom"
    # a side: the rail, or the tray when that side has one
    tray = scene.profile.tray
    side = "left" if rng.random() < 0.5 else "right"
    v = float(rng.uniform(0.08, 0.92))
    if tray is not None and tray.side == side:
        middle = (tray.gap + tray.width / 2.0) + float(rng.uniform(-0.02, 0.02))
        where = "tray"
    else:
        middle = (g.die * 0.5 + float(rng.uniform(1.0, max(1.5, g.rail - g.die)))) / g.width
        where = "rail-side"
    return DiePlacement(value, 1.0 + middle if side == "right" else -middle, v, yaw), where


def read(frame: np.ndarray, corners: Corners, profile: object, hires: np.ndarray | None,
         die_size: float) -> tuple[Observation, float]:
    from vision.config import VisionConfig

    height, width = frame.shape[:2]
    calibration = Calibration(corners=corners, image_size=(width, height),
                              profile=profile, method="manual")  # type: ignore[arg-type]
    config = VisionConfig()
    config = replace(config, dice=replace(config.dice, die_size=die_size))
    reader = BoardReader(config, calibration)
    still = None if hires is None else Still(hires, (0, 0, width, height),
                                             (hires.shape[1] / width, hires.shape[0] / height),
                                             0.0)
    start = time.process_time()
    observation = reader.read(frame, still=still)
    return observation, time.process_time() - start


def miss_cause(frame: np.ndarray, hires: np.ndarray | None, corners: Corners,
               profile: object, die_size: float, center: tuple[float, float]) -> str:
    """The first step of the off-field stage that lost the die whose top face is seen at
    ``center`` (pixels of ``frame``), read without the pipeline's checker mask and cube."""
    from vision.config import VisionConfig
    from vision.dice import off_field as stage
    from vision.dice.board import _source, read_window
    from vision.dice.propose import windows
    from vision.profile import BoardProfile
    from vision.rectify import FieldMap

    assert isinstance(profile, BoardProfile)
    config = VisionConfig()
    board = replace(config.dice, die_size=die_size)
    off = config.off_field
    field_map = FieldMap.from_corners(corners)
    u, v = field_map.field_point(center)
    aspect = profile.field_aspect
    band = stage.band_of(profile, off)

    def strip_blobs(propose: object) -> list[object]:
        found: list[object] = []
        for low, high in stage._strips(band):
            found.extend(stage._strip_blobs(frame, field_map, low, high, board,
                                            propose, None))  # type: ignore[arg-type]
        return found

    def near(b: object) -> bool:
        return (abs(b.u - u) <= die_size  # type: ignore[attr-defined]
                and abs(b.v - v) <= die_size * aspect)  # type: ignore[attr-defined]

    used = off.propose
    if hires is not None and getattr(off, "still_propose", None) is not None:
        used = off.still_propose  # type: ignore[attr-defined]
    found = strip_blobs(used)
    if not any(near(b) for b in found):
        still = replace(board.propose, max_ring_spread=off.propose.max_ring_spread)
        if used != still and any(near(b) for b in strip_blobs(still)):
            return "no blob (still passes: one)"
        return "no blob"
    source, source_map = _source(frame, field_map, hires,
                                 1.0 if hires is None else hires.shape[1] / frame.shape[1])
    size = profile.rectified_size(round(board.die_pixels / board.die_size))
    nadir = source_map.field_point((source.shape[1] / 2.0, source.shape[0] / 2.0))
    verdicts: list[str] = []
    for window in windows(found, board.die_size, aspect, used):  # type: ignore[arg-type]
        if not (window.low[0] <= u <= window.high[0] and window.low[1] <= v <= window.high[1]):
            continue
        read = read_window(source, source_map, window, size, nadir, board)
        faces = read.faces
        if not faces and off.whole_layout:
            faces = stage._whole_layout(read.gray, read.detect, board, off, read.search)
        for face in faces:
            fu = read.origin[0] + face.center[0] / size[0]
            fv = read.origin[1] + face.center[1] / size[1]
            if abs(fu - u) > 0.6 * die_size or abs(fv - v) > 0.6 * die_size * aspect:
                continue
            tolerance = board.one_size_tolerance if face.value == 1 else off.size_tolerance
            if abs(face.die_size / board.die_pixels - 1.0) > tolerance:
                verdicts.append("face refused: size")
            elif not window.holds(fu, fv) or not band.holds(fu, fv):
                verdicts.append("face outside the core or band")
            elif not stage.off_field((fu, fv), off):
                verdicts.append("face on the field's side of the edge")
            else:
                verdicts.append("read, lost after (mask, cube, merge)")
    if not verdicts:
        return "window read, no face"
    order = ("read, lost after (mask, cube, merge)", "face on the field's side of the edge",
             "face outside the core or band", "face refused: size")
    return next(o for o in order if o in verdicts)


def synth(n: int, seed: int, hires: bool, dump: Path | None,
          causes: bool = False) -> dict[str, Tally]:
    from vision.synth.generate import random_scene
    from vision.synth.render import render

    rng = np.random.default_rng(seed)
    tallies = {"tuned": Tally(), "held-out": Tally()}
    for index in range(n):
        scene = random_scene(rng)
        held = scene.style.board.name in HELD_OUT or scene.style.checkers.name in HELD_OUT
        tally = tallies["held-out" if held else "tuned"]
        die_size = scene.dimensions.die_mm / scene.dimensions.field_width_mm
        extra_die, where = off_field_die(rng, scene)
        for with_die in (False, True):
            shown = replace(scene, dice=(*scene.dice, extra_die)) if with_die else scene
            frame, truth = render(shown)
            corners = truth.observation.corners
            if corners is None:
                break
            big = render(shown, (frame.shape[1] * 2, frame.shape[0] * 2))[0] if hires else None
            observation, seconds = read(frame, corners, scene.profile, big, die_size)
            tally.seconds += seconds
            tally.reads += 1
            got = observation.dice_off_field
            if not with_die:
                tally.boards += 1
                tally.false += len(got)
                tally.false_boards += bool(got)
                on_field = len(observation.dice)
                _dump(dump, frame, got, f"{index:04d}_false", scene)
                continue
            label = truth.observation.dice[-1]
            visible = truth.dice_visible[-1]
            x, y = label.center
            if visible < 0.9 or not (0 <= x < frame.shape[1] and 0 <= y < frame.shape[0]):
                continue
            reach = 0.75 * max(label.box[2], label.box[3]) if label.box else 15.0
            near = [d for d in got if math.dist(d.center, label.center) <= reach]
            tally.labels += 1
            tally.found += bool(near)
            tally.value_ok += bool(near) and near[0].value == label.value
            tally.extra += len(got) - bool(near)
            tally.field_lost += max(0, on_field - len(observation.dice))
            stats = tally.places.setdefault(where, [0, 0])
            stats[0] += 1
            stats[1] += bool(near)
            if not near:
                _dump(dump, frame, (label,), f"{index:04d}_miss_{label.value}_{where}", scene)
                if causes and not held:  # held-out styles are never looked into
                    cause = miss_cause(frame, big, corners, scene.profile, die_size,
                                       label.center)
                    tally.causes[cause] = tally.causes.get(cause, 0) + 1
                    print(f"  miss {index:04d} {label.value} {where} "
                          f"{scene.style.board.name}+{scene.style.checkers.name}"
                          f"/{scene.style.dice.name}: {cause}", flush=True)
    return tallies


def _dump(dump: Path | None, frame: np.ndarray, dice: tuple[Die, ...], name: str,
          scene: object) -> None:
    if dump is None or not dice:
        return
    dump.mkdir(parents=True, exist_ok=True)
    style = getattr(scene, "style", None)
    styles = "" if style is None else f"_{style.board.name}+{style.checkers.name}"
    for i, die in enumerate(dice):
        cx, cy = round(die.center[0]), round(die.center[1])
        x0, y0 = max(0, cx - 40), max(0, cy - 40)
        crop = frame[y0:cy + 40, x0:cx + 40]
        crop = cv2.resize(crop, None, fx=4, fy=4, interpolation=cv2.INTER_NEAREST)
        cv2.imwrite(str(dump / f"{name}_{i}_{die.value}{styles}.png"), crop)


def real_boards(hires: bool = False) -> tuple[int, int, int]:
    """(frames, off-field dice reported, dice on the field the labels have); ``hires``:
    each frame read with itself enlarged twice (bilinear) as its still, the nearest these
    photos come to a still's reading (no real 2x capture of them exists)."""
    frames = false = 0
    labelled = 0
    for label in sorted((data_folder("real-boards")).glob("*.json")):
        data = json.loads(label.read_text())
        c = data["corners"]
        corners = Corners(*(tuple(c[k]) for k in ("top_left", "top_right", "bottom_right",
                                                   "bottom_left")))
        image = load_image(str(label.with_suffix(".jpg")))
        if image is None:
            continue
        big = cv2.resize(image, None, fx=2.0, fy=2.0,
                         interpolation=cv2.INTER_LINEAR) if hires else None
        observation, _ = read(image, corners, TOURNAMENT, big, 0.03)
        frames += 1
        false += len(observation.dice_off_field)
        labelled += len(data["dice"])
    return frames, false, labelled


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=60, help="rendered boards (each read twice)")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--hires", action="store_true", help="read the dice from a 2x capture")
    parser.add_argument("--dump", type=Path, default=None,
                        help="write a crop of every false and missed off-field die here")
    parser.add_argument("--causes", action="store_true",
                        help="tally each missed off-field die by the step that lost it")
    args = parser.parse_args()
    frames, false, _ = real_boards(args.hires)
    print(f"real board frames{' (each enlarged 2x as its still)' if args.hires else ''}: "
          f"{frames}, off-field dice reported {false} (goal 0)")
    tallies = synth(args.n, args.seed, args.hires, args.dump, args.causes)
    print(header(f"rendered boards, seed {args.seed}, "
                 f"{'dice from a 2x capture' if args.hires else 'from the frame'} "
                 f"(held out: {', '.join(HELD_OUT)})"))
    total = Tally()
    for name, tally in tallies.items():
        print(tally.row(name))
        for attr in ("boards", "false", "false_boards", "labels", "found", "value_ok", "extra",
                     "field_lost", "reads"):
            setattr(total, attr, getattr(total, attr) + getattr(tally, attr))
        total.seconds += tally.seconds
        for where, (n, hit) in tally.places.items():
            stats = total.places.setdefault(where, [0, 0])
            stats[0] += n
            stats[1] += hit
        if args.causes:
            print(f"  {name} misses by cause: " + (", ".join(
                f"{c} {k}" for c, k in sorted(tally.causes.items(), key=lambda x: -x[1]))
                or "none"))
    print(total.row("all"))
    print("found by place: " + ", ".join(f"{w} {hit}/{n}"
                                         for w, (n, hit) in sorted(total.places.items())))
    print(f"dice on the field lost when the off-field die was added: {total.field_lost}")


if __name__ == "__main__":
    main()
