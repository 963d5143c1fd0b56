"""What the camera saw in one frame: the ``schema: 1`` contract.

``bgref read-image`` prints :meth:`Observation.to_json`, the referee reads
observations with :meth:`Observation.from_json`; other tools rely on the
format exactly as the issue spells it out, so this module is the only place
that writes or reads it.  Points are *physical*, as the camera sees them:
index 0 is the bottom-row point at the bottom-right corner, 0-11 run right to
left along the bottom row, 12 is the top-left point, 12-23 run left to right
along the top row.  Image coordinates are pixels from the top-left.
"""

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from vision.errors import ObservationError

SCHEMA: Final = 1
POINTS: Final = 24

Side = Literal["left", "right"]
CubePlace = Literal["centre", "top", "bottom"]
Pixel = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Counts:
    """Checkers of the two colours in one place."""

    light: int = 0
    dark: int = 0

    def to_json(self) -> dict[str, int]:
        return {"light": self.light, "dark": self.dark}

    @classmethod
    def from_json(cls, data: object, where: str) -> "Counts":
        obj = _mapping(data, where)
        light, dark = obj.get("light", 0), obj.get("dark", 0)
        for name, value in (("light", light), ("dark", dark)):
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 15:
                raise ObservationError(f"{where}.{name}: a count 0-15, not {value!r}")
        return cls(light, dark)


@dataclass(frozen=True, slots=True)
class Corners:
    """The playing field's corners in the image (inner edges of the rails, no trays)."""

    top_left: Pixel
    top_right: Pixel
    bottom_right: Pixel
    bottom_left: Pixel

    def as_list(self) -> list[Pixel]:
        """Clockwise from the top-left, the order every contract uses."""
        return [self.top_left, self.top_right, self.bottom_right, self.bottom_left]

    @classmethod
    def from_list(cls, points: Sequence[Sequence[float]]) -> "Corners":
        if len(points) != 4:
            raise ObservationError(f"four corners needed, got {len(points)}")
        tl, tr, br, bl = (_pixel(p, f"corner {i}") for i, p in enumerate(points))
        return cls(tl, tr, br, bl)

    def to_json(self) -> dict[str, list[float]]:
        return {
            "top_left": _round(self.top_left),
            "top_right": _round(self.top_right),
            "bottom_right": _round(self.bottom_right),
            "bottom_left": _round(self.bottom_left),
        }

    @classmethod
    def from_json(cls, data: object) -> "Corners":
        obj = _mapping(data, "corners")
        names = ("top_left", "top_right", "bottom_right", "bottom_left")
        missing = [n for n in names if n not in obj]
        if missing:
            raise ObservationError(f"corners: missing {', '.join(missing)}")
        return cls(*(_pixel(obj[n], f"corners.{n}") for n in names))


@dataclass(frozen=True, slots=True)
class Die:
    """One die on the field (or in any photo, for the dice-only reader)."""

    value: int | None
    """1-6, or None when the pips cannot be read."""
    center: Pixel
    flat: bool = True
    """False when the die is cocked: tilted, leaning on a checker or the rail."""
    on_checker: bool = False
    side: Side | None = None
    """Which half of the field, left or right of the bar (None off the board)."""
    box: tuple[float, float, float, float] | None = None
    """x, y, width, height in pixels (the dice-only reader reports it)."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"value": self.value, "center": _round(self.center),
                               "flat": self.flat, "on_checker": self.on_checker,
                               "side": self.side}
        if self.box is not None:
            out["box"] = [round(v, 1) for v in self.box]
        return out

    @classmethod
    def from_json(cls, data: object, where: str) -> "Die":
        obj = _mapping(data, where)
        value = obj.get("value")
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)
                                  or not 1 <= value <= 6):
            raise ObservationError(f"{where}.value: 1-6 or null, not {value!r}")
        side = obj.get("side")
        if side not in ("left", "right", None):
            raise ObservationError(f"{where}.side: 'left', 'right' or null, not {side!r}")
        flat, on_checker = obj.get("flat", True), obj.get("on_checker", False)
        if not isinstance(flat, bool) or not isinstance(on_checker, bool):
            raise ObservationError(f"{where}: flat and on_checker are true or false")
        box = obj.get("box")
        box_t = None
        if box is not None:
            if not isinstance(box, list) or len(box) != 4 or not all(_is_number(v) for v in box):
                raise ObservationError(f"{where}.box: [x, y, w, h], not {box!r}")
            box_t = (float(box[0]), float(box[1]), float(box[2]), float(box[3]))
        return cls(value, _pixel(obj.get("center"), f"{where}.center"), flat, on_checker,
                   side, box_t)


@dataclass(frozen=True, slots=True)
class Cube:
    """The doubling cube, when the camera sees it."""

    value: int | None
    """2-64 as printed (64 also means centred at 1), None when unreadable."""
    center: Pixel
    position: CubePlace

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "center": _round(self.center), "position": self.position}

    @classmethod
    def from_json(cls, data: object) -> "Cube":
        obj = _mapping(data, "cube")
        value = obj.get("value")
        if value is not None and value not in (1, 2, 4, 8, 16, 32, 64):
            raise ObservationError(f"cube.value: 2, 4, ... 64 or null, not {value!r}")
        position = obj.get("position")
        if position not in ("centre", "top", "bottom"):
            raise ObservationError(f"cube.position: centre, top or bottom, not {position!r}")
        return cls(value, _pixel(obj.get("center"), "cube.center"), position)


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything one frame says about the board."""

    board_found: bool
    corners: Corners | None = None
    points: tuple[Counts, ...] = field(default_factory=lambda: (Counts(),) * POINTS)
    bar: Counts = Counts()
    off: Counts | None = None
    """Borne-off checkers, or None when no tray is in view."""
    dice: tuple[Die, ...] = ()
    """Dice on the playing field (and the bar)."""
    cube: Cube | None = None
    occluded: bool = False
    """A hand or arm over the field: never to be taken as a board state."""
    t: float | None = None
    """Seconds, for observations in a stream (the referee's clock)."""
    dice_off_field: tuple[Die, ...] = ()
    """Dice lying in view but off the playing field (on a rail, in a tray): each with
    ``side`` None.  Written as ``"dice_off_field": [{"value", "center", "box"?}]`` when
    there are any (the schema-1 keys stay exactly as before otherwise; a reader takes a
    missing key for none).  Etiquette rule 1: a throw with a die off the field is void."""
    off_read: Counts | None = None
    """The tray's own reading, before it was made to agree with the board (``off`` is
    held to fifteen a side less the checkers read on the board, so a stack read one
    too many shows as a checker missing from the tray too); the colours as ``off``
    has them.  The one second opinion on a miscounted stack: the referee weighs it
    (``controller.referee``).  Written as ``"off_read": {"light", "dark"}`` only when a
    tray is in view and it was read (the schema-1 keys stay exactly as before; a
    reader takes a missing key for not read).  Not part of the board state: two
    frames that differ only here show the same board (:mod:`vision.stabiliser`)."""
    own_points: tuple[Counts, ...] | None = None
    """The points as the board's own reading counts them, when that differs from
    ``points``: with a tray in view, a side that may be bearing off has fifteen less the
    tray's count on the board, which settles its stacks in doubt; a tray read a checker
    short then makes a stack of five read as six (the board and the tray agree, both
    wrong).  The board read without the tray's help is the second opinion the referee
    weighs.  Written as ``"own_points": [24 of {"light", "dark"}]`` only when given (a
    reader takes a missing key for no difference); not part of the board state."""
    settled_since: float | None = None
    """For a stream observation whose dice were just read from a high-resolution still
    (:mod:`vision.stills`): the time of the latest frame in which the motion gate saw
    the scene change before the still was taken.  Every frame since showed the same
    picture as that one (the gate compares each with it), so the dice have lain as the
    still reads them since then, whether or not the frames themselves read them (small
    or translucent dice the video frame misses).  The stabiliser may count that quiet
    time in the hold (``StabiliserConfig.still_credit``).  Written as
    ``"settled_since"`` only when given (the schema-1 keys stay exactly as before; a
    reader takes a missing key for not known); not part of the board state."""

    def __post_init__(self) -> None:
        if len(self.points) != POINTS:
            raise ObservationError(f"24 points, not {len(self.points)}")
        if any(d.side is not None for d in self.dice_off_field):
            raise ObservationError("a die off the field lies in neither half (side None)")
        if self.off_read is not None and self.off is None:
            raise ObservationError("off_read: the tray's own reading, but no tray in view "
                                   "(off is null)")
        if self.own_points is not None and len(self.own_points) != POINTS:
            raise ObservationError(f"own_points: 24 points, not {len(self.own_points)}")
        if self.settled_since is not None and (
                not math.isfinite(self.settled_since)
                or (self.t is not None and self.settled_since > self.t)):
            raise ObservationError("settled_since: a time no later than the observation's t")

    def to_json(self) -> dict[str, Any]:
        """The schema-1 object (with ``t`` when the observation has a time,
        ``dice_off_field`` when dice lie off the field, ``off_read`` when the tray's
        own reading is known, ``own_points`` when the board's own reading differs and
        ``settled_since`` when the dice were just read from a still)."""
        out: dict[str, Any] = {
            "schema": SCHEMA,
            "board_found": self.board_found,
            "corners": None if self.corners is None else self.corners.to_json(),
            "points": [p.to_json() for p in self.points],
            "bar": self.bar.to_json(),
            "off": None if self.off is None else self.off.to_json(),
            "dice": [d.to_json() for d in self.dice],
            "cube": None if self.cube is None else self.cube.to_json(),
            "occluded": self.occluded,
        }
        if self.dice_off_field:
            out["dice_off_field"] = [_off_field_json(d) for d in self.dice_off_field]
        if self.off_read is not None:
            out["off_read"] = self.off_read.to_json()
        if self.own_points is not None:
            out["own_points"] = [p.to_json() for p in self.own_points]
        if self.settled_since is not None:
            out["settled_since"] = round(self.settled_since, 4)
        if self.t is not None:
            out["t"] = round(self.t, 4)
        return out

    @classmethod
    def from_json(cls, data: object) -> "Observation":
        """Read a schema-1 object; raises :class:`ObservationError` saying what is wrong."""
        obj = _mapping(data, "observation")
        if obj.get("schema") != SCHEMA:
            raise ObservationError(f"schema {SCHEMA} expected, got {obj.get('schema')!r}")
        found = obj.get("board_found")
        if not isinstance(found, bool):
            raise ObservationError("board_found: true or false")
        points = obj.get("points")
        if not isinstance(points, list) or len(points) != POINTS:
            raise ObservationError("points: a list of 24 {light, dark}")
        dice = obj.get("dice", [])
        if not isinstance(dice, list):
            raise ObservationError("dice: a list")
        off_field = obj.get("dice_off_field", [])
        if not isinstance(off_field, list):
            raise ObservationError("dice_off_field: a list")
        occluded = obj.get("occluded", False)
        if not isinstance(occluded, bool):
            raise ObservationError("occluded: true or false")
        t = obj.get("t")
        if t is not None and not _is_number(t):
            raise ObservationError(f"t: seconds, not {t!r}")
        settled = obj.get("settled_since")
        if settled is not None and not _is_number(settled):
            raise ObservationError(f"settled_since: seconds, not {settled!r}")
        return cls(
            board_found=found,
            corners=None if obj.get("corners") is None else Corners.from_json(obj["corners"]),
            points=tuple(Counts.from_json(p, f"points[{i}]") for i, p in enumerate(points)),
            bar=Counts.from_json(obj.get("bar", {}), "bar"),
            off=None if obj.get("off") is None else Counts.from_json(obj["off"], "off"),
            dice=tuple(Die.from_json(d, f"dice[{i}]") for i, d in enumerate(dice)),
            cube=None if obj.get("cube") is None else Cube.from_json(obj["cube"]),
            occluded=occluded,
            t=None if t is None else float(t),
            dice_off_field=tuple(_off_field_die(d, f"dice_off_field[{i}]")
                                 for i, d in enumerate(off_field)),
            off_read=None if obj.get("off_read") is None
            else Counts.from_json(obj["off_read"], "off_read"),
            own_points=_own_points(obj.get("own_points")),
            settled_since=None if settled is None else float(settled),
        )


def _own_points(data: object) -> tuple[Counts, ...] | None:
    """``own_points``: None when missing or null, else 24 {light, dark}."""
    if data is None:
        return None
    if not isinstance(data, list) or len(data) != POINTS:
        raise ObservationError("own_points: a list of 24 {light, dark}")
    return tuple(Counts.from_json(p, f"own_points[{i}]") for i, p in enumerate(data))


def _off_field_json(die: Die) -> dict[str, Any]:
    out: dict[str, Any] = {"value": die.value, "center": _round(die.center)}
    if die.box is not None:
        out["box"] = [round(v, 1) for v in die.box]
    return out


def _off_field_die(data: object, where: str) -> Die:
    """A die off the field: value, centre and box as a die on it has, and nothing else."""
    obj = _mapping(data, where)
    unknown = set(obj) - {"value", "center", "box"}
    if unknown:
        raise ObservationError(f"{where}: a die off the field has value, center and box "
                               f"only, not {', '.join(sorted(unknown))}")
    return Die.from_json(obj, where)


def _mapping(data: object, where: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise ObservationError(f"{where}: an object expected, not {type(data).__name__}")
    return data


def _is_number(value: object) -> bool:
    return (isinstance(value, int | float) and not isinstance(value, bool)
            and math.isfinite(value))


def _pixel(value: object, where: str) -> Pixel:
    if (not isinstance(value, list | tuple) or len(value) != 2
            or not all(_is_number(v) for v in value)):
        raise ObservationError(f"{where}: [x, y] in pixels, not {value!r}")
    return (float(value[0]), float(value[1]))


def _round(pixel: Pixel) -> list[float]:
    return [round(pixel[0], 1), round(pixel[1], 1)]
