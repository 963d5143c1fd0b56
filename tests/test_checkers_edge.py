"""Checkers at the edges: on the outer points, their centres within a radius of the
field's border; on the points next to the bar; a stack's farthest past a missed one;
the bar's ends."""

import cv2
import numpy as np

from vision.checkers.bar import BarConfig
from vision.checkers.count import CountConfig, count_checkers
from vision.checkers.detect import Circle, DetectConfig, expected_radius, find_circles
from vision.checkers.reader import CheckerConfig, read_checkers
from vision.observation import Counts
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


def test_a_points_checker_set_sideways_towards_the_bar_stays_on_its_point() -> None:
    """Three light checkers on the point next to the bar (17), the last set 0.2 point
    widths sideways towards the bar (0.3 from the bar's edge): all three on the point,
    none on the bar (a margin of 0.35 point widths took it for a bar checker); a checker
    on the bar's middle is on the bar."""
    w, h = TOURNAMENT.rectified_size(640)
    radius = expected_radius(TOURNAMENT, 640)
    x = TOURNAMENT.point_u(17) * w
    sideways = 0.2 * TOURNAMENT.point_width * w
    circles = [Circle(x, radius * 1.05, radius), Circle(x, radius * 3.1, radius),
               Circle(x + sideways, radius * 5.15, radius), Circle(w / 2.0, h / 2.0 - 2.0 * radius,
                                                              radius)]
    light = [True, True, True, False]
    counted = count_checkers(circles, light, TOURNAMENT, (w, h), CountConfig(), radius)
    assert counted.points[17] == Counts(3, 0)
    assert counted.bar == Counts(0, 1)
    wide = count_checkers(circles, light, TOURNAMENT, (w, h), CountConfig(bar_margin=0.35),
                          radius)
    assert wide.bar.light == 1


def test_a_stacks_farthest_checker_past_a_missed_one_is_no_stray() -> None:
    """A stack on point 2 seen at slots 0-2 and 4 (the checker at slot 3 missed): the one
    at slot 4, far from both rails and more than ``link`` from the rest, is in line with
    the stack and counts; the row reads five.  Taken alone by ``link`` it was dropped as
    a stray and the stack read three."""
    w, h = TOURNAMENT.rectified_size(640)
    radius = expected_radius(TOURNAMENT, 640)
    x = TOURNAMENT.point_u(2) * w
    step = 2.06 * radius
    circles = [Circle(x, h - radius * 1.05 - k * step, radius) for k in (0, 1, 2, 4)]
    light = [True] * 4
    counted = count_checkers(circles, light, TOURNAMENT, (w, h), CountConfig(), radius)
    assert counted.points[2] == Counts(5, 0)
    dropped = count_checkers(circles, light, TOURNAMENT, (w, h), CountConfig(column_link=0.0),
                             radius)
    assert dropped.points[2] == Counts(3, 0)


def test_the_bar_search_leaves_the_bars_ends_to_the_general_search() -> None:
    """A faint round shape at the bar's end against the rail (a cube's or a hinge's
    shading): the lowered threshold of the bar search would take it for a checker; it
    looks only from 1.5 radii off the border, and the same faint checker in the bar's
    middle is still found."""
    w, h = TOURNAMENT.rectified_size(640)
    radius = expected_radius(TOURNAMENT, 640)
    left, right = TOURNAMENT.bar_span

    def bar_with_disc_at(y: float) -> np.ndarray:
        board = np.full((h, w, 3), 60, dtype=np.uint8)
        board[:, int(left * w):int(right * w) + 1] = 40
        cv2.circle(board, (w // 2, round(y)), round(radius) - 1, (34, 34, 34), -1,
                   cv2.LINE_AA)
        noise = np.random.default_rng(3).normal(0.0, 1.5, board.shape)
        return np.clip(board + noise, 0, 255).astype(np.uint8)

    end = bar_with_disc_at(0.95 * radius)
    assert read_checkers(end, TOURNAMENT).bar == Counts()
    anywhere = CheckerConfig(bar=BarConfig(rail_clear=0.0))
    assert read_checkers(end, TOURNAMENT, config=anywhere).bar == Counts(0, 1)
    middle = bar_with_disc_at(h / 2.0 + 1.05 * radius)
    assert read_checkers(middle, TOURNAMENT).bar == Counts(0, 1)


def test_a_corner_checker_with_part_of_its_rim_hidden_is_found() -> None:
    """A dark checker in the field's corner (its centre 0.9 radii from both borders),
    a dark object of its shade (a die, the rail's edge) over 60 degrees of its rim on the
    inner side: a quarter of its rim lies past the border, and of the rest too little
    shows an edge for ``rim_score``; at the border ``border_score`` applies and it is
    found at its place."""
    w, h = TOURNAMENT.rectified_size(640)
    radius = expected_radius(TOURNAMENT, 640)
    board = np.full((h, w, 3), (200, 205, 210), dtype=np.uint8)
    centre = (round(0.9 * radius), round(0.9 * radius))
    cv2.circle(board, centre, round(radius) - 1, (40, 40, 45), -1, cv2.LINE_AA)
    cv2.ellipse(board, centre, (round(1.6 * radius), round(1.6 * radius)), 0, 15, 75,
                (40, 40, 45), -1)
    noise = np.random.default_rng(5).normal(0.0, 1.5, board.shape)
    board = np.clip(board + noise, 0, 255).astype(np.uint8)
    found = find_circles(board, TOURNAMENT)
    assert len(found) == 1
    assert abs(found[0].x - 0.9 * radius) < 0.2 * radius
    assert abs(found[0].y - 0.9 * radius) < 0.2 * radius
    assert not find_circles(board, TOURNAMENT, DetectConfig(border_score=0.8))
