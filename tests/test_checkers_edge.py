"""Checkers on the outer points, their centres within a radius of the field's border."""

import cv2
import numpy as np

from vision.checkers.detect import DetectConfig, expected_radius, find_circles
from vision.profile import TOURNAMENT


def _board_with_checker_at(x_from_right: float) -> tuple[np.ndarray, float, float]:
    """A plain field with one light checker whose centre lies ``x_from_right`` radii from
    the right border, half-way down; returns the image and the centre."""
    w, h = TOURNAMENT.rectified_size(640)
    board = np.full((h, w, 3), (60, 110, 70), dtype=np.uint8)
    radius = expected_radius(TOURNAMENT, 640)
    x, y = w - 1 - x_from_right * radius, h / 2.0
    cv2.circle(board, (round(x), round(y)), round(radius) - 1, (215, 225, 230), -1,
               cv2.LINE_AA)
    cv2.circle(board, (round(x), round(y)), round(radius) - 1, (150, 160, 165), 2,
               cv2.LINE_AA)
    return board, x, y


def test_a_checker_seen_past_the_outer_points_middle_is_found() -> None:
    """A checker's centre half a radius from the border (a second-layer checker on an
    outer point, seen outward of where it lies): found at its place; the former margin
    of 0.7 radii missed it."""
    board, x, y = _board_with_checker_at(0.5)
    found = find_circles(board, TOURNAMENT)
    radius = expected_radius(TOURNAMENT, 640)
    assert any(abs(c.x - x) < 0.2 * radius and abs(c.y - y) < 0.2 * radius for c in found)
    assert not find_circles(board, TOURNAMENT, DetectConfig(edge_margin=0.7))
