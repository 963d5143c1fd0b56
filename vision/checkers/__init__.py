"""Checkers: find them in the rectified field, tell the two colours apart,
and count them per point, on the bar and (with a tray in view) borne off.

Stages, each usable alone: :mod:`.detect` (circles in the rectified field:
centre votes, rim evidence, a fit of each centre, which of two overlapping
checkers is on top), :mod:`.bar` (a second look along the bar),
:mod:`.colours` and :mod:`.surface` (light and dark, glare taken off),
:mod:`.count` and :mod:`.stacks` (stacks assigned to points and the bar,
counted with their hidden layers), :mod:`.tray` (borne-off checkers).
"""

from vision.checkers.count import CheckerCount, Placed
from vision.checkers.detect import Circle, expected_radius, find_circles
from vision.checkers.reader import CheckerConfig, read_checkers
from vision.checkers.tray import TrayConfig, read_off

__all__ = ["CheckerConfig", "CheckerCount", "Circle", "Placed", "TrayConfig",
           "expected_radius", "find_circles", "read_checkers", "read_off"]
