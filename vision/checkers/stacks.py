"""How many checkers a stack holds, hidden ones included.

Players stack a point the same way every time: a row from the rail, one
diameter apart, then a second layer on top of the row, each checker a
little further from the rail than the one under it (a fraction of a
diameter, the *shift*), then a third layer shifted again.  From above, the
top layer hides most of the row beneath, so counting circles falls short;
the row can be counted by its *extent* instead, and the higher layers by
their *phase*.

Measured from the rail in checker spacings, a row checker's centre lies at
a whole number (0, 1, 2, ...) and a checker of a higher layer does not: it
sits between two row checkers.  So a stack holds

    (slots of the row, up to its farthest checker) + (checkers off the row's phase).

The farthest checker of a stack always belongs to the row (higher layers
are shorter), so the row's length never needs the hidden checkers to be
seen.  The spacing and the rail offset are measured on the frame's own
stacks, so sloppy or generous spacing and small calibration errors do not
shift the phases.  A higher layer needs a row of at least ``min_row``
checkers under it: a lone checker a little off its place is not on top of
anything.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise

import numpy as np
import numpy.typing as npt


@dataclass(frozen=True, slots=True)
class StackConfig:
    """Thresholds of the stack reading (distances in spacings unless stated)."""

    enabled: bool = True
    spacing: float = 1.03
    """Centre distance of neighbours in a row, in diameters, when a frame has too few
    touching neighbours to measure it."""
    touching: tuple[float, float] = (0.95, 1.15)
    """Gaps between neighbours (in diameters) that count as touching, to measure the
    spacing."""
    min_samples: int = 3
    """Gaps (or row checkers) a frame needs to measure the spacing (or the offset)."""
    anchor: float = 0.25
    """Checkers within this phase of a row slot set the frame's offset from the rail."""
    phase: float = 0.12
    """Least distance from a row slot of a checker on a higher layer.  Row checkers lie
    within 0.03 of their slot (0.1 when sloppy), a second layer at the players' shift
    (0.1-0.5) less a little perspective."""
    min_row: int = 4
    """A higher layer rests on a row of at least this many checkers."""
    overhang: float = 0.1
    """A higher checker lies no further out than the row's last slot plus this."""
    rescale: float = 0.5
    """How far each stack's own spacing (its farthest checker on a whole slot) replaces
    the frame's: players space some points more generously than others."""
    rescale_from: int = 2
    """... for stacks whose farthest checker is at least this many slots out."""
    doubt: float = 0.04
    """A higher checker whose phase is within this of the threshold may be a row checker."""
    doubt_row: int = 5
    """A tiny-shift second layer is only suspected on a row this long (players stack on
    full rows of five or six)."""
    doubt_floor: float = 0.0
    """Checkers of a tiny-shift second layer all lie beyond their slot (phase at least
    this).  Perspective pulls a layer towards the rail, and a layer shifted 0.1 showed a
    checker at -0.05 (tune seed 21, scene 644: seven read as five, fixed from -0.06
    down), but a floor that low also offered a row of five one more where a tray read a
    checker short made the total ask for it (tune seed 11, scene 255): no gain on the
    1,300 tune renders, so the floor stays."""
    plausible: float = 0.0
    """Least plausibility of an alternative taken to match a known total."""
    pairs: bool = True
    """When no single stack's alternative makes a colour add up, two stacks' may together
    (see :func:`.totals.choose_alternatives`): two stacks of six with a second layer of
    one shifted too little to show, both read as five (tune seed 41, scene 72).  Off, only
    single alternatives are taken."""
    pair_floor: float = 0.03
    """Least plausibility of each half of a pair: two changes at once are taken only when
    both are well founded (a tiny-shift layer standing out by 0.065 and 0.085 in the
    scene above; the floor keeps out the far-fetched alternatives, -0.01-0.02, that many
    stacks offer)."""
    presumed: float = 0.0
    """Least plausibility of an alternative taken to match a total the rules only imply
    (see :func:`.totals.presumed_on_board`): a side may have borne off and been hit, so a
    far-fetched alternative (its phases no further out than the rest's) is not taken.
    On the tune renders any floor from -0.01 to 0.003 reads the same (0.01 missed two
    boards)."""
    uncovered: float = 0.05
    """A checker with no more than this share of its rim covered is on top of its place."""
    overlap: float = 0.75
    """Checkers closer than this (slots) along a stack overlap."""
    layer_gap: float = 0.15
    """Phases of higher checkers further apart than this are on different layers."""
    prefix: bool = True
    """Look for a second layer shifted too little for ``phase`` as a *run* of checkers
    from the rail standing a little further out than the rest of the row (see
    :func:`_prefix_layer`)."""
    prefix_sigma: float = 0.035
    """Spread of row checkers' phases about their slots (hand placement, the measured
    spacing), in slots."""
    prefix_evidence: float = 2.5
    """Least log-likelihood gain (in units of ``prefix_sigma``) of "the run from the rail
    is a layer" over "all are in the row"."""
    prefix_gap: float = 0.07
    """Least difference of the run's mean phase and the rest's."""
    prefix_doubt: float = 0.02
    """Plausibility of the count without a layer found as a run (for the totals)."""
    top_extent: bool = False
    """The top layer too counts by its extent from the rail (a layer runs from the rail
    without a gap).  Off, the count from the extent is only an alternative (see
    ``gap_plausible``): a row checker a little off its slot, taken for a higher one far
    out, would add the whole gap."""
    gap_plausible: float = 0.02
    """Plausibility of the count with the top layer's gaps filled (a checker of it missed,
    or taken for a row checker), for the totals; 0 offers no such alternative.  Above
    ``presumed``: a layer with a gap is rarer than a row checker shifted a little."""
    third_gap: float = 0.07
    """Least phase between the run from the rail (a third layer) and the rest of one group
    of higher checkers (see :func:`_third_layer`); 0 leaves such a group one layer.  Two
    layers' phases part by the shift (0.1-0.5) less perspective; one layer's spread by
    about 0.05.  On the tune renders 0.065-0.08 read the same."""
    top_run: bool = True
    """A third layer found on whole slots (see :func:`_over_higher`) takes in the
    uncovered checkers between its first and last: one of them may have no covered
    checker of the second layer beside it (tune seed 11: twelve read as eleven twice,
    the third's middle checker taken for the row's)."""
    third_doubt: float = 0.03
    """A run from the rail standing out from the rest of its group of higher checkers by
    less than ``third_gap`` but at least this (and ``third_ratio`` as far) may still be a
    third layer: the count with it is offered to the totals (plausibility
    ``third_plausible``).  0 offers none."""
    third_plausible: float = 0.01
    """Plausibility of the count with a third layer closer than ``third_gap``."""
    third_step: float = 1.5
    """The higher checkers of a stack with a third layer follow one another from the rail
    (the third, then the second beyond it) no further apart than this (slots); a gap means
    a row checker taken for a higher one, not a layer."""
    third_ratio: tuple[float, float] = (1.4, 2.8)
    """Range of the third layer's phase over the second's."""
    third_most: float = 0.35
    """A second layer shifted further has its third at a whole slot (see
    :func:`_over_higher`)."""
    prefix_most: float = 0.35
    """Checkers with a phase beyond this (a half shift) are on a layer by ``phase`` alone
    and take no part in the run test."""
    lateral_gap: float = 0.09
    """A run from the rail whose checkers all stand further out *sideways* than every
    other checker of the stack by at least this (slots; 0.09 is about 4.5 pixels at 640)
    is a second layer when the run test finds none; 0 switches this off.  It is made only
    on the points ``CountConfig.lateral_points`` names (the outermost ones).  The camera
    looks at a stack near the field's left or right edge from the side: parallax moves a
    checker's face outwards by its height, so a layer shifted too little along the point
    to show (0.1 diameters and less, which perspective takes back) stands out sideways by
    half a checker's thickness or more (3-9 pixels on the tune renders' outermost points;
    the row's checkers share one offset and differ only by the players' jitter, 0.5-2.6
    pixels each).  At 0.06 on every point it read two tune boards right and none wrong on
    1,088 tune renders, but took row checkers jittered sideways for a layer on the
    reported seeds (vision_accuracy --seed 8 scene 802, a burgundy-leather board: five
    read as eight; checker_accuracy --seed 13 scene 19: five as nine), so it was left off
    (round six).  Round eleven made it on the outermost points only, where parallax is
    largest and points outwards: on the 1,884 cached tune pipeline fields two boards
    right (tune seeds 22 scene 160 and 27 scene 209) and none lost at 0.06-0.09 (0.1 keeps
    only the second: the first's layer parts from the row by 0.093), on the checker
    bench's tune seeds 51, 61, 71 and bear-off 101 nothing changed, bear-off 102 one
    board right (scene 17: six on p0 read five).  0.09, the most that keeps both, leaves
    the widest margin over the jitter of two checkers against each other."""
    short_overlap: float = 0.75
    """In a stack too short for a layer (its row under ``min_row``), a farthest circle
    within this many slots of the one before it, and off its slot by at least ``phase``,
    overlaps that checker where no checker lies on another: a phantom (a rim in a grained
    point's base beside a lone checker, pipeline tune seed 22, scene 162: one read as
    two), and the row ends before it.  0 keeps it."""
    hidden_reach: bool = True
    """A row slot with no centre on it beyond the reach of the farthest higher checker
    seen, when that one stands a half shift out (``prefix_most``), is covered by more of
    its layer: a layer's last checker missed (checker bench tune seed 51, scene 63: a
    layer at 0.43 and 1.47 over a row of five whose slots 1-3 showed nothing, eight read
    as seven; slot 3 lies beyond what the layer seen covers).  On the tune renders (980
    frames) the only stack with such a slot.  Off: the count of the layer seen."""
    rail_row: float = 0.5
    """Checkers taken for higher ones by a phase just past ``phase`` (within ``doubt``),
    with no clearly higher checker in the stack, are row checkers when the uncovered
    checkers between them and the rail (which a layer from the rail would hold too,
    standing out as far) stand out on average less than this share of their phase: a
    row of six spaced generously, its fourth checker jittered 0.135 out, read as a layer
    of four (pipeline tune seed 22, scene 257: six read as ten).  0 keeps them higher."""
    slot_row: bool = True
    """A checker taken for a higher one by a phase just past ``phase`` (within ``doubt``),
    in a stack whose layer stands a half shift out (its phase past ``prefix_most``), is
    the row checker of its nearest slot when no row checker was seen there: one layer
    has one phase, and a third layer would stand out twice as far as the second, not a
    third as far (checker bench tune seed 61, scene 191: a row of five with its second
    checker at 1.136 and a layer checker at 0.474, six read as eight).  Off: it stays
    higher."""
    lone_room: int = 1
    """A side whose total on the board is sure (fifteen for a side spread over two
    quarters or more, or on the bar; or the caller's) and still reads short by ``k`` (at
    most this many) once the alternatives are taken, with exactly one stack of its colour
    that has room for ``k`` unseen (:attr:`Stack.room`: a full row with nothing seen on
    it), has them there: a second layer shifted 0.1 diameters or less, which perspective
    pulls back onto the row's slots (its first checker at -0.02 slots), leaves no trace
    an alternative could rest on, and a full row is where players start a layer.  A short
    total from a checker missed elsewhere (white on white under glare) is a wrong board
    either way.  0: off."""
    lateral_phase: float = 0.02
    """... and stands out along the point too by at least this (slots) on average: a
    layer lies further from the rail than the checkers under it."""
    covered_row: float = 0.1
    """A stack's only checker taken for a higher one by its phase, whose own rim is covered
    by at least this share while the other checkers within a slot of it are uncovered
    (``uncovered``), lies *under* them: a row checker off its slot, not a layer (a layer
    checker lies on top of the row checkers beside it, whose rims it covers, and shows its
    own rim whole).  Fresh tune pipeline seed 41, scene 941: a row of five, its fourth
    checker 0.17 slots out with 0.16 of its rim under the fifth's, read as six.  On the
    1,884 cached tune pipeline fields and fresh tune seeds 41-43 (1,430) a lone higher
    checker was covered 0.11 (tune seed 31, scene 282: a real layer, the row checkers
    beside it covered 0.28 and 0.36) or not at all (23 stacks, all 0.00) apart from that
    one; 0.1, twice ``uncovered``, lies between.  0: off."""

    under_layer: float = 0.08
    """A checker taken for a higher one by its phase, its own rim covered by at least
    ``covered_row``, lying within ``overlap`` slots of an uncovered higher checker, is a
    row checker under that layer when it lies before its slot (towards the rail: a layer
    lies beyond the row's slots, a shift of under half a slot) or within this many slots
    of the uncovered one (two checkers on one place: the layer checker and the row
    checker under it, whose centre its cover pulled off the slot; a third layer stands a
    whole shift, 0.1 or more, beyond the second).  Fresh tune pipeline seed 62: scene 457,
    a row checker found 0.04 slots from the layer checker on it (covered 0.47), six read
    seven; scene 684, a row checker covered 0.27 by the layer's last, 0.13 before its
    slot, eight read nine.  On 1,249 fresh tune pipeline fields (seeds 60-63) the rule
    met those two stacks only; the checker bench's tune seeds 62-64, bear-off seed 62 and
    held-out seed 66 read the same.  0.08: under the least shift, over the 0.04 seen.
    0: off."""


@dataclass(frozen=True, slots=True)
class StackFrame:
    """What a frame's stacks share: the spacing and each row's offset from the rail."""

    spacing: float
    """Centre distance of touching neighbours, pixels."""
    radius: float
    offset: tuple[float, float]
    """Phase of a row slot's centre for points along the (top, bottom) rail, in spacings."""

    def slot(self, distance: float, top: bool) -> float:
        """Where a centre ``distance`` pixels from its rail lies, in row slots."""
        return (distance - self.radius) / self.spacing - self.offset[0 if top else 1]

    def distance(self, slot: float, top: bool) -> float:
        """The inverse of :meth:`slot`."""
        return (slot + self.offset[0 if top else 1]) * self.spacing + self.radius


@dataclass(frozen=True, slots=True)
class Stack:
    """One stack read."""

    count: int
    row: int
    """Slots of the row, 0 to ``row - 1``."""
    higher: tuple[bool, ...]
    """Per input centre: on a higher layer."""
    hidden: tuple[int, ...]
    """Row slots with no centre seen on them (covered by higher checkers)."""
    alternatives: tuple[tuple[int, float], ...] = ()
    """Other counts the stack may hold, each with its plausibility (the larger, the more
    plausible): a second layer shifted too little to show for sure (more), a checker
    taken for a higher one barely off its slot (one less).  For the caller that knows
    how many checkers a side has on the board (:mod:`.totals`)."""
    room: int = 0
    """How many checkers a second layer shifted too little to show at all could hide on
    the stack: a full row (``StackConfig.doubt_row`` or longer) with no checker seen off
    its slot has room for a layer of up to one less than the row (a layer is shorter than
    the row under it); 0 for any other stack (see ``StackConfig.lone_room``)."""


def stack_frame(stacks: Iterable[tuple[bool, Sequence[float]]], radius: float,
                config: StackConfig) -> StackFrame:
    """The spacing and row offsets of a frame, from its stacks as (top rail?, centre
    distances from the rail in pixels)."""
    stacks = list(stacks)
    low, high = (2.0 * radius * t for t in config.touching)
    gaps: list[float] = []
    for _, distances in stacks:
        ordered = sorted(distances)
        gaps += [b - a for a, b in pairwise(ordered) if low < b - a < high]
    spacing = float(np.median(gaps)) if len(gaps) >= config.min_samples \
        else 2.0 * radius * config.spacing
    offsets = []
    for rail in (True, False):
        phases = [p for top, distances in stacks if top == rail for d in _row_only(distances,
                                                                                  config)
                  if abs(p := _phase((d - radius) / spacing)) < config.anchor]
        offsets.append(float(np.median(phases)) if len(phases) >= config.min_samples else 0.0)
    return StackFrame(spacing, radius, (offsets[0], offsets[1]))


def _row_only(distances: Sequence[float], config: StackConfig) -> list[float]:
    """The centres of a stack surely in its row: all of a stack too short for a second
    layer, the farthest of a longer one (higher layers are shorter than the row)."""
    if len(distances) < config.min_row:
        return list(distances)
    return [max(distances)]


def read_stack(distances: Sequence[float], top: bool, frame: StackFrame,
               config: StackConfig, covered: Sequence[float] | None = None,
               outward: Sequence[float] | None = None) -> Stack:
    """Count one stack from its centres' distances from the rail (pixels), the share
    of each one's rim covered by checkers found before it (0 for one on top) and, when
    given, each centre's sideways offset from the point's middle line towards the nearer
    side edge of the field (pixels; see ``config.lateral_gap``)."""
    if not distances:
        return Stack(0, 0, (), ())
    slots = np.array([frame.slot(d, top) for d in distances])
    if not config.enabled:
        return Stack(len(distances), len(distances), (False,) * len(distances), ())
    reach = slots
    if config.short_overlap > 0.0 and len(slots) >= 2:
        ordered = np.sort(slots)
        last = float(ordered[-1])
        if int(np.rint(last)) + 1 < config.min_row \
                and last - float(ordered[-2]) < config.short_overlap \
                and abs(last - float(np.rint(last))) >= config.phase:
            reach = ordered[:-1]
    row = max(int(np.rint(reach.max())) + 1, 1)
    far = float(reach.max())
    if row - 1 >= config.rescale_from and far > 0.0:
        # The farthest checker is in the row, on a whole slot: the stack's own spacing.
        slots = slots * ((1.0 - config.rescale) + config.rescale * (row - 1) / far)
    phases = np.abs(slots - np.rint(slots))
    higher = ((phases >= config.phase) & (row >= config.min_row)
              & (slots <= row - 1 + config.overhang))
    cover = np.zeros(len(slots)) if covered is None else np.asarray(covered, dtype=np.float64)
    if config.rail_row > 0.0 and higher.any():
        higher &= ~_row_past_rail_row(slots, phases, cover, higher, config)
    if config.slot_row and higher.any():
        higher &= ~_row_on_empty_slot(slots, phases, higher, config)
    if config.covered_row > 0.0 and covered is not None and np.count_nonzero(higher) == 1:
        higher &= ~_under_its_row(slots, cover, higher, config)
    if config.under_layer > 0.0 and covered is not None and higher.any():
        higher &= ~_under_a_layer(slots, cover, higher, config)
    added = 0
    if config.prefix and row >= config.doubt_row:
        run = _prefix_layer(slots, cover, higher, config) & ~higher
        if not run.any() and not higher.any() and outward is not None \
                and config.lateral_gap > 0.0:
            run = _lateral_layer(slots, cover, np.asarray(outward, dtype=np.float64)
                                 / frame.spacing, config)
        added = int(run.sum())
        higher |= run
    if covered is not None and higher.any():
        on_top = _over_higher(slots, cover, higher, config)
        if config.top_run and on_top.sum() >= 2:
            # A layer runs without a gap: the uncovered checkers on whole slots between
            # two of it are of it (the row checkers there lie under two layers).
            low, high = float(slots[on_top].min()), float(slots[on_top].max())
            on_top |= ~higher & (cover <= config.uncovered) & (slots > low) & (slots < high)
        higher |= on_top
    on_row = {int(np.rint(s)) for s, up in zip(slots, higher, strict=True) if not up}
    hidden = tuple(k for k in range(row) if k not in on_row)
    count = row + _higher_count(slots[higher], config)
    if config.hidden_reach and higher.any():
        count += _beyond_reach(slots, phases, higher, hidden, config)
    alternatives = _alternatives(slots, phases, higher, row, count, config)
    if config.gap_plausible > 0.0 and not config.top_extent and higher.any():
        filled = row + _higher_count(slots[higher], replace(config, top_extent=True))
        if filled > count:
            alternatives += ((filled, config.gap_plausible),)
    if added:
        alternatives += ((count - added, config.prefix_doubt),)
    if 0.0 < config.third_doubt < config.third_gap and higher.any():
        closer = replace(config, third_gap=config.third_doubt)
        third = row + _higher_count(slots[higher], closer)
        if third > count:
            alternatives += ((third, config.third_plausible),)
    room = row - 1 if row >= config.doubt_row and not higher.any() else 0
    return Stack(count, row, tuple(bool(h) for h in higher), hidden, alternatives, room)


def _alternatives(slots: npt.NDArray[np.float64], phases: npt.NDArray[np.float64],
                  higher: npt.NDArray[np.bool_], row: int, count: int,
                  config: StackConfig) -> tuple[tuple[int, float], ...]:
    """Counts the stack could also hold (see :attr:`Stack.alternatives`).

    More: the ``k`` checkers nearest the rail on a second layer with a tiny
    shift, as plausible as their phases stand above the rest of the row's.
    One less: a checker taken for a higher one because its phase was just
    past the threshold, as plausible as it was close to it.
    """
    out: list[tuple[int, float]] = []
    if higher.any():
        for phase in phases[higher]:
            margin = config.phase + config.doubt - float(phase)
            if margin > 0.0:
                out.append((count - 1, margin))
    elif row >= config.doubt_row and len(slots) >= config.doubt_row:
        order = np.argsort(slots)
        signed = (slots - np.rint(slots))[order]
        for k in range(1, min(row - 1, len(slots) - 1) + 1):
            prefix, rest = signed[:k], signed[k:]
            if prefix.min() >= config.doubt_floor:
                out.append((count + k, float(prefix.mean() - rest.mean())))
    return tuple(out)


def _beyond_reach(slots: npt.NDArray[np.float64], phases: npt.NDArray[np.float64],
                  higher: npt.NDArray[np.bool_], hidden: tuple[int, ...],
                  config: StackConfig) -> int:
    """Higher checkers missed past the farthest one seen: a row slot with no centre on
    it beyond the reach of every higher checker seen (a checker a half shift out covers
    the row checkers on both sides of it, no further) is covered by more of that layer,
    one for each slot it has to reach on (see ``StackConfig.hidden_reach``)."""
    far = int(np.argmax(np.where(higher, slots, -np.inf)))
    if phases[far] < config.prefix_most:
        return 0
    reach = int(np.ceil(float(slots[far])))
    beyond = [k for k in hidden if k > reach]
    return max(beyond) - reach if beyond else 0


def _row_past_rail_row(slots: npt.NDArray[np.float64], phases: npt.NDArray[np.float64],
                       covered: npt.NDArray[np.float64], higher: npt.NDArray[np.bool_],
                       config: StackConfig) -> npt.NDArray[np.bool_]:
    """The checkers taken for higher ones by a phase just past the threshold (within
    ``doubt``) that are row checkers set a little off their slots: a layer starts at the
    rail, so the uncovered checkers between such a checker and the rail would be of its
    layer and stand out about as far, but they sit on their slots like a row's (their
    mean phase under ``rail_row`` of the checker's; see ``StackConfig.rail_row``)."""
    signed = slots - np.rint(slots)
    near = higher & (phases < config.phase + config.doubt)
    if not near.any() or (higher & ~near).any():
        return np.zeros(len(slots), dtype=bool)
    first = float(slots[near].min())
    before = ~higher & (covered <= config.uncovered) & (slots < first - 0.5)
    if not before.any():
        return np.zeros(len(slots), dtype=bool)
    if float(signed[before].mean()) >= config.rail_row * float(signed[near].mean()):
        return np.zeros(len(slots), dtype=bool)
    return near


def _row_on_empty_slot(slots: npt.NDArray[np.float64], phases: npt.NDArray[np.float64],
                       higher: npt.NDArray[np.bool_], config: StackConfig
                       ) -> npt.NDArray[np.bool_]:
    """The checkers taken for higher ones by a phase just past the threshold (within
    ``doubt``) in a stack whose layer stands a half shift out (past ``prefix_most``),
    each nearest a row slot no row checker was seen on: that slot's row checker set a
    little off it (see ``StackConfig.slot_row``)."""
    out = np.zeros(len(slots), dtype=bool)
    if not (higher & (phases >= config.prefix_most)).any():
        return out
    on_row = {int(np.rint(s)) for s, up in zip(slots, higher, strict=True) if not up}
    for i in np.nonzero(higher & (phases < config.phase + config.doubt))[0]:
        out[i] = int(np.rint(slots[i])) not in on_row
    return out


def _under_its_row(slots: npt.NDArray[np.float64], cover: npt.NDArray[np.float64],
                   higher: npt.NDArray[np.bool_], config: StackConfig) -> npt.NDArray[np.bool_]:
    """The higher checkers that are row checkers by their cover (see ``covered_row``):
    covered by at least ``covered_row`` while every other checker within a slot of them
    is uncovered."""
    out = np.zeros(len(slots), dtype=bool)
    for k in np.flatnonzero(higher):
        near = (np.abs(slots - slots[k]) <= 1.0) & ~higher
        out[k] = bool(cover[k] >= config.covered_row and near.any()
                      and float(cover[near].max()) <= config.uncovered)
    return out


def _under_a_layer(slots: npt.NDArray[np.float64], cover: npt.NDArray[np.float64],
                   higher: npt.NDArray[np.bool_], config: StackConfig) -> npt.NDArray[np.bool_]:
    """The higher checkers that lie under a higher checker as row checkers do (see
    ``under_layer``): covered by at least ``covered_row``, and either before their slot
    (towards the rail) or within ``under_layer`` slots of an uncovered higher checker."""
    signed = slots - np.rint(slots)
    top = higher & (cover <= config.uncovered)
    out = np.zeros(len(slots), dtype=bool)
    if not top.any():
        return out
    for k in np.flatnonzero(higher & (cover >= config.covered_row)):
        apart = np.abs(slots[top] - slots[k])
        if not (apart <= config.overlap).any():
            continue
        out[k] = bool(signed[k] < 0.0 or apart.min() <= config.under_layer)
    return out


def _prefix_layer(slots: npt.NDArray[np.float64], covered: npt.NDArray[np.float64],
                  higher: npt.NDArray[np.bool_], config: StackConfig) -> npt.NDArray[np.bool_]:
    """The checkers of a second layer shifted so little that each alone could be a row
    checker a little off its slot.

    A layer starts at the rail and runs on without a gap, so its checkers
    are the *first* ones of the stack seen from above, and they all stand a
    little further out than the rest of the row, by the same shift.  Of the
    uncovered checkers in slot order (and the farthest, always in the row),
    the run from the rail whose phases part best from the rest is taken as a
    layer when the split explains the phases far better than one row does
    (a gain in log-likelihood of ``prefix_evidence``, the row's phases spread
    by ``prefix_sigma``) and the two means lie ``prefix_gap`` apart.  A
    checker already on a layer by its phase ends a run that must be a layer:
    every checker on top nearer the rail lies on that layer too.  Checkers
    standing a half shift out are a layer by their phase alone and take no
    part.
    """
    signed = slots - np.rint(slots)
    far = int(np.argmax(slots))
    half = higher & (np.abs(signed) > config.prefix_most)
    use = ((covered <= config.uncovered) & ~half) | (np.arange(len(slots)) == far)
    order = [int(i) for i in np.argsort(slots, kind="stable") if use[i]]
    out = np.zeros(len(slots), dtype=bool)
    n = len(order)
    if n < 2:
        return out
    values = signed[order]
    known = [k + 1 for k, i in enumerate(order) if higher[i] and not half[i]]
    least = max(known, default=0)
    sigma2 = 2.0 * config.prefix_sigma ** 2
    total = float(((values - values.mean()) ** 2).sum())
    best_k, best_gain = least, config.prefix_evidence if least == 0 else -np.inf
    for k in range(max(least, 1), n):
        head, tail = values[:k], values[k:]
        if k > least and head.mean() - tail.mean() < config.prefix_gap:
            continue
        split = float(((head - head.mean()) ** 2).sum() + ((tail - tail.mean()) ** 2).sum())
        gain = (total - split) / sigma2
        if gain > best_gain:
            best_k, best_gain = k, gain
    out[order[:best_k]] = True
    out[far] = False
    return out


def _lateral_layer(slots: npt.NDArray[np.float64], covered: npt.NDArray[np.float64],
                   outward: npt.NDArray[np.float64],
                   config: StackConfig) -> npt.NDArray[np.bool_]:
    """The checkers of a second layer shifted too little along the point to show, found
    by parallax (see ``StackConfig.lateral_gap``): the run from the rail (its first
    checker uncovered on the first slot), of the uncovered checkers in slot order, whose
    every checker stands further out sideways than every other checker of the stack by
    ``lateral_gap`` (``outward`` in slots), and further along the point by
    ``lateral_phase`` on average; of several such runs, the one parted most clearly.
    The farthest checker is always in the row."""
    signed = slots - np.rint(slots)
    far = int(np.argmax(slots))
    use = (covered <= config.uncovered) | (np.arange(len(slots)) == far)
    order = [int(i) for i in np.argsort(slots, kind="stable") if use[i]]
    out = np.zeros(len(slots), dtype=bool)
    if not order or int(np.rint(slots[order[0]])) != 0:
        return out  # a layer starts at the rail, on top
    best: tuple[float, int] | None = None
    for k in range(1, len(order)):
        head, tail = order[:k], order[k:]
        if far in head:
            break
        gap = float(outward[head].min() - outward[tail].max())
        along = float(signed[head].mean() - signed[tail].mean())
        if gap >= config.lateral_gap and along >= config.lateral_phase \
                and (best is None or gap > best[0]):
            best = (gap, k)
    if best is not None:
        out[order[:best[1]]] = True
    return out


def _over_higher(slots: npt.NDArray[np.float64], covered: npt.NDArray[np.float64],
                 higher: npt.NDArray[np.bool_], config: StackConfig) -> npt.NDArray[np.bool_]:
    """Checkers on a row slot that lie on top of higher checkers: a third layer whose
    shift adds up to a whole slot (twice a half), right above a row checker."""
    on_top = np.zeros(len(slots), dtype=bool)
    for i in np.nonzero(~higher & (covered <= config.uncovered))[0]:
        under = higher & (covered > config.uncovered) & (np.abs(slots - slots[i])
                                                         <= config.overlap)
        on_top[i] = bool(under.any())
    return on_top


def _higher_count(slots: npt.NDArray[np.float64], config: StackConfig) -> int:
    """Checkers on the higher layers, from the slots of those seen there.

    Each layer has its own phase: the shift, twice the shift, ..., so the
    phases fall into groups, and the second layer's phase doubled is the
    third's.  A layer with another above it is partly hidden by it, and
    counts by its extent from the rail (layers start at the rail like the
    row); the top layer is all in view and counts what is seen.
    """
    if len(slots) == 0:
        return 0
    fractions = slots - np.floor(slots)
    order = np.argsort(fractions)
    layers: list[list[int]] = [[int(order[0])]]
    for a, b in pairwise(order):
        if fractions[b] - fractions[a] > config.layer_gap:
            layers.append([])
        layers[-1].append(int(b))
    if len(layers) > 1 and fractions[layers[0][0]] + 1.0 - fractions[layers[-1][-1]] \
            <= config.layer_gap:
        # The last group wraps round to the first: one layer on both sides of a slot.
        layers[0] = layers.pop() + layers[0]
    if len(layers) == 1 and config.third_gap > 0.0:
        layers = _third_layer(slots, fractions, layers[0], config)
    means = [_circular_mean(fractions[members]) for members in layers]
    layers = [layers[k] for k in _by_depth(means, config.layer_gap)]
    total = 0
    for depth, members in enumerate(layers):
        seen = len(members)
        if depth < len(layers) - 1 or config.top_extent:
            phase = _circular_mean(fractions[members])
            extent = int(np.rint(max(slots[members]) - phase)) + 1
            seen = max(seen, extent)
        total += seen
    return total


def _third_layer(slots: npt.NDArray[np.float64], fractions: npt.NDArray[np.float64],
                 members: list[int], config: StackConfig) -> list[list[int]]:
    """One group of higher checkers parted into a second layer and a third on it, when
    the run from the rail stands out further than the rest by ``third_gap`` and about
    twice as far (the third layer's shift is twice the second's; perspective pulls both
    towards the rail alike, so their phases can lie closer than ``layer_gap``).

    A third layer starts at the rail and hides the second there, so it is the *first*
    of the higher checkers seen from the rail, and the second's follow it without a
    gap."""
    order = sorted(members, key=lambda i: float(slots[i]))
    if len(order) < 2:
        return [members]
    if float(np.diff(slots[order]).max()) > config.third_step:
        return [members]
    values = fractions[order]
    best: tuple[float, int] | None = None
    for k in range(1, len(order)):
        head, tail = values[:k], values[k:]
        lower = float(tail.mean())
        if lower <= 0.0 or lower > config.third_most:
            continue
        ratio = float(head.mean()) / lower
        gap = float(head.min() - tail.max())
        if gap < config.third_gap or not config.third_ratio[0] <= ratio <= config.third_ratio[1]:
            continue
        if best is None or gap > best[0]:
            best = (gap, k)
    if best is None:
        return [members]
    k = best[1]
    return [order[k:], order[:k]]


def _circular_mean(fractions: npt.NDArray[np.float64]) -> float:
    """The mean of phases in [0, 1), taken round the circle."""
    angle = np.angle(np.exp(2j * np.pi * fractions).mean())
    return float(angle / (2.0 * np.pi)) % 1.0


def _by_depth(means: list[float], tolerance: float) -> list[int]:
    """The layer groups in order of depth: the second layer's phase doubled is the
    third's, so the group whose phase, doubled, lands on another's lies under it."""
    order = list(range(len(means)))
    if len(means) == 2:
        a, b = means
        a_first = abs(((2.0 * a - b + 0.5) % 1.0) - 0.5)
        b_first = abs(((2.0 * b - a + 0.5) % 1.0) - 0.5)
        if b_first + 1e-9 < a_first and b_first <= tolerance:
            order = [1, 0]
        elif a_first > tolerance and b_first > tolerance:
            order = sorted(order, key=lambda k: means[k])
    return order


def _phase(slot: float) -> float:
    return slot - round(slot)
