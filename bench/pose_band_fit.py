"""Fit the tipped-up face's band model (``PoseConfig.band``, :mod:`vision.dice.tipped`).

    .venv/bin/python bench/pose_band_fit.py collect --seed S [--n N] --out FILE
    .venv/bin/python bench/pose_band_fit.py fit FILE... [--l2 L] [--margin M]
        [--check FILE...]

``collect`` renders ``N`` scenes of ``random_scene(rng, dice=2, cocked=True)`` from
``numpy.random.default_rng(S)``, skips those of the held-out styles
(``bench/vision_accuracy.py``'s HELD_OUT) before rendering them, and reads the dice as
the pipeline does (2x still, the configured die size, the checker mask of the checkers
:class:`~vision.pipeline.BoardReader` finds), twice: with the configured support and as
if every die had something to lean on within five die edges (as
``bench/pose_cue_fit.py``), with ``PoseConfig.measure_cues`` (so every sharp die with
support has its band profiles measured, :func:`vision.dice.tipped.band_profile`).  Each
die found within 15 pixels of a truth die at least 90 % visible is one JSON line: the
scene, the truth (value, tilt), the support reading, flat or cocked by the default
pose test, the profiles.  Tune seeds only (never 8 or 9).

``fit`` fits a logistic regression (Newton's method, L2 ``--l2`` on the weights;
deterministic) on :func:`vision.dice.tipped.band_features` of every reading with
profiles (each die's first profile: the nearest support's), cocked dice positive.
Its threshold is the highest log-odds (:func:`vision.dice.tipped.band_score`, every
profile) of a flat die the default test calls flat, in either support's readings,
plus ``--margin``.  It prints what the model adds on the fitted files and on the
``--check`` files (never fitted on), and the config to paste.
"""

import argparse
import json
import math
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.pose_cue_fit import REPORT_SEEDS, fit_logistic, pipeline_dice
from vision.dice.board import BoardDiceConfig
from vision.dice.tipped import (
    FEATURES_PER_OFFSET,
    OFFSETS,
    BandModelConfig,
    BandProfile,
    band_features,
    band_score,
)

Row = dict[str, object]


def collect(seed: int, n: int, out: Path) -> None:
    """Render and read ``n`` scenes of ``seed``, writing every die found (JSON lines)."""
    base = BoardDiceConfig().pose
    pose = replace(base, measure_cues=True, band=None)
    with out.open("w") as stream:
        for index, scene, support, die, read, placement in pipeline_dice(seed, n, pose):
            bands = read.bands
            stream.write(json.dumps({
                "seed": seed, "index": index, "support": support,
                "value": die.value, "read": read.die.value,
                "tilt": 0.0 if die.flat else placement.tilt_deg,
                "dice": scene.style.dice.name, "board": scene.style.board.name,
                "bounds_flat": read.die.flat, "reasons": list(read.reasons),
                "bands": None if bands is None else [
                    {"levels": list(b.levels), "allowance": b.allowance,
                     "away": b.away, "colours": b.colours} for b in bands]}) + "\n")
            stream.flush()


def load(paths: list[Path]) -> list[Row]:
    rows: list[Row] = []
    for path in paths:
        rows.extend(json.loads(line) for line in path.read_text().splitlines() if line)
    if any(int(r["seed"]) in REPORT_SEEDS for r in rows):  # type: ignore[call-overload]
        raise SystemExit("readings of the report seeds: not for fitting or checking")
    return rows


def profiles(row: Row) -> list[BandProfile]:
    return [BandProfile(tuple(b["levels"]), float(b["allowance"]), float(b["away"]),
                        None if b.get("colours") is None
                        else tuple(tuple(c) for c in b["colours"]))
            for b in row["bands"] or []]  # type: ignore[attr-defined]


def score(row: Row, model: BandModelConfig) -> float:
    return band_score(profiles(row), model)


def tally(rows: list[Row], model: BandModelConfig, name: str) -> None:
    """What the model adds, per support reading."""
    print(name)
    for support in ("support", "any"):
        chosen = [r for r in rows if r["support"] == support]
        cocked = [r for r in chosen if float(r["tilt"]) > 0.0]  # type: ignore[arg-type]
        flat = [r for r in chosen if float(r["tilt"]) == 0.0]  # type: ignore[arg-type]

        def called(r: Row) -> bool:
            return not r["bounds_flat"] or (bool(r["bands"])
                                             and score(r, model) > model.threshold)

        print(f"  {support:<8} cocked called cocked {sum(not r['bounds_flat'] for r in cocked)}"
              f" -> {sum(called(r) for r in cocked)} of {len(cocked)}; flat called cocked "
              f"{sum(not r['bounds_flat'] for r in flat)} -> {sum(called(r) for r in flat)} "
              f"of {len(flat)} ({sum(bool(r['bands']) for r in flat)} with profiles)")
        for r in cocked:
            if r["bounds_flat"] and called(r):
                print(f"    + cocked {r['seed']}/{r['index']} value {r['value']} "
                      f"tilt {float(r['tilt']):.0f} {r['dice']} "  # type: ignore[arg-type]
                      f"log-odds {score(r, model):.2f}")
        for r in flat:
            if r["bounds_flat"] and called(r):
                print(f"    - flat {r['seed']}/{r['index']} value {r['value']} {r['dice']} "
                      f"log-odds {score(r, model):.2f}")
        missed = sorted(score(r, model) for r in cocked if r["bounds_flat"] and r["bands"]
                        and not called(r))
        print(f"    cocked read flat with profiles, not called: {len(missed)}; their log-odds "
              + " ".join(f"{s:.1f}" for s in missed))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--seed", type=int, required=True)
    c.add_argument("--n", type=int, default=150)
    c.add_argument("--out", type=Path, required=True)
    f = sub.add_parser("fit")
    f.add_argument("files", type=Path, nargs="+")
    f.add_argument("--l2", type=float, default=1.0)
    f.add_argument("--margin", type=float, default=0.5)
    f.add_argument("--check", type=Path, nargs="*", default=[])
    args = parser.parse_args()
    if args.command == "collect":
        collect(args.seed, args.n, args.out)
        return
    rows = load(args.files)
    template = BandModelConfig(weights=(0.0,) * (FEATURES_PER_OFFSET * len(OFFSETS) + 1),
                               bias=0.0, threshold=0.0)
    judged = [r for r in rows if r["bands"]]
    x = np.array([band_features(profiles(r)[0], template) for r in judged], np.float64)
    y = np.array([float(r["tilt"]) > 0.0 for r in judged], np.float64)  # type: ignore[arg-type]
    weights, bias = fit_logistic(x, y, args.l2)
    model = replace(template, weights=tuple(round(float(w), 3) for w in weights),
                    bias=round(bias, 3))
    flat = [score(r, model) for r in judged
            if float(r["tilt"]) == 0.0 and r["bounds_flat"]]  # type: ignore[arg-type]
    threshold = max(flat, default=-math.inf) + args.margin
    model = replace(model, threshold=round(threshold, 3))
    print(f"{len(judged)} readings with profiles ({int(y.sum())} cocked), "
          f"{len(flat)} flat ones the default test calls flat; highest {max(flat):.2f}")
    tally(rows, model, "fitted on: " + " ".join(str(p) for p in args.files))
    if args.check:
        tally(load(args.check), model, "checked on: " + " ".join(str(p) for p in args.check))
    print(f"band=BandModelConfig(weights={model.weights}, bias={model.bias}, "
          f"threshold={model.threshold})")


if __name__ == "__main__":
    main()
