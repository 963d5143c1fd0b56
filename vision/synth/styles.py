"""The looks a synthetic board can take: fields, points, frames, checkers and dice.

The vision pipeline will meet boards it has never seen, so the renderer
draws from a catalogue deliberately wider than the one real board in the
shared data: cream, wood, felt, leather and printed fields, each with its own
two point colours; five checker pairs (one of them marbled); four dice looks
plus dice that match a checker colour.  Colours are BGR, as OpenCV stores
them.  Every style is a frozen value, so a :class:`Style` can sit in a
scene, be compared and be hashed for the renderer's sprite caches.
"""

from dataclasses import dataclass
from typing import Final, Literal

BGR = tuple[int, int, int]
FieldKind = Literal["cream", "wood", "felt", "leather", "printed"]
FrameKind = Literal["wood", "leather", "plain"]


@dataclass(frozen=True, slots=True)
class BoardStyle:
    """The board itself: field surface, points, rails, bar and trays."""

    name: str
    field_kind: FieldKind
    field: BGR
    points: tuple[BGR, BGR]
    """Colours of alternating points; the top-left point takes the first."""
    frame_kind: FrameKind
    frame: BGR
    """Rails, bar and tray walls."""
    texture: float = 0.05
    """Strength of the field's surface texture (relative brightness)."""
    point_outline: BGR | None = None
    """A thin printed outline around every point, as on vinyl boards."""
    point_gap: float = 0.04
    """Gap between neighbouring point bases, as a fraction of a point's width."""
    tray_floor: BGR | None = None
    """Floor of the tray(s); None uses the field colour, darkened."""
    both_trays: bool = True
    """Draw an (empty) tray on the side without the profile's tray, as real boards have."""
    hinges: bool = True
    """Metal hinges on the bar of folding boards."""
    gloss: float = 0.5
    """How strongly the surface reflects lamps (scales the glare spots)."""


@dataclass(frozen=True, slots=True)
class CheckerLook:
    """One side's checkers."""

    face: BGR
    edge: BGR
    """The cylinder wall, seen near the image borders and on stacks."""
    groove: BGR | None
    """The turned ring on the face, None for plain faces (tournament checkers)."""
    veins: BGR | None = None
    """Marbled checkers: the vein colour mixed into the face."""
    rim: float = 0.12
    """Width of the bevelled rim in the wall's colour, as a fraction of the radius."""


@dataclass(frozen=True, slots=True)
class CheckerStyle:
    name: str
    light: CheckerLook
    dark: CheckerLook
    gloss: float = 0.5


@dataclass(frozen=True, slots=True)
class DiceStyle:
    """A pair of dice (and the cube drawn in a related look)."""

    name: str
    body: BGR | Literal["light", "dark"]
    """A colour, or the face colour of the light or dark checkers (matching dice)."""
    pips: BGR
    """Ignored for matching dice, whose pips take the contrasting black or white."""
    translucent: bool = False


@dataclass(frozen=True, slots=True)
class Style:
    """Everything the look of one frame depends on, apart from lighting."""

    board: BoardStyle
    checkers: CheckerStyle
    dice: DiceStyle
    table: BGR = (70, 95, 120)
    """The surface the board lies on, visible around it."""
    cube_body: BGR = (235, 240, 240)
    cube_ink: BGR = (30, 30, 30)

    def dice_body(self) -> BGR:
        """The dice colour, resolving dice that match a checker colour."""
        if self.dice.body == "light":
            return self.checkers.light.face
        if self.dice.body == "dark":
            return self.checkers.dark.face
        return self.dice.body

    def dice_pips(self) -> BGR:
        """The pip colour; matching dice get whichever of black or white contrasts."""
        if self.dice.body in ("light", "dark"):
            b, g, r = self.dice_body()
            return (25, 25, 25) if 0.114 * b + 0.587 * g + 0.299 * r > 110 else (235, 235, 235)
        return self.dice.pips


BOARD_STYLES: Final[tuple[BoardStyle, ...]] = (
    # Colours measured on the shared real frames (cream field, deep red and black points).
    BoardStyle("tournament-cream", "cream", (216, 232, 240), ((25, 18, 180), (24, 21, 20)),
               "leather", (30, 26, 25), texture=0.025, tray_floor=(32, 30, 30)),
    BoardStyle("maple-walnut", "wood", (120, 175, 215), ((40, 70, 110), (235, 240, 242)),
               "wood", (30, 55, 90), texture=0.10),
    BoardStyle("green-felt", "felt", (55, 105, 35), ((200, 225, 235), (35, 35, 150)),
               "wood", (25, 45, 75), texture=0.08, gloss=0.1),
    BoardStyle("tan-leather", "leather", (95, 150, 195), ((40, 60, 105), (195, 225, 240)),
               "leather", (25, 40, 60), texture=0.045),
    BoardStyle("printed-blue", "printed", (140, 80, 35), ((240, 240, 240), (30, 30, 30)),
               "plain", (20, 20, 20), texture=0.02, point_outline=(200, 200, 200),
               point_gap=0.0, both_trays=False, hinges=False, gloss=0.8),
    BoardStyle("burgundy-leather", "leather", (45, 40, 120), ((190, 215, 230), (30, 30, 35)),
               "leather", (30, 30, 45), texture=0.04),
    BoardStyle("olive-felt", "felt", (70, 120, 110), ((35, 110, 200), (60, 60, 45)),
               "plain", (45, 55, 60), texture=0.09, gloss=0.1),
)

_BLACK = CheckerLook((30, 30, 32), (55, 55, 58), (45, 45, 48))
_WHITE = CheckerLook((238, 240, 240), (200, 205, 205), (205, 210, 212))
# Tournament sets (as in the shared real frames): plain faces, a thin metal-bright rim.
_BLACK_RIMMED = CheckerLook((28, 28, 30), (190, 190, 192), None, rim=0.07)
_WHITE_RIMMED = CheckerLook((236, 238, 238), (175, 178, 180), None, rim=0.06)

CHECKER_STYLES: Final[tuple[CheckerStyle, ...]] = (
    CheckerStyle("white-black", _WHITE_RIMMED, _BLACK_RIMMED),
    CheckerStyle("white-black-turned", _WHITE, _BLACK),
    CheckerStyle("white-red", _WHITE, CheckerLook((40, 30, 175), (30, 25, 140), (35, 30, 150))),
    CheckerStyle("cream-brown", CheckerLook((185, 220, 235), (150, 185, 205), (160, 195, 215)),
                 CheckerLook((35, 65, 110), (25, 45, 80), (30, 55, 95))),
    CheckerStyle("red-black", CheckerLook((45, 40, 200), (35, 30, 150), (38, 35, 175)), _BLACK),
    CheckerStyle("marbled", CheckerLook((205, 215, 222), (170, 180, 190), (180, 190, 198),
                                        veins=(150, 160, 170)),
                 CheckerLook((40, 45, 110), (30, 32, 80), (35, 40, 95), veins=(95, 110, 175)),
                 gloss=0.8),
)

DICE_STYLES: Final[tuple[DiceStyle, ...]] = (
    DiceStyle("white", (240, 242, 242), (25, 25, 25)),
    DiceStyle("black", (30, 30, 30), (235, 235, 235)),
    DiceStyle("red-translucent", (40, 30, 200), (245, 245, 245), translucent=True),
    DiceStyle("match-light", "light", (0, 0, 0)),
    DiceStyle("match-dark", "dark", (0, 0, 0)),
)

TABLE_COLOURS: Final[tuple[BGR, ...]] = (
    (70, 95, 120), (40, 60, 85), (150, 150, 150), (90, 60, 40), (200, 205, 210), (40, 40, 40),
)

DEFAULT_STYLE: Final = Style(BOARD_STYLES[0], CHECKER_STYLES[0], DICE_STYLES[0])
"""Closest to the real tournament board in the shared frames."""


def by_name(name: str) -> BoardStyle | CheckerStyle | DiceStyle:
    """A board, checker or dice style by its name (names are unique across catalogues)."""
    every: tuple[BoardStyle | CheckerStyle | DiceStyle, ...] = (
        *BOARD_STYLES, *CHECKER_STYLES, *DICE_STYLES)
    for style in every:
        if style.name == name:
            return style
    raise KeyError(f"no synthetic style named {name!r}")
