"""Checkers: find them in the rectified field, tell the two colours apart,
and count them per point, on the bar and (with a tray in view) borne off.

Stages, each usable alone: :mod:`.detect` (circles in the rectified field:
centre votes, rim evidence, a fit of each centre, which of two overlapping
checkers is on top), :mod:`.bar` and :mod:`.slots` (second looks, with a
lower threshold, along the bar and along the points where a missed checker
must be), :mod:`.colours` and :mod:`.surface` (light and dark, glare taken
off), :mod:`.count` and :mod:`.stacks` (stacks assigned to points and the
bar, counted with their hidden layers), :mod:`.totals` (fifteen a side: the
totals known or implied by the rules settle stacks in doubt and the tray's
counts), :mod:`.tray` (borne-off checkers).
"""

from vision.checkers.count import CheckerCount, Placed
from vision.checkers.detect import Circle, expected_radius, find_circles
from vision.checkers.reader import CheckerConfig, read_checkers
from vision.checkers.tray import TrayConfig, read_off

__all__ = ["CheckerConfig", "CheckerCount", "Circle", "Placed", "TrayConfig",
           "expected_radius", "find_circles", "read_checkers", "read_off"]
