"""The board stage's dice: every die on the field, read in the rectified field.

The field is warped upright at a scale where a die is ``die_pixels`` wide,
whatever the camera: pips then have a known size range, the face layouts a
known spacing, and a flat die's top face is a square of known size (see
:mod:`.pose`).  Only the windows of the field where a quick look at the
frame (:mod:`.propose`) found pip-like blobs are warped and read: the whole
field at that scale is 1333 pixels wide, and reading it all took most of a
frame's budget for two dice.  A die is only 20-25 pixels wide
in a 1280x720 frame of the whole board; when the camera layer has a
higher-resolution capture of the same view, pass it with its scale and the
dice are read from it instead (the field map is scaled to match), which is
what the design intends.  Positions are reported in the pixels of ``frame``.
"""

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.dice.checker import CheckerTestConfig, between_checkers, in_a_waist, on_checker
from vision.dice.detect import DetectConfig, find_dice, in_row, row_ends, same_candidates
from vision.dice.faces import Face, FaceConfig
from vision.dice.pips import Pip, PipConfig, PipSearch, Polarity, find_pips
from vision.dice.pose import PoseConfig, assess, calibrated_height
from vision.dice.propose import Blob, ProposeConfig, Window, blobs, windows
from vision.dice.reader import _checked, _gray
from vision.dice.support import lean_directions
from vision.dice.tipped import BandProfile
from vision.errors import ImageError
from vision.observation import Corners, Die
from vision.profile import BoardProfile
from vision.rectify import FieldMap

Image = npt.NDArray[np.uint8]


def _board_detect() -> DetectConfig:
    """Pip sizes for dice ``die_pixels`` (40) wide: pips are 12-30 % of a die, 5-12
    pixels; 13.5 rather than 14 at the top keeps the pip search to two octaves (blobs
    2.5-13.7 pixels) instead of three.  In the rectified field the face most nearly up
    is the most frontal one, whichever way a cocked die leans; lying farther from the
    nadir counts less than in a photo (renders: cocked dice leaning toward the nadir
    read their tipped-up side at the photo reader's weight, 0.5).  A one's pip is seen
    round from above, and no flatter than a cocked die's top face tilts it (renders: true
    ones 0.87-1.0 minor over major axis, cocked up to 35 degrees 0.82); the glints on
    checkers' rims, 0.5-0.7, read as ones at the photo reader's 0.5.  Its outline is
    round too (true ones 0.77-0.95 of a disc's roundness, read from the frame or a 2x
    capture; a dark gap between fingers 0.65-0.67).  Pips of one face are linked up to
    six pip diameters apart (a six's corner pips lie 0.75 die edges apart, more than the
    photo reader's five diameters when pips are 14 % of the die or blurred that small:
    renders of light-checker-coloured dice) and differ by at most 1.6 times in
    contrast (a cocked die's side pips, half to two thirds of its top's, joined its top
    face).  Two pips both at least 0.7 round are alike in slant (:class:`FaceConfig`
    ``round_enough``): blur and noise give a flat die's small pips 0.7-1.0.  A face of
    four pips or more does not count marks reaching into its stray-mark disc from
    outside (``rim_strays_from``), nor does a three that makes a die at least
    ``rim_three_least`` (0.8) of ``die_pixels``: a die cocked 20-35 degrees shows its top
    face squashed to 0.8-0.9 of its edge across the lean, and a three's disc, reaching
    just past its corner pips along the diagonal, then takes in the board or the side
    face past that edge (renders, tune seeds 21-24 read from a 2x still: of 34 cocked
    dice missed 11 were threes, the four looked at failing the stray-mark check for that
    alone; seeds 22 and 23, 149 cocked dice, 11 -> 6 missed).  A one whose pip is not amid
    an even face 0.4 die edges around (a two's pip, its other one lost) is reported unread
    (``one_surround``), and so is a two whose pips differ in both size and slant
    (``unlike_two_size``)."""
    return DetectConfig(pips=PipConfig(min_diameter=3.5, max_diameter=13.5),
                        faces=FaceConfig(layout_tolerance=0.12, away_weight=0.2,
                                         link_distance=6.0, max_contrast_ratio=1.6,
                                         round_enough=0.7, side_contrast=0.5),
                        lone_min_ratio=0.75, lone_min_roundness=0.72, rim_strays_from=3,
                        one_surround=0.4, unlike_two_size=1.35)


@dataclass(frozen=True, slots=True)
class BoardDiceConfig:
    """Settings of the board stage's dice reading."""

    die_size: float = 0.03
    """Die edge as a fraction of the field width (measured on the real
    tournament frames: 20 px dice on a 660 px field)."""
    die_pixels: float = 40.0
    """Die edge in the rectified image the dice are read in."""
    size_tolerance: float = 0.5
    """Faces whose estimated die edge is off the expected one by more than
    this fraction are not dice (a checker's marking, a point's tip)."""
    rim_reach: float = 0.2
    """With a checker mask: a lone pip off the checkers but within this many die edges
    of one is a glint on a checker's rim, not a one (renders: the glints lie 0.1 die
    edges or less outside the checkers' top faces and were most of the false dice
    left; a die beside a checker has its centre half a die or more from it, one
    cocked partly onto a checker a quarter die)."""
    rim_ring: tuple[float, float] | None = (0.75, 1.0)
    """A lone pip by a checker's rim (``rim_reach``) is still a one when a ring this many
    die edges around it (inner, outer) is mostly unlike its face (less than
    ``rim_ring_share`` of the ring within half the pip's contrast of the face's grey
    level), None for never: a real one's face ends at the die's edge, half a die edge from
    its pip, and past it lie the board and the checker it leans on, while a glint on a
    checker's rim or the board showing where two checkers meet sits on the checker's
    face, which goes on a die edge and more all round.  A die cocked against a checker
    lies over its rim in the picture (its top face is pushed toward the checker by its
    lean and by perspective), so its one lies 0.15-0.2 die edges from the checker mask
    and ``rim_reach`` refused it.  Renders, tune seeds 21-24 (241 cocked-die scenes of
    tuned styles, 2x still, the pipeline's checker mask): of the ones refused by
    ``rim_reach``, 4 were cocked ones with 0.30, 0.36, 0.59 and 0.90 of this ring like
    their face, a cocked two read as a one 0.71, and the false ones (rim glints and wedges
    of board between checkers) 0.78-1.00 (six of the eight also between two checkers,
    :func:`~.checker.between_checkers`).  Cocked dice found 209 of 246 instead of 206,
    no false die more (there, nor in 149 tuned scenes of vision_accuracy's tune seed 21
    read as the pipeline reads them)."""
    rim_ring_share: float = 0.65
    """See ``rim_ring``: under the two read as a one (0.71) and the least false one
    (0.78) seen, above the cocked ones gained (0.30-0.59)."""
    one_size_tolerance: float = 0.75
    """The same for a one, whose die is told by its pip alone (4.4 pips): blur grows a
    small pip by a pixel or two all round, and read from a 1280x720 frame the one of a
    15-pixel die made a die 1.55-1.75 times too big (renders: 7 of 27 misses)."""
    field_margin: float = 0.02
    """Dice may lie this far (in field widths) past the field's edges."""
    bar_ones: bool = False
    """Report a lone pip on the bar as a die showing one.  Off by default:
    the bar's hinges and screws are lone round blobs on an even surface, and
    a die lying on the bar is rare (a cocked die leaning on it shows more)."""
    row_window: float = 2.0
    """Half-width, in die edges, of the window a two or three is looked at again in
    when its row of pips would go on past its own window's edge (the next pip in
    line lies at most 1.2 die edges from the face's centre, and its ring a little
    farther)."""
    split_offset: float | None = 22.0
    """A window where no die is found is read again with a second, stricter pip
    threshold at this offset (see :class:`PipConfig`), None for never: blur joins the
    rows of a small six into long blobs (renders: black sixes of 14-pixel dice were
    missed).  Only then: read every time, the extra pips cost 7 of 90 rendered cocked
    dice (side-face pips taken into the top face)."""
    retry_max_pip: float | None = 16.0
    """That second reading also keeps pips up to this many pixels (searched for as
    before, up to the detect settings' ``max_diameter``; None: no bigger): the one of a
    16 mm die read from a 2x still, blurred, measured 14.8 pixels and was lost (renders,
    tune seed 24).  Only then: kept in every reading, the blurred outlines of a big
    four's pips, 14-15 pixels, made its die 1.6 times too big (tune seed 21)."""
    tight_face: float | None = 0.8
    """A two or three whose pip spacing makes its die less than this many configured die
    edges (``die_per_spacing`` times the spacing) has its window read again with the
    second threshold, and a face found there that holds all its pips and more is taken
    instead; None for never.  Pips next to each other are a row or an edge of a bigger
    face, closer than a two's or three's diagonal: a six's column taken for a three, or
    two adjacent pips of a four taken for a two (renders, a four on a black point: its
    other two pips' rings crossed into the point, and only the stricter threshold found
    them), make a die 0.57-0.71 times its size; flat twos and threes read right made
    0.68-1.2 (12-17 mm dice).  Only for such faces: read every time the second threshold
    cost cocked dice (``split_offset``)."""
    small_die: float | None = 0.87
    """A window where no face of a plausible size is found is read again as if dice were
    this many times ``die_size`` (the window warped at the scale that makes such a die
    ``die_pixels`` wide, every size-bound test at that size), None for never.  Dice are
    12-17 mm on 450-540 mm fields, 0.74-1.26 of the configured 3 %, and most of the dice
    missed were the small ones: read at the configured scale a 12-13 mm die's pips are
    small for the pip search, its stray-mark disc reaches past its edges and a cocked
    one's side face, and its pips link with the board's marks (renders, tune seeds 21 and
    22 as the pipeline reads them, 484 dice: 12 of the 13 missed were 12-14.4 mm).  Read
    again at 0.87 the 2x still found 471 -> 478 (7 of 10 cocked dice missed), 2 of them
    misread (cocked 35-44 degrees, a side face read as the top), false dice 3 -> 4 (a one
    on a marbled checker's pattern); from the frame 446 -> 462, false 2 -> 2.  At 0.9 or
    0.84 fewer were found and more false; with 1.15 as well (big dice) 4 more false dice,
    none found.  Only where nothing was found: read so everywhere (every die at the scene's
    own size) lost as many dice as it found and added false twos.  Only in a still unless
    ``small_die_in_frame``."""
    small_die_least: int = 3
    """The least value a face read at ``small_die`` is taken with: a one's die is told by
    its pip alone, within ``one_size_tolerance`` at the configured size already, so read
    smaller it gains no one but more of the board's round marks (renders, tune seeds 21-24
    as the pipeline reads them, 899 dice: with ones, 4 false ones more, one of them unread,
    on marbled checkers' patterns and the board; without, found 884 as with them and no
    false die more than without the second reading).  Twos neither: a two has no layout
    beyond its two pips to vouch for them, and on tune seeds 21-26 (1,365 dice, 1,010
    clear frames) the twos this reading took were one cocked two against two false ones
    (a cube's side face showing a small "32", wood grain by a point's tip): with twos
    found 1333 -> 1345 and false 6 -> 8, from three 1333 -> 1344 and 6 -> 6."""
    small_die_ones: float | None = 0.24
    """... but a one read at ``small_die`` is taken when the pose test calls it cocked and
    its pip is at least this many die edges wide (of the smaller die), None for never.
    A die cannot lie tilted on a checker's pattern or on the board's marks: the false ones
    that reading found lay on marbled checkers and the board, read flat (a checker under a
    die's centre is nothing to lean on, :class:`~.support.SupportConfig`), while small and
    big cocked ones, their pip squashed and blurred, were found only at the smaller size
    (renders, tune seeds 21-24, 241 cocked-die scenes of tuned styles, 2x still, the
    pipeline's checker mask: 4 of the 10 cocked ones never found, a cocked two's pip
    also taken for a one there).  The pip: the renderer's one is 0.24 of its face, other
    values' pips 0.17; the cocked ones gained measured 0.25-0.30 of the smaller die (blur
    grows them), the two's lone pip 0.22.  Tune seeds 21-24: cocked found 209 -> 212 of
    246, the two no longer misread; seeds 25-26 (97 scenes, 103 cocked dice, not looked at
    while choosing): 83 -> 87, no misread and no false die more."""
    small_die_in_frame: bool = False
    """Also read windows again at ``small_die`` when the dice are read from the frame
    itself (no still).  Off: it costs the per-frame path about half a millisecond a
    rendered frame and more on the real frames, whose bar hinges and glints open windows
    with no die every frame (``bench/vision_speed.py`` back to back, dice stage median CPU
    4.7 and 5.1 ms before, 5.1 and 5.6 after; real frames 8.6 and 9.6, 11.2 and 10.3),
    while a settled throw is read from a still anyway (:mod:`vision.stills`); from the
    frame it found 446 -> 462 of 484 dice on the tune seeds, no false die more."""
    bar_blobs: float | None = 0.75
    """The quick look's blobs on the bar's middle, within this fraction of its half-width
    of its centre line and between the field's long edges, are not proposed (no window is
    read for them), None for all proposed.  There lie the hinges of a folding board,
    whose screws are dark round blobs on the metal plate's even face: every real
    tournament frame opened one or two windows for them (the screws measured 0.05-0.63 of
    the half-width from the centre line; the renderer's hinge screws lie on it), each read
    in full and refused (on the real frames about 1.8 ms a window, the largest part of the
    dice stage's cost over the renders'; on renders read as ones and dropped by
    ``bar_ones``).  A die's pips lie there only when the die lies on the bar, which the
    referee calls off the field; a die leaning against the bar keeps its other blobs
    (proposed alone, a blob opens a window of ``ProposeConfig.margin`` around it, and
    the window reads every pip in it)."""
    body_pips: int | None = 3
    """A window where no die was made of its pips (read from a still) still holds a die
    when at least this many pip candidates of one polarity lie within ``body_reach`` of
    one of them, on a body unlike the board around it (``body_pip_size``,
    ``body_outside``): the die is reported with its value unread and cocked, None for
    never.  A flat die shows one face whose layout the face finder reads; a die tipped
    20-35 degrees shows its top face squashed and blurred and a side face's pips beside
    it, which the face finder groups into no layout, or into one that fails the
    stray-mark disc (the other face's pips lie in it).  Renders (tuned styles, 2x still,
    the pipeline's checker mask, tune seeds 220-221 of
    ``bench/dice_pose_accuracy.py``'s cocked-die scenes): of 17 cocked dice never found
    11 had a window, each with 3-10 pips there (6 had none); the clusters left in the
    windows with no die were 60 of one or two pips (glints, board marks) and three of 3-4
    light marks in wood grain by a point's tip (see ``body_outside``).  Cocked dice
    called cocked, tune seeds 220-222: 277 -> 289 of 340; seeds 223-225 (not looked at
    while choosing): 289 -> 303 of 346; flat dice called cocked (3 of 534) and dice read
    where none lies (9) unchanged.  The referee treats a cocked die as a void throw
    whatever its value (:func:`controller.referee.throws.die_fault`).  Only on the
    field, off the bar (its hinges' screws lie in a row)."""
    body_reach: float = 0.75
    """See ``body_pips``: die edges from the cluster's first pip (the one with most
    others this near) a pip of the same die lies within (a six's corner pips lie 0.71
    apart, a side face's pips 0.5-0.8 from the top face's)."""
    body_pip_size: float = 0.25
    """See ``body_pips``: the cluster's median pip at most this many die edges wide (the
    renderer's pips are 0.17 of a face, a one's 0.24; the clusters of cocked dice missed
    measured 0.09-0.24, blur growing them; two clusters of wood grain's light marks
    0.29)."""
    body_outside: float = 0.75
    """See ``body_pips``: at most this share of the ring ``body_ring`` die edges around the
    cluster's centre may lie within half the pips' contrast of the grey level around
    them (the die's face).  A die's body ends within a die edge of its pips' centre and
    past it lies the board, the checker it leans on or its shadow, while marks in the
    board's grain or on a checker's face go on all round: renders, tune seeds 220-221,
    the cocked dice never found measured 0.01-0.68, the clusters of 3-4 marks with no
    die 0.90-0.93."""
    body_ring: tuple[float, float] = (1.0, 1.4)
    """See ``body_outside`` (inner, outer, in die edges; the window reaches
    ``ProposeConfig.margin``, 1.4 die edges, past its blobs)."""
    body_clear: float = 1.0
    """See ``body_pips``: the cluster's pips lie at least this many die edges from any
    die found (a cocked die found shows its side face's pips within 0.9 of its top's
    centre), and its centre as far from any other die."""
    body_in_frame: bool = False
    """Also look for such dice when reading from the frame (no still).  Off: a settled
    throw is read from a still (:mod:`vision.stills`), and the frame's 20-pixel dice,
    rectified to 40, blur a side face's pips away."""
    detect: DetectConfig = field(default_factory=_board_detect)
    pose: PoseConfig = field(default_factory=PoseConfig)
    checker: CheckerTestConfig = field(default_factory=CheckerTestConfig)
    propose: ProposeConfig = field(default_factory=ProposeConfig)


@dataclass(frozen=True, slots=True)
class BoardDie:
    """A die on the board with what the reading measured."""

    die: Die
    field_uv: tuple[float, float]
    reasons: tuple[str, ...]
    """Why it is called cocked (empty when flat)."""
    cues: tuple[float, ...] | None = None
    """The pose test's cue values when measured (:attr:`.pose.Pose.cues`)."""
    bands: tuple[BandProfile, ...] | None = None
    """The tipped-up face's band profiles when measured (:attr:`.pose.Pose.bands`)."""


def read_board_dice(frame: Image, field_map: FieldMap, profile: BoardProfile, *,
                    hires: Image | None = None, scale: float = 1.0,
                    checker_mask: npt.NDArray[np.generic] | None = None,
                    config: BoardDiceConfig = BoardDiceConfig()) -> tuple[Die, ...]:
    """Every die on the field: value, centre (pixels of ``frame``), side,
    flat and on_checker (the latter only with a ``checker_mask`` in the
    pixels of ``frame``: non-zero where checkers are)."""
    return tuple(d.die for d in read_board_dice_details(
        frame, field_map, profile, hires=hires, scale=scale, checker_mask=checker_mask,
        config=config))


def read_board_dice_details(frame: Image, field_map: FieldMap, profile: BoardProfile, *,
                            hires: Image | None = None, scale: float = 1.0,
                            checker_mask: npt.NDArray[np.generic] | None = None,
                            config: BoardDiceConfig = BoardDiceConfig()) -> list[BoardDie]:
    """As :func:`read_board_dice`, with field positions and the cocked reasons."""
    source, source_map = _source(frame, field_map, hires, scale)
    nadir = source_map.field_point((source.shape[1] / 2.0, source.shape[0] / 2.0))
    height = calibrated_height(field_map, (frame.shape[1], frame.shape[0]), profile.field_aspect,
                               config.pose)
    # the still's extra passes (fainter and stricter blobs, a wider top-hat) only for a
    # still: read from the frame, fainter blobs added hinge screws read as twos (renders,
    # tuned styles: 3 false dice in 171 frames) for 3 dice found
    propose = config.propose if hires is not None else config.propose.for_frame()
    found_blobs = _off_the_bar(blobs(frame, field_map, config.die_size, config.field_margin,
                                     propose, checker_mask), profile, config)
    faces: list[tuple[Face, npt.NDArray[np.uint8], tuple[float, float],
                      tuple[float, float], BoardDiceConfig, int, Image | None]] = []
    sizes = [config]
    if config.small_die is not None and (hires is not None or config.small_die_in_frame):
        sizes.append(replace(config, die_size=config.die_size * config.small_die))
    bodies = config.body_pips is not None and (hires is not None or config.body_in_frame)
    first_reads: list[tuple[Window, WindowRead, tuple[int, int]]] = []
    for window in windows(found_blobs, config.die_size, profile.field_aspect, propose):
        for sized in sizes:  # the configured size, then smaller dice where none was found
            rect_w, rect_h = profile.rectified_size(round(sized.die_pixels / sized.die_size))
            read = read_window(source, source_map, window, (rect_w, rect_h), nadir, sized)
            if bodies and sized is config:
                first_reads.append((window, read, (rect_w, rect_h)))
            gray, origin, local_nadir = read.gray, read.origin, read.nadir
            sized_right = False
            for face in read.faces:
                u = origin[0] + face.center[0] / rect_w
                v = origin[1] + face.center[1] / rect_h
                if not window.holds(u, v):
                    continue  # a die cut by the window's edge: its own window reads it
                if _row_goes_on_outside(face, gray.shape, origin, source, source_map,
                                        (rect_w, rect_h), sized):
                    continue
                if sized is not config and face.value < config.small_die_least and not (
                        face.value == 1 and config.small_die_ones is not None
                        and face.pips[0].diameter >= config.small_die_ones * sized.die_pixels):
                    continue
                sized_right = sized_right or _sized(face, sized)
                faces.append((face, gray, (u, v), local_nadir, sized, rect_w, read.colour))
            if sized_right:
                break
    found: list[BoardDie] = []
    for small_ones in (True, False):
        # the ones read at the smaller size first: taken only when called cocked
        # (small_die_ones), and those not taken are no die for the others to lean on
        kept = []
        for entry in faces:
            face, gray, uv, local_nadir, sized, rect_w, colour = entry
            small_one = sized is not config and face.value < config.small_die_least
            if small_ones and not small_one:
                kept.append(entry)
                continue
            # the other dice found can hold this one tilted (the pose test's support)
            others = [other for _, _, other, _, _, _, _ in faces if other != uv]
            die = _board_die(face, gray, uv, field_map, profile, checker_mask, sized,
                             local_nadir, rect_w, camera_height=height, scale=scale,
                             others=others, colour=colour)
            if small_ones:
                if die is not None and not die.die.flat:
                    kept.append(entry)
            elif die is not None and not (small_one and die.die.flat):
                found.append(die)
        faces = kept
    m = config.field_margin
    for window, read, size in first_reads:
        for u, v in _die_bodies(read, window, size, [d.field_uv for d in found], config):
            # on the field (the band off it is read by .off_field), not on the bar, whose
            # hinges' screws lie in a row
            if -m <= u <= 1.0 + m and -m <= v <= 1.0 + m and profile.half(u) is not None:
                found.append(_body_die((u, v), field_map, profile, checker_mask, config))
    return sorted(found, key=lambda d: d.field_uv)


def _die_bodies(read: "WindowRead", window: Window, size: tuple[int, int],
                taken: Sequence[tuple[float, float]], config: BoardDiceConfig
                ) -> list[tuple[float, float]]:
    """The field points of the dice in ``read`` whose faces could not be read
    (:attr:`BoardDiceConfig.body_pips`), at least ``body_clear`` die edges from the dice
    ``taken`` (field points) and from each other."""
    assert config.body_pips is not None
    rect_w, rect_h = size
    edge = config.die_pixels
    origin = read.origin
    known = [((u - origin[0]) * rect_w, (v - origin[1]) * rect_h) for u, v in taken]
    search = read.search if read.search is not None else PipSearch(read.gray)
    out: list[tuple[float, float]] = []
    for polarity in read.detect.polarities:
        pips = [p for p in search.find(polarity, read.detect.pips)
                if window.holds(origin[0] + p.x / rect_w, origin[1] + p.y / rect_h)
                and all(math.dist(p.x_y, k) >= config.body_clear * edge for k in known)]
        if len(pips) < config.body_pips:
            continue
        reach = config.body_reach * edge
        seed = max(pips, key=lambda p: sum(math.dist(p.x_y, q.x_y) <= reach for q in pips))
        cluster = [q for q in pips if math.dist(seed.x_y, q.x_y) <= reach]
        if len(cluster) < config.body_pips:
            continue
        if float(np.median([q.diameter for q in cluster])) > config.body_pip_size * edge:
            continue
        cx = float(np.mean([q.x for q in cluster]))
        cy = float(np.mean([q.y for q in cluster]))
        if _outside_alike(read.gray, polarity, (cx, cy), cluster, config) > config.body_outside:
            continue
        if any(math.dist((cx, cy), k) < config.body_clear * edge for k in known):
            continue
        known.append((cx, cy))
        out.append((origin[0] + cx / rect_w, origin[1] + cy / rect_h))
    return out


def _outside_alike(gray: npt.NDArray[np.uint8], polarity: Polarity, centre: tuple[float, float],
                   pips: Sequence[Pip], config: BoardDiceConfig) -> float:
    """The share of the ring ``body_ring`` die edges around ``centre`` (the part of it in
    ``gray``) within half the ``pips``' median contrast of their median face level; 1.0
    when none of the ring is in the image."""
    inner, outer = (r * config.die_pixels for r in config.body_ring)
    height, width = gray.shape[:2]
    x0, y0 = max(0, math.floor(centre[0] - outer)), max(0, math.floor(centre[1] - outer))
    x1 = min(width, math.ceil(centre[0] + outer) + 1)
    y1 = min(height, math.ceil(centre[1] + outer) + 1)
    if x1 <= x0 or y1 <= y0:
        return 1.0
    patch = gray[y0:y1, x0:x1].astype(np.float32)
    if polarity == "light":  # pip values were measured on the inverted image
        patch = 255.0 - patch
    ys, xs = np.mgrid[y0:y1, x0:x1]
    distance = np.hypot(xs - centre[0], ys - centre[1])
    ring = (distance >= inner) & (distance <= outer)
    total = int(np.count_nonzero(ring))
    if total == 0:
        return 1.0
    level = float(np.median([p.face for p in pips]))
    contrast = float(np.median([p.contrast for p in pips]))
    return int(np.count_nonzero(ring & (np.abs(patch - level) <= contrast / 2.0))) / total


def _body_die(uv: tuple[float, float], field_map: FieldMap, profile: BoardProfile,
              checker_mask: npt.NDArray[np.generic] | None,
              config: BoardDiceConfig) -> BoardDie:
    """The die a body of pips at field point ``uv`` makes: value unread, cocked."""
    u, v = uv
    centre = field_map.image_point(u, v)
    box = _box(field_map, u, v, config.die_size, profile)
    on = checker_mask is not None and on_checker(centre, max(box[2], box[3]), checker_mask,
                                                 config.checker)
    return BoardDie(Die(None, centre, False, on, profile.half(u), box), uv, ("body",))


def _off_the_bar(found: list[Blob], profile: BoardProfile,
                 config: BoardDiceConfig) -> list[Blob]:
    """``found`` less the blobs on the bar's middle (:attr:`BoardDiceConfig.bar_blobs`)."""
    if config.bar_blobs is None:
        return found
    reach = config.bar_blobs * profile.bar_width / 2.0
    return [b for b in found if not (abs(b.u - 0.5) <= reach and 0.0 <= b.v <= 1.0)]


def _board_die(face: Face, gray: npt.NDArray[np.uint8], uv: tuple[float, float],
               field_map: FieldMap, profile: BoardProfile,
               checker_mask: npt.NDArray[np.generic] | None,
               config: BoardDiceConfig, nadir: tuple[float, float] | None = None,
               field_pixels: float | None = None, *, camera_height: float | None = None,
               scale: float = 1.0,
               others: Sequence[tuple[float, float]] = (),
               colour: Image | None = None) -> BoardDie | None:
    """The die a face found in a window shows, or None when it is no die of this board
    (the wrong size, off the field, a lone blob on the bar).  ``camera_height`` (field
    widths), ``scale`` (of the image read over ``field_map``'s), ``others`` (the
    field points of the other dice found) and ``colour`` (the window ``gray`` was made
    from, when in colour) serve the pose test."""
    if not _sized(face, config):
        return None
    u, v = uv
    m = config.field_margin
    if not (-m <= u <= 1.0 + m and -m <= v <= 1.0 + m):
        return None
    if face.value == 1 and profile.half(u) is None and not config.bar_ones:
        return None
    centre = field_map.image_point(u, v)
    box = _box(field_map, u, v, config.die_size, profile)
    # what it could lean on, looked for only when the pose test uses it
    # (PoseConfig.use_support): the nearest's direction (and any other's within
    # SupportConfig.second_reach), in the window's pixels as in the rectified field's,
    # tells the side a tipped-up face would show on
    near = lean_directions((u, v), config.die_size, field_map, profile, checker_mask,
                           config.pose.support, others) if config.pose.use_support else []
    lean = near[0][1] if near else None
    pose = assess(gray, face, config.die_pixels, config.pose, nadir=nadir,
                  field_pixels=field_pixels, camera_height=camera_height,
                  source_die=math.sqrt(box[2] * box[3]) * scale,
                  supported=lean is not None, lean=lean,
                  leans=[d for e, d in near[1:] if e <= config.pose.support.second_reach],
                  colour=colour)
    on = False
    if checker_mask is not None:
        if face.value == 1 and (
                between_checkers(centre, max(box[2], box[3]), checker_mask, config.checker)
                or (_by_a_rim(centre, max(box[2], box[3]), checker_mask, config.rim_reach)
                    and not _own_face(gray, face, config))):  # the ring last: it costs most
            return None
        if face.value <= 2 and in_a_waist(centre, max(box[2], box[3]), checker_mask,
                                          config.checker):
            return None  # the board where two checkers touch (CheckerTestConfig.waist)
        on = on_checker(centre, max(box[2], box[3]), checker_mask, config.checker)
    die = Die(None if face.unsure else face.value, centre, pose.flat, on, profile.half(u), box)
    return BoardDie(die, (u, v), pose.reasons, pose.cues, pose.bands)


def _sized(face: Face, config: BoardDiceConfig) -> bool:
    """True when the die ``face``'s pips make is of the configured size, within
    ``size_tolerance`` (``one_size_tolerance`` for a one)."""
    tolerance = config.one_size_tolerance if face.value == 1 else config.size_tolerance
    return abs(face.die_size / config.die_pixels - 1.0) <= tolerance


def _by_a_rim(centre: tuple[float, float], die: float, mask: npt.NDArray[np.generic],
              reach: float) -> bool:
    """True when ``centre`` lies off the checkers but within ``reach`` die edges of one
    (any of eight points that far around it on the mask)."""
    height, width = mask.shape[:2]
    points = [(centre[0], centre[1])] + [
        (centre[0] + reach * die * math.cos(a), centre[1] + reach * die * math.sin(a))
        for a in np.linspace(0.0, 2.0 * math.pi, 8, endpoint=False)]
    on = [0 <= round(x) < width and 0 <= round(y) < height and mask[round(y), round(x)] != 0
          for x, y in points]
    return not on[0] and any(on[1:])


def _own_face(gray: npt.NDArray[np.uint8], face: Face, config: BoardDiceConfig) -> bool:
    """True when a one's pip lies on a face of its own, ending within a die edge: less
    than ``rim_ring_share`` of the ring ``rim_ring`` die edges around the pip (the part
    of it inside ``gray``) is within half the pip's contrast of its face's grey level."""
    if config.rim_ring is None:
        return False
    inner, outer = config.rim_ring
    pip = face.pips[0]
    reach = outer * config.die_pixels
    height, width = gray.shape[:2]
    x0, y0 = max(0, math.floor(pip.x - reach)), max(0, math.floor(pip.y - reach))
    x1, y1 = min(width, math.ceil(pip.x + reach) + 1), min(height, math.ceil(pip.y + reach) + 1)
    if x1 <= x0 or y1 <= y0:
        return False
    patch = gray[y0:y1, x0:x1].astype(np.float32)
    if face.polarity == "light":  # pip values were measured on the inverted image
        patch = 255.0 - patch
    ys, xs = np.mgrid[y0:y1, x0:x1]
    distance = np.hypot(xs - pip.x, ys - pip.y) / config.die_pixels
    ring = (distance >= inner) & (distance < outer)
    total = int(np.count_nonzero(ring))
    if total == 0:
        return False
    alike = int(np.count_nonzero(ring & (np.abs(patch - pip.face) <= pip.contrast / 2.0)))
    return alike < config.rim_ring_share * total


def _row_goes_on_outside(face: Face, shape: tuple[int, ...], origin: tuple[float, float],
                         source: Image, source_map: FieldMap, size: tuple[int, int],
                         config: BoardDiceConfig) -> bool:
    """For a two or three whose row of pips would go on past the window's edge (where
    no pip could be found): does it, in a window around the face wide enough to
    hold the row's next pips?  The three screws of a bar hinge, one of them just
    outside the window a single proposed screw opens, read as a two otherwise."""
    ends = row_ends(face)
    room = 1.2 * face.pip_size + 3.0  # a pip's ring must fit in the image to be found
    height, width = shape[:2]
    if all(room <= x <= width - 1 - room and room <= y <= height - 1 - room for x, y in ends):
        return False  # the window's own pips were enough (find_dice tested them)
    rect_w, rect_h = size
    half = config.row_window * config.die_pixels
    cu, cv = origin[0] + face.center[0] / rect_w, origin[1] + face.center[1] / rect_h
    du, dv = half / rect_w, half / rect_h
    wide = Window((cu - du, cv - dv), (cu + du, cv + dv), (cu, cv), (cu, cv), (face.polarity,))
    gray, wide_origin = _window_image(source, source_map, wide, size)
    shift = ((origin[0] - wide_origin[0]) * rect_w, (origin[1] - wide_origin[1]) * rect_h)
    pips = find_pips(gray, face.polarity, config.detect.pips)
    return in_row(face, pips, config.detect, shift)


@dataclass(frozen=True)
class WindowRead:
    """What one proposed window holds, read at the board stage's scale."""

    gray: npt.NDArray[np.uint8]
    """The window warped upright, grey."""
    origin: tuple[float, float]
    """The (u, v) of its top-left pixel."""
    nadir: tuple[float, float]
    """The point under the camera in the window's pixels (side faces lie toward it)."""
    detect: DetectConfig
    """The detection settings it was read with (the window's polarities)."""
    faces: list[Face]
    """The top faces found in it."""
    colour: Image | None = None
    """The window warped upright in colour (BGR; None when read from a grey image)."""
    search: PipSearch | None = None
    """The pip search of ``gray`` the faces were found with (what it found is not looked
    for again by a later search of the window), None for none."""


def read_window(source: Image, source_map: FieldMap, window: Window, size: tuple[int, int],
                nadir: tuple[float, float], config: BoardDiceConfig) -> WindowRead:
    """The faces in one window (the field's and the band's off it are read alike): the
    window's polarities only, and once more with the split offset when none is found
    (pips of a die touching a checker merge with its rim at the first offset)."""
    warped, origin = _window_warp(source, source_map, window, size)
    gray = _gray(warped)
    local_nadir = ((nadir[0] - origin[0]) * size[0], (nadir[1] - origin[1]) * size[1])
    detect, split, retry = _window_detects(config, window.polarities)
    # one pip search for every reading of the window: the later readings share threshold
    # passes with the first (the first offset) and are not run again
    search = PipSearch(gray)
    faces = find_dice(gray, detect, local_nadir, config.die_pixels, search)
    if faces and split is not None and any(_tight(f, config) for f in faces):
        again = find_dice(gray, split, local_nadir, config.die_pixels, search)
        faces = [_grown(f, again) if _tight(f, config) else f for f in faces]
    if not faces and retry is not None:
        # the retry differs in its pips alone (_window_detects): with the first reading's
        # candidates (most windows with no die) it finds what the first found, nothing
        if not same_candidates(search, detect, retry):
            faces = find_dice(gray, retry, local_nadir, config.die_pixels, search)
        detect = retry
    return WindowRead(gray, origin, local_nadir, detect, faces,
                      warped if warped.ndim == 3 and warped.shape[2] == 3 else None, search)


@functools.lru_cache(maxsize=64)
def _window_detects(config: BoardDiceConfig, polarities: tuple[Polarity, ...]
                    ) -> tuple[DetectConfig, DetectConfig | None, DetectConfig | None]:
    """The detection settings a window with blobs of these ``polarities`` is read with:
    first, with the split offset (a tight face's second look), and where the first found
    nothing (the split offset and bigger pips; None: no second look).  Made once for each
    config and kind of window, not for every window (a frame reads several)."""
    detect = replace(config.detect, polarities=tuple(
        p for p in config.detect.polarities if p in polarities))
    if config.split_offset is None:
        return detect, None, None
    split = replace(detect, pips=replace(detect.pips, split_offset=config.split_offset))
    pips = split.pips
    if config.retry_max_pip is not None and config.retry_max_pip > pips.max_diameter:
        pips = replace(pips, max_diameter=config.retry_max_pip, octaves_to=pips.max_diameter)
    return detect, split, replace(detect, pips=pips)


def _tight(face: Face, config: BoardDiceConfig) -> bool:
    """A two or three whose pips lie too close for a die of the configured size
    (``tight_face``)."""
    return (config.tight_face is not None and face.value in (2, 3)
            and config.detect.faces.die_per_spacing * face.spacing
            < config.tight_face * config.die_pixels)


def _grown(face: Face, others: list[Face]) -> Face:
    """The face of ``others`` with the most pips that holds every pip of ``face`` and
    more, else ``face``."""
    best = face
    for other in others:
        if other.value > best.value and all(
                any(math.dist(p.x_y, q.x_y) < 0.5 * max(p.diameter, q.diameter)
                    for q in other.pips) for p in face.pips):
            best = other
    return best


def _window_image(source: Image, source_map: FieldMap, window: Window,
                  size: tuple[int, int]) -> tuple[npt.NDArray[np.uint8], tuple[float, float]]:
    """A window of the field warped upright (grey) at the reading scale (the whole field
    ``size`` pixels), and the (u, v) of its top-left pixel (:func:`_window_warp`)."""
    warped, origin = _window_warp(source, source_map, window, size)
    return _gray(warped), origin


def _window_warp(source: Image, source_map: FieldMap, window: Window,
                 size: tuple[int, int]) -> tuple[Image, tuple[float, float]]:
    """A window of the field warped upright as ``source`` is (colour or grey) at the
    reading scale (the whole field ``size`` pixels), and the (u, v) of its top-left
    pixel.  The window is snapped to the pixel grid of the whole field at that scale: it
    is then exactly a piece of what rectifying the whole field gives, pixel for pixel."""
    rect_w, rect_h = size
    x0, y0 = math.floor(window.low[0] * rect_w), math.floor(window.low[1] * rect_h)
    x1, y1 = math.ceil(window.high[0] * rect_w), math.ceil(window.high[1] * rect_h)
    shape = (max(1, x1 - x0), max(1, y1 - y0))
    matrix = np.array([[rect_w, 0.0, -x0], [0.0, rect_h, -y0],
                       [0.0, 0.0, 1.0]]) @ source_map.to_field
    warped = cv2.warpPerspective(source, matrix, shape, flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(warped, dtype=np.uint8), (x0 / rect_w, y0 / rect_h)


def faces_in_field(gray: npt.NDArray[np.uint8],
                   config: BoardDiceConfig = BoardDiceConfig()) -> list[Face]:
    """The dice faces of an already rectified field image (for tools and tests)."""
    return find_dice(gray, config.detect)


def _source(frame: Image, field_map: FieldMap, hires: Image | None,
            scale: float) -> tuple[Image, FieldMap]:
    _checked(frame)
    if hires is None:
        return frame, field_map
    _checked(hires)
    if not scale > 0:
        raise ImageError(f"the high-resolution scale must be positive, not {scale}")
    expected = (frame.shape[0] * scale, frame.shape[1] * scale)
    off = max(abs(hires.shape[0] - expected[0]), abs(hires.shape[1] - expected[1]))
    if off > 2 * scale:
        raise ImageError(
            f"the high-resolution frame is {hires.shape[1]}x{hires.shape[0]}, not the frame "
            f"({frame.shape[1]}x{frame.shape[0]}) times {scale}")
    corners = Corners(*((x * scale, y * scale) for x, y in field_map.corners.as_list()))
    return hires, FieldMap.from_corners(corners)


def _box(field_map: FieldMap, u: float, v: float, size: float,
         profile: BoardProfile) -> tuple[float, float, float, float]:
    half_u, half_v = size / 2.0, size * profile.field_aspect / 2.0
    points = [field_map.image_point(u + du, v + dv)
              for du in (-half_u, half_u) for dv in (-half_v, half_v)]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))

