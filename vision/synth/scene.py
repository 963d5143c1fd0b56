"""The ground truth of one synthetic frame: what lies where, and how it is seen.

A :class:`Scene` is everything :func:`vision.synth.render.render` needs and
nothing it invents: checker counts per physical point, bar and tray, the dice
and cube with their poses, hands, the style, the camera, the light, the
board's shape and physical size, how the players stack checkers, and a seed
for the remaining small randomness (exact checker jitter, textures, sensor
noise).  Same scene, same image, bit for bit.

Scenes are checked when built: 15 checkers a side accounted for on points,
bar and off; dice values 1-6; cube values as printed.  A scene that breaks
these raises :class:`SceneError` naming what is wrong.
"""

from dataclasses import dataclass
from typing import Any, Final, Literal

from vision.errors import VisionError
from vision.observation import POINTS, Counts, CubePlace
from vision.profile import TOURNAMENT, BoardProfile
from vision.synth.camera import CameraPose
from vision.synth.positions import start_position
from vision.synth.styles import DEFAULT_STYLE, Style

CHECKERS: Final = 15
CUBE_VALUES: Final = (1, 2, 4, 8, 16, 32, 64)
BGR = tuple[int, int, int]


class SceneError(VisionError, ValueError):
    """A synthetic scene that no real board could show."""


@dataclass(frozen=True, slots=True)
class Dimensions:
    """Physical sizes in millimetres (tournament boards and equipment)."""

    field_width_mm: float = 500.0
    """Width of the playing field; the height follows from the profile's aspect."""
    rail_mm: float = 28.0
    """Width of the frame around the field (and beside the trays)."""
    checker_thickness_mm: float = 7.0
    die_mm: float = 15.0
    cube_mm: float = 26.0

    def __post_init__(self) -> None:
        if not (200.0 <= self.field_width_mm <= 1000.0 and 0.0 <= self.rail_mm <= 100.0
                and 2.0 <= self.checker_thickness_mm <= 15.0 and 8.0 <= self.die_mm <= 25.0
                and 15.0 <= self.cube_mm <= 45.0):
            raise SceneError(f"implausible board dimensions: {self}")


@dataclass(frozen=True, slots=True)
class Stacking:
    """How the players arrange checkers on a point (a habit, so per scene)."""

    row: int = 5
    """Checkers in the first row from the edge along a point (5 or 6 usually)."""
    shift: float = 0.5
    """Each higher layer starts this many diameters further from the edge."""
    spacing: float = 1.02
    """Centre distance within a row, in diameters (1 = touching)."""
    jitter_mm: float = 1.0
    """Standard deviation of the sloppiness of hand-placed checkers."""
    light_bar_bottom: bool = True
    """Light's checkers on the bar go to its bottom half, dark's to the top half."""

    def __post_init__(self) -> None:
        if not (2 <= self.row <= 8 and 0.0 <= self.shift <= 1.0
                and 0.95 <= self.spacing <= 1.5 and 0.0 <= self.jitter_mm <= 5.0):
            raise SceneError(f"implausible stacking: {self}")


@dataclass(frozen=True, slots=True)
class DiePlacement:
    """One die: its value, where it lies and how."""

    value: int
    """The face pointing up (for a cocked die: the face most nearly up)."""
    u: float
    v: float
    """Field coordinates of the middle of the die's footprint."""
    yaw_deg: float = 0.0
    tilt_deg: float = 0.0
    """0 for a flat die; a cocked die leans by this angle."""
    lean_deg: float = 0.0
    """Direction the die leans toward, in degrees in the field (0 = +u, 90 = +v)."""
    on_checker: bool = False
    """Resting (wholly or partly) on the checker under its footprint."""

    @property
    def flat(self) -> bool:
        return self.tilt_deg == 0.0

    def __post_init__(self) -> None:
        if not 1 <= self.value <= 6:
            raise SceneError(f"a die shows 1-6, not {self.value}")
        if not 0.0 <= self.tilt_deg <= 45.0:
            raise SceneError(f"a cocked die tilts 0-45 degrees, not {self.tilt_deg}")
        if not (-0.3 <= self.u <= 1.3 and -0.3 <= self.v <= 1.3):
            raise SceneError(f"die at ({self.u}, {self.v}) is nowhere near the board")


@dataclass(frozen=True, slots=True)
class CubePlacement:
    """The doubling cube: its value and where it lies."""

    value: int
    """1 (centred, showing 64), 2, 4, ... 64."""
    position: CubePlace
    u: float
    v: float
    """Field coordinates of its middle (outside 0-1 when on a rail or in a tray)."""
    yaw_deg: float = 0.0

    def __post_init__(self) -> None:
        if self.value not in CUBE_VALUES:
            raise SceneError(f"the cube shows 2-64 (1 = centred), not {self.value}")
        if not (-0.3 <= self.u <= 1.3 and -0.3 <= self.v <= 1.3):
            raise SceneError(f"cube at ({self.u}, {self.v}) is nowhere near the board")

    @property
    def shown(self) -> int:
        """The number printed on the top face (64 for a centred cube)."""
        return 64 if self.value == 1 else self.value


@dataclass(frozen=True, slots=True)
class HandPose:
    """A hand (with forearm) over the board."""

    u: float
    v: float
    """Field coordinates under the middle of the palm."""
    from_side: Literal["top", "bottom", "left", "right"] = "bottom"
    """The edge of the board the arm comes from (players sit at top and bottom)."""
    angle_deg: float = 0.0
    """Arm direction's deviation from straight across that edge."""
    elevation_mm: float = 80.0
    """Height of the palm above the board."""
    size: float = 1.0
    """1.0 = a 185 mm adult hand."""
    skin: BGR = (150, 175, 215)
    sleeve: BGR | None = (120, 90, 60)
    """Sleeve colour, None for a bare forearm."""
    spread: float = 0.3
    """0 = fingers together, 1 = spread wide."""
    curl: float = 0.3
    """0 = fingers straight, 1 = reaching down to the board (picking up a checker)."""
    right: bool = True
    """A right hand (thumb on the left when the palm faces down)."""
    motion_blur_px: float = 0.0
    """Length of the motion streak of a moving hand, in pixels at 720 lines."""

    def __post_init__(self) -> None:
        if not 10.0 <= self.elevation_mm <= 400.0:
            raise SceneError(f"a hand hovers 10-400 mm above the board, not {self.elevation_mm}")
        if not 0.5 <= self.size <= 1.6:
            raise SceneError(f"hand size 0.5-1.6, not {self.size}")


@dataclass(frozen=True, slots=True)
class Glare:
    """A reflection of a lamp: a bright, soft spot."""

    x: float
    y: float
    """Centre as fractions of the image width and height."""
    radius: float
    """As a fraction of the image height."""
    strength: float
    """Grey levels added at the centre."""
    elongation: float = 1.0
    angle_deg: float = 0.0


@dataclass(frozen=True, slots=True)
class Lighting:
    """Illumination and the camera's imperfections."""

    exposure: float = 1.0
    gradient: tuple[float, float] = (0.0, 0.0)
    """Relative brightness change from the image centre to its right and bottom edges."""
    vignette: float = 0.12
    """Darkening toward the image corners."""
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)
    """Channel gains, BGR."""
    light_azimuth_deg: float = 225.0
    """Direction the light comes from, in the field (0 = from +u, 90 = from +v)."""
    light_elevation_deg: float = 65.0
    shadow: float = 0.35
    """How much a cast shadow darkens (0 = no shadows)."""
    glare: tuple[Glare, ...] = ()
    noise: float = 2.0
    """Sensor noise, standard deviation in grey levels."""
    blur: float = 0.0
    """Gaussian blur sigma in pixels at 720 lines (scaled with the frame height)."""
    jpeg: int | None = None
    """JPEG quality for compression artefacts, None for none."""

    def __post_init__(self) -> None:
        if not 5.0 <= self.light_elevation_deg <= 90.0:
            raise SceneError("the light's elevation must be 5-90 degrees")
        if self.jpeg is not None and not 5 <= self.jpeg <= 100:
            raise SceneError(f"JPEG quality 5-100, not {self.jpeg}")


@dataclass(frozen=True)
class Scene:
    """Ground truth of a synthetic frame."""

    points: tuple[Counts, ...] = start_position()
    """24 physical points (index 0 bottom-right, as the camera sees them)."""
    bar: Counts = Counts()
    off: Counts = Counts()
    dice: tuple[DiePlacement, ...] = ()
    cube: CubePlacement | None = None
    hands: tuple[HandPose, ...] = ()
    style: Style = DEFAULT_STYLE
    camera: CameraPose = CameraPose()
    lighting: Lighting = Lighting()
    profile: BoardProfile = TOURNAMENT
    dimensions: Dimensions = Dimensions()
    stacking: Stacking = Stacking()
    seed: int = 0
    """Seeds checker jitter, textures and noise."""

    def __post_init__(self) -> None:
        if len(self.points) != POINTS:
            raise SceneError(f"24 points, not {len(self.points)}")
        light = sum(p.light for p in self.points) + self.bar.light + self.off.light
        dark = sum(p.dark for p in self.points) + self.bar.dark + self.off.dark
        if light != CHECKERS or dark != CHECKERS:
            raise SceneError(f"15 checkers a side on points, bar and off, not "
                             f"{light} light and {dark} dark")
        if min(min(c.light, c.dark) for c in (*self.points, self.bar, self.off)) < 0:
            raise SceneError("negative checker counts")
        if not 0 <= self.seed < 2**63:
            raise SceneError(f"seed must be a non-negative 63-bit integer, not {self.seed}")

    @property
    def field_mm(self) -> tuple[float, float]:
        """Field width and height in millimetres."""
        width = self.dimensions.field_width_mm
        return width, width / self.profile.field_aspect

    @property
    def occluding(self) -> bool:
        """True when the scene has hands (whether they cover the field is the render's call)."""
        return bool(self.hands)

    def describe(self) -> dict[str, Any]:
        """A compact JSON-able summary (style names, camera, counts) for records."""
        return {
            "seed": self.seed,
            "style": {"board": self.style.board.name, "checkers": self.style.checkers.name,
                      "dice": self.style.dice.name},
            "profile": self.profile.to_json(),
            "camera": {"height_mm": self.camera.height_mm, "tilt_x_deg": self.camera.tilt_x_deg,
                       "tilt_y_deg": self.camera.tilt_y_deg, "roll_deg": self.camera.roll_deg,
                       "aim": list(self.camera.aim), "fill": self.camera.fill,
                       "barrel": self.camera.barrel},
            "points": [p.to_json() for p in self.points],
            "bar": self.bar.to_json(),
            "off": self.off.to_json(),
            "dice": [{"value": d.value, "u": d.u, "v": d.v, "tilt_deg": d.tilt_deg,
                      "on_checker": d.on_checker} for d in self.dice],
            "cube": None if self.cube is None else {"value": self.cube.value,
                                                     "position": self.cube.position},
            "hands": len(self.hands),
        }
