"""The board the camera sees, and the point numbers the rules use.

The camera numbers the 24 physical points the same way whoever sits where
(``shared/README.md``)::

    top row     12 13 14 15 16 17 | 18 19 20 21 22 23
                                 bar
    bottom row  11 10  9  8  7  6 |  5  4  3  2  1  0

The rules number points 1-24 from each player's own side, and which
physical point that is depends on the seating: who sits at the bottom of
the image, and on which side of the image the two home boards are.  Both
home boards are on the same side, one in each row, each in front of its
owner; the rule texts let them be on either side ("a player must be
comfortable both ways").

Every checker travels from the opponent's home board, along the far row,
round the end away from the home boards, and back along its owner's own
row into the home board.  So for the player at the bottom:

=========  ============  ============  ============  ============
home side  points 1-6    points 7-12   points 13-18  points 19-24
=========  ============  ============  ============  ============
right      0-5           6-11          12-17         18-23
left       11-6          5-0           23-18         17-12
=========  ============  ============  ============  ============

(point 1 first in each range).  The player at the top sees the same board
from the other end: their point ``p`` is the bottom player's point
``25 - p``, exactly as in :class:`~controller.rules.position.Position`.
Hence the four anchors: the bottom player's point 1 is index 0 (home right)
or 11 (home left); the top player's point 1 is index 23 (home right) or 12
(home left).  "Right" and "left" are the image's: from the top player's
chair, the image's right is their left.

Seen in the image, with home boards on the right the bottom player moves
anticlockwise and the top player clockwise; with home boards on the left,
the other way round.  The tournament board of ``shared/data/real-boards``
is seated light at the bottom with the home boards on the left: that is the
only seating under which its bearing-off frame has every light checker at
home and its frames follow each other by legal plays (``tests/test_physical.py``).

Checker colours are the camera's (``light`` and ``dark``, as in the
``bgref read-image`` labels); which player has which colour is a separate
argument, because the same seating is played with either colour.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Final

from controller.rules import layout as lay
from controller.rules.errors import InvalidPositionError, RulesError
from controller.rules.player import Player
from controller.rules.position import Position

POINTS: Final = 24
ROW: Final = 12


class Side(Enum):
    """A side of the camera image."""

    LEFT = "left"
    RIGHT = "right"


class Colour(Enum):
    """A checker colour as the camera tells them apart."""

    LIGHT = "light"
    DARK = "dark"

    @property
    def other(self) -> "Colour":
        """The opposing colour."""
        return Colour.DARK if self is Colour.LIGHT else Colour.LIGHT


@dataclass(frozen=True, slots=True)
class Seating:
    """Who sits at the bottom of the image and where the home boards are."""

    bottom: Player
    home: Side

    @property
    def top(self) -> Player:
        """The player at the top of the image."""
        return self.bottom.opponent

    @classmethod
    def every(cls) -> tuple["Seating", ...]:
        """All four seatings, in a fixed order (so error messages are stable)."""
        return tuple(cls(bottom, home) for bottom in Player for home in (Side.RIGHT, Side.LEFT))

    def describe(self, light: Player) -> str:
        """Words for a person at the table, naming colours rather than player numbers."""
        colour = colour_of(self.bottom, light)
        return f"{colour.value} at the bottom, home boards on the {self.home.value}"

    def __str__(self) -> str:
        return f"player {self.bottom.value} at the bottom, home boards on the {self.home.value}"


def colour_of(player: Player, light: Player) -> Colour:
    """The colour ``player`` plays when ``light`` plays the light checkers."""
    return Colour.LIGHT if player == light else Colour.DARK


def player_of(colour: Colour, light: Player) -> Player:
    """The player of ``colour`` when ``light`` plays the light checkers."""
    return light if colour is Colour.LIGHT else light.opponent


def _mirror(index: int) -> int:
    """The physical point at the same place with left and right swapped.

    Swapping the sides of the image is all that distinguishes home-left
    from home-right, so the left-hand mapping is the right-hand one mirrored.
    """
    return ROW - 1 - index if index < ROW else 3 * ROW - 1 - index


def _check_index(index: int) -> None:
    if not isinstance(index, int) or not 0 <= index < POINTS:
        raise ValueError(f"physical points are 0-23, not {index!r}")


def _check_point(point: int) -> None:
    if not isinstance(point, int) or not 1 <= point <= POINTS:
        raise ValueError(f"points are 1-24, not {point!r}")


def physical_index(seating: Seating, player: Player, point: int) -> int:
    """The physical index (0-23) of ``player``'s own ``point`` (1-24)."""
    _check_point(point)
    bottom_point = point if player == seating.bottom else 25 - point
    index = bottom_point - 1
    return index if seating.home is Side.RIGHT else _mirror(index)


def point_number(seating: Seating, player: Player, index: int) -> int:
    """``player``'s own point number (1-24) of the physical index ``index``."""
    _check_index(index)
    bottom_point = (index if seating.home is Side.RIGHT else _mirror(index)) + 1
    return bottom_point if player == seating.bottom else 25 - bottom_point


@dataclass(frozen=True, slots=True)
class Counts:
    """How many checkers of each colour are in one place."""

    light: int = 0
    dark: int = 0

    def __post_init__(self) -> None:
        for name in ("light", "dark"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise InvalidPositionError(f"{name} count must be a whole number >= 0, "
                                           f"not {value!r}")

    @classmethod
    def of_colour(cls, colour: Colour, count: int) -> "Counts":
        """``count`` checkers of ``colour`` and none of the other."""
        return cls(light=count) if colour is Colour.LIGHT else cls(dark=count)

    def of(self, colour: Colour) -> int:
        """The count of ``colour``."""
        return self.light if colour is Colour.LIGHT else self.dark

    @property
    def total(self) -> int:
        """Checkers of both colours."""
        return self.light + self.dark


_EMPTY: Final = Counts()


@dataclass(frozen=True, slots=True)
class PhysicalBoard:
    """What the camera should see: per physical point, the bar and the trays.

    ``points`` is indexed physically (0 = bottom-right, see the module
    docstring); ``off`` is what lies borne off beside the board.
    """

    points: tuple[Counts, ...]
    bar: Counts = _EMPTY
    off: Counts = _EMPTY

    def __post_init__(self) -> None:
        if len(self.points) != POINTS:
            raise InvalidPositionError(
                f"a board has 24 physical points, not {len(self.points)}"
            )

    @classmethod
    def from_record(cls, record: Mapping[str, object]) -> "PhysicalBoard":
        """Read the ``bgref read-image`` label schema (``points``, ``bar``, optional ``off``).

        Takes the already-parsed JSON so this module stays free of I/O.
        """
        raw_points = record.get("points")
        if not isinstance(raw_points, list):
            raise InvalidPositionError("a board record needs a list of 24 'points'")
        points = tuple(_counts(entry, f"points[{i}]") for i, entry in enumerate(raw_points))
        bar = _counts(record.get("bar", {}), "bar")
        off = _counts(record.get("off", {}), "off")
        return cls(points, bar, off)

    def total(self, colour: Colour) -> int:
        """Every checker of ``colour`` the board shows, bar and trays included."""
        return sum(c.of(colour) for c in self.points) + self.bar.of(colour) + self.off.of(colour)


def _counts(entry: object, where: str) -> Counts:
    if not isinstance(entry, Mapping):
        raise InvalidPositionError(f"{where}: expected {{'light': n, 'dark': n}}, got {entry!r}")
    light, dark = entry.get("light", 0), entry.get("dark", 0)
    if not isinstance(light, int) or not isinstance(dark, int):
        raise InvalidPositionError(f"{where}: counts must be whole numbers, got {entry!r}")
    return Counts(light, dark)


def to_position(board: PhysicalBoard, seating: Seating, light: Player = Player.ZERO,
                turn: Player = Player.ZERO) -> Position:
    """The rules' view of a physical board.

    ``light`` names the player of the light checkers; ``turn`` the player on
    roll, which the checkers alone cannot tell.  Raises
    :class:`InvalidPositionError` naming the physical point when both colours
    share one, or when a colour has more than 15 checkers.
    """
    for index, counts in enumerate(board.points):
        if counts.light and counts.dark:
            raise InvalidPositionError(
                f"physical point {index} holds {counts.light} light and {counts.dark} dark "
                f"checkers; a point holds one colour"
            )
    layouts: dict[Player, list[int]] = {}
    for colour in Colour:
        total = board.total(colour)
        if total > lay.CHECKERS:
            raise InvalidPositionError(
                f"{total} {colour.value} checkers on the board, bar and off; at most 15"
            )
        player = player_of(colour, light)
        row = [0] * lay.PLACES
        row[lay.OFF] = board.off.of(colour)
        row[lay.BAR] = board.bar.of(colour)
        for index, counts in enumerate(board.points):
            row[point_number(seating, player, index)] = counts.of(colour)
        layouts[player] = row
    return Position(layouts[Player.ZERO], layouts[Player.ONE], turn)


def to_physical(position: Position, seating: Seating, light: Player = Player.ZERO) -> PhysicalBoard:
    """What the camera should see of ``position`` at a table seated as ``seating``."""
    light_row = position.layout(light)
    dark_row = position.layout(light.opponent)
    points = tuple(
        Counts(
            light=light_row[point_number(seating, light, index)],
            dark=dark_row[point_number(seating, light.opponent, index)],
        )
        for index in range(POINTS)
    )
    return PhysicalBoard(
        points,
        bar=Counts(light_row[lay.BAR], dark_row[lay.BAR]),
        off=Counts(light_row[lay.OFF], dark_row[lay.OFF]),
    )


class SetUpError(RulesError):
    """A board that is the starting position under no seating.

    ``closest`` is the seating with fewest differences and ``differences``
    says, place by place, what is wrong under it, so a person at the table
    can fix the set-up.
    """

    def __init__(self, closest: Seating, light: Player, differences: tuple[str, ...]) -> None:
        self.closest = closest
        self.light = light
        self.differences = differences
        super().__init__(
            "not a starting position under any seating; closest is "
            f"{closest.describe(light)}: " + "; ".join(differences)
        )


def _plural(count: int) -> str:
    return f"{count} checker" if count == 1 else f"{count} checkers"


def start_differences(board: PhysicalBoard, seating: Seating,
                      light: Player = Player.ZERO) -> tuple[str, ...]:
    """Every place where ``board`` differs from the starting position under ``seating``.

    Each difference names the point as the owner of the colour counts it
    ("light point 13 (physical 12): 4 checkers, expected 5"), because that
    is what someone setting up the board thinks in.
    """
    expected = to_physical(Position.initial(), seating, light)
    out: list[str] = []
    for index in range(POINTS):
        for colour in Colour:
            seen, want = board.points[index].of(colour), expected.points[index].of(colour)
            if seen != want:
                point = point_number(seating, player_of(colour, light), index)
                out.append(f"{colour.value} point {point} (physical {index}): "
                           f"{_plural(seen)}, expected {want}")
    for name, seen_counts, want_counts in (("bar", board.bar, expected.bar),
                                           ("borne off", board.off, expected.off)):
        for colour in Colour:
            seen, want = seen_counts.of(colour), want_counts.of(colour)
            if seen != want:
                out.append(f"{colour.value} {name}: {_plural(seen)}, expected {want}")
    return tuple(out)


def recognise_start(board: PhysicalBoard, light: Player = Player.ZERO) -> tuple[Seating, ...]:
    """Every seating under which ``board`` is exactly the starting position.

    With a full, correct set-up exactly one seating fits (the four renders
    of the start all differ).  Raises :class:`SetUpError` when none does,
    describing the closest seating's differences.
    """
    found = {seating: start_differences(board, seating, light) for seating in Seating.every()}
    fits = tuple(seating for seating, diffs in found.items() if not diffs)
    if fits:
        return fits
    closest = min(Seating.every(), key=lambda seating: len(found[seating]))
    raise SetUpError(closest, light, found[closest])
