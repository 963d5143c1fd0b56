"""The checker stage as one call: rectified field in, counts out."""

import math
from dataclasses import dataclass, field, replace

from vision.checkers.bar import BarConfig, find_bar_circles
from vision.checkers.colours import (
    ColourConfig,
    ColourModel,
    Lab,
    LearnConfig,
    circle_colours,
    colour_leans,
    learnable,
    median_colour,
    models_agree,
    split_colours,
    weak_guess,
)
from vision.checkers.count import CheckerCount, CountConfig, count_checkers
from vision.checkers.detect import (
    Circle,
    DetectConfig,
    Image,
    edge_map,
    expected_radius,
    find_circles,
)
from vision.checkers.dice_circles import DiceCirclesConfig, dice_circles
from vision.checkers.slots import SlotConfig, find_slot_circles
from vision.checkers.surface import SurfaceConfig, glare_lifts
from vision.checkers.tray import TrayReading
from vision.observation import Counts
from vision.profile import BoardProfile


@dataclass(frozen=True, slots=True)
class CheckerConfig:
    """Every threshold of the checker stage."""

    detect: DetectConfig = field(default_factory=DetectConfig)
    bar: BarConfig = field(default_factory=BarConfig)
    slots: SlotConfig = field(default_factory=SlotConfig)
    surface: SurfaceConfig = field(default_factory=SurfaceConfig)
    colours: ColourConfig = field(default_factory=ColourConfig)
    count: CountConfig = field(default_factory=CountConfig)
    learn: LearnConfig = field(default_factory=LearnConfig)
    """When a stream learns its set's colours from its own frames (:class:`ColourLearner`)."""
    dice: DiceCirclesConfig = field(default_factory=DiceCirclesConfig)
    """When a circle is a die the dice stage found, not a checker
    (:meth:`CheckerEvidence.without_dice`)."""
    reference_width: int = 640
    """The rectified field's width (pixels) at which the settings given in pixels hold as
    written; every other length of the stage is in checker radii (or slots), which follow
    the field's width by themselves.  Those in pixels: the blur before the gradient
    (``detect.rim.sigma``), the vote cell (``detect.votes.cell``) and the glare test's
    step along a ray (``detect.glare_step``), lengths; the least gradients that count
    (``detect.rim``, ``detect.votes``, ``detect.fit``, ``slots``, ``bar``: grey levels a
    pixel); the votes a candidate needs (``detect.accumulator``); the least pixel counts
    (``slots.silhouette_pixels``, ``slots.hidden_pixels``, ``surface.min_pixels``).  A
    field of another width reads them as :meth:`at_width` restates them.  640: the width
    every one of them was measured at."""

    def at_width(self, width: int) -> "CheckerConfig":
        """These settings for a field ``width`` pixels wide: this config itself at the
        reference width; else, with ``s = width / reference_width``, the pixel lengths
        times ``s`` (the same share of a checker), the least gradients over ``s`` (a
        blurred rim's step spreads over ``s`` times the pixels, so its gradient a pixel
        is ``1 / s`` times), the votes a candidate needs times ``s`` (a rim has ``s``
        times the pixels to vote, and the cell keeps its share of a checker) and the
        least pixel counts times ``s`` squared, rounded up (the pixels of a disc or a
        ring)."""
        if width == self.reference_width:
            return self
        s = width / self.reference_width
        detect = self.detect

        def count(pixels: int) -> int:
            return math.ceil(pixels * s * s)

        detect = replace(
            detect,
            rim=replace(detect.rim, sigma=detect.rim.sigma * s,
                        gradient=detect.rim.gradient / s),
            votes=replace(detect.votes, cell=detect.votes.cell * s,
                          gradient=detect.votes.gradient / s),
            fit=replace(detect.fit, gradient=detect.fit.gradient / s),
            accumulator=detect.accumulator * s,
            glare_step=detect.glare_step * s)
        return replace(
            self, detect=detect,
            slots=replace(self.slots, gradient=self.slots.gradient / s,
                          silhouette_pixels=count(self.slots.silhouette_pixels),
                          hidden_pixels=count(self.slots.hidden_pixels)),
            bar=replace(self.bar, gradient=self.bar.gradient / s),
            surface=replace(self.surface, min_pixels=count(self.surface.min_pixels)),
            reference_width=width)


@dataclass(frozen=True)
class CheckerEvidence:
    """What the image shows of the checkers (circles and their colours), before they are
    counted.

    Kept apart from the count so a field can be counted more than once, e.g. with the
    tray's counts and without them (the pipeline's second opinion on a stack the tray
    settled), for the price of one look at the image: the count is a small part of the
    stage's time."""

    circles: list[Circle]
    light: list[bool]
    profile: BoardProfile
    size: tuple[int, int]
    radius: float
    turnable: bool
    config: CheckerConfig
    lean: list[float] | None = None
    """Per circle, how far its colour leans to the light side (see
    :func:`.colours.colour_leans`): settles a point whose circles split evenly."""
    face: Lab | None = None
    """The circles' median colour, for a board of one colour whose lightness said little
    (``turnable``): compared with the tray's blocks (see ``CountConfig.tray_face``)."""
    colours: tuple[Lab, ...] = ()
    """Per circle, its Lab colour (see :func:`.colours.circle_colours`): what a stream
    learns its set's colours from (:class:`ColourLearner`)."""

    def count(self, on_board: Counts | None = None,
              off: TrayReading | None = None) -> CheckerCount:
        """The counts (see :func:`read_checkers` for ``on_board`` and ``off``)."""
        return count_checkers(self.circles, self.light, self.profile, self.size,
                              self.config.count, self.radius, on_board, off, self.turnable,
                              self.lean, self.face)

    def without_dice(self, dice: list[tuple[float, float]]) -> "CheckerEvidence | None":
        """The evidence without the circles that are dice (see :mod:`.dice_circles`), or
        None when none is.  ``dice``: the centres, in the rectified field's pixels, of the
        dice the dice stage found on the field and off the checkers."""
        drop = set(dice_circles(self.circles, self.light, self.colours, self.radius, dice,
                                self.config.colours.lightness_weight, self.config.dice))
        if not drop:
            return None
        keep = [i for i in range(len(self.circles)) if i not in drop]
        colours = tuple(self.colours[i] for i in keep)
        return replace(self, circles=[self.circles[i] for i in keep],
                       light=[self.light[i] for i in keep],
                       lean=None if self.lean is None else [self.lean[i] for i in keep],
                       face=None if self.face is None else median_colour(list(colours)),
                       colours=colours)


def measure_checkers(field_image: Image, profile: BoardProfile, *,
                     model: ColourModel | None = None,
                     config: CheckerConfig | None = None) -> CheckerEvidence:
    """The circles of a rectified field image and their colours (see :func:`read_checkers`)."""
    height, width = field_image.shape[:2]
    config = (config or CheckerConfig()).at_width(width)
    edges = edge_map(field_image, profile, config.detect)
    circles = find_circles(field_image, profile, config.detect, edges)
    radius = expected_radius(profile, width)
    circles += find_bar_circles(edges, circles, profile, radius, config.detect, config.bar)
    circles += find_slot_circles(edges, circles, profile, radius, config.detect, config.slots,
                                 field_image)
    lifts = glare_lifts(field_image, circles, profile, radius, config.surface, edges.blurred)
    colours = circle_colours(field_image, circles, config.colours, lifts)
    light = split_colours(colours, model, config.colours)
    turnable = model is None and weak_guess(colours, light, config.colours)
    face = median_colour(colours) if turnable else None
    return CheckerEvidence(circles, light, profile, (width, height), radius, turnable, config,
                           colour_leans(colours, light, model, config.colours), face,
                           tuple(colours))


def read_checkers(field_image: Image, profile: BoardProfile, *,
                  model: ColourModel | None = None,
                  config: CheckerConfig | None = None,
                  on_board: Counts | None = None,
                  off: TrayReading | None = None) -> CheckerCount:
    """Count the checkers of a rectified field image (see :mod:`vision.rectify`).

    ``on_board``: how many checkers of each colour lie on the points and the bar, when
    the caller knows (15 less those borne off); a stack in doubt (a second layer
    shifted too little to show for sure) then takes the count that makes its colour add
    up.  Without it the totals the rules imply settle such stacks where they say anything
    (``config.count.presume_totals``); ``off``, the reading of a tray in view
    (:func:`.tray.read_tray_reading`), tells them for a side that may be bearing off, and
    turns a board of one colour whose lightness said little (see
    :func:`.colours.weak_guess`) when its counts do not add up the way it was read.  Its
    counts rest on a measured thickness (:attr:`.tray.TrayReading.measured`: exact) or on
    the thickness it guessed (:attr:`.tray.TrayReading.thickness`), and then a side's
    total they imply is only known within a range (``CountConfig.tray_spread``)."""
    return measure_checkers(field_image, profile, model=model, config=config).count(
        on_board, off)


class ColourLearner:
    """Learns a set's :class:`ColourModel` from a stream's own frames (issue 4).

    Offered every fresh frame read without a model, it keeps a model once
    ``LearnConfig.frames`` frames in a row were unoccluded, counted all fifteen
    checkers of each side on the board, split their circles into two colours well apart
    (:func:`.colours.learnable`) and agree on the two colours.  Every game starts so, with
    both colours in view; later frames (a red side alone late in a bear-off, which one
    frame cannot tell light or dark) are then read with the model.  Once kept, the
    model stays until :meth:`reset`."""

    def __init__(self, config: CheckerConfig | None = None) -> None:
        self.config = config or CheckerConfig()
        self.model: ColourModel | None = None
        self._run: list[ColourModel] = []

    def offer(self, evidence: CheckerEvidence, count: CheckerCount,
              occluded: bool) -> ColourModel | None:
        """Take one frame into account (its evidence, its count, whether anything covered
        the board); the model, once learned."""
        if self.model is not None:
            return self.model
        learn = self.config.learn
        candidate = None
        light = sum(p.light for p in count.points) + count.bar.light
        dark = sum(p.dark for p in count.points) + count.bar.dark
        if not occluded and light == dark == learn.per_side:
            candidate = learnable(list(evidence.colours), evidence.light, learn,
                                  self.config.colours)
        if candidate is None:
            self._run = []
            return None
        if self._run and not models_agree(self._run[0], candidate, learn, self.config.colours):
            self._run = []
        self._run.append(candidate)
        if len(self._run) >= learn.frames:
            self.model = ColourModel(_median([m.light for m in self._run]),
                                     _median([m.dark for m in self._run]))
            self._run = []
        return self.model

    def reset(self) -> None:
        """Forget the model and the frames towards one (a new calibration: maybe a new set)."""
        self.model = None
        self._run = []


def _median(colours: list[Lab]) -> Lab:
    middle = median_colour(colours)
    if middle is None:
        raise ValueError("no colours to take the median of")
    return middle
