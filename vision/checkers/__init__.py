"""Checkers: find them in the rectified field, tell the two colours apart,
and count them per point, on the bar and (with a tray in view) borne off.

Stages, each usable alone: :mod:`.detect` (circles in the rectified field),
:mod:`.colours` (light and dark from two clusters, or from a learned model),
:mod:`.count` (stacks assigned to points and the bar).
"""
