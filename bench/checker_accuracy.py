"""Accuracy and speed of the checker stage on random renders and the real frames.

    .venv/bin/python bench/checker_accuracy.py [--n 60] [--seed 1]
                                               [--split all|tune|held-out] [--errors]
                                               [--known-totals] [--cache DIR]
                                               [--misses DIR] [--family random|bear-off]
                                               [--learn-colours] [--width 640]

Each render (:mod:`vision.synth`, no hands) is rectified with its true field
corners at width 640 (``--width``) and read by :func:`vision.checkers.read_checkers`; the
per-point (light, dark) counts and the bar are compared with the truth's
observation.  With a tray in view, the borne-off counts of
:func:`vision.checkers.read_off` are compared too, alone and settled with the
board's counts as the pipeline does (reported apart: ``off`` is not part of
a "board right").

Styles.  ``--split all`` draws every style as :func:`random_scene` does (the
mix the first numbers were measured on).  The checker stage is tuned on the
``tune`` split only; ``held-out`` scenes have a board style or a checker
style never looked at while tuning (:data:`HELD_OUT_BOARDS`,
:data:`HELD_OUT_CHECKERS`, from ``bench/styles.py``: olive-felt and cream-brown, which
every bench holds out, and burgundy-leather, held out by the checker stage alone), and are
the honest measure of boards never seen.

Printed: points right, boards right (24 points and the bar), bar right, off
right, a breakdown of the wrong points (count too low / too high with the
colours right otherwise, colours swapped or mixed, a checker where there is
none), a table per board style and per checker style, the time per frame
(CPU time of the checker stage alone on one thread, median and 90th
percentile: other work on the machine does not inflate it) and the real frames.
``--errors`` lists every wrong point.

``--misses DIR`` writes every wrong board's rectified field to ``DIR`` (PNG, named by
split, seed and scene), each checker found drawn with the colour it was counted as
(green: seen, magenta: inferred under a layer) and the wrong points' truth and
reading written below: the miss list to group by cause before fixing anything.

``--cache DIR`` keeps each scene's rectified field, tray image and truth in
``DIR`` (PNG, lossless) and reads them back on the next run with the same
split and seed: rendering is most of the bench's time, so trying a change on
1,000 renders takes a minute instead of five.  The scenes are still drawn
from the seed (cheap) and checked against the cache's style; delete ``DIR``
when the renderer or the rectification changes.

``--family bear-off`` draws bear-off positions instead of :func:`random_scene`'s
random walk (:func:`bear_off_position`): both sides home, three to thirteen of each
borne off, the rest in a few tall stacks (6-10 and more on one point happen often),
the tray in view as the profile draws it.  The random walk reaches such positions
rarely, and they are what the referee meets in every game's last minutes: few stacks
but tall ones, and a tray whose count the board's total is asked to match.  The
scene is :func:`random_scene`'s (style, camera, light, stacking, cube) with its
position replaced and no dice (a die placed for the walk's position could lie under
a new stack).

``--learn-colours`` reads each scene as a stream that learned its set's colours at the
start of the game (issue 4): the starting position is rendered first with the scene's
style, camera, light, profile and stacking (no dice, no cube moved), its field measured
and offered to a :class:`vision.checkers.reader.ColourLearner` as many times as it asks
for agreeing frames (the stream's own code path, on one still render), and the scene is
then read with the model learned (the board; the tray without it, as the pipeline
reads it: the model is of the checkers' faces, the tray sees their edges), or without
one when none was learned (as the stream would).  "one-colour boards" counts the scenes
whose field holds checkers of one colour only (the case a model settles).

Without ``--known-totals`` the checker stage is read as the pipeline reads it:
the tray's counts (when one is in view) passed on, the totals the rules imply
used (see :mod:`vision.checkers.totals`).  ``--known-totals`` passes
:func:`read_checkers` how many checkers of each
colour are on the points and the bar (the truth's), as the referee can (15
less those it saw borne off): stacks in doubt then take the count that
adds up.  Without it the counts are the image's alone.  Either way the
report says in how many frames the read totals differ from the true ones:
a referee that knows the totals can refuse those frames.
"""

import argparse
import json
import pickle
import sys
import time
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Final

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.shared_data import data_folder
from bench.styles import CHECKER_HELD_OUT_BOARDS, HELD_OUT_CHECKERS
from vision.checkers.colours import ColourModel
from vision.checkers.count import CheckerCount
from vision.checkers.reader import ColourLearner, measure_checkers, read_checkers
from vision.checkers.totals import consistent_off
from vision.checkers.tray import TrayConfig, read_tray_reading, tray_image
from vision.image_io import load_image
from vision.observation import Corners, Counts, Observation
from vision.profile import TOURNAMENT
from vision.rectify import FieldMap
from vision.synth.generate import random_scene
from vision.synth.positions import SEATINGS, physical, start_position
from vision.synth.render import render
from vision.synth.scene import Scene
from vision.synth.styles import (
    BOARD_STYLES,
    CHECKER_STYLES,
    DICE_STYLES,
    TABLE_COLOURS,
    Style,
)

CLEAR_FRAMES: Final = ("frame0", "frame1", "test8", "test9", "frame3", "frame5")
HELD_OUT_BOARDS: Final = CHECKER_HELD_OUT_BOARDS
"""The checker stage's held-out boards: every bench's, and burgundy-leather (see
``bench/styles.py``)."""
WIDTH: Final = 640
BEAR_OFF_TRAY: Final = (3, 13)
"""Checkers of a side already borne off in a bear-off scene (inclusive): the referee's
filmed bear-offs show trays of 5-13."""
BEAR_OFF_SPREAD: Final = 0.6
"""Dirichlet concentration of a side's checkers over its occupied home points: under 1
most of them pile on one or two points (stacks of 6-10), as in a real bear-off."""


def draw_style(rng: np.random.Generator, split: str) -> Style | None:
    """A style of the split (None: let :func:`random_scene` draw from every style)."""
    if split == "all":
        return None
    pairs = [(b, c) for b in BOARD_STYLES for c in CHECKER_STYLES
             if (b.name in HELD_OUT_BOARDS or c.name in HELD_OUT_CHECKERS) == (split == "held-out")]
    board, checkers = pairs[int(rng.integers(len(pairs)))]
    dice = DICE_STYLES[int(rng.integers(len(DICE_STYLES)))]
    table = TABLE_COLOURS[int(rng.integers(len(TABLE_COLOURS)))]
    return Style(board, checkers, dice, table=table)


def bear_off_side(rng: np.random.Generator) -> tuple[list[int], int]:
    """One side bearing off: checkers on its own points 1-6 (index 0 = point 1), and off."""
    off = int(rng.integers(BEAR_OFF_TRAY[0], BEAR_OFF_TRAY[1] + 1))
    left = 15 - off
    k = int(rng.integers(1, min(6, left) + 1))
    chosen = rng.choice(6, size=k, replace=False)
    share = rng.dirichlet(np.full(k, BEAR_OFF_SPREAD))
    extra = rng.multinomial(left - k, share)
    home = [0] * 6
    for point, n in zip(chosen, extra, strict=True):
        home[int(point)] = 1 + int(n)
    return home, off


def bear_off_position(rng: np.random.Generator) -> tuple[tuple[Counts, ...], Counts]:
    """Physical points and off of a position with both sides bearing off (no bar)."""
    seating = SEATINGS[int(rng.integers(len(SEATINGS)))]
    light_home, light_off = bear_off_side(rng)
    dark_home, dark_off = bear_off_side(rng)
    light = [0] * 24
    dark = [0] * 24
    for p in range(6):
        light[physical(p + 1, seating, True)] = light_home[p]
        dark[physical(p + 1, seating, False)] = dark_home[p]
    points = tuple(Counts(a, b) for a, b in zip(light, dark, strict=True))
    return points, Counts(light_off, dark_off)


def draw_scene(rng: np.random.Generator, split: str, family: str) -> Scene:
    """One scene of the family (see the module's docstring)."""
    if family == "random":
        return random_scene(rng, hands=0, style=draw_style(rng, split))
    if family != "bear-off":
        raise ValueError(f"no scene family {family!r}")
    scene = random_scene(rng, hands=0, dice=0, style=draw_style(rng, split))
    points, off = bear_off_position(rng)
    return replace(scene, points=points, bar=Counts(), off=off)


def kind_of(truth: Counts, read: Counts) -> str:
    """What went wrong on one point."""
    if truth.light + truth.dark == 0:
        return "phantom"
    if read.light + read.dark == truth.light + truth.dark:
        return "colour"
    if (read.light <= truth.light and read.dark <= truth.dark):
        return "too few"
    if (read.light >= truth.light and read.dark >= truth.dark):
        return "too many"
    return "mixed"


def _png(image: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".png", image)
    if not ok:
        raise RuntimeError("PNG encoding failed")
    return bytes(data.tobytes())


def _unpng(data: bytes) -> np.ndarray:
    image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise RuntimeError("a cached image does not decode: delete the cache")
    return np.asarray(image, dtype=np.uint8)


def scene_images(scene: Scene, key: str, cache: Path | None, width: int = WIDTH
                 ) -> tuple[np.ndarray, np.ndarray | None, Observation]:
    """The rectified field (``width`` pixels wide), the tray image (None without a tray)
    and the truth of one scene: rendered, or read from ``cache`` (and written there when
    missing)."""
    path = None if cache is None else cache / f"{key}.pkl"
    style = (scene.style.board.name, scene.style.checkers.name)
    if path is not None and path.exists():
        stored = pickle.loads(path.read_bytes())
        if stored["style"] != style:
            raise RuntimeError(f"{path} holds another scene: delete the cache")
        tray = None if stored["tray"] is None else _unpng(stored["tray"])
        field = _unpng(stored["field"])
        if field.shape[1] != width:
            raise RuntimeError(f"{path} holds a field of another width: use another cache")
        return field, tray, stored["truth"]
    frame, truth = render(scene)
    obs = truth.observation
    assert obs.corners is not None
    field_map = FieldMap.from_corners(obs.corners)
    profile = scene.profile
    field = field_map.rectify(frame, profile, width)
    tray = tray_image(frame, field_map, profile, TrayConfig().width)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pickle.dumps({"style": style, "field": _png(field),
                                       "tray": None if tray is None else _png(tray),
                                       "truth": obs}))
    return field, tray, obs


def learned_model(scene: Scene, key: str, seating_index: int,
                  cache: Path | None, width: int = WIDTH) -> ColourModel | None:
    """The colours a stream of ``scene``'s set would learn at the start of its game (see
    the module's docstring), or None when the start's render is not learned from."""
    start = replace(scene, points=start_position(SEATINGS[seating_index % len(SEATINGS)]),
                    bar=Counts(), off=Counts(), dice=(), hands=())
    field, _, _ = scene_images(start, f"{key}-start", cache, width)
    evidence = measure_checkers(field, start.profile)
    count = evidence.count()
    learner = ColourLearner()
    for _ in range(learner.config.learn.frames):
        learner.offer(evidence, count, occluded=False)
    return learner.model


def save_miss(path: Path, field: np.ndarray, result: CheckerCount, obs: Observation) -> None:
    """The field with the checkers found drawn on it and the wrong points written below."""
    image = field.copy()
    for placed in result.placed:
        c = placed.circle
        centre = (round(c.x), round(c.y))
        cv2.circle(image, centre, round(c.radius), (0, 255, 0) if placed.seen else (255, 0, 255))
        cv2.putText(image, "L" if placed.light else "D", (centre[0] - 4, centre[1] + 4),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.35, (0, 255, 255), 1)
    wrong = [f"p{i} T{w.light}L{w.dark}D R{g.light}L{g.dark}D"
             for i, (w, g) in enumerate(zip(obs.points, result.points, strict=True)) if w != g]
    if result.bar != obs.bar:
        wrong.append(f"bar T{obs.bar.light}L{obs.bar.dark}D R{result.bar.light}L"
                     f"{result.bar.dark}D")
    lines = [", ".join(wrong[k:k + 4]) for k in range(0, len(wrong), 4)] or ["(no point wrong)"]
    canvas = np.zeros((image.shape[0] + 18 * len(lines) + 4, image.shape[1], 3), np.uint8)
    canvas[:image.shape[0]] = image
    for k, line in enumerate(lines):
        cv2.putText(canvas, line, (2, image.shape[0] + 15 + 18 * k), cv2.FONT_HERSHEY_SIMPLEX,
                    0.4, (255, 255, 255), 1)
    path.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(path), canvas):
        raise RuntimeError(f"cannot write {path}")


def renders(n: int, seed: int, split: str, show_errors: bool, known_totals: bool,
            cache: Path | None = None, misses: Path | None = None,
            family: str = "random", learn: bool = False, width: int = WIDTH) -> None:
    rng = np.random.default_rng(seed)
    stats: dict[str, int] = defaultdict(int)
    kinds: dict[str, int] = defaultdict(int)
    by_height: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    by_board: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    by_checkers: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    times: list[float] = []
    for k in range(n):
        scene = draw_scene(rng, split, family)
        prefix = "" if family == "random" else f"{family}-"
        key = f"{prefix}{split}-{seed}-{k}"
        field, tray_view, obs = scene_images(scene, key, cache, width)
        on_board = Counts(sum(p.light for p in obs.points) + obs.bar.light,
                          sum(p.dark for p in obs.points) + obs.bar.dark)
        model = learned_model(scene, key, k, cache, width) if learn else None
        stats["learned"] += model is not None
        reading = None if tray_view is None else read_tray_reading(tray_view, scene.profile)
        tray = None if reading is None else reading.counts
        start = time.thread_time()
        result = read_checkers(field, scene.profile, model=model,
                               on_board=on_board if known_totals else None, off=reading)
        times.append(time.thread_time() - start)
        read_totals = Counts(sum(p.light for p in result.points) + result.bar.light,
                             sum(p.dark for p in result.points) + result.bar.dark)
        stats["totals differ"] += read_totals != on_board
        right = 0
        for i, (want, got) in enumerate(zip(obs.points, result.points, strict=True)):
            height = want.light + want.dark
            cell = by_height[min(height, 9)]
            cell[1] += 1
            if want == got:
                right += 1
                cell[0] += 1
                continue
            kinds[kind_of(want, got)] += 1
            if show_errors:
                print(f"  scene {k:3} ({scene.style.board.name}/{scene.style.checkers.name}) "
                      f"point {i:2}: truth {want.light}L {want.dark}D, read {got.light}L "
                      f"{got.dark}D  [{kind_of(want, got)}]")
        bar_right = result.bar == obs.bar
        if show_errors and not bar_right:
            print(f"  scene {k:3} ({scene.style.board.name}/{scene.style.checkers.name}) bar: "
                  f"truth {obs.bar.light}L {obs.bar.dark}D, read {result.bar.light}L "
                  f"{result.bar.dark}D")
        board_right = right == 24 and bar_right
        if min(on_board.light, on_board.dark) == 0 < on_board.light + on_board.dark:
            stats["one-colour"] += 1
            stats["one-colour right"] += board_right
        if misses is not None and not board_right:
            save_miss(misses / f"{key}.png", field, result, obs)
        stats["wrong, totals right"] += not board_right and read_totals == on_board
        stats["points"] += right
        stats["bar"] += bar_right
        stats["boards"] += board_right
        for table, name in ((by_board, scene.style.board.name),
                            (by_checkers, scene.style.checkers.name)):
            row = table[name]
            row[0] += right
            row[1] += 24
            row[2] += board_right
            row[3] += 1
        if obs.off is not None and tray is not None:
            got_off = tray
            settled = consistent_off(read_totals, got_off)
            stats["trays"] += 1
            stats["off"] += got_off == obs.off
            stats["off settled"] += settled == obs.off
            if show_errors and settled != obs.off:
                print(f"  scene {k:3} off: truth {obs.off.light}L {obs.off.dark}D, read "
                      f"{got_off.light}L {got_off.dark}D, with the board "
                      f"{settled.light}L {settled.dark}D")
    total = 24 * n
    print(f"== renders: {n} scenes, split {split}, seed {seed}"
          f"{'' if family == 'random' else ', ' + family + ' positions'}"
          f"{', totals known' if known_totals else ''}"
          f"{', colours learned from the start' if learn else ''} ==")
    if learn:
        print(f"colours learned from the start's render in {stats['learned']}/{n} scenes")
    print(f"one-colour boards right {stats['one-colour right']}/{stats['one-colour']}")
    print(f"points right {stats['points']}/{total} = {stats['points'] / total:.2%}; "
          f"boards right {stats['boards']}/{n} = {stats['boards'] / n:.1%}; "
          f"bar right {stats['bar']}/{n}")
    print(f"read totals differ from the true ones in {stats['totals differ']}/{n} frames; "
          f"boards wrong with the totals right: {stats['wrong, totals right']}")
    if stats["trays"]:
        print(f"off right {stats['off']}/{stats['trays']} (scenes with a tray; the tray alone), "
              f"{stats['off settled']}/{stats['trays']} with the board's counts "
              "(totals.consistent_off, as the pipeline reports them)")
    print("wrong points: " + ", ".join(f"{key} {value}" for key, value in sorted(kinds.items())))
    print("points right by true height: " + ", ".join(
        f"{h}{'+' if h == 9 else ''}: {a}/{b}" for h, (a, b) in sorted(by_height.items())))
    for title, table in (("board style", by_board), ("checker style", by_checkers)):
        print(f"  {title:20} {'points':>16} {'boards':>10}")
        for name, (pr, pt, br, bt) in sorted(table.items()):
            held = " (held out)" if name in HELD_OUT_BOARDS + HELD_OUT_CHECKERS else ""
            print(f"  {name:20} {pr:5}/{pt:<5} {pr / pt:6.1%} {br:3}/{bt:<3}{held}")
    q = np.percentile(times, [50, 90]) * 1000
    print(f"CPU time per frame (checker stage, {width} px, one thread): median {q[0]:.1f} ms, "
          f"90% {q[1]:.1f} ms")


def real_frames(learn: bool = False, width: int = WIDTH) -> None:
    """The clear real frames, read alone; with ``learn``, read with the colours learned
    from the first of them a stream would learn from (offered as many times as the
    learner asks: a still board)."""
    print("== real frames ==")
    real = data_folder("real-boards")
    fields: list[tuple[str, np.ndarray, dict[str, object]]] = []
    for name in CLEAR_FRAMES:
        json_path = real / f"{name}.json"
        if not json_path.exists():
            print(f"{name}: not available")
            continue
        label = json.loads(json_path.read_text())
        c = label["corners"]
        corners = Corners(*(tuple(c[k]) for k in ("top_left", "top_right", "bottom_right",
                                                   "bottom_left")))
        image = load_image(str(real / f"{name}.jpg"))
        if image is None:
            print(f"{name}: image not readable")
            continue
        fields.append((name, FieldMap.from_corners(corners).rectify(
            np.asarray(image, dtype=np.uint8), TOURNAMENT, width), label))
    model = None
    for name, field, _ in fields if learn else []:
        evidence = measure_checkers(field, TOURNAMENT)
        learner = ColourLearner()
        for _ in range(learner.config.learn.frames):
            learner.offer(evidence, evidence.count(), occluded=False)
        if learner.model is not None:
            model = learner.model
            print(f"colours learned from {name}: {model}")
            break
    for name, field, label in fields:
        result = read_checkers(field, TOURNAMENT, model=model)
        points = label["points"]
        bar_label = label["bar"]
        assert isinstance(points, list) and isinstance(bar_label, dict)
        want = [Counts(p["light"], p["dark"]) for p in points]
        wrong = [i for i, (a, b) in enumerate(zip(want, result.points, strict=True)) if a != b]
        bar = Counts(bar_label["light"], bar_label["dark"])
        verdict = "exact" if not wrong and bar == result.bar else (
            f"wrong points {wrong}" + ("" if bar == result.bar else ", bar wrong"))
        print(f"{name:7} {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--split", choices=("all", "tune", "held-out"), default="all")
    parser.add_argument("--errors", action="store_true", help="list every wrong point")
    parser.add_argument("--real-only", action="store_true")
    parser.add_argument("--known-totals", action="store_true",
                        help="pass the true number of checkers on the board per colour")
    parser.add_argument("--cache", type=Path, default=None,
                        help="keep the rendered scenes in this directory and reuse them")
    parser.add_argument("--misses", type=Path, default=None,
                        help="write every wrong board's field, annotated, to this directory")
    parser.add_argument("--family", choices=("random", "bear-off"), default="random",
                        help="the positions drawn: random_scene's walk, or bear-offs")
    parser.add_argument("--learn-colours", action="store_true",
                        help="read each scene with the colours learned from its start")
    parser.add_argument("--width", type=int, default=WIDTH,
                        help="the rectified field's width (a cache holds one width)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    real_frames(args.learn_colours, args.width)
    if not args.real_only:
        renders(args.n, args.seed, args.split, args.errors, args.known_totals, args.cache,
                args.misses, args.family, args.learn_colours, args.width)


if __name__ == "__main__":
    main()
