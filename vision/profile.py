"""The geometry of a board: where the points, the bar and the trays are.

Every stage works in *field coordinates*: ``u`` from 0 (left edge of the
playing field) to 1 (right edge) and ``v`` from 0 (top) to 1 (bottom), the
field being the surface that holds the 24 points and the bar, bounded by the
inner edges of the rails.  A rectified image of the field (see
:mod:`vision.rectify`) is just these coordinates scaled to pixels.  The
defaults fit a standard tournament board (measured on the real frames in
``shared/data/real-boards``: field about 1.07 times as wide as high, bar
6.5 % of the width, points reaching 42 % of the height).
"""

from dataclasses import asdict, dataclass
from typing import Any, Final, Literal

from vision.errors import ConfigError

Half = Literal["left", "right"]
POINTS: Final = 24


@dataclass(frozen=True, slots=True)
class TrayProfile:
    """A tray for borne-off checkers beside the field (outside the corners)."""

    side: Half
    gap: float = 0.01
    """Rail between field and tray, as a fraction of the field width."""
    width: float = 0.095
    """Tray width, as a fraction of the field width."""


@dataclass(frozen=True, slots=True)
class BoardProfile:
    """The shape of one kind of board."""

    name: str = "tournament"
    field_aspect: float = 1.07
    """Field width divided by field height."""
    bar_width: float = 0.065
    """Bar width as a fraction of the field width."""
    point_length: float = 0.42
    """How far a point reaches into the field, as a fraction of its height."""
    checker_diameter: float = 0.96
    """Checker diameter as a fraction of a point's width."""
    tray: TrayProfile | None = None
    """The borne-off tray in view, if any (else ``off`` is reported as null)."""

    def __post_init__(self) -> None:
        checks = (
            (0.5 <= self.field_aspect <= 2.5, "field_aspect between 0.5 and 2.5"),
            (0.0 <= self.bar_width < 0.3, "bar_width between 0 and 0.3"),
            (0.2 <= self.point_length < 0.5, "point_length between 0.2 and 0.5"),
            (0.5 <= self.checker_diameter <= 1.1, "checker_diameter between 0.5 and 1.1"),
        )
        for ok, text in checks:
            if not ok:
                raise ConfigError(f"board profile {self.name!r}: {text}")

    # -- geometry ---------------------------------------------------------

    @property
    def point_width(self) -> float:
        """One point's width in ``u``."""
        return (1.0 - self.bar_width) / 12.0

    @property
    def bar_span(self) -> tuple[float, float]:
        """The bar's left and right edges in ``u``."""
        return ((1.0 - self.bar_width) / 2.0, (1.0 + self.bar_width) / 2.0)

    def point_u(self, index: int) -> float:
        """The centre ``u`` of physical point ``index`` (0-23, as the camera numbers them)."""
        if not 0 <= index < POINTS:
            raise ValueError(f"physical points are 0-23, not {index}")
        pw = self.point_width
        left_end, right_start = self.bar_span
        if index < 12:  # bottom row, right to left
            k = index
            if k < 6:
                return 1.0 - (k + 0.5) * pw
            return left_end - (k - 6 + 0.5) * pw
        k = index - 12  # top row, left to right
        if k < 6:
            return (k + 0.5) * pw
        return right_start + (k - 6 + 0.5) * pw

    @staticmethod
    def is_top(index: int) -> bool:
        """True for the points of the top row (12-23)."""
        return index >= 12

    def half(self, u: float) -> Half | None:
        """Which half of the field ``u`` lies in (None on the bar)."""
        left_end, right_start = self.bar_span
        if u < left_end:
            return "left"
        if u > right_start:
            return "right"
        return None

    def point_at(self, u: float, v: float) -> int | None:
        """The physical point whose column holds (u, v), None on the bar or off the field."""
        if not (0.0 <= u <= 1.0 and 0.0 <= v <= 1.0) or self.half(u) is None:
            return None
        pw = self.point_width
        left_end, right_start = self.bar_span
        if v >= 0.5:
            k = int((1.0 - u) / pw) if u > right_start else 6 + int((left_end - u) / pw)
            return min(k, 11)
        k = int(u / pw) if u < left_end else 6 + int((u - right_start) / pw)
        return 12 + min(k, 11)

    def rectified_size(self, width: int) -> tuple[int, int]:
        """Pixel size of a rectified field image ``width`` pixels wide."""
        return width, round(width / self.field_aspect)

    # -- persistence ------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: object) -> "BoardProfile":
        """Read a profile; raises :class:`ConfigError` naming the bad field."""
        if not isinstance(data, dict):
            raise ConfigError("a board profile is a JSON object")
        known = {"name", "field_aspect", "bar_width", "point_length", "checker_diameter", "tray"}
        unknown = set(data) - known
        if unknown:
            raise ConfigError(f"board profile: unknown fields {sorted(unknown)}")
        values = dict(data)
        tray = values.pop("tray", None)
        try:
            tray_profile = None if tray is None else TrayProfile(**tray)
            if tray_profile is not None and tray_profile.side not in ("left", "right"):
                raise ConfigError("board profile: tray side is left or right")
            return cls(tray=tray_profile, **values)
        except TypeError as exc:
            raise ConfigError(f"board profile: {exc}") from exc


TOURNAMENT: Final = BoardProfile()
