"""Flat or cocked, from one overhead image rectified to the board plane.

Under the board homography a flat die's top face is parallel to the field,
so in the rectified field image it is a square with round pips on a square
grid.  A cocked die (leaning on a checker, the rail or the other die) turns
its top face away: the pips look squashed, the grid shrinks along the tilt,
and the die shows the face it tipped up, so its outline grows into a
rectangle or parallelogram.

Perspective shows side faces of flat dice too: a camera 70 cm above the
board sees the sides of a die near the rail turned toward the point below
it (the nadir), up to two fifths of a die edge wide.  So the body may be
longer toward the nadir, and only toward it, by what perspective allows
there (:func:`perspective_reach`), and the side faces found by their pips
(:mod:`.sides`) must be turned toward the nadir and no wider than that.
How wide that is depends on the lens height, which the calibration gives
(:mod:`.viewpoint`); without it the configured lower bound serves.
Each cue is one threshold here; any one of them failing calls the die
cocked.

The cues that tell a die tilted 12-20 degrees (the usual lean on a checker
or the rail) need pips several pixels across in the captured image: the top
face's pips are then round within a few per cent when the die is flat
(``cos(tilt)`` when it is not), and a side face's pips show where a flat
die shows none.  Dice at least ``fine_die_pixels`` wide in the image they
are read from (the high-resolution capture) get the ``fine_*`` thresholds;
smaller ones, whose pips blur into a few pixels, the lenient ones.
"""

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.dice import pose_model
from vision.dice.chroma import ChromaConfig, Colour, chroma_contrast
from vision.dice.faces import Face
from vision.dice.outline import OutlineConfig, tipped_outline
from vision.dice.pips import Gray, Pip
from vision.dice.pipshape import PipShapeConfig, lean_squash
from vision.dice.sides import SideConfig, side_faces, side_pips
from vision.dice.support import SupportConfig
from vision.dice.tipped import (
    BandModelConfig,
    BandProfile,
    BandProfileConfig,
    band_profile,
    band_score,
)
from vision.dice.viewpoint import ViewpointConfig, viewpoint
from vision.errors import CalibrationError, ConfigError
from vision.rectify import FieldMap

CUES = ("squash", "lean squash", "outline", "outline by colour", "side band", "away pips")
"""The cues :func:`cue_vector` measures, in its order: each how far past its own
bound (positive: more like a cocked die's) a sharp die with support measured."""


@dataclass(frozen=True, slots=True)
class CueScoreConfig:
    """The cues of a sharp die with support weighed together (:func:`cue_score`):
    a logistic regression over :func:`cue_vector`, whose log-odds above
    ``threshold`` call a die cocked that no single bound called."""

    weights: tuple[float, ...]
    """One weight per cue of :data:`CUES`, in that order."""
    bias: float
    """The log-odds of a die whose every cue sits exactly on its bound."""
    threshold: float
    """Least log-odds that calls the die cocked."""

    def __post_init__(self) -> None:
        if len(self.weights) != len(CUES):
            raise ConfigError(f"dice pose: the cue score has {len(CUES)} weights "
                              f"({', '.join(CUES)}), not {len(self.weights)}")


@dataclass(frozen=True, slots=True)
class PoseConfig:
    """Thresholds of the flat test, all in the rectified field image."""

    min_pip_ratio: float = 0.68
    """Least median minor/major ratio of the top face's pips (1 = round), for
    dice read from fewer than ``fine_die_pixels``: their pips are a few pixels
    across, blurred round or squashed by a pixel either way."""
    fine_die_pixels: float = 28.0
    """Dice of the configured size at least this many pixels wide in the image
    they are read from get the ``fine_*`` thresholds (if ``fine_min_size``
    holds too).  The high-resolution capture (twice the 1280x720 frame) shows
    the benchmark's dice 29-47 pixels wide, the frame 15-23 (300 renders of
    ``bench/dice_pose_accuracy.py``'s seed 21); a Pi Camera Module 3 still
    about 73.  At 36 half the dice of a 2x still were read with the frame's
    lenient thresholds; 28 found 103 of 142 cocked dice there instead of 85.
    Its false alarms in the pipeline (small flat dice in open space, flat dice
    lying on a checker) are kept off by ``cocked_needs_support`` and
    ``SupportConfig.below_counts``."""
    fine_band_pixels: float = 36.0
    """Dice narrower than this in the image they are read from keep
    ``band_margin`` even when they get the other ``fine_*`` thresholds: a
    side face's slivers of pips are one or two pixels there, and a flat four
    30 pixels wide showed a side 0.23 die edges wider than perspective allows
    (renders, seed 21; with ``fine_band_margin`` for all fine dice 2 flat dice
    in 180 more were called cocked for 3 cocked dice more found)."""
    fine_min_size: float = 0.8
    """The face's estimated die edge, over ``die_pixels``, a die must reach for
    the ``fine_*`` thresholds: the window is drawn for dice of the configured
    size, and a smaller die is read from fewer pixels (12 mm dice on a 540 mm
    field against the default 3 % are 30 pixels, where a flat three's pips
    measured as squashed as 0.87).  Dice of the configured size are estimated
    at 35 pixels or more but for 5 % (renders, 2x capture)."""
    supported_min_size: float | None = 0.65
    """``fine_min_size`` for the top face's squash (``fine_squash``,
    ``supported_squash``) of a die with something to lean on (``use_support``); None
    for ``fine_min_size`` itself.  The pipeline reads dice with the configured die
    size (3 % of the field) while dice are 12-17 mm and fields 450-540 mm: a 12 mm
    die's face measures 0.67-0.8 of the configured die, so with ``fine_min_size``
    such dice were judged by the frame's lenient thresholds, which call few cocked
    dice.  ``fine_min_size`` still guards dice in open space (small flat faces
    measured squashed down to 0.87) and the side and outline cues of small dice
    (their bands are a few pixels: judged by them too, 3 more flat dice of 348
    were called cocked as if every die had support, for 3 more cocked dice found).
    Renders of ``bench/dice_pose_accuracy.py``'s cocked-die scenes read with the
    configured die size (``--default-size``), seeds 21 (300 scenes) and 22 (250),
    tuned styles, 2x still: cocked found 320 -> 336 of 381, flat called cocked 1
    of 348 before and after, as if every die had support (``--any-support``) 16 ->
    17 (a flat two measured 0.917 against a bound of 0.92); 0.5 the same, 0.75
    four cocked dice fewer and that false alarm not."""
    open_squash: float | None = 0.78
    """A sharp die whose top face is squashed (:func:`squash`) below this is cocked
    even with nothing found to lean on (``cocked_needs_support``); None for never.
    Dice tilted 30 degrees or more lean with their centre farther from what holds
    them than ``SupportConfig.reach`` (0.85-1.1 die edges), so the support test
    misses some of the steepest dice, whose top face is plainly squashed (0.62-0.75
    on renders).  The least a flat die measured is 0.83 (a small six read at the
    configured size; the next 0.885; renders of seeds 21-22, tuned styles, 2x still,
    the scene's and the configured die size, 1,491 readings of flat dice): 0.78
    leaves that a margin.  Seeds 21-22, tuned: 2 more of 401 cocked dice found at
    the scene's die size, 3 more of 381 at the configured one (``--default-size``),
    no flat die more called cocked (348, with and without ``--any-support``); 0.76
    and 0.8 the same, 0.83 and 0.85 one cocked die more and that six."""
    fine_squash: tuple[float, float, float, float, float, float] = (
        0.905, 0.865, 0.915, 0.94, 0.94, 0.87)
    """Least :func:`squash` of a one, two, ... six read at ``fine_die_pixels``
    or more.  A flat die's top face is parallel to the board, so in the
    rectified field its pips are round and a four's or five's corners a square;
    a die tilted ``t`` squashes both by ``cos(t)`` along its lean (0.97 at 15
    degrees, 0.91 at 25).  Each value's bound is just under the least a flat
    die of that value measured on renders from the 2x capture (tuned styles,
    390 flat dice): twos and sixes scatter most (two pips pool little; a six's
    pips are close enough to crowd each other's outline), fours and fives
    least (their corners' square counts too)."""
    supported_squash: tuple[float, float, float, float, float, float] = (
        0.905, 0.92, 0.92, 0.96, 0.96, 0.905)
    """``fine_squash`` for a die with something to lean on within reach
    (:mod:`.support`: a checker, the rail, the bar), where a tilt is possible:
    each bound is just under the second least squash a flat die of that value
    measured on 350 flat dice of renders (seeds 21 and 22, tuned styles, 2x
    still, about 55 of each value), instead of under the least of all (a one's
    stays: two flat ones measured 0.89).  Such dice also get ``fine_band_margin``
    whatever their size.  Renders (seed 21, tuned): 103 -> 112 of 142 cocked
    dice found, no more flat ones called cocked (5-10 % of the renderer's flat
    dice have support; were every flat die supported, 8 of 350 instead of 3
    would be called cocked)."""
    fine_squareness: float = 0.83
    """``min_squareness`` for dice read at ``fine_die_pixels`` or more: flat
    fours, fives and sixes measure above 0.85 on renders from the 2x capture
    but for a few sixes (whose two steps are the least alike); 0.85 called
    two flat sixes in 222 dice cocked there."""
    fine_band_margin: float = 0.15
    """``band_margin`` for dice read at ``fine_die_pixels`` or more, whose side
    pips are placed to a pixel or two of 40.  The lens height the allowance
    comes from is only known to about a quarter (the field of view is
    configured, not measured): 0.1 called 6 flat dice in 222 cocked on renders
    from the 2x capture (tuned styles), 0.15 two, and found 3 % fewer cocked
    dice."""
    fine_away_min_pips: int = 1
    """``away_min_pips`` for dice read at ``fine_die_pixels`` or more, twos to
    sixes: a single sliver on a side no flat die shows is enough once the pips
    are sharp.  Not for a one in open space: its sides are taken toward
    whatever blob lies beside it (on renders three flat ones in 300 dice were
    called cocked so); a one with something to lean on (``supported``) gets it
    (renders seeds 21-22, tuned styles: 3 more of 142 cocked dice found, no
    flat one in 105 called cocked with or without support)."""
    fine_skips_body: bool = True
    """Sharp dice are not judged by their body's outline: on 2x renders it found
    3 of 239 cocked dice the other cues missed, and it calls flat dice cocked
    when they are smaller than configured or lie by a shadow or a bevel of the
    same grey (5 flat dice in 330 in ``bench/vision_accuracy.py --n 300 --seed
    7``, whose dice are 12-17 mm against the configured 3 % of the field)."""
    viewpoint: ViewpointConfig = field(default_factory=ViewpointConfig)
    """The camera's intrinsics, to recover its height from the calibration."""
    spacing_tolerance: float = 0.45
    """Largest relative error of the pip spacing against a flat die's.  Dice
    of 12-17 mm lie on fields of 450-540 mm, so a die's edge varies by a
    quarter around the configured one whatever its pose: a tighter bound
    calls small flat dice cocked (on renders as many flat as cocked dice
    failed it at 0.3)."""
    min_squareness: float = 0.75
    """Least ratio of the face's two grid steps (fours, fives and sixes), for dice
    read from fewer than ``fine_die_pixels``."""
    die_per_spacing: float = 3.8
    """Die edge over pip spacing (as in the face finder)."""
    min_body_fill: float = 0.72
    """Least fraction of the body's bounding rotated rectangle it fills: a
    flat die is a square; a cocked one shows extra faces at a slant."""
    max_body_aspect: float = 1.3
    """Longest over shortest side of the body's rotated rectangle."""
    max_body_size: float = 1.9
    """Largest body side over the expected die edge.  Loose: dice are 12-17 mm
    and fields 450-540 mm, so the expected edge is only known to a quarter,
    and on renders a tight bound (1.35) called as many big flat dice cocked
    as it found cocked ones; the aspect and fill of the body do not depend
    on the die's size."""
    body_tolerance: float = 0.45
    """Pixels within this fraction of the pip contrast of the face's grey
    level belong to the die's body."""
    merged_reach: float = 1.9
    """A body longer than this many die edges has merged too (a cocked die
    shows at most its top and one side face, about 1.5 edges)."""
    camera_height: float = 1.3
    """The lowest camera height the perspective allowance assumes, in field
    widths (70 cm above a 54 cm field), when the calibration does not give
    it (:mod:`.viewpoint`).  A flat die away from the point
    below the camera shows the side faces turned toward that point, a band
    ``die * distance / (height - die)`` wide: the body may reach that much
    farther toward the nadir, and only toward it."""
    nadir_cone: float = 30.0
    """Degrees between the body's long axis and the direction to the nadir
    within which the body's extra length counts as perspective."""
    away_limit: float = -0.1
    """A side face whose outward normal is turned from the direction to the nadir
    by more than a right angle (cosine below this) is one no flat die shows."""
    away_min_pips: int = 2
    """Pips a side face turned away must show to count: a single sliver there is as
    often the dark bevel along the top face's edge, or a checker's rim beyond it."""
    band_margin: float = 0.25
    """A side face toward the nadir may look this many die edges wider than the
    perspective reach allows before it is called a tipped-up face.  The reach
    assumes the camera's nadir below the image centre and ``camera_height``;
    a camera mounted otherwise sees more: a flat die on the real board frames
    (a broadcast camera, keystoned) shows a side 0.35 die edges wide where the
    assumptions allow 0.16.  The band is also read from pips a few pixels
    across.  (Renders: 0.15 finds a third more cocked dice at the same false
    alarms, but calls that real die cocked.)"""
    reach_slack: float = 1.0
    """The perspective reach is multiplied by this before ``band_margin`` is added:
    more than 1 for a camera mounted off the board's middle or tilted, whose
    nadir is not below the image centre (the margin is then spent on the pips'
    few pixels alone)."""
    sides: SideConfig = field(default_factory=SideConfig)
    support: SupportConfig = field(default_factory=SupportConfig)
    """Where a die counts as having something to lean on (read by the caller)."""
    use_support: bool = True
    """Judge a die with support by ``supported_squash`` and its other looser
    bounds, and one without by ``cocked_needs_support``.  (Off until the
    pipeline's false alarms with it were understood: with a checker under the
    die counted as support and dice in open space judged by the fine bounds,
    ``bench/vision_accuracy.py --n 400 --seed 8`` called 1.31 -> 2.35 % of
    flat dice cocked; docs/vision.md, Flat or cocked.)"""
    cocked_needs_support: bool = True
    """With ``use_support``: a die with nothing to lean on within reach is flat
    whatever its other cues say (a die cannot stay tilted in open space).  The
    fine cues' false alarms were mostly such dice, the others flat dice lying
    on a checker (``SupportConfig.below_counts``): renders as the pipeline reads
    them (2x still, the checker mask of the checkers found, the configured die
    size), seeds 21-22, tuned styles, ``fine_die_pixels`` 28: 8 of the 11 flat
    dice called cocked of 666 lay in open space, mostly small dice (12-14 mm
    against the configured 3 % of the field) whose pips measured squashed
    0.87-0.91; all 83 cocked dice had support within reach."""
    outline: OutlineConfig = field(default_factory=OutlineConfig)
    """Where the tipped-up face's outline is looked for (:mod:`.outline`)."""
    outline_margin: float | None = 0.1
    """A sharp die with support (``fine_die_pixels``, ``use_support``) whose
    silhouette, on a side turned from what it leans on, reaches this many die
    edges farther past its top face than perspective lets a flat die's side face
    show there is cocked (the face it tipped up shows, ``sin(tilt)`` wide); None
    for never.  Chosen on renders of seeds 21 (300 scenes) and 22 (250) of
    ``bench/dice_pose_accuracy.py``'s scenes, tuned styles, 2x still, the
    scene's die size: cocked found 166 -> 182 of 209 and 136 -> 147 of 176,
    flat called cocked 0 of 190 and 158 before and after; every die judged as if
    it had support (``--any-support``) 4 -> 7 and 4 -> 13.  0.2 gave about a
    quarter of the gain for half the false alarms (first trials, seed 21)."""
    outline_squash: float = 0.98
    """... and whose top face is squashed (:func:`squash`) below this: a tilt of 11
    degrees or more squashes it by ``cos(tilt)``, a flat die's is round within the
    pips' noise.  Renders of seeds 21-22 (tuned, every die judged as if it had
    support): of the 12 flat dice the outline alone called cocked 6 measured 0.98
    or more, of the 27 cocked dice it alone found 1."""
    lean_squash: float | None = 0.965
    """A sharp die with support (judged by ``supported_squash``) whose top face's pips
    are squashed (:func:`.pipshape.lean_squash`, from their grey levels) below this
    along the direction of what it leans on (``lean`` or ``leans``) is cocked; None for
    never.  A die leaning on something tilts its top face toward it, so the squash
    lies along that direction, where a flat die's pips, measured there rather than
    along their worst direction, are round within 3 %: on renders of
    ``bench/dice_pose_accuracy.py``'s scenes (tune seeds 21, 300 scenes, and 22, 250;
    tuned styles, 2x still, the scene's die size; every flat die measured along the
    nearest thing within five die edges, as ``--any-support`` judges them) the least
    a flat die of any value measured was 0.968 (a six; 0.970 on seed 22), and 7 of
    the 34 cocked dice with support the other cues missed measured under 0.965 (three
    ones, a two and a three of red dice whose tipped-up face is too faint for the
    outline, a white two, a six tilted 30 degrees), no flat die.  One bound for every
    value: bounds per value just under the least of one seed called 1 and 7 flat dice
    of the other cocked."""
    pip_shape: PipShapeConfig = field(default_factory=PipShapeConfig)
    """Where each pip's grey levels are weighed for ``lean_squash``."""
    chroma_margin: float | None = 0.15
    """``outline_margin`` for the outline found by colour (:mod:`.chroma`), looked for on
    a die of two to six pips whose outline the grey window does not show past
    ``outline_margin``, when the caller passes the colour window (``assess(colour=...)``;
    the same tests of support, sharpness and ``outline_squash`` hold); None for never.
    The largest group of cocked dice missed on the tune renders were red dice whose
    tipped-up face is within a few grey levels of a brown or burgundy board, plainly
    red in colour.  Renders of ``bench/dice_pose_accuracy.py``'s tune seed 21 (300
    scenes, tuned styles, 2x still, the scene's die size): of the 8 coloured cocked
    dice with support the other cues missed, 6 showed an outline by colour 0.18-0.5
    die edges past the allowance (4 of them twos to sixes whose top face measured
    under ``outline_squash``); of 53 coloured flat dice judged as if every die had
    support, 4 did (0.13-0.33), three of them with a round top face (``outline_squash``)
    and the fourth a one.  0.1 found and called the same there."""
    chroma: ChromaConfig = field(default_factory=ChromaConfig)
    """Which dice are read by colour and how (:mod:`.chroma`)."""
    cue_score: CueScoreConfig | None = field(default_factory=lambda: CueScoreConfig(
        weights=(13.817, 14.949, 0.0, 0.0, 0.0, 0.0), bias=0.126, threshold=-0.202))
    """The cues of a sharp die with support (``fine_die_pixels`` and ``fine_min_size``,
    ``use_support``, a lean direction) weighed together (:func:`cue_score`): a die no
    single bound calls cocked is cocked when their weighted sum says so; None for
    never (each cue's own bound alone decides).  The cocked dice the bounds missed sat
    just inside two bounds at once, the top face's squash and its squash along the
    lean, where flat dice seldom sit inside both by so little.  Fitted by
    ``bench/pose_cue_fit.py fit /tmp/c51.jsonl /tmp/c52.jsonl --margin 0.06`` on the
    readings of ``collect --seed 51 --n 111`` and ``--seed 52 --n 126`` (cocked-die
    scenes, tuned styles only, 2x still, configured die size, the pipeline's checker
    mask; every die read with its support and as if it had some within five die edges,
    so that flat dice against checkers count): a logistic regression over the two
    squash cues (the outline, side band and away-pip cues, fitted too, weighed little
    and found fewer cocked dice at no false alarm), fitted on the 177 readings the
    bounds call flat, its threshold 0.06 above the highest flat die's log-odds there
    (a four as if supported, -0.26).  There: cocked called cocked 143 -> 147 of 171,
    flat dice called cocked 0/143 and, as if supported, 7/143, both unchanged.
    Checked on seeds 41 (120 scenes) and 42 (72), never fitted on: 116 -> 117 of 124
    cocked, flat 0/102 and as if supported 8/102 unchanged; the highest flat die there
    -0.34.  Seeds 55 and 56 (150 scenes each): 183 -> 184 of 199, flat 0/179 and as
    if supported 7/179 unchanged, the highest flat die -0.32.  It decides between two
    squashes within a few hundredths of their bounds, so its gain is small."""
    band: BandModelConfig | None = None
    """The tipped-up face's band measured as a grey-level profile across the side turned
    from the support (:mod:`.tipped`) and weighed by a logistic regression: a sharp die
    with support (as for ``cue_score``) that no bound and no cue score called cocked is
    cocked when its log-odds pass the model's threshold; None for never.  Off by
    default: the model fitted on tune seeds 62-63 (:data:`.tipped.FITTED`) found 2 more
    of 227 cocked dice on seeds 64-65 with no flat die more called cocked, but none more
    of 219 on seeds 66-67, where it called one more flat die of 182, read as if
    supported, cocked (docs/vision.md, "Flat or cocked, round eleven")."""
    band_profile: BandProfileConfig = field(default_factory=BandProfileConfig)
    """Where the band's profile is sampled (:mod:`.tipped`)."""
    learned: float | None = 2.6
    """Least log-odds of the learned cue (:mod:`.pose_model`: a small network over the
    die's own rectified pixels, turned so that the side it would tip up lies along +x)
    that calls cocked a sharp die with support (``fine_die_pixels`` and
    ``supported_min_size``, a lean direction) that no bound, cue score or band model
    called cocked; None for never.  2.6 (``pose_model.THRESHOLD``) is just over the
    second highest flat die's log-odds on validation seeds 207-208 (never fitted on).
    With ``learned_veto`` -5.0, on the unseen seeds 210-211 of ``bench/dice_pose_accuracy.py
    --default-size --live-mask`` (tuned styles, 2x still): cocked found 192 -> 199 of
    214-215, flat dice called cocked 1 -> 0 of 193, as if every die had support
    (``--any-support``) 12 -> 11 of 193 (the cue alone 14: +1.04 points; docs/vision.md,
    "Flat or cocked, a learned cue (engineer C)")."""
    learned_veto: float | None = -5.0
    """A sharp die with support (as for ``learned``) that a bound or cue called cocked is
    flat after all when the learned cue's log-odds are under this; None for never.  On
    validation seeds 207-208 (never fitted on) the cocked dice the bounds called cocked
    scored -4.41 and up (118 readings), while 7 of the 15 flat dice they called cocked as
    if supported scored under -5 (-11.2 to -5.9).  Unseen seeds 210-211 (as above), with
    ``learned`` 2.6: flat dice called cocked 1 -> 0 of 193, as if supported 14 -> 11, no
    cocked die lost."""
    measure_cues: bool = False
    """Measure :func:`cue_vector` for the dice ``cue_score`` would weigh (returned in
    :attr:`Pose.cues`) even without ``cue_score``: what ``bench/pose_cue_fit.py``
    fits the weights on."""
    max_body_area: float = 1.7
    """A body larger than this many expected dice has merged with something
    of its colour (a black die touching a black checker or lying on a black
    point): the body test is skipped, the pip tests decide alone."""

    def __post_init__(self) -> None:
        if not self.camera_height >= 0.2:
            raise ConfigError(f"dice pose: camera_height is in field widths, at least 0.2 "
                              f"(a camera above the board), not {self.camera_height}")
        if self.band_margin < 0.0 or self.reach_slack < 0.0 or self.away_min_pips < 1:
            raise ConfigError("dice pose: band_margin and reach_slack at least 0, "
                              "away_min_pips at least 1")
        if not 0.0 < self.nadir_cone <= 90.0:
            raise ConfigError(f"dice pose: nadir_cone 0-90 degrees, not {self.nadir_cone}")
        if not 0.0 <= self.fine_min_size <= 2.0:
            raise ConfigError(f"dice pose: fine_min_size is a fraction of die_pixels, 0-2, "
                              f"not {self.fine_min_size}")
        if self.fine_band_margin < 0.0 or self.fine_away_min_pips < 1:
            raise ConfigError("dice pose: fine_band_margin at least 0, fine_away_min_pips "
                              "at least 1")
        if len(self.fine_squash) != 6 or not all(0.0 <= b <= 1.0 for b in self.fine_squash) \
                or not 0.0 <= self.fine_squareness <= 1.0:
            raise ConfigError("dice pose: fine_squash (six bounds, a one's to a six's) and "
                              "fine_squareness are 0-1")
        if len(self.supported_squash) != 6 or not all(
                0.0 <= b <= 1.0 for b in self.supported_squash):
            raise ConfigError("dice pose: supported_squash is six bounds 0-1, a one's to a six's")
        if self.outline_margin is not None and self.outline_margin < 0.0:
            raise ConfigError("dice pose: outline_margin at least 0 (or None for never)")
        if not 0.0 <= self.outline_squash <= 1.0:
            raise ConfigError("dice pose: outline_squash is 0-1")
        if self.supported_min_size is not None and not 0.0 <= self.supported_min_size <= 2.0:
            raise ConfigError(f"dice pose: supported_min_size is a fraction of die_pixels, 0-2 "
                              f"(or None for fine_min_size), not {self.supported_min_size}")
        if self.chroma_margin is not None and self.chroma_margin < 0.0:
            raise ConfigError("dice pose: chroma_margin at least 0 (or None for never)")
        if self.lean_squash is not None and not 0.0 <= self.lean_squash <= 1.0:
            raise ConfigError(f"dice pose: lean_squash is 0-1 (or None for never), "
                              f"not {self.lean_squash}")
        if self.open_squash is not None and not 0.0 <= self.open_squash <= 1.0:
            raise ConfigError(f"dice pose: open_squash is 0-1 (or None for never), "
                              f"not {self.open_squash}")


@dataclass(frozen=True, slots=True)
class Pose:
    """The verdict and the measurements behind it."""

    flat: bool
    pip_ratio: float
    spacing_error: float | None
    squareness: float | None
    body_aspect: float | None
    body_size: float | None
    body_fill: float | None
    reasons: tuple[str, ...] = ()
    """Which cues called the die cocked (empty when flat)."""
    cues: tuple[float, ...] | None = None
    """:func:`cue_vector` when it was measured (a sharp die with support, given
    ``PoseConfig.measure_cues``, or ``cue_score`` and no bound calling it cocked),
    else None."""
    bands: tuple[BandProfile, ...] | None = None
    """The band profiles (:func:`.tipped.band_profile`, one per lean direction) when
    they were measured (as :attr:`cues`, for ``PoseConfig.band``), else None."""


def assess(gray: Gray, face: Face, die_pixels: float, config: PoseConfig = PoseConfig(), *,
           nadir: tuple[float, float] | None = None,
           field_pixels: float | None = None, pips: list[Pip] | None = None,
           camera_height: float | None = None, source_die: float | None = None,
           supported: bool = False, lean: tuple[float, float] | None = None,
           leans: Sequence[tuple[float, float]] = (), colour: Colour | None = None) -> Pose:
    """Flat or cocked, for a face found in a rectified field image whose
    dice are ``die_pixels`` wide when flat.  ``nadir`` (the point below the
    camera, pixels of ``gray``) and ``field_pixels`` (the field's width
    there) let the body reach as far toward the nadir as a flat die's side
    faces can (see :func:`perspective_reach`); ``camera_height`` is the lens
    height in field widths when it is known (:mod:`.viewpoint`), else the
    configured lower bound serves.  ``source_die`` is the die's edge in the
    pixels of the image the window was warped from (None: small).  ``supported``:
    the die has a checker, the rail or the bar within reach to lean on
    (:func:`.support.supported`); a sharp die is then judged by
    ``supported_squash`` and ``fine_band_margin``, and, given ``lean`` (the
    unit direction toward the nearest support in the pixels of ``gray``,
    :func:`.support.lean_direction`), by the tipped-up face's outline
    (``outline_margin``) and its pips' squash along that direction (``lean_squash``);
    ``leans`` are the directions of other supports near enough
    to lean on too (:attr:`.support.SupportConfig.second_reach`), whose sides turned
    away are looked at as well, and along which its pips' squash is measured too;
    ``colour`` is the window ``gray`` was made from (BGR), in which a coloured die's
    outline is looked for by its colour too (``chroma_margin``).  A
    die with support is sharp down to ``supported_min_size``; one without is flat
    unless its top face is squashed below ``open_squash``."""
    open_space = config.use_support and not supported
    supported = supported and config.use_support
    height = config.camera_height if camera_height is None else camera_height
    sharp = source_die is not None and source_die >= config.fine_die_pixels
    full = sharp and face.die_size >= config.fine_min_size * die_pixels
    # a die with support smaller than fine_min_size gets the fine squash bounds only
    fine = full or (sharp and supported and config.supported_min_size is not None
                    and face.die_size >= config.supported_min_size * die_pixels)
    if full:
        # a one has no grid to tell its sides by: any blob beside it makes a "side"
        config = replace(config, min_squareness=config.fine_squareness,
                         band_margin=config.fine_band_margin
                         if supported or (source_die is not None
                                          and source_die >= config.fine_band_pixels)
                         else config.band_margin,
                         away_min_pips=config.fine_away_min_pips
                         if face.value > 1 or supported else config.away_min_pips)
    ratio = face.frontality
    reasons: list[str] = []
    if fine:
        squashed = squash(face)
        bound = config.fine_squash[face.value - 1]
        if supported:
            bound = max(bound, config.supported_squash[face.value - 1])
        if squashed < bound:
            reasons.append(f"top face squashed ({squashed:.2f})")
        if supported and lean is not None and config.lean_squash is not None:
            along = [r for r in (lean_squash(gray, face, d, config.pip_shape)
                                 for d in (lean, *leans)) if r is not None]
            if along and min(along) < config.lean_squash:
                reasons.append(f"top face squashed along its lean ({min(along):.3f})")
    elif ratio < config.min_pip_ratio:
        reasons.append(f"pips squashed (axis ratio {ratio:.2f})")
    spacing_error: float | None = None
    if face.value > 1:
        expected = die_pixels / config.die_per_spacing
        spacing_error = face.spacing / expected - 1.0
        if abs(spacing_error) > config.spacing_tolerance:
            reasons.append(f"pip spacing {spacing_error:+.0%} off a flat die's")
    squareness = _squareness(face)
    if squareness is not None and squareness < config.min_squareness:
        reasons.append(f"pip grid not square ({squareness:.2f})")
    around: list[Pip] | None = pips
    if nadir is not None and field_pixels is not None:
        around = side_pips(gray, face, config.sides) if around is None else around
        reasons.extend(_side_reasons(face, around, nadir, die_pixels / field_pixels,
                                     field_pixels, height, config))
        if full and supported and lean is not None and config.outline_margin is not None \
                and squash(face) < config.outline_squash:
            reach = perspective_reach(math.dist(face.center, nadir) / field_pixels,
                                      die_pixels / field_pixels, height)
            bands = [tipped_outline(gray, face, (-x, -y), nadir, reach, config.outline)
                     for x, y in (lean, *leans)]
            band = max((b for b in bands if b is not None), key=lambda b: b.excess,
                       default=None)
            if band is not None and band.excess > config.outline_margin:
                past = band.edge - config.outline.top_edge
                reasons.append(f"the tipped-up face's outline {past:.2f} die edges past the "
                               f"top face (perspective: {band.allowance:.2f})")
            elif colour is not None and config.chroma_margin is not None and face.value > 1:
                # not found in grey: a coloured die's silhouette by its colour (.chroma)
                contrast = chroma_contrast(colour, face, config.chroma)
                tinted = [] if contrast is None else [
                    tipped_outline(contrast, face, (-x, -y), nadir, reach, config.outline)
                    for x, y in (lean, *leans)]
                band = max((b for b in tinted if b is not None), key=lambda b: b.excess,
                           default=None)
                if band is not None and band.excess > config.chroma_margin:
                    past = band.edge - config.outline.top_edge
                    reasons.append(f"the tipped-up face's outline by its colour {past:.2f} die "
                                   f"edges past the top face (perspective: {band.allowance:.2f})")
    aspect, size, fill, toward = _body(gray, face, die_pixels, config)
    if aspect is not None and size is not None and fill is not None and not (
            full and config.fine_skips_body):
        reach = 0.0
        if nadir is not None and field_pixels is not None and toward is not None:
            # the outline is read from grey levels and takes in shadows and bevels:
            # it keeps the lowest camera's allowance (the calibrated height called
            # small flat dice cocked by their body on renders)
            reach = _toward_nadir(face, toward, nadir, config) * perspective_reach(
                math.dist(face.center, nadir) / field_pixels, die_pixels / field_pixels,
                min(height, config.camera_height))
        if aspect > config.max_body_aspect + reach:
            reasons.append(f"body {aspect:.2f} times as long as wide")
        if size > config.max_body_size + reach:
            reasons.append(f"body {size:.2f} die edges long")
        if fill < config.min_body_fill:
            reasons.append(f"body fills {fill:.0%} of its rectangle")
    cues: tuple[float, ...] | None = None
    # only where the score can change the verdict (no bound called it), or asked for
    if (config.measure_cues or (config.cue_score is not None and not reasons)) and full \
            and supported and lean is not None and nadir is not None \
            and field_pixels is not None:
        cues = cue_vector(gray, face, die_pixels / field_pixels, config, nadir=nadir,
                          field_pixels=field_pixels, height=height, lean=lean, leans=leans,
                          pips=around, colour=colour)
        if not reasons and config.cue_score is not None:
            score = cue_score(cues, config.cue_score)
            if score > config.cue_score.threshold:
                reasons.append(f"its cues together (log-odds {score:.2f})")
    profiles: tuple[BandProfile, ...] | None = None
    if (config.measure_cues or (config.band is not None and not reasons)) and full \
            and supported and lean is not None and nadir is not None \
            and field_pixels is not None:
        reach = perspective_reach(math.dist(face.center, nadir) / field_pixels,
                                  die_pixels / field_pixels, height)
        # the colour profile only for the bench's measurements: the model reads grey
        sampled = colour if config.measure_cues else None
        profiles = tuple(b for b in (band_profile(gray, face, (-x, -y), nadir, reach,
                                                  config.band_profile, sampled)
                                  for x, y in (lean, *leans)) if b is not None)
        if not reasons and config.band is not None:
            score = band_score(profiles, config.band, config.band_profile)
            if score > config.band.threshold:
                reasons.append(f"the tipped-up face's band (log-odds {score:.2f})")
    if config.learned is not None and not reasons and fine and supported \
            and lean is not None and nadir is not None and field_pixels is not None:
        reach = perspective_reach(math.dist(face.center, nadir) / field_pixels,
                                  die_pixels / field_pixels, height)
        learned = pose_model.score(gray, face, lean, die_pixels, nadir, reach)
        if learned > config.learned:
            reasons.append(f"its pixels (learned log-odds {learned:.2f})")
    elif config.learned_veto is not None and reasons and fine and supported \
            and lean is not None and nadir is not None and field_pixels is not None:
        reach = perspective_reach(math.dist(face.center, nadir) / field_pixels,
                                  die_pixels / field_pixels, height)
        if pose_model.score(gray, face, lean, die_pixels, nadir, reach) < config.learned_veto:
            reasons = []
    if open_space and config.cocked_needs_support:
        # ... but the support test misses some of the steepest dice (open_squash)
        squashed = squash(face) if fine else 1.0
        reasons = [f"top face squashed ({squashed:.2f}) with nothing found to lean on"] \
            if config.open_squash is not None and squashed < config.open_squash else []
    return Pose(not reasons, ratio, spacing_error, squareness, aspect, size, fill,
                tuple(reasons), cues, profiles)


CUE_CLIP = 0.5
"""Each length cue of :func:`cue_vector` is clipped to this many die edges either side
of its bound, and one not measured (no outline found, no side face) counts as this
far inside it: a far-off value says no more than "well inside"."""


def cue_vector(gray: Gray, face: Face, die: float, config: PoseConfig, *,
               nadir: tuple[float, float], field_pixels: float, height: float,
               lean: tuple[float, float], leans: Sequence[tuple[float, float]] = (),
               pips: list[Pip] | None = None, colour: Colour | None = None
               ) -> tuple[float, ...]:
    """How far past its own bound each cue of :data:`CUES` measured, for a sharp die
    with support (``config`` as :func:`assess` judges it; ``die`` is the die's edge in
    field widths; the rest as for :func:`assess`).  Positive is past the bound (the
    cue alone calls the die cocked), negative inside it: the top face's squash under
    its ``supported_squash`` bound, the squash along the lean under ``lean_squash``, the
    tipped-up face's outline past ``outline_margin`` and by colour past
    ``chroma_margin`` (die edges), the widest side face toward the nadir past its
    perspective allowance and band margin (die edges), and the side pips turned away
    from the nadir against ``away_min_pips``."""
    value = face.value
    squashed = squash(face)
    bound = max(config.fine_squash[value - 1], config.supported_squash[value - 1])
    along = [r for r in (lean_squash(gray, face, d, config.pip_shape)
                         for d in (lean, *leans)) if r is not None]
    lean_bound = 1.0 if config.lean_squash is None else config.lean_squash
    reach = perspective_reach(math.dist(face.center, nadir) / field_pixels, die, height)

    def past(excess: float | None, margin: float | None) -> float:
        if excess is None:
            return -CUE_CLIP
        return float(np.clip(excess - (0.0 if margin is None else margin),
                             -CUE_CLIP, CUE_CLIP))

    bands = [tipped_outline(gray, face, (-x, -y), nadir, reach, config.outline)
             for x, y in (lean, *leans)]
    outline = max((b.excess for b in bands if b is not None), default=None)
    tinted: float | None = None
    if colour is not None and value > 1:
        contrast = chroma_contrast(colour, face, config.chroma)
        if contrast is not None:
            tinted = max((b.excess for b in (
                tipped_outline(contrast, face, (-x, -y), nadir, reach, config.outline)
                for x, y in (lean, *leans)) if b is not None), default=None)
    nx, ny = nadir[0] - face.center[0], nadir[1] - face.center[1]
    norm = math.hypot(nx, ny)
    band: float | None = None
    away = 0
    if norm > 0.0:
        nx, ny = nx / norm, ny / norm
        around = side_pips(gray, face, config.sides) if pips is None else pips
        for side in side_faces(face, around, config.sides):
            cos = side.normal[0] * nx + side.normal[1] * ny
            if cos < config.away_limit:
                away = away + side.pips if value == 1 else max(away, side.pips)
            else:
                wider = side.band - (max(cos, 0.0) * reach * config.reach_slack
                                     + config.band_margin)
                band = wider if band is None else max(band, wider)
    return (bound - squashed, lean_bound - min(along, default=1.0),
            past(outline, config.outline_margin), past(tinted, config.chroma_margin),
            past(band, 0.0), float(min(away, 3) - config.away_min_pips))


def cue_score(cues: Sequence[float], config: CueScoreConfig) -> float:
    """The log-odds that a die with these :func:`cue_vector` values is cocked."""
    return config.bias + sum(w * c for w, c in zip(config.weights, cues, strict=True))


def squash(face: Face) -> float:
    """How squashed the top face looks, 1 for not at all: the axis ratio of the
    pips' shapes pooled (each pip's ellipse as a unit second-moment tensor,
    averaged, so that one pip's noise in any direction does not pass for a
    squash the others do not share), averaged for a four and a five with the
    second moments of their corners (a square's are round)."""
    tensor = np.zeros((2, 2))
    for pip in face.pips:
        theta = math.radians(pip.angle)  # the short axis
        short = np.array([math.cos(theta), math.sin(theta)])
        long = np.array([-short[1], short[0]])
        ratio = pip.minor / pip.major if pip.major > 0 else 1.0
        tensor += ratio * ratio * np.outer(short, short) + np.outer(long, long)
    tensor /= np.trace(tensor)
    if face.value in (4, 5):
        points = np.array([(p.x, p.y) for p in face.pips], dtype=np.float64)
        if face.value == 5:  # the middle pip is no corner
            middle = np.argmin(np.linalg.norm(points - points.mean(axis=0), axis=1))
            points = np.delete(points, middle, axis=0)
        centred = points - points.mean(axis=0)
        corners = centred.T @ centred
        if np.trace(corners) > 0.0:
            tensor = (tensor + corners / np.trace(corners)) / 2.0
    low, high = np.linalg.eigvalsh(tensor)
    return float(math.sqrt(max(float(low), 0.0) / float(high))) if high > 0.0 else 1.0


def calibrated_height(field_map: FieldMap, image_size: tuple[int, int], field_aspect: float,
                      config: PoseConfig = PoseConfig()) -> float | None:
    """The lens height over the board in field widths, recovered from the field's
    corners in an image ``image_size`` (width, height) pixels (see
    :mod:`.viewpoint`), or None when no pinhole of the configured field of view
    fits them (:meth:`.viewpoint.Viewpoint.fits`)."""
    try:
        view = viewpoint(field_map, image_size, field_aspect, config.viewpoint)
    except CalibrationError:
        return None
    return view.height if view.fits(image_size[0], config.viewpoint) else None


def perspective_reach(distance: float, die: float, camera_height: float) -> float:
    """How far, in die edges, a flat die's side faces show beyond its top face
    in the rectified field: a camera ``camera_height`` above the board sees the
    top face ``die`` higher than the footprint displaced from it by ``die /
    (camera_height - die)`` of the die's ``distance`` from the nadir (all three
    in field widths)."""
    if camera_height <= die:
        raise ValueError("the camera must be higher than a die")
    return distance / (camera_height - die)


def _side_reasons(face: Face, pips: list[Pip], nadir: tuple[float, float], die: float,
                  field_pixels: float, height: float, config: PoseConfig) -> list[str]:
    """Why the side faces seen beside ``face`` are not a flat die's (none when they are)."""
    nx, ny = nadir[0] - face.center[0], nadir[1] - face.center[1]
    distance = math.hypot(nx, ny)
    if distance == 0.0:
        return []
    nx, ny = nx / distance, ny / distance
    reach = perspective_reach(distance / field_pixels, die, height)
    reasons = []
    sides = side_faces(face, pips, config.sides)
    if face.value == 1:
        # a one has no grid: each side pip makes its own "side" toward it, so the
        # pips on sides turned away are counted together
        away = sum(s.pips for s in sides if s.normal[0] * nx + s.normal[1] * ny
                   < config.away_limit)
        if away >= config.away_min_pips:
            reasons.append(f"side faces turned from the camera show ({away} pips)")
    for side in sides:
        cos = side.normal[0] * nx + side.normal[1] * ny
        if face.value > 1 and cos < config.away_limit and side.pips >= config.away_min_pips:
            reasons.append(f"a side face turned from the camera shows ({side.pips} pips)")
        elif cos >= config.away_limit and side.band > (
                max(cos, 0.0) * reach * config.reach_slack + config.band_margin):
            reasons.append(f"a side face {side.band:.2f} die edges wide "
                           f"(perspective: {max(cos, 0.0) * reach:.2f})")
    return reasons


def _toward_nadir(face: Face, toward: tuple[float, float, float],
                  nadir: tuple[float, float], config: PoseConfig) -> float:
    """1 when the body's extra length lies along the direction to the nadir, on
    the nadir's side of the top face (as a flat die's visible sides do), else 0.
    ``toward`` is the body's middle (x, y) and long-axis angle in degrees."""
    bx, by, angle = toward
    nx, ny = nadir[0] - face.center[0], nadir[1] - face.center[1]
    norm = math.hypot(nx, ny)
    if norm == 0.0:
        return 0.0
    nx, ny = nx / norm, ny / norm
    ax, ay = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    if abs(ax * nx + ay * ny) < math.cos(math.radians(config.nadir_cone)):
        return 0.0
    # the body's middle lies between the top face and the nadir
    return 1.0 if (bx - face.center[0]) * nx + (by - face.center[1]) * ny > 0.0 else 0.0


def _squareness(face: Face) -> float | None:
    """The two grid steps' ratio (short over long) of a four, five or six."""
    if face.value < 4:
        return None
    points = np.array([(p.x, p.y) for p in face.pips], dtype=np.float64)
    centred = points - points.mean(axis=0)
    values = np.linalg.svd(centred, compute_uv=False) / math.sqrt(len(points))
    if face.value == 6:
        # rows of three: spread along a row is sqrt(2/3) of the step, across it one step
        steps = sorted([values[0], values[1]])
        across, along = max(steps), min(steps) / math.sqrt(2.0 / 3.0)
        pair = sorted([across, along])
        return float(pair[0] / pair[1]) if pair[1] > 0 else None
    return float(values[1] / values[0]) if values[0] > 0 else None


def _body(gray: Gray, face: Face, die_pixels: float, config: PoseConfig
          ) -> tuple[float | None, float | None, float | None, tuple[float, float, float] | None]:
    """The die body's outline: aspect, size over the expected edge, fill, and
    its middle and long axis (x, y, degrees)."""
    reach = math.ceil(die_pixels * 1.6)
    h, w = gray.shape
    cx, cy = face.center
    x0, y0 = max(0, int(cx) - reach), max(0, int(cy) - reach)
    x1, y1 = min(w, int(cx) + reach + 1), min(h, int(cy) + reach + 1)
    patch = gray[y0:y1, x0:x1].astype(np.float32)
    level = statistics.median([p.face for p in face.pips])
    if face.polarity == "light":
        level = 255.0 - level
    contrast = statistics.median([p.contrast for p in face.pips])
    found = _body_at(patch, face, (x0, y0), level, config.body_tolerance * contrast,
                     die_pixels, config)
    return (None, None, None, None) if found is None else found


def _body_at(patch: npt.NDArray[np.float32], face: Face, origin: tuple[int, int], level: float,
             tolerance: float, die_pixels: float, config: PoseConfig
             ) -> tuple[float, float, float, tuple[float, float, float]] | None:
    """The body as the pixels within ``tolerance`` grey levels of the top face
    joined to it, or None when that merges with its surroundings or is too small."""
    x0, y0 = origin
    cx, cy = face.center
    body = (np.abs(patch - level) <= tolerance).astype(np.uint8)
    for pip in face.pips:  # the pips are part of the body
        # the first axis lies along the pip's angle, its short axis
        cv2.ellipse(body, ((pip.x - x0, pip.y - y0), (pip.minor * 1.3, pip.major * 1.3),
                           pip.angle), 1, -1)
    body = cv2.morphologyEx(body, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels = cv2.connectedComponents(body, connectivity=4)
    seed = labels[min(max(int(cy) - y0, 0), labels.shape[0] - 1),
                  min(max(int(cx) - x0, 0), labels.shape[1] - 1)]
    if count < 2 or seed == 0:
        return None
    mask = labels == seed
    area = float(mask.sum())
    if area > config.max_body_area * die_pixels**2 or area < 0.25 * die_pixels**2:
        return None
    ys, xs = np.nonzero(mask)
    contour = np.stack([xs, ys], axis=1).astype(np.float32)
    (rx, ry), (rw, rh), angle = cv2.minAreaRect(contour)
    if min(rw, rh) <= 0 or max(rw, rh) > config.merged_reach * die_pixels:
        return None
    long_axis = float(angle) if rw >= rh else float(angle) + 90.0
    return (float(max(rw, rh) / min(rw, rh)), float(max(rw, rh) / die_pixels),
            float(area / (rw * rh)), (float(rx) + x0, float(ry) + y0, long_axis))
