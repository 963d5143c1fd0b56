"""Fit the pose test's cue score (``PoseConfig.cue_score``) on rendered tune scenes.

    .venv/bin/python bench/pose_cue_fit.py collect --seed S [--n N] [--mix] --out FILE
    .venv/bin/python bench/pose_cue_fit.py fit FILE... [--alarms A] [--l2 L]
    .venv/bin/python bench/pose_cue_fit.py check FILE... [--weights W,...] [--bias B]
        [--threshold T]

``collect`` renders ``N`` scenes of ``random_scene(rng, dice=2, cocked=True)`` (or the
natural mix with ``--mix``) from ``numpy.random.default_rng(S)``, skips those of the
held-out styles (``bench/vision_accuracy.py``'s HELD_OUT) before rendering them, and
reads the dice as the pipeline reads them: a 2x still with the frame's calibration,
the configured die size, the checker mask drawn from the checkers
:class:`~vision.pipeline.BoardReader` finds (as ``bench/dice_pose_accuracy.py
--default-size --live-mask``).  Each die is read twice, with the configured support
and as if every die had something to lean on within five die edges
(``dice_pose_accuracy.py --any-support``, where flat dice lie against checkers, the
false alarms a real board would give), with ``PoseConfig.measure_cues`` and without
the cue score.  Every die found within 15 pixels of a truth die at least 90 % visible
is written as one JSON line: the scene, the truth (value, tilt), the reading (which
support, flat or cocked by the bounds, the cue values of :func:`vision.dice.pose.cue_vector`
when measured).  Tune seeds only (never 8 or 9, the report seeds).

``fit`` fits a logistic regression (Newton's method, an L2 penalty ``--l2`` on the
weights, not the bias; deterministic: no random draw but the scenes' seeds) to the
readings the score would judge: dice with cue values that every bound calls flat
(both supports' readings, each a sample; cocked dice positive), over the cues named
by ``--cues`` (the others weigh 0).  The threshold is the least log-odds at which, of
those flat dice, at most ``--alarms`` (a fraction) would be called cocked, in the
configured support's readings and in the any-support ones alike, plus ``--margin``;
what it gains and costs is printed, and the config line to paste.
``check`` applies given weights to other files: the cocked dice the bounds called
flat that the score calls cocked, and the flat dice it would call cocked.
"""

import argparse
import json
import math
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.dice_pose_accuracy import ANY_SUPPORT, live_mask
from bench.vision_accuracy import HELD_OUT
from vision.dice.board import BoardDiceConfig, BoardDie, read_board_dice_details
from vision.dice.pose import CUES, CueScoreConfig, PoseConfig
from vision.observation import Die
from vision.rectify import FieldMap
from vision.synth.generate import random_scene
from vision.synth.render import render
from vision.synth.scene import DiePlacement, Scene

REPORT_SEEDS = (8, 9)


def pipeline_dice(seed: int, n: int, pose: PoseConfig, mix: bool = False
                  ) -> Iterator[tuple[int, Scene, str, Die, BoardDie, DiePlacement]]:
    """Render ``n`` scenes of ``seed`` (held-out styles skipped before rendering) and read
    their dice as the pipeline does, with ``pose`` and, as ``"any"``, with ``pose`` as if
    every die had support: (scene index, scene, ``"support"`` or ``"any"``, the truth
    die, the reading found within 15 pixels of it, its placement), for every truth die at
    least 90 % visible that was found.  Shared by this bench's and ``pose_band_fit``'s
    ``collect``."""
    if seed in REPORT_SEEDS:
        raise SystemExit("seeds 8 and 9 are the report seeds: not for fitting")
    rng = np.random.default_rng(seed)
    measured = replace(BoardDiceConfig(), pose=pose)
    configs = {"support": measured,
               "any": replace(measured, pose=replace(pose, support=ANY_SUPPORT))}
    for index in range(n):
        scene = random_scene(rng) if mix else random_scene(rng, dice=2, cocked=True)
        if scene.style.board.name in HELD_OUT or scene.style.checkers.name in HELD_OUT:
            continue  # never rendered: the held-out styles are not fitted on
        frame, truth = render(scene)
        corners = truth.observation.corners
        if corners is None:
            continue
        big, _ = render(scene, (frame.shape[1] * 2, frame.shape[0] * 2))
        field_map = FieldMap.from_corners(corners)
        mask = live_mask(frame, corners, scene)
        placements = list(scene.dice)
        for support, config in configs.items():
            dice = read_board_dice_details(frame, field_map, scene.profile, hires=big,
                                           scale=2.0, checker_mask=mask, config=config)
            for die, visible in zip(truth.observation.dice, truth.dice_visible, strict=True):
                if visible < 0.9:
                    continue
                near = [d for d in dice if math.dist(d.die.center, die.center) <= 15.0]
                if not near:
                    continue
                u, v = field_map.field_point(die.center)
                placement = min(placements, key=lambda d: math.hypot(d.u - u, d.v - v))
                yield index, scene, support, die, near[0], placement


def collect(seed: int, n: int, mix: bool, out: Path) -> None:
    """Render and read ``n`` scenes of ``seed``, writing every die found (JSON lines)."""
    base = BoardDiceConfig().pose
    pose = replace(base, cue_score=None, measure_cues=True)
    with out.open("w") as stream:
        for index, scene, support, die, read, placement in pipeline_dice(seed, n, pose, mix):
            stream.write(json.dumps({
                "seed": seed, "index": index, "support": support,
                "value": die.value, "read": read.die.value,
                "tilt": 0.0 if die.flat else placement.tilt_deg,
                "dice": scene.style.dice.name,
                "bounds_flat": read.die.flat, "reasons": list(read.reasons),
                "cues": None if read.cues is None else list(read.cues)}) + "\n")
            stream.flush()


def load(paths: list[Path]) -> list[dict[str, object]]:
    rows = []
    for path in paths:
        rows.extend(json.loads(line) for line in path.read_text().splitlines() if line)
    return rows


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float, iterations: int = 50
                 ) -> tuple[np.ndarray, float]:
    """Weights and bias of an L2-penalised logistic regression (Newton's method)."""
    design = np.hstack([x, np.ones((len(x), 1))])
    theta = np.zeros(design.shape[1])
    penalty = np.diag([l2] * x.shape[1] + [0.0])
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-design @ theta))
        gradient = design.T @ (p - y) + penalty @ theta
        hessian = design.T @ (design * (p * (1.0 - p))[:, None]) + penalty + 1e-9 * np.eye(
            len(theta))
        step = np.linalg.solve(hessian, gradient)
        theta -= step
        if float(np.abs(step).max()) < 1e-10:
            break
    return theta[:-1], float(theta[-1])


def scores(rows: list[dict[str, object]], weights: np.ndarray, bias: float) -> np.ndarray:
    return np.array([bias + float(np.dot(weights, r["cues"])) for r in rows])  # type: ignore[arg-type]


def tally(rows: list[dict[str, object]], weights: np.ndarray, bias: float,
          threshold: float) -> None:
    """What the score changes, per support reading."""
    for support in ("support", "any"):
        chosen = [r for r in rows if r["support"] == support]
        cocked = [r for r in chosen if float(r["tilt"]) > 0.0]  # type: ignore[arg-type]
        flat = [r for r in chosen if float(r["tilt"]) == 0.0]  # type: ignore[arg-type]

        def called(r: dict[str, object]) -> bool:
            if not r["bounds_flat"]:
                return True
            return r["cues"] is not None and float(
                bias + np.dot(weights, r["cues"])) > threshold  # type: ignore[arg-type]

        before_c = sum(not r["bounds_flat"] for r in cocked)
        after_c = sum(called(r) for r in cocked)
        before_f = sum(not r["bounds_flat"] for r in flat)
        after_f = sum(called(r) for r in flat)
        measured_f = sum(r["cues"] is not None for r in flat)
        print(f"  {support:<8} cocked called cocked {before_c} -> {after_c} of {len(cocked)}; "
              f"flat called cocked {before_f} -> {after_f} of {len(flat)} "
              f"({measured_f} with cue values)")
        for r in cocked:
            if r["bounds_flat"] and called(r):
                print(f"    + cocked {r['seed']}/{r['index']} value {r['value']} "
                      f"tilt {float(r['tilt']):.0f} {r['dice']}")  # type: ignore[arg-type]
        for r in flat:
            if r["bounds_flat"] and called(r):
                print(f"    - flat {r['seed']}/{r['index']} value {r['value']} {r['dice']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--seed", type=int, required=True)
    c.add_argument("--n", type=int, default=150)
    c.add_argument("--mix", action="store_true")
    c.add_argument("--out", type=Path, required=True)
    f = sub.add_parser("fit")
    f.add_argument("files", type=Path, nargs="+")
    f.add_argument("--alarms", type=float, default=0.0)
    f.add_argument("--l2", type=float, default=0.01)
    f.add_argument("--cues", default="squash,lean squash",
                   help=f"comma-separated, of: {', '.join(CUES)}")
    f.add_argument("--margin", type=float, default=0.0,
                   help="added to the threshold the flat dice give (log-odds)")
    k = sub.add_parser("check")
    k.add_argument("files", type=Path, nargs="+")
    default = PoseConfig().cue_score
    k.add_argument("--weights", default=None if default is None else ",".join(
        f"{w:g}" for w in default.weights))
    k.add_argument("--bias", type=float, default=None if default is None else default.bias)
    k.add_argument("--threshold", type=float,
                   default=None if default is None else default.threshold)
    args = parser.parse_args()
    if args.command == "collect":
        collect(args.seed, args.n, args.mix, args.out)
        return
    rows = load(args.files)
    if any(int(r["seed"]) in REPORT_SEEDS for r in rows):  # type: ignore[call-overload]
        raise SystemExit("readings of the report seeds: not for fitting or checking")
    measured = [r for r in rows if r["cues"] is not None]
    if args.command == "check":
        if args.weights is None or args.bias is None or args.threshold is None:
            raise SystemExit("no cue score configured: give --weights, --bias, --threshold")
        weights = np.array([float(w) for w in args.weights.split(",")])
        print(f"{len(rows)} readings, {len(measured)} with cue values")
        tally(rows, weights, args.bias, args.threshold)
        return
    chosen = [CUES.index(c.strip()) for c in args.cues.split(",")]
    judged = [r for r in measured if r["bounds_flat"]]
    x = np.array([[r["cues"][i] for i in chosen] for r in judged],  # type: ignore[index]
                 dtype=np.float64)
    y = np.array([float(r["tilt"]) > 0.0 for r in judged], dtype=np.float64)  # type: ignore[arg-type]
    fitted, bias = fit_logistic(x, y, args.l2)
    weights = np.zeros(len(CUES))
    weights[chosen] = fitted
    print(f"{len(judged)} readings with cue values the bounds call flat ({int(y.sum())} "
          f"cocked); weights "
          + ", ".join(f"{name} {w:.3f}" for name, w in zip(CUES, weights, strict=True))
          + f"; bias {bias:.3f}")
    # the threshold: the flat dice the bounds call flat, in each support's readings
    threshold = -math.inf
    for support in ("support", "any"):
        flat = [r for r in judged if r["support"] == support
                and float(r["tilt"]) == 0.0]  # type: ignore[arg-type]
        if not flat:
            continue
        s = np.sort(scores(flat, weights, bias))[::-1]
        allowed = math.floor(args.alarms * len(flat))
        threshold = max(threshold, float(s[allowed]) if allowed < len(s) else -math.inf)
    threshold += args.margin
    print(f"threshold (log-odds) {threshold:.3f}")
    tally(rows, weights, bias, threshold)
    score = CueScoreConfig(tuple(round(float(w), 3) for w in weights), round(bias, 3),
                           round(threshold, 3))
    print(f"cue_score=CueScoreConfig(weights={score.weights}, bias={score.bias}, "
          f"threshold={score.threshold})")


if __name__ == "__main__":
    main()
