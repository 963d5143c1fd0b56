"""Fit the learned flat-or-cocked cue (:mod:`vision.dice.pose_model`) on renders.

    .venv/bin/python bench/train_pose_model.py collect --seed S [--n N] [--mix] --out F.npz
    .venv/bin/python bench/train_pose_model.py fit F1.npz ... --valid V1.npz ... \
        [--hidden H] [--out vision/dice/pose_model.npz]
    .venv/bin/python bench/train_pose_model.py check V1.npz ... [--threshold T]

``collect`` renders ``N`` scenes of ``bench/dice_pose_accuracy.py`` (a cocked die in
each, or with ``--mix`` the natural mix), skipping the held-out styles
(``bench.styles.HELD_OUT``) before rendering them, and reads the dice as the pipeline
does (2x still, the configured die size, the checker mask of the checkers
:class:`~vision.pipeline.BoardReader` finds), twice: with the support found and as if
every die had support within five die edges (``dice_pose_accuracy.ANY_SUPPORT``), so
that flat dice read against a lean direction are there to learn from.  For every die
read sharp with a lean direction (what the cue is asked about) it keeps the crop
:func:`~vision.dice.pose_model.crop` makes and its geometry, with the truth of the die
found within 15 pixels (flat, or cocked and its tilt) and what the hand-made cues said.

``fit`` trains the classifier in numpy (seeded, deterministic: full-batch Adam on the
mean log-loss with an L2 penalty, the crops and their mirror images both) on the
``collect`` files given, and prints on the ``--valid`` files (scenes of other seeds, never
fitted on) how many cocked dice the hand-made cues read flat it would find at thresholds
that call no flat die, or one in a hundred, cocked, and the highest log-odds of a flat
die; ``--out`` writes the weights.  ``check`` prints the same for the shipped model.
"""

import argparse
import math
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import vision.dice.board as board_module
from bench.dice_pose_accuracy import ANY_SUPPORT, live_mask
from bench.styles import HELD_OUT
from vision.dice import pose_model
from vision.dice.board import BoardDiceConfig, read_board_dice_details
from vision.dice.pose import perspective_reach, squash
from vision.rectify import FieldMap
from vision.synth.generate import random_scene
from vision.synth.render import render

_last: list[dict[str, Any]] = []


def _recording_assess(original: Any) -> Any:
    """``assess`` that keeps, for a sharp die with a lean direction, its crop."""

    def wrapped(gray: Any, face: Any, die_pixels: float, config: Any = None, **kw: Any) -> Any:
        pose = original(gray, face, die_pixels, config, **kw)
        lean, nadir, field_pixels = kw.get("lean"), kw.get("nadir"), kw.get("field_pixels")
        source = kw.get("source_die")
        if lean is not None and nadir is not None and field_pixels is not None \
                and source is not None and source >= config.fine_die_pixels:
            height = kw.get("camera_height") or config.camera_height
            reach = perspective_reach(math.dist(face.center, nadir) / field_pixels,
                                      die_pixels / field_pixels, height)
            axis = pose_model.away_axis(face, lean)
            _last.append({
                "crop": pose_model.crop(gray, face, lean, die_pixels, axis),
                "where": pose_model.geometry(face, axis, nadir, reach),
                "bounds_flat": pose.flat, "value": face.value, "squash": squash(face),
                "full": face.die_size >= config.fine_min_size * die_pixels,
                "fine": face.die_size >= (config.supported_min_size or 0.0) * die_pixels})
        return pose

    return wrapped


def _recording_board_die(original: Any) -> Any:
    """``_board_die`` that pairs the die it returns with its assess record."""

    def wrapped(*args: Any, **kw: Any) -> Any:
        _last.clear()
        die = original(*args, **kw)
        if die is not None and _last:
            _records.append((die, dict(_last[-1])))
        return die

    return wrapped


_records: list[tuple[Any, dict[str, Any]]] = []


def collect(seed: int, n: int, mix: bool, out: Path) -> None:
    board_module.assess = _recording_assess(board_module.assess)  # type: ignore[assignment]
    board_module._board_die = _recording_board_die(board_module._board_die)  # type: ignore
    rng = np.random.default_rng(seed)
    rows: dict[str, list[Any]] = {k: [] for k in (
        "crop", "where", "cocked", "tilt", "bounds_flat", "value", "value_right", "squash",
        "full", "fine", "any_support", "scene")}
    base = BoardDiceConfig()
    for index in range(n):
        scene = random_scene(rng) if mix else random_scene(rng, dice=2, cocked=True)
        if scene.style.board.name in HELD_OUT or scene.style.checkers.name in HELD_OUT:
            continue  # never rendered
        frame, truth = render(scene)
        corners = truth.observation.corners
        if corners is None:
            continue
        big, _ = render(scene, (frame.shape[1] * 2, frame.shape[0] * 2))
        field_map = FieldMap.from_corners(corners)
        mask = live_mask(frame, corners, scene)
        placements = list(scene.dice)
        for any_support in (False, True):
            config = replace(base, pose=replace(base.pose, support=ANY_SUPPORT)) \
                if any_support else base
            _records.clear()
            read_board_dice_details(frame, field_map, scene.profile, hires=big, scale=2.0,
                                    checker_mask=mask, config=config)
            for found, record in _records:
                near = [(die, visible) for die, visible in zip(
                    truth.observation.dice, truth.dice_visible, strict=True)
                    if math.dist(die.center, found.die.center) <= 15.0]
                if not near or near[0][1] < 0.9:
                    continue
                die = near[0][0]
                u, v = field_map.field_point(die.center)
                placement = min(placements, key=lambda d: math.hypot(d.u - u, d.v - v))
                rows["crop"].append(record["crop"])
                rows["where"].append(record["where"])
                rows["cocked"].append(not die.flat)
                rows["tilt"].append(0.0 if die.flat else placement.tilt_deg)
                rows["bounds_flat"].append(record["bounds_flat"])
                rows["value"].append(record["value"])
                rows["value_right"].append(found.die.value == die.value)
                rows["squash"].append(record["squash"])
                rows["full"].append(record["full"])
                rows["fine"].append(record["fine"])
                rows["any_support"].append(any_support)
                rows["scene"].append(seed * 10000 + index)
    arrays = {k: np.asarray(v) for k, v in rows.items()}
    np.savez_compressed(out, **arrays)
    cocked = arrays["cocked"]
    print(f"seed {seed}: {len(cocked)} readings, cocked {int(cocked.sum())}, "
          f"of them read flat by the bounds {int((cocked & arrays['bounds_flat']).sum())}")


def load(paths: list[Path]) -> dict[str, npt.NDArray[Any]]:
    parts = [dict(np.load(p)) for p in paths]
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def design(data: dict[str, npt.NDArray[Any]]) -> tuple[npt.NDArray[np.float32],
                                                       npt.NDArray[np.float32]]:
    """Features of each reading and of its mirror image."""
    straight = np.stack([pose_model.features(c, w) for c, w in zip(
        data["crop"], data["where"], strict=True)])
    mirrored = np.stack([pose_model.features(c[::-1].copy(), w) for c, w in zip(
        data["crop"], data["where"], strict=True)])
    return straight, mirrored


def train(x: npt.NDArray[np.float32], y: npt.NDArray[np.float32], hidden: int,
          l2: float, steps: int, seed: int, cocked_weight: float,
          asked: npt.NDArray[np.bool_], asked_weight: float) -> pose_model.PoseModel:
    """Full-batch Adam on the weighted mean log-loss plus ``l2`` times the squared
    weights; ``hidden`` 0 for a logistic regression.  Cocked readings weigh
    ``cocked_weight``, readings the bounds called flat (``asked``: where the cue is
    asked) ``asked_weight`` times more."""
    rng = np.random.default_rng(seed)
    mean = x.mean(axis=0)
    scale = x.std(axis=0) + 1e-3
    z = ((x - mean) / scale).astype(np.float64)
    weight = np.where(y > 0.5, cocked_weight, 1.0) * np.where(asked, asked_weight, 1.0)
    weight /= weight.sum()
    d = z.shape[1]
    params: list[npt.NDArray[np.float64]] = []
    if hidden:
        params += [rng.normal(0.0, math.sqrt(2.0 / d), (d, hidden)), np.zeros(hidden),
                   rng.normal(0.0, math.sqrt(1.0 / hidden), hidden), np.zeros(1)]
    else:
        params += [np.zeros(d), np.zeros(1)]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    rate, b1, b2 = 0.01 if hidden else 0.05, 0.9, 0.999
    for step in range(1, steps + 1):
        if hidden:
            w1, c1, w2, c2 = params
            pre = z @ w1 + c1
            h = np.maximum(pre, 0.0)
            logit = h @ w2 + c2[0]
        else:
            w2, c2 = params
            h = z
            logit = z @ w2 + c2[0]
        p = 1.0 / (1.0 + np.exp(-np.clip(logit, -30, 30)))
        g = (p - y) * weight
        grads: list[npt.NDArray[np.float64]] = []
        gw2 = h.T @ g + 2.0 * l2 * w2
        gc2 = np.array([g.sum()])
        if hidden:
            gh = np.outer(g, w2) * (pre > 0.0)
            grads = [z.T @ gh + 2.0 * l2 * w1, gh.sum(axis=0), gw2, gc2]
        else:
            grads = [gw2, gc2]
        for i, grad in enumerate(grads):
            m[i] = b1 * m[i] + (1 - b1) * grad
            v[i] = b2 * v[i] + (1 - b2) * grad * grad
            params[i] -= rate * (m[i] / (1 - b1**step)) / (np.sqrt(v[i] / (1 - b2**step)) + 1e-8)
    f32 = np.float32
    if hidden:
        w1, c1, w2, c2 = params
        return pose_model.PoseModel(mean.astype(f32), scale.astype(f32),
                                    ((w1.astype(f32), c1.astype(f32)),), w2.astype(f32),
                                    float(c2[0]))
    w2, c2 = params
    return pose_model.PoseModel(mean.astype(f32), scale.astype(f32), (), w2.astype(f32),
                                float(c2[0]))


def merge(fits: list[pose_model.PoseModel]) -> pose_model.PoseModel:
    """Networks of one hidden layer over the same standardisation, as one whose log-odds
    are their mean: the hidden layers side by side, the output weights divided by their
    number."""
    if len(fits) == 1:
        return fits[0]
    if any(len(f.hidden) != 1 for f in fits):
        raise ValueError("only networks of one hidden layer are merged")
    k = float(len(fits))
    weights = np.concatenate([f.hidden[0][0] for f in fits], axis=1)
    biases = np.concatenate([f.hidden[0][1] for f in fits])
    out = np.concatenate([f.out for f in fits]) / k
    return pose_model.PoseModel(fits[0].mean, fits[0].scale, ((weights, biases),),
                                out.astype(np.float32), sum(f.bias for f in fits) / k)


def scores(model: pose_model.PoseModel, data: dict[str, npt.NDArray[Any]]
           ) -> npt.NDArray[np.float32]:
    straight, mirrored = design(data)
    return (model.log_odds(straight) + model.log_odds(mirrored)) / 2.0


def report(name: str, s: npt.NDArray[np.float32], data: dict[str, npt.NDArray[Any]],
           threshold: float | None = None) -> None:
    """What the cue adds where it is asked (dice the bounds read flat)."""
    asked = data["bounds_flat"]
    cocked = data["cocked"].astype(bool)
    for any_support in (False, True):
        sel = asked & (data["any_support"] == any_support)
        flat_s = np.sort(s[sel & ~cocked])[::-1]
        cocked_s = s[sel & cocked]
        total_flat = int((~cocked & (data["any_support"] == any_support)).sum())
        total_cocked = int((cocked & (data["any_support"] == any_support)).sum())
        line = (f"  {name} {'as if supported' if any_support else 'real support '}: "
                f"asked {int(sel.sum())} (cocked {len(cocked_s)}, flat {len(flat_s)}; "
                f"sharp readings with a lean {total_cocked} cocked, {total_flat} flat); "
                f"highest flat {flat_s[0] if len(flat_s) else float('nan'):.2f}")
        for k in (0, 1, 2, 3):
            if len(flat_s) > k:
                t = float(flat_s[k])
                line += f"; over flat #{k + 1} ({t:.2f}): cocked {int((cocked_s > t).sum())}"
        if threshold is not None:
            line += (f"; at {threshold:.2f}: cocked {int((cocked_s > threshold).sum())}, "
                     f"flat {int((flat_s > threshold).sum())}")
        print(line)


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
    f.add_argument("--valid", type=Path, nargs="+", required=True)
    f.add_argument("--hidden", type=int, default=16)
    f.add_argument("--l2", type=float, default=1e-3)
    f.add_argument("--steps", type=int, default=600)
    f.add_argument("--cocked-weight", type=float, default=1.0)
    f.add_argument("--asked-weight", type=float, default=1.0)
    f.add_argument("--seed", type=int, default=0)
    f.add_argument("--ensemble", type=int, default=1,
                   help="networks fitted from seeds seed, seed+1, ...; their log-odds averaged")
    f.add_argument("--out", type=Path, default=None)
    k = sub.add_parser("check")
    k.add_argument("files", type=Path, nargs="+")
    k.add_argument("--threshold", type=float, default=None)
    args = parser.parse_args()
    if args.command == "collect":
        collect(args.seed, args.n, args.mix, args.out)
        return
    if args.command == "check":
        data = load(args.files)
        report("shipped", scores(pose_model.model(), data), data, args.threshold)
        return
    data = load(args.files)
    straight, mirrored = design(data)
    x = np.concatenate([straight, mirrored])
    y = np.concatenate([data["cocked"], data["cocked"]]).astype(np.float64)
    asked = np.concatenate([data["bounds_flat"], data["bounds_flat"]]).astype(bool)
    fits = [train(x, y, args.hidden, args.l2, args.steps, args.seed + k, args.cocked_weight,
                  asked, args.asked_weight) for k in range(args.ensemble)]
    fitted = merge(fits)
    print(f"fitted on {len(data['cocked'])} readings ({int(data['cocked'].sum())} cocked), "
          f"hidden {args.hidden}, l2 {args.l2}, steps {args.steps}, cocked weight "
          f"{args.cocked_weight}, asked weight {args.asked_weight}")
    report("train", scores(fitted, data), data)
    valid = load(args.valid)
    report("valid", scores(fitted, valid), valid)
    if args.out is not None:
        fitted.save(args.out)
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
