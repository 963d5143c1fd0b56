"""Random but plausible scenes: the mix the accuracy benchmark and the tests draw from.

Every choice is drawn from one ``numpy`` generator, so a seed names a scene.
Positions come from a random walk of legal-looking moves
(:mod:`~vision.synth.positions`); dice land on free spots of one half,
sometimes cocked against a checker or the rail, sometimes on a checker; the
cube lies on the bar, on a rail or in a tray; hands reach in from the
players' sides.  Keyword knobs force any of these (``dice=2, cocked=True,
hands=1``) so a test can ask for exactly the case it checks.
"""

import math
from dataclasses import dataclass, replace
from typing import Final, Literal

import numpy as np

from vision.observation import Counts, CubePlace
from vision.profile import TOURNAMENT, BoardProfile, Half, TrayProfile
from vision.synth.camera import CameraPose
from vision.synth.geometry import BoardGeometry
from vision.synth.layout import CheckerSpot, checker_spots, footprint_clear
from vision.synth.positions import SEATINGS, random_position
from vision.synth.scene import (
    CUBE_VALUES,
    CubePlacement,
    DiePlacement,
    Dimensions,
    Glare,
    HandPose,
    Lighting,
    Scene,
    Stacking,
)
from vision.synth.styles import (
    BOARD_STYLES,
    CHECKER_STYLES,
    DICE_STYLES,
    TABLE_COLOURS,
    BoardStyle,
    CheckerStyle,
    DiceStyle,
    Style,
)

Range = tuple[float, float]
SKIN_TONES: Final = ((185, 205, 238), (150, 180, 225), (115, 150, 205), (90, 125, 180),
                     (65, 90, 140), (45, 62, 100))
SLEEVES: Final = ((120, 90, 60), (40, 40, 40), (200, 200, 205), (60, 60, 150), (150, 120, 200),
                  (70, 110, 70), (180, 140, 90))


@dataclass(frozen=True, slots=True)
class SynthConfig:
    """Ranges and rates of :func:`random_scene` (uniform draws unless stated)."""

    camera_height_mm: Range = (700.0, 1100.0)
    """Lens above the board (the issue's 70-110 cm)."""
    tilt_deg: float = 4.0
    """Largest tilt either way, each axis."""
    roll_deg: float = 4.0
    """Largest roll about the optical axis."""
    aim_jitter: float = 0.03
    """How far (field fractions) the optical axis may miss the field centre."""
    fill: Range = (0.78, 0.97)
    """The board's outer height as a fraction of the frame height."""
    barrel: Range = (0.0, 0.0)
    """Lens distortion (see ``CameraPose.barrel``); off by default because the readers'
    field maps are homographies; (0.0, 0.04) exercises them with real lenses' bowing."""
    field_width_mm: Range = (450.0, 540.0)
    checker_thickness_mm: Range = (5.5, 9.0)
    die_mm: Range = (12.0, 17.0)
    tray_rate: float = 0.6
    """Boards with a tray in view (else ``off`` is null in the truth)."""
    two_dice_rate: float = 0.65
    one_die_rate: float = 0.07
    cocked_rate: float = 0.12
    """Per die: cocked against a checker, partly on one, or against the rail."""
    on_checker_rate: float = 0.07
    """Per die: lying flat on top of a checker."""
    cube_rate: float = 0.85
    hand_rate: float = 0.25
    second_hand_rate: float = 0.15
    """Of the frames with hands, those with two."""
    hand_outside_rate: float = 0.15
    """Of the hands, those beside the board that cover no part of the field."""
    max_moves: int = 170
    """Random single-die moves from the start (enough to reach bear-offs)."""
    glare_rate: float = 0.5
    noise: Range = (1.0, 6.0)
    blur: Range = (0.0, 1.2)
    jpeg_rate: float = 0.5
    jpeg_quality: Range = (45.0, 95.0)


def random_scene(rng: np.random.Generator, config: SynthConfig = SynthConfig(), *,
                 style: Style | None = None, tray: Half | Literal["none"] | None = None,
                 dice: int | None = None, cocked: bool | None = None,
                 on_checker: bool | None = None, cube: bool | None = None,
                 hands: int | None = None, moves: int | None = None,
                 camera: CameraPose | None = None, lighting: Lighting | None = None) -> Scene:
    """A random plausible scene; the keyword knobs force a feature (None leaves it random).

    ``cocked=True`` makes the first die cocked, ``on_checker=True`` puts the
    first die on a checker (flat, unless ``cocked`` too), ``tray="none"``
    takes the tray out of view.
    """
    style = style or _style(rng)
    profile = _profile(rng, config, tray)
    dims = Dimensions(field_width_mm=_u(rng, config.field_width_mm),
                      checker_thickness_mm=_u(rng, config.checker_thickness_mm),
                      die_mm=_u(rng, config.die_mm))
    stacking = Stacking(row=5 if rng.random() < 0.7 else 6,
                        shift=0.5 if rng.random() < 0.5 else _u(rng, (0.1, 0.4)),
                        spacing=_u(rng, (1.0, 1.06)), jitter_mm=_u(rng, (0.4, 2.0)),
                        light_bar_bottom=bool(rng.random() < 0.5))
    n_moves = int(rng.integers(0, config.max_moves + 1)) if moves is None else moves
    seating = SEATINGS[int(rng.integers(len(SEATINGS)))]
    points, bar, off = random_position(rng, n_moves, seating)
    scene = Scene(points=points, bar=bar, off=off, style=style,
                  camera=camera or _camera(rng, config),
                  lighting=lighting or _lighting(rng, config),
                  profile=profile, dimensions=dims, stacking=stacking,
                  seed=int(rng.integers(0, 2**31)))
    want_cube = rng.random() < config.cube_rate if cube is None else cube
    if want_cube:
        scene = replace(scene, cube=_cube(rng, scene))
    geo = BoardGeometry.of(scene)
    spots = checker_spots(scene, geo)
    n_dice = dice if dice is not None else _dice_count(rng, config)
    scene = replace(scene, dice=_dice(rng, config, geo, spots, n_dice, cocked, on_checker))
    n_hands = hands if hands is not None else _hand_count(rng, config)
    return replace(scene, hands=tuple(_hand(rng, config, force_over=hands is not None)
                                      for _ in range(n_hands)))


def _u(rng: np.random.Generator, bounds: Range) -> float:
    return float(rng.uniform(bounds[0], bounds[1]))


def _pick(rng: np.random.Generator, items: tuple[object, ...]) -> object:
    return items[int(rng.integers(len(items)))]


def _style(rng: np.random.Generator) -> Style:
    board = BOARD_STYLES[int(rng.integers(len(BOARD_STYLES)))]
    checkers = CHECKER_STYLES[int(rng.integers(len(CHECKER_STYLES)))]
    dice = DICE_STYLES[int(rng.integers(len(DICE_STYLES)))]
    table = TABLE_COLOURS[int(rng.integers(len(TABLE_COLOURS)))]
    return Style(board, checkers, dice, table=table)


def style_of(board: BoardStyle, checkers: CheckerStyle, dice: DiceStyle) -> Style:
    """A style from catalogue entries (a convenience for tests and tools)."""
    return Style(board, checkers, dice)


def _profile(rng: np.random.Generator, config: SynthConfig,
             tray: Half | Literal["none"] | None) -> BoardProfile:
    if tray is None:
        tray = ("right" if rng.random() < 0.5 else "left") if rng.random() < config.tray_rate \
            else "none"
    return TOURNAMENT if tray == "none" else replace(TOURNAMENT, tray=TrayProfile(tray))


def _camera(rng: np.random.Generator, config: SynthConfig) -> CameraPose:
    j = config.aim_jitter
    return CameraPose(height_mm=_u(rng, config.camera_height_mm),
                      tilt_x_deg=_u(rng, (-config.tilt_deg, config.tilt_deg)),
                      tilt_y_deg=_u(rng, (-config.tilt_deg, config.tilt_deg)),
                      roll_deg=_u(rng, (-config.roll_deg, config.roll_deg)),
                      aim=(0.5 + _u(rng, (-j, j)), 0.5 + _u(rng, (-j, j))),
                      fill=_u(rng, config.fill),
                      barrel=_u(rng, config.barrel) if config.barrel[1] > 0.0 else 0.0)


def _lighting(rng: np.random.Generator, config: SynthConfig) -> Lighting:
    glares: tuple[Glare, ...] = ()
    if rng.random() < config.glare_rate:
        glares = tuple(Glare(_u(rng, (0.2, 0.8)), _u(rng, (0.1, 0.9)), _u(rng, (0.03, 0.14)),
                             _u(rng, (30.0, 110.0)), _u(rng, (1.0, 3.0)), _u(rng, (0.0, 180.0)))
                       for _ in range(int(rng.integers(1, 4))))
    wb = (_u(rng, (0.88, 1.12)), 1.0, _u(rng, (0.88, 1.12)))
    return Lighting(exposure=_u(rng, (0.75, 1.15)),
                    gradient=(_u(rng, (-0.15, 0.15)), _u(rng, (-0.15, 0.15))),
                    vignette=_u(rng, (0.0, 0.35)), white_balance=wb,
                    light_azimuth_deg=_u(rng, (0.0, 360.0)),
                    light_elevation_deg=_u(rng, (45.0, 85.0)), shadow=_u(rng, (0.15, 0.5)),
                    glare=glares, noise=_u(rng, config.noise), blur=_u(rng, config.blur),
                    jpeg=round(_u(rng, config.jpeg_quality)) if rng.random() < config.jpeg_rate
                    else None)


def _cube(rng: np.random.Generator, scene: Scene) -> CubePlacement:
    value = CUBE_VALUES[int(rng.integers(len(CUBE_VALUES)))]
    height = scene.field_mm[1]
    rail = scene.dimensions.rail_mm
    yaw = _u(rng, (-20.0, 20.0))
    position: CubePlace = "centre" if value == 1 else "top" if rng.random() < 0.5 else "bottom"
    if position == "centre":
        if rng.random() < 0.5 or scene.bar != Counts():
            # Beside the field at mid-height: in a tray or on the rail.
            side = float(rng.random() < 0.5)
            u = _side_u(scene, "right" if side else "left")
            return CubePlacement(value, position, u, 0.5, yaw)
        return CubePlacement(value, position, 0.5, 0.5, yaw)
    if scene.bar == Counts() and rng.random() < 0.4:
        # On the bar at the owner's end.
        end = (scene.dimensions.cube_mm / 2.0 + 4.0) / height
        return CubePlacement(value, position, 0.5, end if position == "top" else 1.0 - end, yaw)
    # On the owner's rail, beyond the field's top or bottom edge.
    off_field = (rail / 2.0) / height
    v = -off_field if position == "top" else 1.0 + off_field
    return CubePlacement(value, position, _u(rng, (0.1, 0.9)), v, yaw)


def _side_u(scene: Scene, side: Half) -> float:
    width = scene.field_mm[0]
    tray = scene.profile.tray
    if tray is not None and (tray.side == side or scene.style.board.both_trays):
        middle = tray.gap + tray.width / 2.0
    else:
        middle = scene.dimensions.rail_mm / 2.0 / width
    return 1.0 + middle if side == "right" else -middle


def _dice_count(rng: np.random.Generator, config: SynthConfig) -> int:
    roll = rng.random()
    if roll < config.two_dice_rate:
        return 2
    return 1 if roll < config.two_dice_rate + config.one_die_rate else 0


def _hand_count(rng: np.random.Generator, config: SynthConfig) -> int:
    if rng.random() >= config.hand_rate:
        return 0
    return 2 if rng.random() < config.second_hand_rate else 1


def _dice(rng: np.random.Generator, config: SynthConfig, geo: BoardGeometry,
          spots: tuple[CheckerSpot, ...], n: int, cocked: bool | None,
          on_checker: bool | None) -> tuple[DiePlacement, ...]:
    half: Half = "right" if rng.random() < 0.5 else "left"
    placed: list[DiePlacement] = []
    for i in range(n):
        want_cocked = (rng.random() < config.cocked_rate) if cocked is None or i > 0 else cocked
        want_on = (rng.random() < config.on_checker_rate) if on_checker is None or i > 0 \
            else on_checker
        die = None
        if want_on and not want_cocked:
            die = _die_on_checker(rng, geo, spots, placed)
        elif want_cocked:
            die = _die_cocked(rng, geo, spots, placed, half, partly_on=bool(want_on))
        if die is None:
            die = _die_flat(rng, geo, spots, placed, half)
        if die is not None:
            placed.append(die)
    return tuple(placed)


def _free(geo: BoardGeometry, spots: tuple[CheckerSpot, ...], placed: list[DiePlacement],
          x: float, y: float, ignore: CheckerSpot | None = None) -> bool:
    reach = geo.die * 0.72
    others = tuple(s for s in spots if s is not ignore)
    if not footprint_clear(others, x, y, reach, geo.checker_radius):
        return False
    return all(math.hypot(d.u * geo.width - x, d.v * geo.height - y) > geo.die * 1.5
               for d in placed)


def _half_box(geo: BoardGeometry, half: Half, margin: float) -> tuple[float, float, float, float]:
    left, right = geo.profile.bar_span
    if half == "left":
        return margin, left * geo.width - margin, margin, geo.height - margin
    return right * geo.width + margin, geo.width - margin, margin, geo.height - margin


def _die_flat(rng: np.random.Generator, geo: BoardGeometry, spots: tuple[CheckerSpot, ...],
              placed: list[DiePlacement], half: Half) -> DiePlacement | None:
    x0, x1, y0, y1 = _half_box(geo, half, geo.die * 0.75)
    for _ in range(300):
        x, y = _u(rng, (x0, x1)), _u(rng, (y0, y1))
        if _free(geo, spots, placed, x, y):
            return DiePlacement(int(rng.integers(1, 7)), x / geo.width, y / geo.height,
                                _u(rng, (0.0, 90.0)))
    return None


def _tops(spots: tuple[CheckerSpot, ...], geo: BoardGeometry) -> list[CheckerSpot]:
    """Checkers with nothing lying on them (a die can rest there)."""
    out = []
    for s in spots:
        if s.on_edge:
            continue
        covered = any(o.elevation > s.elevation and not o.on_edge
                      and math.hypot(o.x - s.x, o.y - s.y) < 2.0 * geo.checker_radius
                      for o in spots)
        if not covered:
            out.append(s)
    return out


def _die_on_checker(rng: np.random.Generator, geo: BoardGeometry,
                    spots: tuple[CheckerSpot, ...],
                    placed: list[DiePlacement]) -> DiePlacement | None:
    tops = [s for s in _tops(spots, geo) if s.place == "point"]
    if not tops:
        return None
    for _ in range(20):
        s = tops[int(rng.integers(len(tops)))]
        x = s.x + _u(rng, (-0.15, 0.15)) * geo.checker_radius
        y = s.y + _u(rng, (-0.15, 0.15)) * geo.checker_radius
        if all(math.hypot(d.u * geo.width - x, d.v * geo.height - y) > geo.die * 1.5
               for d in placed):
            return DiePlacement(int(rng.integers(1, 7)), x / geo.width, y / geo.height,
                                _u(rng, (0.0, 90.0)), on_checker=True)
    return None


def _die_cocked(rng: np.random.Generator, geo: BoardGeometry, spots: tuple[CheckerSpot, ...],
                placed: list[DiePlacement], half: Half, partly_on: bool) -> DiePlacement | None:
    value = int(rng.integers(1, 7))
    yaw = _u(rng, (0.0, 90.0))
    x0, x1, y0, y1 = _half_box(geo, half, 1.0)
    ground = [s for s in spots if s.place == "point" and s.layer == 0
              and x0 < s.x < x1]
    if ground and (partly_on or rng.random() < 0.6):
        for _ in range(60):
            s = ground[int(rng.integers(len(ground)))]
            phi = _u(rng, (0.0, 2.0 * math.pi))
            gap = geo.die * (0.25 if partly_on else 0.62)
            x = s.x + math.cos(phi) * (geo.checker_radius + gap)
            y = s.y + math.sin(phi) * (geo.checker_radius + gap)
            if not (x0 < x < x1 and y0 < y < y1) or not _free(geo, spots, placed, x, y, s):
                continue
            toward = math.degrees(phi) + 180.0
            if partly_on:
                # One edge on the board, the other up on the checker: tipped away from it.
                tilt = math.degrees(math.asin(min(geo.checker_thickness / geo.die, 0.7)))
                return DiePlacement(value, x / geo.width, y / geo.height, yaw, tilt,
                                    math.degrees(phi), on_checker=True)
            return DiePlacement(value, x / geo.width, y / geo.height, yaw,
                                _u(rng, (15.0, 35.0)), toward)
    # Against the rail: next to an edge of this half, leaning onto it.
    for _ in range(60):
        edge = int(rng.integers(4))
        reach = geo.die * 0.62
        x, y = _u(rng, (x0 + reach, x1 - reach)), _u(rng, (y0 + reach, y1 - reach))
        lean = (0.0, 90.0, 180.0, 270.0)[edge]
        if edge == 0:
            x = x1 - reach
        elif edge == 1:
            y = y1 - reach
        elif edge == 2:
            x = x0 + reach
        else:
            y = y0 + reach
        if _free(geo, spots, placed, x, y):
            return DiePlacement(value, x / geo.width, y / geo.height, yaw, _u(rng, (12.0, 35.0)),
                                lean)
    return None


def _hand(rng: np.random.Generator, config: SynthConfig, force_over: bool) -> HandPose:
    roll = rng.random()
    side: Literal["top", "bottom", "left", "right"] = (
        "bottom" if roll < 0.45 else "top" if roll < 0.9 else "left" if roll < 0.95 else "right")
    # depth: how far into the field from the arm's own edge; a hand beside the board keeps its
    # palm some 15-20 cm beyond the edge, fingertips short of the field.
    outside = not force_over and rng.random() < config.hand_outside_rate
    if outside:
        along, depth = _u(rng, (0.1, 0.9)), _u(rng, (-0.42, -0.32))
    else:
        along, depth = _u(rng, (0.05, 0.95)), _u(rng, (0.15, 0.75))
    u, v = {"bottom": (along, 1.0 - depth), "top": (along, depth),
            "left": (depth, along), "right": (1.0 - depth, along)}[side]
    sleeve = None if rng.random() < 0.3 else SLEEVES[int(rng.integers(len(SLEEVES)))]
    return HandPose(u=u, v=v, from_side=side, angle_deg=_u(rng, (-35.0, 35.0)),
                    elevation_mm=_u(rng, (25.0, 180.0)), size=_u(rng, (0.85, 1.15)),
                    skin=SKIN_TONES[int(rng.integers(len(SKIN_TONES)))], sleeve=sleeve,
                    spread=_u(rng, (0.0, 1.0)), curl=_u(rng, (0.0, 1.0)),
                    right=bool(rng.random() < 0.85),
                    motion_blur_px=_u(rng, (0.0, 14.0)) if rng.random() < 0.3 else 0.0)
