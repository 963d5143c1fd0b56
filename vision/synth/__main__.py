"""Render one random synthetic frame: ``python -m vision.synth --seed S --out frame.png``.

``--truth truth.json`` writes what a perfect reader would report (the
schema-1 observation under ``observation``) plus the scene summary and the
per-checker extras; the knobs force features the way the tests do.
"""

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.synth.generate import random_scene
from vision.synth.render import DEFAULT_SIZE, HIRES_SIZE, render


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"size as WIDTHxHEIGHT, not {text!r}") from exc
    if w < 64 or h < 64 or w > 8192 or h > 8192:
        raise argparse.ArgumentTypeError(f"size between 64 and 8192 pixels a side, not {text}")
    return w, h


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m vision.synth", description=__doc__)
    parser.add_argument("--seed", type=int, required=True, help="names the scene")
    parser.add_argument("--out", type=Path, required=True, help="image file (.png, .jpg)")
    parser.add_argument("--truth", type=Path, help="write the ground truth as JSON here")
    parser.add_argument("--size", type=_size, default=None,
                        help=f"WIDTHxHEIGHT (default {DEFAULT_SIZE[0]}x{DEFAULT_SIZE[1]})")
    parser.add_argument("--hires", action="store_true",
                        help=f"{HIRES_SIZE[0]}x{HIRES_SIZE[1]}, the dice-reading mode")
    parser.add_argument("--dice", type=int, choices=(0, 1, 2), help="force the number of dice")
    parser.add_argument("--hands", type=int, choices=(0, 1, 2), help="force the number of hands")
    parser.add_argument("--cocked", action=argparse.BooleanOptionalAction, default=None,
                        help="force the first die cocked (or not)")
    parser.add_argument("--tray", choices=("left", "right", "none"), help="force the tray")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.seed < 0:
        print("error: --seed must be 0 or more", file=sys.stderr)
        return 2
    size = HIRES_SIZE if args.hires else (args.size or DEFAULT_SIZE)
    scene = random_scene(np.random.default_rng(args.seed), dice=args.dice, hands=args.hands,
                         cocked=args.cocked, tray=args.tray)
    frame, truth = render(scene, size)
    if not cv2.imwrite(str(args.out), frame):
        print(f"error: cannot write an image to {args.out}", file=sys.stderr)
        return 1
    if args.truth is not None:
        record = {"scene": scene.describe(), **truth.to_json()}
        args.truth.write_text(json.dumps(record, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
