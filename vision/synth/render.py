"""Render a scene to a camera frame and the truth a perfect reader would report.

The pipeline, in drawing order:

1. the table with some clutter, and the board's shadow on it;
2. the flat board (:mod:`~vision.synth.board`), warped through the camera's
   board-plane homography;
3. soft shadows of everything standing on the board;
4. checkers, dice and the cube, back to front (lower layers first, then
   further from the camera's nadir first), each a small 3D object projected
   through the camera;
5. hands and arms with their shadows;
6. illumination, glare, blur, noise, JPEG (:mod:`~vision.synth.effects`).

A label image drawn alongside tells which object owns each pixel; the truth's
visibility fractions and the ``occluded`` flag come from it.
"""

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from vision.observation import Corners, Cube, Die, Observation
from vision.synth import checkers as checker_art
from vision.synth.board import board_canvas, canvas_matrix
from vision.synth.camera import Camera
from vision.synth.dice import CUBE_FACES, DIE_FACES, Box, cube_face, die_face
from vision.synth.draw import FIRST_OBJECT, HAND, Canvas, Points, fixed
from vision.synth.effects import camera_effects, illuminate, soft_shade, table
from vision.synth.geometry import BoardGeometry
from vision.synth.hands import draw_hand
from vision.synth.layout import CheckerSpot, checker_spots
from vision.synth.scene import DiePlacement, Lighting, Scene
from vision.synth.styles import CheckerLook
from vision.synth.truth import CheckerTruth, Truth

Image = npt.NDArray[np.uint8]
DEFAULT_SIZE: Final = (1280, 720)
HIRES_SIZE: Final = (2028, 1520)
"""The Raspberry Pi HQ camera's 2x2-binned mode: for reading dice."""
TABLE_STREAM, HAND_STREAM, NOISE_STREAM = 3, 4, 5


@dataclass(frozen=True, slots=True)
class RenderConfig:
    """Knobs of the renderer that are not part of the scene."""

    oversample: float = 1.25
    """Board canvas pixels per frame pixel on the board (sharper textures, slower)."""
    occlusion_min_fraction: float = 0.002
    """Hands over at least this fraction of the field's image area make a frame occluded."""
    shadow_softness: float = 0.18
    """Blur of cast shadows, as a fraction of a checker's radius in pixels."""

    def __post_init__(self) -> None:
        if not 0.5 <= self.oversample <= 3.0:
            raise ValueError(f"oversample 0.5-3, not {self.oversample}")


def light_vector(lighting: Lighting) -> Points:
    """Unit vector toward the light, in world coordinates (z into the board)."""
    az, el = math.radians(lighting.light_azimuth_deg), math.radians(lighting.light_elevation_deg)
    return np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), -math.sin(el)])


@dataclass
class _Object:
    """Something standing on the board, waiting for its turn to be drawn."""

    key: tuple[float, float]
    draw: Callable[[Canvas, int], Points]
    shadow: Points
    """World points whose shadow outline is the object's shadow."""
    kind: str
    index: int
    outline: Points | None = None
    label: int = 0


def render(scene: Scene, size: tuple[int, int] = DEFAULT_SIZE,
           config: RenderConfig = RenderConfig()) -> tuple[Image, Truth]:
    """The frame (BGR, 8 bits) and its truth."""
    width, height = size
    if width < 64 or height < 64:
        raise ValueError(f"frames are at least 64x64 pixels, not {width}x{height}")
    geo = BoardGeometry.of(scene)
    _, oy0, _, oy1 = geo.outer
    camera = Camera.build(scene.camera, (geo.width, geo.height), oy1 - oy0, size)
    light = light_vector(scene.lighting)
    style = scene.style

    image = table(size, style.table, np.random.default_rng([scene.seed, TABLE_STREAM]))
    canvas = Canvas(image, np.zeros((height, width), np.uint16))
    _board_shadow(canvas, camera, geo, light, scene.lighting.shadow)
    px_per_mm = float(camera.matrix[0, 0]) / scene.camera.height_mm
    scale = round(px_per_mm * config.oversample, 2)
    flat = board_canvas(style.board, geo, scale, scene.seed)
    to_image = camera.plane_homography(0.0) @ canvas_matrix(geo, scale)
    cv2.warpPerspective(flat, to_image, size, dst=canvas.image, flags=cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_TRANSPARENT)

    spots = checker_spots(scene, geo)
    objects = _objects(scene, geo, camera, spots, light)
    radius_px = geo.checker_radius * px_per_mm
    _cast_shadows(canvas, camera, objects, light, scene.lighting.shadow,
                  max(radius_px * config.shadow_softness, 0.8))
    for label, obj in enumerate(sorted(objects, key=lambda o: o.key), start=FIRST_OBJECT):
        obj.label = label
        obj.outline = obj.draw(canvas, label)

    hand_rng = np.random.default_rng([scene.seed, HAND_STREAM])
    for pose in scene.hands:
        draw_hand(canvas, camera, pose, (geo.width, geo.height), light, scene.lighting.shadow,
                  hand_rng)

    truth = _truth(scene, geo, camera, spots, objects, canvas, config)
    if scene.camera.barrel:
        map_x, map_y = camera.lens_maps(scene.camera.barrel)
        canvas.image = np.asarray(cv2.remap(canvas.image, map_x, map_y, cv2.INTER_LINEAR,
                                            borderMode=cv2.BORDER_REPLICATE), dtype=np.float32)
    illuminate(canvas.image, scene.lighting, style.board.gloss)
    frame = camera_effects(canvas.image, scene.lighting,
                           np.random.default_rng([scene.seed, NOISE_STREAM]))
    return frame, truth


def _board_shadow(canvas: Canvas, camera: Camera, geo: BoardGeometry, light: Points,
                  strength: float) -> None:
    """The board (a few centimetres thick) shades the table beside it."""
    if strength <= 0.0:
        return
    x0, y0, x1, y1 = geo.outer
    up = -float(light[2])
    shift = np.array([-light[0], -light[1]]) / up * 40.0
    rect = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]) + shift
    pts = camera.project(np.column_stack([rect, np.zeros(4)]))
    soft_shade(canvas.image, [pts], canvas.size[1] / 80.0, 0.8 * strength, factor=4)


def _objects(scene: Scene, geo: BoardGeometry, camera: Camera, spots: tuple[CheckerSpot, ...],
             light: Points) -> list[_Object]:
    nx, ny = camera.nadir()
    style = scene.style
    r, t = geo.checker_radius, geo.checker_thickness
    gloss = style.checkers.gloss
    out: list[_Object] = []

    def key(base: float, x: float, y: float) -> tuple[float, float]:
        return round(base, 1), -math.hypot(x - nx, y - ny)

    for i, spot in enumerate(spots):
        look = style.checkers.light if spot.colour == "light" else style.checkers.dark
        if spot.on_edge:
            def draw_edge(c: Canvas, label: int, s: CheckerSpot = spot,
                          lk: CheckerLook = look) -> Points:
                return checker_art.draw_on_edge(c, camera, s, lk, r, t, label, light)
            shadow = np.vstack([checker_art.disc(spot.x, spot.y, 0.0, r * 0.3),
                                np.array([[spot.x - r, spot.y, -r], [spot.x + r, spot.y, -r],
                                          [spot.x, spot.y, -2.0 * r]])])
            out.append(_Object(key(0.0, spot.x, spot.y), draw_edge, shadow, "checker", i))
            continue

        def draw_flat(c: Canvas, label: int, s: CheckerSpot = spot,
                      lk: CheckerLook = look) -> Points:
            return checker_art.draw_flat(c, camera, s, lk, gloss, r, t, label, light)
        shadow = np.vstack([checker_art.disc(spot.x, spot.y, spot.elevation, r, 16),
                            checker_art.disc(spot.x, spot.y, spot.elevation + t, r, 16)])
        out.append(_Object(key(spot.elevation, spot.x, spot.y), draw_flat, shadow, "checker", i))

    body, pips = style.dice_body(), style.dice_pips()
    die_faces = tuple(die_face(body, pips, v) for v in DIE_FACES)
    opacity = 0.8 if style.dice.translucent else 1.0
    for i, die in enumerate(scene.dice):
        box = die_box(die, geo, spots)
        cx, cy = float(box.centre[0]), float(box.centre[1])

        def draw_die(c: Canvas, label: int, b: Box = box) -> Points:
            return b.draw(c, camera, die_faces, body, light, label, opacity)
        base = 0.0 if not die.on_checker or not die.flat else _support(die, geo, spots)
        out.append(_Object(key(base, cx, cy), draw_die, box.corners(), "die", i))

    if scene.cube is not None:
        cube = scene.cube
        x, y = geo.world(cube.u, cube.v)
        cbox = Box.resting(x, y, 0.0, geo.cube, CUBE_FACES.index(cube.shown), cube.yaw_deg)
        cube_faces = tuple(cube_face(style.cube_body, style.cube_ink, v) for v in CUBE_FACES)

        def draw_cube(c: Canvas, label: int) -> Points:
            return cbox.draw(c, camera, cube_faces, style.cube_body, light, label)
        out.append(_Object(key(0.0, x, y), draw_cube, cbox.corners(), "cube", 0))
    return out


def _support(die: DiePlacement, geo: BoardGeometry, spots: tuple[CheckerSpot, ...]) -> float:
    """Height of the top of the checker under a die's footprint centre (0 for none)."""
    x, y = geo.world(die.u, die.v)
    tops = [s.elevation + geo.checker_thickness for s in spots
            if not s.on_edge and math.hypot(s.x - x, s.y - y) < geo.checker_radius]
    return max(tops, default=0.0)


def die_box(die: DiePlacement, geo: BoardGeometry, spots: tuple[CheckerSpot, ...]) -> Box:
    """A die's posed box: flat dice on a checker rest on its top, cocked ones on the board."""
    x, y = geo.world(die.u, die.v)
    base = _support(die, geo, spots) if die.on_checker and die.flat else 0.0
    return Box.resting(x, y, base, geo.die, DIE_FACES.index(die.value), die.yaw_deg,
                       die.tilt_deg, die.lean_deg)


def _cast_shadows(canvas: Canvas, camera: Camera, objects: list[_Object], light: Points,
                  strength: float, sigma: float) -> None:
    """Darken the board under and beside everything standing on it."""
    if strength <= 0.0 or not objects:
        return
    up = -float(light[2])
    drift = np.array([-light[0] / up, -light[1] / up])
    outlines = []
    for obj in objects:
        pts = obj.shadow
        elevation = -pts[:, 2:3]
        flat = np.column_stack([pts[:, :2] + elevation * drift, np.zeros(len(pts))])
        outlines.append(camera.project(flat))
    soft_shade(canvas.image, outlines, sigma, strength, factor=2)


def _truth(scene: Scene, geo: BoardGeometry, camera: Camera, spots: tuple[CheckerSpot, ...],
           objects: list[_Object], canvas: Canvas, config: RenderConfig) -> Truth:
    barrel = scene.camera.barrel
    field = camera.project(np.array([[0.0, 0.0, 0.0], [geo.width, 0.0, 0.0],
                                     [geo.width, geo.height, 0.0], [0.0, geo.height, 0.0]]))
    corners = Corners.from_list(camera.distort(field, barrel).tolist())
    counts = np.bincount(canvas.labels.ravel(),
                         minlength=FIRST_OBJECT + len(objects) + 1).astype(np.float64)
    visible: dict[tuple[str, int], float] = {}
    outlines: dict[tuple[str, int], Points] = {}
    for obj in objects:
        assert obj.outline is not None
        area = _area(obj.outline, canvas.size)
        visible[(obj.kind, obj.index)] = min(float(counts[obj.label]) / area, 1.0) if area \
            else 0.0
        # Visibility is counted in the ideal frame; positions are reported through the lens.
        outlines[(obj.kind, obj.index)] = camera.distort(obj.outline, barrel)

    checkers = []
    for i, spot in enumerate(spots):
        outline = outlines[("checker", i)]
        (cx, cy), (a, b), angle = cv2.fitEllipse(outline.astype(np.float32))
        checkers.append(CheckerTruth(spot.colour, spot.place, spot.point, spot.layer,
                                     (float(cx), float(cy)), (float(max(a, b)), float(min(a, b))),
                                     float(angle), visible[("checker", i)],
                                     geo.field_uv(spot.x, spot.y)))

    dice = []
    for i, die in enumerate(scene.dice):
        outline = outlines[("die", i)]
        x0, y0 = (float(c) for c in outline.min(axis=0))
        x1, y1 = (float(c) for c in outline.max(axis=0))
        box = die_box(die, geo, spots)
        value = DIE_FACES[box.up_face()]
        side = scene.profile.half(die.u) if 0.0 <= die.u <= 1.0 and 0.0 <= die.v <= 1.0 \
            else None
        dice.append(Die(value, ((x0 + x1) / 2.0, (y0 + y1) / 2.0), die.flat, die.on_checker,
                        side, (float(x0), float(y0), float(x1 - x0), float(y1 - y0))))

    cube = None
    cube_visible = None
    if scene.cube is not None:
        outline = outlines[("cube", 0)]
        x0, y0 = (float(c) for c in outline.min(axis=0))
        x1, y1 = (float(c) for c in outline.max(axis=0))
        cube = Cube(scene.cube.shown, ((x0 + x1) / 2.0, (y0 + y1) / 2.0), scene.cube.position)
        cube_visible = visible[("cube", 0)]

    field_mask = np.zeros(canvas.labels.shape, np.uint8)
    cv2.fillConvexPoly(field_mask, fixed(field), 1, cv2.LINE_8, 4)
    field_area = float(field_mask.sum()) or 1.0
    hand_cover = float(np.count_nonzero((canvas.labels == HAND) & (field_mask > 0))) / field_area
    observation = Observation(
        board_found=True, corners=corners, points=scene.points, bar=scene.bar,
        off=scene.off if scene.profile.tray is not None else None, dice=tuple(dice), cube=cube,
        occluded=hand_cover >= config.occlusion_min_fraction)
    projection = camera.projection()
    return Truth(observation, tuple(checkers), tuple(visible[("die", i)]
                                                     for i in range(len(scene.dice))),
                 cube_visible, hand_cover,
                 tuple((float(r[0]), float(r[1]), float(r[2]), float(r[3])) for r in projection),
                 canvas.size)


def _area(outline: Points, size: tuple[int, int]) -> float:
    """Pixels an outline covers inside the frame, counted the way labels are drawn."""
    x0 = max(int(np.floor(outline[:, 0].min())) - 1, 0)
    y0 = max(int(np.floor(outline[:, 1].min())) - 1, 0)
    x1 = min(int(np.ceil(outline[:, 0].max())) + 2, size[0])
    y1 = min(int(np.ceil(outline[:, 1].max())) + 2, size[1])
    if x1 <= x0 or y1 <= y0:
        return 0.0
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, fixed(outline - np.array([x0, y0])), 1, cv2.LINE_8, 4)
    return float(np.count_nonzero(mask))
