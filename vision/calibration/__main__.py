"""``python -m vision.calibration IMAGE [--corners "x,y x,y x,y x,y"] [--save FILE]``.

Prints the field's corners and the method that found them; or "board not
found: ..." and exits with status 1.  Status 2 is for a bad command line, an
unreadable image, corners given wrongly, or a calibration that cannot be
saved.  ``python -m vision.calibration --sheet FILE.pdf|svg`` writes the
printable marker sheet instead.
"""

import argparse
import json
import sys
from collections.abc import Sequence

from vision.calibration.pipeline import CalibrationConfig, calibrate
from vision.calibration.sheet import write_marker_sheet
from vision.calibration.store import save_calibration
from vision.errors import BoardNotFoundError, CalibrationError, ConfigError

NAMES = ("top-left", "top-right", "bottom-right", "bottom-left")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m vision.calibration",
        description="Find the playing field in a camera frame: printed markers first, "
                    "then the field's outline; or take the corners given.")
    parser.add_argument("image", nargs="?", help="a frame from the camera above the board")
    parser.add_argument("--sheet", metavar="FILE",
                        help="write the printable marker sheet (.pdf or .svg) and stop")
    parser.add_argument("--corners", metavar='"x,y x,y x,y x,y"',
                        help="the field's corners in pixels, top-left, top-right, "
                             "bottom-right, bottom-left (skips the search)")
    parser.add_argument("--save", metavar="FILE", help="write the calibration (JSON) here")
    parser.add_argument("--no-markers", action="store_true", help="skip the marker search")
    parser.add_argument("--no-auto", action="store_true", help="skip the outline search")
    parser.add_argument("--json", action="store_true", help="print the calibration as JSON")
    args = parser.parse_args(argv)
    if args.sheet:
        return _sheet(args.sheet)
    if args.image is None:
        parser.error("an IMAGE is needed (or --sheet FILE)")

    import cv2
    import numpy as np

    raw = cv2.imread(args.image, cv2.IMREAD_COLOR)
    if raw is None:
        print(f"cannot read an image from {args.image}", file=sys.stderr)
        return 2
    frame = np.asarray(raw, dtype=np.uint8)
    config = CalibrationConfig(use_markers=not args.no_markers, use_auto=not args.no_auto)
    try:
        calibration = calibrate(frame, config, args.corners)
    except BoardNotFoundError as exc:
        print(exc)
        return 1
    except (CalibrationError, ConfigError) as exc:
        print(f"calibration failed: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(calibration.to_json(), indent=2))
    else:
        print(f"method: {calibration.method}")
        for name, (x, y) in zip(NAMES, calibration.corners.as_list(), strict=True):
            print(f"{name}: {x:.1f}, {y:.1f}")
        if calibration.details:
            print(f"details: {json.dumps(dict(calibration.details))}")
    if args.save:
        try:
            path = save_calibration(calibration, args.save)
        except CalibrationError as exc:
            print(str(exc), file=sys.stderr)
            return 2
        print(f"saved: {path}", file=sys.stderr if args.json else sys.stdout)
    return 0


def _sheet(path: str) -> int:
    try:
        print(f"marker sheet: {write_marker_sheet(path)}")
    except CalibrationError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"cannot write {path}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
