"""The physical set of one filmed session: board, checkers, camera, light, the players' arms.

Everything here stays fixed while a game is played (the same board under
the same lamp, the same sleeves reaching in); only the :class:`Shot` of each
moment changes.  The renderer's seed is fixed too, so the board's texture
does not change from frame to frame as it would not on a real table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from controller.simulation.timeline import Board, Colour, Shot
from vision.observation import Counts, CubePlace
from vision.profile import TOURNAMENT, TrayProfile
from vision.synth.camera import CameraPose
from vision.synth.geometry import BoardGeometry
from vision.synth.layout import CheckerSpot, checker_spots
from vision.synth.scene import CubePlacement, HandPose, Scene
from vision.synth.styles import BOARD_STYLES, CHECKER_STYLES, DICE_STYLES, Style

Half = str
SKINS = ((185, 205, 238), (150, 180, 225), (115, 150, 205), (90, 125, 180), (65, 90, 140))
SLEEVES = ((120, 90, 60), (40, 40, 40), (200, 200, 205), (60, 60, 150), (70, 110, 70))


@dataclass(frozen=True)
class Arm:
    """How one player's hand looks."""

    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int] | None
    right: bool


@dataclass(frozen=True)
class Table:
    """The fixed part of every scene of a session, and who sits where."""

    base: Scene
    """A scene with the set's style, camera, light, profile, sizes and seed."""
    bottom: Colour
    """The colour of the player seated at the bottom of the image."""
    arms: dict[str, Arm]

    @classmethod
    def draw(cls, rng: np.random.Generator, bottom: Colour, tray: bool,
             style: tuple[str, str, str] | None = None, overhead: bool = False) -> Table:
        """A random but ordinary set (the scene generator's style, camera and light);
        ``style`` names the board, checkers and dice instead of drawing them;
        ``overhead`` mounts the camera straight above, the board filling the frame,
        and takes 16 mm dice."""
        from vision.synth.generate import random_scene

        chosen = None if style is None else _style(*style)
        camera = CameraPose(height_mm=850.0, fill=0.95) if overhead else None
        base = random_scene(rng, tray="right" if tray else "none", dice=0, cube=False,
                            hands=0, moves=0, style=chosen, camera=camera)
        if overhead:
            base = replace(base, dimensions=replace(base.dimensions, die_mm=16.0))
        if tray and rng.random() < 0.5:
            base = replace(base, profile=replace(TOURNAMENT, tray=TrayProfile("left")))
        # Checkers put down by hand do not jump about between frames: keep their
        # sloppiness small, because the layout re-draws it whenever a point changes.
        stacking = replace(base.stacking, jitter_mm=float(rng.uniform(0.2, 0.5)))
        base = replace(base, stacking=stacking)
        arms = {}
        for colour in ("light", "dark"):
            skin = SKINS[int(rng.integers(len(SKINS)))]
            sleeve = None if rng.random() < 0.2 else SLEEVES[int(rng.integers(len(SLEEVES)))]
            arms[colour] = Arm(skin, sleeve, bool(rng.random() < 0.85))
        return cls(base, bottom, arms)

    @property
    def geometry(self) -> BoardGeometry:
        return BoardGeometry.of(self.base)

    @property
    def has_tray(self) -> bool:
        return self.base.profile.tray is not None

    def seat(self, colour: Colour) -> str:
        """``bottom`` or ``top``."""
        return "bottom" if colour == self.bottom else "top"

    def throwing_half(self, colour: Colour) -> Half:
        """The half a player throws into: the right one from their chair."""
        return "right" if self.seat(colour) == "bottom" else "left"

    def scene(self, shot: Shot) -> Scene:
        b = shot.board
        return replace(self.base, points=b.points, bar=b.bar, off=b.off, dice=shot.dice,
                       cube=shot.cube, hands=shot.hands)

    def spots(self, board: Board) -> tuple[CheckerSpot, ...]:
        return checker_spots(self.scene(Shot(board)), self.geometry)

    def hand(self, rng: np.random.Generator, colour: Colour, u: float, v: float, *,
             reaching: bool = True, moving: bool = False) -> HandPose:
        """``colour``'s hand over field point (u, v), the arm from their side."""
        arm = self.arms[colour]
        return HandPose(u=float(np.clip(u, -0.05, 1.05)), v=float(np.clip(v, -0.05, 1.05)),
                        from_side="bottom" if self.seat(colour) == "bottom" else "top",
                        angle_deg=float(rng.uniform(-25.0, 25.0)),
                        elevation_mm=float(rng.uniform(35.0, 70.0) if reaching
                                           else rng.uniform(90.0, 160.0)),
                        size=float(rng.uniform(0.9, 1.1)), skin=arm.skin, sleeve=arm.sleeve,
                        spread=float(rng.uniform(0.1, 0.5)),
                        curl=float(rng.uniform(0.5, 0.9) if reaching else rng.uniform(0.1, 0.4)),
                        right=arm.right,
                        motion_blur_px=float(rng.uniform(4.0, 14.0)) if moving else 0.0)

    def withdrawn(self, hand: HandPose, step: int) -> HandPose:
        """``hand`` on its way out, ``step`` frames after it left the field."""
        beyond = 0.15 * step
        v = 1.0 + beyond if hand.from_side == "bottom" else -beyond
        return replace(hand, v=v, elevation_mm=min(hand.elevation_mm + 40.0 * step, 400.0),
                       curl=0.2, motion_blur_px=10.0)

    def cube(self, value: int, owner: Colour | None) -> CubePlacement:
        """Where the cube lies: beside the field when centred, on the owner's rail."""
        g = self.geometry
        if owner is None:
            tray = self.base.profile.tray
            side = "left" if tray is not None and tray.side == "right" else "right"
            if tray is not None and self.base.style.board.both_trays:
                middle = tray.gap + tray.width / 2.0
            else:
                middle = g.rail / 2.0 / g.width
            u = 1.0 + middle if side == "right" else -middle
            return CubePlacement(value, "centre", u, 0.5, 8.0)
        off_field = (g.rail / 2.0) / g.height
        place: CubePlace = "bottom" if self.seat(owner) == "bottom" else "top"
        v = 1.0 + off_field if place == "bottom" else -off_field
        return CubePlacement(value, place, 0.5 + (0.18 if place == "bottom" else -0.18), v, 8.0)

    def point_uv(self, index: int, depth: int = 0) -> tuple[float, float]:
        """Field (u, v) of the ``depth``-th checker slot of physical point ``index``."""
        p = self.base.profile
        g = self.geometry
        r = g.checker_radius
        along = (r + 1.0 + depth * 2.0 * r) / g.height
        v = along if p.is_top(index) else 1.0 - along
        return p.point_u(index), v

    def bar_uv(self, colour: Colour) -> tuple[float, float]:
        bottom = self.base.stacking.light_bar_bottom == (colour == "light")
        return 0.5, 0.62 if bottom else 0.38


def count_of(counts: Counts, colour: Colour) -> int:
    return counts.light if colour == "light" else counts.dark


def distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])



def _style(board: str, checkers: str, dice: str) -> Style:
    def named(items: tuple[Any, ...], name: str, what: str) -> Any:
        for item in items:
            if item.name == name:
                return item
        raise ValueError(f"no {what} style {name!r}: one of "
                         f"{', '.join(i.name for i in items)}")

    return Style(named(BOARD_STYLES, board, "board"), named(CHECKER_STYLES, checkers, "checker"),
                 named(DICE_STYLES, dice, "dice"))
