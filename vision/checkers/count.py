"""Counting: which point (or the bar) each checker belongs to.

A point's checkers form a stack that starts at the rail and grows towards
the middle; long stacks run past the point's tip and even past the middle
of the field, and players start second layers on top.  So a checker belongs
to the point whose stack it is *connected* to, not simply to the nearer row:
each column of the field is walked from the bottom rail up and from the top
rail down, following checkers that touch.  Checkers touching neither rail
(one being moved, say) go to the nearer row.
"""

from dataclasses import dataclass, field

from vision.checkers.detect import Circle
from vision.observation import Counts
from vision.profile import BoardProfile


@dataclass(frozen=True, slots=True)
class CountConfig:
    """Thresholds of the assignment (distances in checker radii)."""

    rail_gap: float = 0.9
    """How far a stack's first checker may stand from its rail."""
    link: float = 2.6
    """Centres closer than this are in the same stack (touching is 2.0)."""
    bar_margin: float = 0.35
    """A centre within this many point widths of the bar's middle is on the bar."""


@dataclass(frozen=True, slots=True)
class Placed:
    """One checker and where it was counted."""

    circle: Circle
    light: bool
    place: int | None
    """Physical point 0-23, or None for the bar."""


@dataclass(frozen=True, slots=True)
class CheckerCount:
    """The counts of one frame."""

    points: tuple[Counts, ...]
    bar: Counts
    placed: tuple[Placed, ...] = field(default=())
    size: tuple[int, int] = (0, 0)
    """(width, height) of the rectified image the circles are measured in."""


def count_checkers(circles: list[Circle], light: list[bool], profile: BoardProfile,
                   size: tuple[int, int], config: CountConfig | None = None) -> CheckerCount:
    """Counts per physical point and on the bar, from circles in a rectified field image.

    ``size`` is the rectified image's (width, height).
    """
    config = config or CountConfig()
    width, height = size
    pw = profile.point_width
    columns: dict[int, list[int]] = {c: [] for c in range(12)}
    on_bar: list[int] = []
    for i, circle in enumerate(circles):
        u = circle.x / width
        if abs(u - 0.5) <= profile.bar_width / 2.0 + config.bar_margin * pw:
            on_bar.append(i)
            continue
        columns[_column(u, profile)].append(i)
    where: dict[int, int | None] = {i: None for i in on_bar}
    for column, members in columns.items():
        bottom, top = _stacks(members, circles, height, config)
        for i in bottom:
            where[i] = 11 - column
        for i in top:
            where[i] = 12 + column
    points = [[0, 0] for _ in range(24)]
    bar = [0, 0]
    placed: list[Placed] = []
    for i, circle in enumerate(circles):
        place = where.get(i)
        colour = 0 if light[i] else 1
        if place is None:
            bar[colour] += 1
        else:
            points[place][colour] += 1
        placed.append(Placed(circle, light[i], place))
    return CheckerCount(tuple(Counts(p[0], p[1]) for p in points), Counts(bar[0], bar[1]),
                        tuple(placed), (width, height))


def _column(u: float, profile: BoardProfile) -> int:
    """Field column 0-11, left to right (0-5 left of the bar)."""
    right_start = profile.bar_span[1]
    pw = profile.point_width
    if u < 0.5:
        return min(max(int(u / pw), 0), 5)
    return 6 + min(max(int((u - right_start) / pw), 0), 5)


def _stacks(members: list[int], circles: list[Circle], height: int,
            config: CountConfig) -> tuple[list[int], list[int]]:
    """The checkers of one column connected to the bottom rail and to the top rail."""
    if not members:
        return [], []
    order = sorted(members, key=lambda i: circles[i].y)
    radius = sum(circles[i].radius for i in order) / len(order)
    link = config.link * radius

    def walk(sequence: list[int], at_rail: float) -> list[int]:
        chain: list[int] = []
        for i in sequence:
            c = circles[i]
            if not chain:
                if abs(c.y - at_rail) - c.radius > config.rail_gap * radius:
                    break
                chain.append(i)
                continue
            if min(abs(c.y - circles[j].y) for j in chain) > link:
                break
            chain.append(i)
        return chain

    bottom = walk(list(reversed(order)), float(height))
    taken = set(bottom)
    top = [i for i in walk(order, 0.0) if i not in taken]
    claimed = taken | set(top)
    for i in order:
        if i not in claimed:
            (bottom if circles[i].y >= height / 2.0 else top).append(i)
    return bottom, top
