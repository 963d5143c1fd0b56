"""``python -m vision.dice IMAGE``: the dice in a photo, as JSON.

Prints ``{"dice": [{"value": 1-6 or null, "center": [x, y], "box": [x, y, w, h],
"flat": bool}]}``; exits 2 with a message on standard error when the image
cannot be read.
"""

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from vision.dice.reader import read_dice
from vision.errors import VisionError


def dice_json(path: str) -> dict[str, Any]:
    """The contract object for the photo at ``path``."""
    dice = read_dice(path)
    return {"dice": [{"value": d.value,
                      "center": [round(d.center[0], 1), round(d.center[1], 1)],
                      "box": [round(v, 1) for v in (d.box or (0.0, 0.0, 0.0, 0.0))],
                      "flat": d.flat} for d in dice]}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.dice",
                                     description="Find and read the dice in a photo.")
    parser.add_argument("image", help="a photo (PNG, JPEG, ...)")
    args = parser.parse_args(argv)
    try:
        out = dice_json(args.image)
    except VisionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
