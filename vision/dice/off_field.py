"""Dice lying in view but off the playing field: on the rails, in a tray.

Etiquette rule 1 (``shared/rules/README.md``): a throw where a die lands off
the field is void.  The board stage (:mod:`.board`) reads the field only (and
a little past its edges, for the calibration's error), so a die that bounced
onto the rail was simply not there.  This stage looks at the band around the
field, as far as the rails (and the trays the board profile has) reach, with
the board stage's own two steps: the quick look for pip-like blobs
(:func:`.propose.blobs`), run on each of the four strips of the band as if it
were a field of its own, and the careful reading of a window around them in
the plane of the field at the board stage's scale.  The rails lie in that
plane (near enough: a rail stands a few millimetres proud of the field), so
the field map reaches them.

Where the board stage's reach and this one's overlap, the die's centre
decides: a die on the field has its centre at least half a die inside the
field's edge, one on the rail at least half a die outside it, so a die the
board stage read with its centre past the edge (:func:`split_off_field`) is
off the field too, and one found by both is reported once
(:func:`merge_off_field`, which also drops anything where the cube lies).

Off-field dice are reported as :class:`Die` with ``side`` None (flat, not on
a checker: a die off the field voids the throw whatever its pose).
"""

import math
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from vision.dice.board import BoardDiceConfig, _box, _source, read_window
from vision.dice.detect import DetectConfig, clean_face
from vision.dice.faces import Face, layout_face
from vision.dice.pips import PipSearch
from vision.dice.propose import Blob, ProposeConfig, blobs, windows
from vision.errors import ConfigError
from vision.observation import Corners, Cube, Die
from vision.profile import BoardProfile
from vision.rectify import FieldMap

Image = npt.NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class OffFieldConfig:
    """Where dice off the field are looked for, and what passes for one."""

    enabled: bool = True
    """Look for dice off the field at all."""
    rail: float = 0.07
    """How far past the field's edge the band reaches on a side without a tray, in
    field widths: a tournament rail is 25-30 mm on a 500 mm field (renders 28 mm,
    0.056), and a die that bounced onto it may stick out past its outer edge."""
    tray_rail: float = 0.06
    """Past a tray's outer edge (the profile's gap and width), the rail beyond it."""
    edge: float = 0.01
    """A die whose top face's centre lies past the field's edge by more than this (field
    widths, or field heights at the top and bottom) is off the field.  A die on the rail
    has its centre at least half a die (0.015) outside the edge, and its top face seen
    farther out still (the camera looks down from over the middle); one on the field
    at least half a die inside, but its top face can be seen up to half a die farther
    out: cocked against the rail, leaning outward, and raised by a die's height toward
    the image's edge (renders: a die cocked against the top rail read 0.005 past the
    edge; 0 called it off the field)."""
    same_die: float = 0.6
    """Faces found by two windows (or by this stage and the board stage) within this
    many die edges are one die."""
    size_tolerance: float = 0.6
    """Faces (of two or more pips) whose estimated die edge is off the expected one by
    more than this fraction are no dice: the dice stage's 0.5 and a little more.  Off
    the field a die's pips are seen at a slant, a corner pip merged with the die's edge
    is bigger, and the face's size (from the biggest pips) comes out larger: a three
    read from a 2x still of a rendered game measured 1.503 dice and was lost (rendered
    seed 24 at 96.1 s: its still replaced the frame's reading, and the void throw was
    missed).  Renders seed 11, 80 boards from the frame: 74 -> 75 of 78 found, no false
    die (0.7: the same)."""
    whole_layout: bool = True
    """A window where the dice stage's reading finds no die is read once more as one
    die: its pips of a kind (those at least ``main_pips`` the size of the biggest,
    leaving out a side face's smaller ones) taken together, kept when they make a
    layout within the face tolerance on a clean face.  Off the field dice lie far from
    the image's centre, seen at a slant, and the grouping split some (renders: a six
    read as a four with two pips left over, which then failed the stray-mark check).
    Renders seeds 11 and 21, 80 boards each: 72 -> 74 of 78 and 72 -> 74 of 79
    found, no false die with or without."""
    main_pips: float = 0.6
    """A side face's pips, foreshortened, are under half the top face's (renders)."""
    cube_reach: float = 1.2
    """Faces within this many die edges of the cube's centre are the cube's marks
    (renders: a cube showing 32 on the rail read as a two).  The cube is 1.7 dice wide:
    its face reaches 0.85 die edges from its centre, a die's centre lies at least 1.35
    from it when touching it."""
    cube_blobs: float | None = 1.5
    """With the cube given (:func:`read_off_field_dice`): the quick look's blobs within
    this many die edges of the cube's centre are its marks and open no window, None for
    all proposed.  Whatever a window there would find, :func:`merge_off_field` drops
    within ``cube_reach``; but its marks opened a window every frame the cube lay on a
    rail (every real tournament frame: the cube's logo, 0.3 die edges from its centre,
    and its side face, 1.45, a window of about 1.5 ms read in full for nothing).  The
    cube's top face reaches 0.85 die edges from its centre (1.2 at the corners), and
    its side faces show toward the point under the camera by up to about a third of its
    height (1.7 dice) more, 0.6, from a camera 70-110 cm over a board's edge.  A die
    touching the cube has its centre 1.35 or more from the cube's, and its far pips
    past 1.5: they still open its window (its window then read without the cube's
    marks); a one touching the cube, its pip at its centre, can be lost."""
    propose: ProposeConfig = field(default_factory=lambda: ProposeConfig(
        max_ring_spread=0.35).for_frame())
    """The quick look on the band: the face around a pip may be less even than on the
    field (``max_ring_spread`` 0.35, not 0.25): a die on a dark rail is small and its
    edge, within a quarter die of its corner pips, contrasts strongly (renders: white
    dice on black rails proposed no window).  Renders seed 21, 60 boards with a die
    off the field: 0.25 found 51 of 59, 0.35 and 0.45 52 (0.45 cost a fifth more:
    more windows read), no false die with any.  No faint second threshold
    (``faint_response`` None): the band is looked at in the video frame, where the
    faint blobs found nothing more on the band's renders but cost about 3 ms a frame
    and, on the field, read bar-hinge screws as twos; nor the strict threshold and the
    wide top-hat, for the same reason (:meth:`ProposeConfig.for_frame`: they are for
    stills)."""
    still_propose: ProposeConfig | None = field(default_factory=lambda: ProposeConfig(
        max_ring_spread=0.35))
    """The quick look on the band when the dice are read from a still (a ``hires``
    capture, :func:`read_off_field_dice`), None for ``propose`` always: the stills' extra
    passes too (the faint and strict thresholds, the wide top-hat), as the board stage
    has them there, with the band's ring spread.  Off-field dice the stage missed on
    renders were mostly never proposed, though these passes propose them: a one's pip on
    a small die is wider than the top-hat's disc and barely responds to it (a red die's
    one on a black rail: peak 45, under ``min_peak``), a red translucent die's pips are
    dim (see ``ProposeConfig.faint_response``).  The blobs are still found in the video
    frame; only the windows are read from the still."""

    def __post_init__(self) -> None:
        if not (0.0 <= self.rail <= 0.5 and 0.0 <= self.tray_rail <= 0.5):
            raise ConfigError("dice off the field: rail and tray_rail between 0 and 0.5 "
                              "field widths")
        if not 0.0 <= self.edge <= 0.1:
            raise ConfigError(f"dice off the field: edge between 0 and 0.1, not {self.edge}")
        if not 0.0 < self.size_tolerance < 1.0:
            raise ConfigError("dice off the field: size_tolerance between 0 and 1")
        if not 0.0 < self.main_pips <= 1.0:
            raise ConfigError("dice off the field: main_pips between 0 and 1")
        if self.cube_blobs is not None and not 0.0 < self.cube_blobs <= 3.0:
            raise ConfigError("dice off the field: cube_blobs between 0 and 3 die edges")
        if not 0.0 < self.same_die <= 2.0:
            raise ConfigError("dice off the field: same_die between 0 and 2 die edges")


@dataclass(frozen=True, slots=True)
class Band:
    """How far past each edge of the field the band reaches (field widths for left and
    right, field heights for top and bottom)."""

    left: float
    right: float
    top: float
    bottom: float

    def holds(self, u: float, v: float) -> bool:
        """True when (u, v) lies within the band's outer edge."""
        return (-self.left <= u <= 1.0 + self.right
                and -self.top <= v <= 1.0 + self.bottom)


def band_of(profile: BoardProfile, config: OffFieldConfig = OffFieldConfig()) -> Band:
    """The band around the field that the board's rails (and trays) take up."""
    reach = {"left": config.rail, "right": config.rail}
    tray = profile.tray
    if tray is not None:
        reach[tray.side] = tray.gap + tray.width + config.tray_rail
    along = config.rail * profile.field_aspect
    return Band(reach["left"], reach["right"], along, along)


def off_field(uv: tuple[float, float], config: OffFieldConfig = OffFieldConfig()) -> bool:
    """True when a die centred at field point ``uv`` lies off the field."""
    u, v = uv
    e = config.edge
    return u < -e or u > 1.0 + e or v < -e or v > 1.0 + e


def split_off_field(dice: tuple[Die, ...], field_map: FieldMap,
                    config: OffFieldConfig = OffFieldConfig()
                    ) -> tuple[tuple[Die, ...], tuple[Die, ...]]:
    """The board stage's dice parted into those on the field and those whose centre
    lies past its edge (as off-field dice: side None, flat, not on a checker)."""
    on: list[Die] = []
    off: list[Die] = []
    for die in dice:
        if config.enabled and off_field(field_map.field_point(die.center), config):
            off.append(_off(die))
        else:
            on.append(die)
    return tuple(on), tuple(off)


def merge_off_field(board_dice: tuple[Die, ...], band_dice: tuple[Die, ...],
                    field_map: FieldMap, *, cube: Cube | None = None,
                    config: OffFieldConfig = OffFieldConfig(), die_size: float = 0.03
                    ) -> tuple[tuple[Die, ...], tuple[Die, ...]]:
    """The dice on the field and those off it, from the board stage's dice and this
    stage's (:func:`read_off_field_dice`): a die both found is reported once (the board
    stage's reading first), and nothing off the field where the cube lies.  ``die_size``
    in field widths."""
    on, past_edge = split_off_field(board_dice, field_map, config)
    width = math.dist(field_map.image_point(0.0, 0.5), field_map.image_point(1.0, 0.5))
    die = die_size * width
    kept: list[Die] = []
    for d in (*past_edge, *band_dice):
        if cube is not None and math.dist(d.center, cube.center) <= config.cube_reach * die:
            continue
        if all(math.dist(d.center, k.center) > config.same_die * die for k in kept):
            kept.append(d)
    return on, tuple(kept)


def _off(die: Die) -> Die:
    return Die(die.value, die.center, True, False, None, die.box)


def read_off_field_dice(frame: Image, field_map: FieldMap, profile: BoardProfile, *,
                        hires: Image | None = None, scale: float = 1.0,
                        checker_mask: npt.NDArray[np.generic] | None = None,
                        config: OffFieldConfig = OffFieldConfig(),
                        board_config: BoardDiceConfig | None = None,
                        cube: Cube | None = None) -> tuple[Die, ...]:
    """Every die in the band around the field whose centre lies off the field (past
    ``config.edge``): value, centre and box in the pixels of ``frame``.
    ``hires``/``scale``: a higher-resolution capture of the same view to read them from,
    as the board stage does.  ``board_config``: the board stage's
    settings (die size, pip sizes, the quick look), shared so both read dice alike.
    ``cube``: the cube in ``frame``, whose marks open no window (``config.cube_blobs``)."""
    board = board_config or BoardDiceConfig()
    if not config.enabled:
        return ()
    band = band_of(profile, config)
    propose = config.propose
    if hires is not None and config.still_propose is not None:
        propose = config.still_propose
    found_blobs: list[Blob] = []
    for low, high in _strips(band):
        found_blobs.extend(_strip_blobs(frame, field_map, low, high, board, propose,
                                        checker_mask))
    found_blobs = _off_the_cube(found_blobs, field_map, cube, board.die_size, config)
    if not found_blobs:
        return ()
    source, source_map = _source(frame, field_map, hires, scale)
    width = round(board.die_pixels / board.die_size)
    size = profile.rectified_size(width)
    # the point under the camera, as the board stage takes it: side faces lie toward it
    nadir = source_map.field_point((source.shape[1] / 2.0, source.shape[0] / 2.0))
    kept: list[tuple[Die, tuple[float, float], int]] = []
    for window in windows(found_blobs, board.die_size, profile.field_aspect, propose):
        read = read_window(source, source_map, window, size, nadir, board)
        gray, origin, detect, faces = read.gray, read.origin, read.detect, read.faces
        if not faces and config.whole_layout:
            faces = _whole_layout(gray, detect, board, config, read.search)
        for face in faces:
            tolerance = board.one_size_tolerance if face.value == 1 else config.size_tolerance
            if abs(face.die_size / board.die_pixels - 1.0) > tolerance:
                continue
            u = origin[0] + face.center[0] / size[0]
            v = origin[1] + face.center[1] / size[1]
            if not window.holds(u, v) or not band.holds(u, v):
                continue
            if not off_field((u, v), config):
                continue  # the board stage's to read
            centre = field_map.image_point(u, v)
            box = _box(field_map, u, v, board.die_size, profile)
            kept.append((Die(None if face.unsure else face.value, centre, True, False, None, box),
                         (u, v), face.value))
    return _one_each(kept, board.die_size * config.same_die)


def _off_the_cube(found: list[Blob], field_map: FieldMap, cube: Cube | None,
                  die_size: float, config: OffFieldConfig) -> list[Blob]:
    """``found`` less the blobs on the cube (:attr:`OffFieldConfig.cube_blobs`; a die edge
    measured as :func:`merge_off_field` measures it)."""
    if cube is None or config.cube_blobs is None or not found:
        return found
    width = math.dist(field_map.image_point(0.0, 0.5), field_map.image_point(1.0, 0.5))
    reach = config.cube_blobs * die_size * width
    return [b for b in found
            if math.dist(field_map.image_point(b.u, b.v), cube.center) > reach]


def _strips(band: Band) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The band's four strips, (u, v) low and high corners: the top and bottom rails
    with the corners, then the left and right ones (the quick look reaches half a die
    past each, so a die across a strip's edge still shows its pips)."""
    return [((-band.left, -band.top), (1.0 + band.right, 0.0)),
            ((-band.left, 1.0), (1.0 + band.right, 1.0 + band.bottom)),
            ((-band.left, 0.0), (0.0, 1.0)),
            ((1.0, 0.0), (1.0 + band.right, 1.0))]


def _strip_blobs(frame: Image, field_map: FieldMap, low: tuple[float, float],
                 high: tuple[float, float], board: BoardDiceConfig, propose: ProposeConfig,
                 checker_mask: npt.NDArray[np.generic] | None) -> list[Blob]:
    """The quick look over one strip, as if it were a field of its own (its own map from
    the strip's corners), the blobs returned in field coordinates."""
    (u0, v0), (u1, v1) = low, high
    width, height = u1 - u0, v1 - v0
    if width <= 0.0 or height <= 0.0:
        return []
    strip_map = _strip_map(field_map, low, high)
    if strip_map is None:
        return []  # the strip is out of sight (degenerate in the image)
    found = blobs(frame, strip_map, board.die_size / width, 0.0, propose, checker_mask)
    return [Blob(u0 + b.u * width, v0 + b.v * height, b.polarity) for b in found]


_STRIP_MAPS: dict[tuple[bytes, tuple[float, float], tuple[float, float]], FieldMap | None] = {}


def _strip_map(field_map: FieldMap, low: tuple[float, float],
               high: tuple[float, float]) -> FieldMap | None:
    """The map of the strip from (u, v) ``low`` to ``high`` as a field of its own, None
    when it is out of sight; made once for each calibration's map (a stream's frames, the
    benches' repeated reads) and kept (a few dozen at most)."""
    key = (field_map.to_image.tobytes(), low, high)
    if key in _STRIP_MAPS:
        return _STRIP_MAPS[key]
    (u0, v0), (u1, v1) = low, high
    corners = Corners(*(field_map.image_point(u, v)
                        for u, v in ((u0, v0), (u1, v0), (u1, v1), (u0, v1))))
    strip_map: FieldMap | None
    try:
        strip_map = FieldMap.from_corners(corners)
    except ValueError:
        strip_map = None
    if len(_STRIP_MAPS) >= 64:
        _STRIP_MAPS.clear()
    _STRIP_MAPS[key] = strip_map
    return strip_map


def _whole_layout(gray: npt.NDArray[np.uint8], detect: DetectConfig,
                  board: BoardDiceConfig, config: OffFieldConfig,
                  search: PipSearch | None = None) -> list[Face]:
    """The window's main pips of each kind read as one die's face (see
    :attr:`OffFieldConfig.whole_layout`); ``search``: the pip search that read the
    window (the pips it found are not looked for again)."""
    out: list[Face] = []
    if search is None or search.gray is not gray:
        search = PipSearch(gray)
    for polarity in detect.polarities:
        pips = search.find(polarity, detect.pips)
        if not pips:
            continue
        big = max(p.major for p in pips)
        main = [p for p in pips if p.major >= config.main_pips * big]
        if not 2 <= len(main) <= 6:
            continue
        face = layout_face(main, polarity, detect.faces)
        if face is None or face.misfit > detect.faces.layout_tolerance:
            continue
        if clean_face(gray, face, detect, board.die_pixels):
            out.append(face)
    return out


def _one_each(found: list[tuple[Die, tuple[float, float], int]],
              reach: float) -> tuple[Die, ...]:
    """One die for faces found by two windows at the same place (most pips kept)."""
    kept: list[tuple[Die, tuple[float, float], int]] = []
    for item in sorted(found, key=lambda x: -x[2]):
        if all(math.dist(item[1], k[1]) > reach for k in kept):
            kept.append(item)
    return tuple(d for d, _, _ in sorted(kept, key=lambda x: x[1]))
