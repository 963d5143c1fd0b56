"""Counting: which point (or the bar) each checker belongs to, and how many a stack holds.

A point's checkers form a stack that starts at the rail and grows towards
the middle; long stacks run past the point's tip and even past the middle
of the field, and players start second layers on top.  So a checker belongs
to the point whose stack it is *connected* to, not simply to the nearer row:
each column of the field is walked from the bottom rail up and from the top
rail down, following checkers that touch.  Checkers touching neither rail
(one being moved, say) go to the nearer row.

A stack's count comes from :mod:`.stacks` (its row and its higher layers,
hidden checkers included); a stack is one colour, so its checkers take the
colour most of them show (see ``one_colour``).
"""

from dataclasses import dataclass, field

import numpy as np

from vision.checkers.colours import Lab
from vision.checkers.detect import Circle
from vision.checkers.stacks import Stack, StackConfig, read_stack, stack_frame
from vision.checkers.totals import (
    SIDE,
    colours_swapped,
    known_totals,
    on_board_counts,
    presumed_on_board,
    presumed_ranges,
)
from vision.checkers.tray import TrayReading
from vision.observation import Counts
from vision.profile import BoardProfile


@dataclass(frozen=True, slots=True)
class CountConfig:
    """Thresholds of the assignment (distances in checker radii)."""

    rail_gap: float = 0.9
    """How far a stack's first checker may stand from its rail."""
    far_rail: float = 2.5
    """A chain from one rail with a checker this close to the other rail runs from rail to
    rail: two stacks meet in it."""
    stray: float = 6.0
    """A circle further than this from both rails (beyond its radius) with no other
    within ``link`` is no checker at rest (0 keeps every circle)."""
    link: float = 2.6
    """Centres closer than this are in the same stack (touching is 2.0)."""
    lone_phase: float = 0.3
    """A point's only circle lying this far (in slots) between two of its row's slots is
    no checker at rest: a checker alone on a point lies on its first slot (on the tune
    renders 10,347 such checkers stood at most 0.23 slots off it, 99.9 % within 0.15; on
    the real frames within 0.08), and one off a slot by this much would have to lie on a
    row it has not got.  Three phantoms did (0.37-0.44 slots, two of them counted as two
    by the row's extent): rims in the base of a white point under glare (pipeline tune
    seeds 21 and 23, checker bench tune seed 61).  0 keeps every such circle."""
    lateral_points: int = 1
    """The sideways test for a layer (``StackConfig.lateral_gap``) is made on this many
    points at each end of each row (1: the outermost points p0, p11, p12, p23, by the
    field's left and right edges); 0 makes it nowhere.  Parallax moves a checker's face
    away from the point below the camera (near the field's middle on the renders and
    the real frames) by its height, and sideways most where the field is widest from it: on the
    outermost points a layer's faces stand 3-9 pixels out towards the field's edge (at
    640), the measure the test needs.  Towards the bar the push is small and points
    *away* from the nearer side edge, so there a sideways run can only be the players'
    jitter (0.5-2.6 pixels a checker on the renders), the false layers the test found
    when it ran on every point (docstring of ``lateral_gap``)."""
    column_link: float = 4.6
    """A circle in line with another along a point (within a radius sideways) and closer
    than this is no stray (see ``stray``): a checker between them was missed (a layer's
    covers hide the row's rims), the stack runs on.  Two slots are 4.1 radii; 0: only
    ``link`` counts.  (Seen on a render outside the benches' seeds: a row's farthest
    checker dropped, eight read as three; no change on the tune renders.)"""
    bar_margin: float = 0.2
    """A centre within this many point widths beyond the bar's edge is on the bar.  Bar
    checkers lie along its middle; a point's checker next to the bar, set a little
    sideways, comes within 0.3 point widths of the bar's edge (0.35 took one for a bar
    checker on the tune renders; 0.15-0.25 read the same)."""
    one_colour: bool = True
    """A point's checkers are all of one colour (a point is never shared): the majority
    decides.  Off, every checker keeps its own colour."""
    tie_lean: bool = True
    """A point whose circles were told light and dark in equal numbers takes the colour
    they lean to together (the sum of their :func:`.colours.colour_leans`), when the
    caller gives the leans: a black checker under a lamp's glare on an outermost point
    (its face lit, 116 against the set's 12-58 and the white's 144-221) made a point of
    two blacks a tie, and a tie went to light (vision_accuracy's tune seed 27, scene 47:
    two black read as two white).  Off, or without leans: a tie is light."""
    presume_totals: bool = True
    """With no totals given, take those the rules imply (fifteen for a side that is not
    bearing off, fifteen less the tray's for one that may be; see :mod:`.totals`) to
    settle stacks in doubt.  Off, the counts are the image's alone."""
    tray_tolerance: int = 2
    """A board of one colour whose checkers and the tray's of that colour come to more
    than fifteen by more than this (the tray's rows are counted by their length, a
    checker or two off) is the other colour, when the other way round they do not; the
    tray's lone block decides nothing alone (its colour is a guess as the board's is).
    Negative: the tray never turns the board."""
    tray_face: float = 38.0
    """A board of one colour whose lightness said little (a red face: a red-black set's
    light side or a white-red set's dark side) is light when its faces are lighter than
    the tray's block that differs most from them in colour, if that block differs by at
    least this (Lab, lightness weighted by ``tray_face_lightness``), else dark: the other
    side is borne off, and its block shows its colour (black against red: the red is
    light; white against red: dark).  Decided this way, the tray's counts turn nothing
    more (``tray_tolerance``), so a block of the other side found but counted short (one
    of fifteen: the rest cut off at the tray's end) still tells.  On the tune renders'
    one-colour boards with a tray (vision_accuracy's scenes, seeds 27, 28 and 31-34) the
    faces differed from a block of their own side by 10-28 and from the other side's by
    42-77 (a marbled light face against black slabs the least).  Fresh tune seeds 31-34
    (tuned styles, 890 clear frames): wrong boards 14 -> 12, two red boards read dark
    with the tray's counts too few to turn them (32/342, 33/210); seeds 27-28 (470) and
    the 1,622 cached tune fields of rounds five to eight unchanged.  0: off."""
    tray_face_lightness: float = 0.3
    """Weight of lightness against the chroma axes in ``tray_face``'s distance (as in the
    colour split: a face and its own slabs' edges differ most in lightness, by their
    shading)."""
    orient_tray: bool = True
    """Before the tray's counts settle the totals of a side that may be bearing off, its
    two blocks take the colours (as read, or the other way round) that leave each side's
    sum on the board (as the stacks read it) and in the tray nearer fifteen, as the
    pipeline does afterwards for the observation's ``off``.  A lone block takes its colour
    from its lightness, which a black checker's lit rim fools: a tray read as four light
    and no dark, with fifteen light and eleven dark on the board, asked a dark stack of six
    for four more (pipeline tune seed 25, scene 206).  Off, the tray's colours as read."""
    tray_spread: tuple[float, float] | None = (0.14, 0.27)
    """Thickness of a set's checkers, as shares of their diameter, that a tray's block
    may have been counted with (see :func:`.totals.tray_range`; the renders' sets run
    0.14-0.27, tournament checkers about 0.16-0.21).  The tray counts a block by its
    length over a thickness it guesses (``TrayConfig.thickness``, carried in
    :attr:`.tray.TrayReading.thickness`) when the slabs' stripes are too faint to measure
    one, so a block read as two may hold three: a side that may be bearing off then has
    a *range* of totals on the board, and its stacks are asked for more or fewer only
    when their total lies outside it (checker bench tune seed 51: six of nine wrong
    boards were a tray read one short or long asking a stack of five for six).  A count
    whose thickness the stripes gave is taken as exact
    (:attr:`.tray.TrayReading.measured`): on the tune renders only 23 of 30 such blocks
    read right, but a range lost a board there (seven read right, the layer it asked for
    found).  Tune renders (pipeline seeds 21-22, checker bench seed 51, 680 frames): 16
    wrong boards -> 11, none lost; checker bench seed 61 unchanged.  None: the tray's
    counts as read give one total."""
    tall_gap: int = 5
    """A side whose total on the board the caller gives (``on_board``: the referee's, fifteen
    less those it saw borne off) and still reads short by up to this many once the
    alternatives and ``StackConfig.lone_room`` are taken, with exactly one *tall* stack of
    its colour (a full row, ``StackConfig.doubt_row`` or longer, that can carry them: a
    row of five holds at most fifteen in layers of one fewer each), has them on that
    stack.  A bear-off's tall stack with a layer shifted too little to show, or a second
    and third layer seen as one, is read two to five short, and nothing in the image tells
    (bear-off positions, checker bench tune seed 101, totals known: ten read as six,
    eleven as seven, twelve as eight; wrong boards 11 -> 4 of 300).  Not for the totals
    the rules only imply: fifteen for a side spread over the board is not sure (hit after
    it began bearing off, its tray out of view), and on the 1,622 cached tune fields of
    rounds five to eight three boards were read right and two lost that way (six read as
    nine, nine as twelve); the tray's count for a side bearing off is worse (bear-off seed
    101: 25 -> 35 wrong boards).  0: off."""
    sure_gap: int = 6
    """As ``tall_gap``, with the totals the rules leave no doubt of and no ``on_board``: a
    side spread over two quarters or more (or on the bar), with the tray in view showing
    none of its colour (:func:`_sure_totals`), has fifteen on the board; still short or
    long of it by up to this many once the alternatives and ``StackConfig.lone_room`` are
    taken, with exactly one tall stack of its colour that can carry the difference (down
    to its row, up to a full pyramid on it), it has them there.  A tall stack at the
    field's end with its layers seen as one, or a row checker jittered off its slot taken
    for a layer, is read short or long and offers no alternative that closes the gap
    (fresh tune seeds 46-47: eleven read five with nothing in the tray, a row of five
    read eight and one of six read seven, each side then sixteen to eighteen).  Without a
    tray in view a side spread over the board may have been hit after it began bearing
    off (its borne-off checkers unseen): made there too, the same fields lost three boards
    and won one, as ``tall_gap`` on presumed totals did before.  On those 620 fields 6 to
    12 read the same (three boards right, none lost), 3 misses the one eleven read five;
    6, the least that keeps all three, is taken.  0: off."""
    spread_off: bool = True
    """A side spread over the board (or on the bar) whose colour the tray shows, as the
    stacks orient its blocks, may have been hit after it began bearing off: its total on
    the board is a range, from fifteen less what its block may hold to fifteen, and its
    stacks are asked for more only below it.  Off: fifteen, whatever the tray shows."""
    range_layer: float = 0.07
    """A side whose total on the board the tray leaves a range of (its block counted by a
    guessed thickness, ``tray_spread``, or a spread side whose colour the tray shows,
    ``spread_off``), and whose stacks as read already add up to a total inside it, is asked
    nothing: yet a full row with no layer seen may show one shifted too little to be sure
    (:attr:`.stacks.Stack.alternatives`: the run from the rail standing out from the rest
    of the row).  When one of its stacks with room (:attr:`.stacks.Stack.room`) offers
    more checkers at least this plausibly, and the side's total with them still lies in
    the range, the most plausible such count is taken.  Where a stack on the renders hid
    a layer, its most plausible alternative was the truth (63 of 67 on fresh checker
    bench tune seeds 250-256 and bear-off seed 257), and the tray, read a checker or two
    off, asked nothing or the wrong number: tune seed 255, scene 50 (a phantom block of
    one dark in the tray, a row of five on p5 read five, truly seven: 0.073), 255/119
    (dark on the bar, seven in the tray, p10 six read, seven: 0.080) and 256/139 (the tray
    read six light of five, p12 five read, six: 0.076).  On those 2,300 fields any floor
    from 0.03 to 0.07 reads the three right and changes nothing else; 0.02 lost two
    boards (a row given a layer it has not got), 0.075 keeps one fewer.  A row whose first
    checker a hand left 0.06 out stays a row (``tests/test_checkers_tray.py``: inside the
    range it is five, as read), so the floor is 0.07, above it and under the three.  0:
    off."""
    stacks: StackConfig = field(default_factory=StackConfig)


@dataclass(frozen=True, slots=True)
class Placed:
    """One checker and where it was counted."""

    circle: Circle
    light: bool
    place: int | None
    """Physical point 0-23, or None for the bar."""
    seen: bool = True
    """False for a checker inferred under a higher layer (its circle is where it must lie)."""


@dataclass(frozen=True, slots=True)
class CheckerCount:
    """The counts of one frame."""

    points: tuple[Counts, ...]
    bar: Counts
    placed: tuple[Placed, ...] = field(default=())
    size: tuple[int, int] = (0, 0)
    """(width, height) of the rectified image the circles are measured in."""


def count_checkers(circles: list[Circle], light: list[bool], profile: BoardProfile,
                   size: tuple[int, int], config: CountConfig | None = None,
                   radius: float | None = None, on_board: Counts | None = None,
                   off: TrayReading | None = None, turnable: bool = False,
                   lean: list[float] | None = None, face: Lab | None = None) -> CheckerCount:
    """Counts per physical point and on the bar, from circles in a rectified field image.

    ``size`` is the rectified image's (width, height); ``radius`` the expected checker
    radius (the circles' mean when not given).  ``on_board``, when the caller knows it
    (the referee does: 15 less those borne off), is how many checkers of each colour lie
    on the points and the bar; a stack whose count was in doubt then takes the
    alternative that makes its colour add up (see :mod:`.totals`).  Without it the
    totals the rules imply are used where they say anything (``config.presume_totals``),
    ``off`` being the tray's reading, if one is in view: its borne-off counts, exact when
    the stripes measured the checkers' thickness, else a range (``config.tray_spread``)
    about the thickness it guessed (see :class:`.tray.TrayReading`).
    ``turnable``: the circles are all of one colour by a lightness that said little (a
    red face), and the tray's counts may turn them (see ``config.tray_tolerance``).
    ``lean``: per circle, how far its colour leans to light (see ``config.tie_lean``).
    ``face``: the circles' median colour, compared with the tray's blocks when
    ``turnable`` (see ``config.tray_face``).
    """
    config = config or CountConfig()
    if radius is None:
        radius = sum(c.radius for c in circles) / len(circles) if circles else 1.0
    if config.stray > 0.0 and len(circles) > 1:
        keep = _not_strays(circles, profile, size, radius, config)
        circles = [c for c, k in zip(circles, keep, strict=True) if k]
        light = [f for f, k in zip(light, keep, strict=True) if k]
        if lean is not None:
            lean = [v for v, k in zip(lean, keep, strict=True) if k]
    if not config.tie_lean:
        lean = None
    result = _count(circles, light, profile, size, config, radius, on_board, off, lean)
    if not (turnable and on_board is None and off is not None and light
            and len(set(light)) == 1):
        return result
    said = _tray_face_says(face, off, config)
    if said is None:
        turn = config.tray_tolerance >= 0 \
            and _tray_says_other(result, off.counts, config.tray_tolerance)
    else:
        turn = said != light[0]
    if turn:
        return _count(circles, [not f for f in light], profile, size, config, radius, None,
                      off, None if lean is None else [-v for v in lean])
    return result


def _tray_face_says(face: Lab | None, off: TrayReading,
                    config: CountConfig) -> bool | None:
    """Whether a board of one colour, its faces of colour ``face``, is light by the tray's
    block that differs most from them (see ``CountConfig.tray_face``); None when no block
    differs enough (or there is no face or no block)."""
    if face is None or config.tray_face <= 0.0:
        return None
    weights = np.array([config.tray_face_lightness, 1.0, 1.0])
    best: tuple[float, float] | None = None
    for colour in off.colours:
        if colour is None:
            continue
        distance = float(np.linalg.norm((np.array(colour) - np.array(face)) * weights))
        if best is None or distance > best[0]:
            best = (distance, colour[0])
    if best is None or best[0] < config.tray_face:
        return None
    return face[0] > best[1]


def _tray_says_other(result: CheckerCount, off: Counts, tolerance: int) -> bool:
    """Whether a board of one colour is the other colour by the tray's counts: as read,
    its checkers and the tray's of that colour come to more than fifteen (and
    ``tolerance``, the tray's own error), the other way round they do not.

    A frame with one colour only cannot tell light from dark by itself (a red set's light
    side is as dark as a white set's dark side); the other side is then all borne off, so
    with a tray in view, the tray shows its fifteen."""
    counts = on_board_counts(result)
    limit = SIDE + tolerance
    as_read = counts.light + off.light > limit or counts.dark + off.dark > limit
    flipped = counts.dark + off.light > limit or counts.light + off.dark > limit
    return as_read and not flipped


def _count(circles: list[Circle], light: list[bool], profile: BoardProfile,
           size: tuple[int, int], config: CountConfig, radius: float,
           on_board: Counts | None, off: TrayReading | None,
           lean: list[float] | None = None) -> CheckerCount:
    """:func:`count_checkers` after the strays are left out."""
    width, height = size
    where = assign(circles, light, profile, size, config)
    members: dict[int, list[int]] = {}
    for i, place in where.items():
        if place is not None:
            members.setdefault(place, []).append(i)

    def rail_distance(i: int, point: int) -> float:
        return circles[i].y if point >= 12 else height - circles[i].y

    frame = stack_frame(((p >= 12, [rail_distance(i, p) for i in m])
                         for p, m in members.items()), radius, config.stacks)
    if config.lone_phase > 0.0:
        for point, chain in list(members.items()):
            if len(chain) == 1:
                slot = frame.slot(rail_distance(chain[0], point), point >= 12)
                if abs(slot - round(slot)) >= config.lone_phase:
                    del members[point]
    bar = [0, 0]
    placed: list[Placed] = []
    for i, circle in enumerate(circles):
        if where[i] is None:
            bar[0 if light[i] else 1] += 1
            placed.append(Placed(circle, light[i], None))
    stacks: dict[int, tuple[Stack, bool]] = {}
    for point, chain in sorted(members.items()):
        # Sideways offsets from the point's middle line, towards the nearer side edge.
        line = profile.point_u(point) * width
        side = 1.0 if line >= 0.5 * width else -1.0
        along = point % 12
        at_end = along < config.lateral_points or along >= 12 - config.lateral_points
        stack = read_stack([rail_distance(i, point) for i in chain], point >= 12, frame,
                           config.stacks, [circles[i].covered for i in chain],
                           [side * (circles[i].x - line) for i in chain] if at_end
                           else None)
        votes = 2 * sum(light[i] for i in chain)
        stacks[point] = (stack, votes > len(chain) or (votes == len(chain) and (
            lean is None or sum(lean[i] for i in chain) >= 0.0)))
    wanted: Counts | tuple[int | None, int | None] | None = on_board
    tray = None
    if on_board is None and config.presume_totals:
        if off is not None:
            tray = _tray_oriented(stacks, bar, off.counts) if config.orient_tray \
                else off.counts
        wanted = presumed_on_board(stacks, bar, tray)
        if off is not None and tray is not None and config.tray_spread is not None:
            # A count by a guessed thickness is a range of counts (measured: exact).
            guess = None if off.measured else off.thickness
            ranges = presumed_ranges(stacks, bar, tray, guess, config.tray_spread,
                                     config.spread_off)
            wanted = _within(stacks, bar, ranges)
            if config.range_layer > 0.0:
                wanted = _layer_in_range(stacks, bar, wanted, ranges, config.range_layer)
    totals = known_totals(stacks, bar, wanted, config.stacks, presumed=on_board is None) \
        if wanted is not None else {}
    if config.stacks.lone_room > 0 and (config.presume_totals or on_board is not None):
        totals = _lone_room(stacks, bar, totals, on_board if on_board is not None
                            else _sure_totals(stacks, bar, tray), config.stacks.lone_room)
    if config.tall_gap > 0 and on_board is not None:
        totals = _tall_gap(stacks, bar, totals, (on_board.light, on_board.dark), config,
                           config.tall_gap)
    if config.sure_gap > 0 and on_board is None and tray is not None:
        totals = _tall_gap(stacks, bar, totals, _sure_totals(stacks, bar, tray), config,
                           config.sure_gap)
    points = [[0, 0] for _ in range(24)]
    for point, (stack, colour) in stacks.items():
        chain = members[point]
        count = totals.get(point, stack.count)
        lights = sum(light[i] for i in chain)
        if config.one_colour:
            points[point][0 if colour else 1] = count
        else:
            points[point][0] += lights
            points[point][1] += len(chain) - lights
            points[point][0 if colour else 1] += count - len(chain)
        for i in chain:
            placed.append(Placed(circles[i], colour if config.one_colour else light[i], point))
        top = point >= 12
        x = sum(circles[i].x for i in chain) / len(chain)
        hidden = [Circle(x, d if top else height - d, radius)
                  for d in (frame.distance(slot, top) for slot in stack.hidden)]
        under = sorted(chain, key=lambda i: rail_distance(i, point))
        hidden += [Circle(circles[i].x, circles[i].y, radius)
                   for i in under[:max(count - stack.count, 0)]]
        hidden = hidden[:max(len(hidden) + min(count - stack.count, 0), 0)]
        placed += [Placed(c, colour, point, seen=False) for c in hidden]
    result = CheckerCount(tuple(Counts(p[0], p[1]) for p in points), Counts(bar[0], bar[1]),
                          tuple(placed), (width, height))
    if on_board is not None and colours_swapped(
            Counts(sum(p.light for p in result.points) + result.bar.light,
                   sum(p.dark for p in result.points) + result.bar.dark), on_board):
        return _flipped(result)
    return result


def _sure_totals(stacks: dict[int, tuple[Stack, bool]], bar: list[int],
                 tray: Counts | None) -> tuple[int | None, int | None]:
    """The totals on the board the rules leave no doubt of: fifteen for a side spread over
    two quarters or more, or on the bar, unless the tray in view (its blocks' colours as
    the stacks orient them, ``tray``) shows checkers of its colour: it may have been hit
    after it began bearing off (checker bench tune seed 71, scene 55: two in the tray,
    thirteen on the board).  None where they leave doubt."""
    spread = presumed_on_board(stacks, bar, None)
    if tray is None:
        return spread
    return (None if tray.light else spread[0], None if tray.dark else spread[1])


def _lone_room(stacks: dict[int, tuple[Stack, bool]], bar: list[int],
               totals: dict[int, int], sure: Counts | tuple[int | None, int | None],
               most: int) -> dict[int, int]:
    """The stack counts with a side that still reads short of its sure total (``sure``,
    None: not sure) by ``k`` given its ``k`` on the one stack of its colour with room for
    them unseen (see ``StackConfig.lone_room``)."""
    if isinstance(sure, Counts):
        sure = (sure.light, sure.dark)
    out = dict(totals)
    for index, wanted in enumerate(sure):
        if wanted is None:
            continue
        colour = index == 0
        points = [p for p, (_, c) in stacks.items() if c == colour]
        gap = wanted - bar[index] - sum(out.get(p, stacks[p][0].count) for p in points)
        if not 0 < gap <= most:
            continue
        roomy = [p for p in points if stacks[p][0].room >= gap
                 and out.get(p, stacks[p][0].count) == stacks[p][0].count]
        if len(roomy) == 1:
            out[roomy[0]] = stacks[roomy[0]][0].count + gap
    return out


def _tall_gap(stacks: dict[int, tuple[Stack, bool]], bar: list[int],
              totals: dict[int, int], sure: tuple[int | None, int | None],
              config: CountConfig, most: int) -> dict[int, int]:
    """The stack counts with a side that still reads short of its known total (``sure``,
    None: not known) by at most ``most`` given the missing checkers on its one tall
    stack, or long by as many taken off it down to its row (see ``CountConfig.tall_gap``
    and ``CountConfig.sure_gap``)."""
    out = dict(totals)
    full = config.stacks.doubt_row
    for index, wanted in enumerate(sure):
        if wanted is None:
            continue
        points = [p for p, (_, c) in stacks.items() if c == (index == 0)]
        gap = wanted - bar[index] - sum(out.get(p, stacks[p][0].count) for p in points)
        if not 0 < abs(gap) <= most:
            continue
        tall = [p for p in points if stacks[p][0].row >= full
                and stacks[p][0].row <= out.get(p, stacks[p][0].count) + gap
                <= stacks[p][0].row * (stacks[p][0].row + 1) // 2]
        if len(tall) == 1:
            out[tall[0]] = out.get(tall[0], stacks[tall[0]][0].count) + gap
    return out


def _within(stacks: dict[int, tuple[Stack, bool]], bar: list[int],
            ranges: tuple[tuple[int, int] | None, tuple[int, int] | None]
            ) -> tuple[int | None, int | None]:
    """Each colour's total the stacks are made to add up to: none (the counts as read)
    when the stacks' total lies in the colour's range, else the range's nearer end."""
    out: list[int | None] = []
    for index, span in enumerate(ranges):
        if span is None:
            out.append(None)
            continue
        read = bar[index] + sum(stack.count for stack, c in stacks.values()
                                if c == (index == 0))
        out.append(None if span[0] <= read <= span[1] else min(max(read, span[0]), span[1]))
    return out[0], out[1]


def _layer_in_range(stacks: dict[int, tuple[Stack, bool]], bar: list[int],
                    wanted: tuple[int | None, int | None],
                    ranges: tuple[tuple[int, int] | None, tuple[int, int] | None],
                    least: float) -> tuple[int | None, int | None]:
    """``wanted`` (each colour's total the stacks are made to add up to, None: as read)
    with a colour that reads inside a range of totals (``ranges``, wider than one) given
    the total of its stacks' most plausible alternative of more checkers, on a stack with
    room for a hidden layer, at least ``least`` plausible and still inside the range (see
    ``CountConfig.range_layer``)."""
    out = list(wanted)
    for index, span in enumerate(ranges):
        if span is None or wanted[index] is not None or span[0] == span[1]:
            continue
        colour = index == 0
        read = bar[index] + sum(stack.count for stack, c in stacks.values() if c == colour)
        best: tuple[float, int] | None = None
        for stack, c in stacks.values():
            if c != colour or stack.room == 0:
                continue
            for other, plausibility in stack.alternatives:
                total = read - stack.count + other
                if other > stack.count and span[0] <= total <= span[1] \
                        and plausibility >= least and (best is None or plausibility > best[0]):
                    best = (plausibility, total)
        if best is not None:
            out[index] = best[1]
    return out[0], out[1]


def _tray_oriented(stacks: dict[int, tuple[Stack, bool]], bar: list[int],
                   off: Counts) -> Counts:
    """The tray's counts with the colours (as read, or the other way round) that leave
    each side's checkers on the board, as the stacks read them, and in the tray nearer
    fifteen (see ``CountConfig.orient_tray``)."""
    light = bar[0] + sum(stack.count for stack, c in stacks.values() if c)
    dark = bar[1] + sum(stack.count for stack, c in stacks.values() if not c)
    left = (max(SIDE - light, 0), max(SIDE - dark, 0))

    def miss(a: int, b: int) -> int:
        return abs(left[0] - a) + abs(left[1] - b)

    if miss(off.dark, off.light) < miss(off.light, off.dark):
        return Counts(off.dark, off.light)
    return off


def _not_strays(circles: list[Circle], profile: BoardProfile, size: tuple[int, int],
                radius: float, config: CountConfig) -> list[bool]:
    """Which circles are checkers where a still board has them: on the bar, near a rail,
    or near another checker.  A circle alone in the middle of a row is no checker at
    rest (a round glare spot, a die's soft shadow): a stack starts at the rail, and one
    being moved comes with a hand."""
    width, height = size
    xs = np.array([c.x for c in circles])
    ys = np.array([c.y for c in circles])
    d2 = (xs[:, None] - xs[None, :]) ** 2 + (ys[:, None] - ys[None, :]) ** 2
    np.fill_diagonal(d2, np.inf)
    alone = d2.min(axis=1) > (config.link * radius) ** 2
    if config.column_link > 0.0:
        in_line = np.abs(xs[:, None] - xs[None, :]) <= radius
        along = np.abs(ys[:, None] - ys[None, :]) < config.column_link * radius
        np.fill_diagonal(in_line, False)
        alone &= ~(in_line & along).any(axis=1)
    rail = np.minimum(ys, height - ys) - radius
    far = rail > config.stray * radius
    on_bar = np.abs(xs / width - 0.5) <= profile.bar_width / 2.0 \
        + config.bar_margin * profile.point_width
    return list(~(alone & far & ~on_bar))


def _flipped(result: CheckerCount) -> CheckerCount:
    """The same count with light and dark exchanged."""
    return CheckerCount(tuple(Counts(p.dark, p.light) for p in result.points),
                        Counts(result.bar.dark, result.bar.light),
                        tuple(Placed(p.circle, not p.light, p.place, p.seen)
                              for p in result.placed), result.size)


def assign(circles: list[Circle], light: list[bool], profile: BoardProfile,
           size: tuple[int, int], config: CountConfig) -> dict[int, int | None]:
    """Each circle's place: a physical point 0-23, or None for the bar."""
    width, height = size
    pw = profile.point_width
    columns: dict[int, list[int]] = {c: [] for c in range(12)}
    where: dict[int, int | None] = {}
    for i, circle in enumerate(circles):
        u = circle.x / width
        if abs(u - 0.5) <= profile.bar_width / 2.0 + config.bar_margin * pw:
            where[i] = None
            continue
        columns[_column(u, profile)].append(i)
    for column, members in columns.items():
        bottom, top = _stacks(members, circles, light, height, config)
        for i in bottom:
            where[i] = 11 - column
        for i in top:
            where[i] = 12 + column
    return where


def _column(u: float, profile: BoardProfile) -> int:
    """Field column 0-11, left to right (0-5 left of the bar)."""
    right_start = profile.bar_span[1]
    pw = profile.point_width
    if u < 0.5:
        return min(max(int(u / pw), 0), 5)
    return 6 + min(max(int((u - right_start) / pw), 0), 5)


def _stacks(members: list[int], circles: list[Circle], light: list[bool], height: int,
            config: CountConfig) -> tuple[list[int], list[int]]:
    """The checkers of one column connected to the bottom rail and to the top rail.

    When one chain of touching checkers runs from rail to rail, two stacks
    meet in it: they part where the colour changes (two points of one
    column rarely hold the same colour), else at the middle of the field.
    """
    if not members:
        return [], []
    order = sorted(members, key=lambda i: circles[i].y)
    radius = sum(circles[i].radius for i in order) / len(order)
    link = config.link * radius

    def walk(sequence: list[int], at_rail: float) -> list[int]:
        chain: list[int] = []
        for i in sequence:
            c = circles[i]
            if not chain:
                if abs(c.y - at_rail) - c.radius > config.rail_gap * radius:
                    break
                chain.append(i)
                continue
            if min(abs(c.y - circles[j].y) for j in chain) > link:
                break
            chain.append(i)
        return chain

    bottom = walk(list(reversed(order)), float(height))
    top = walk(order, 0.0)

    def reaches(chain: list[int], rail: float) -> bool:
        """Whether a chain reaches the other rail (its stack there was missed at the
        rail itself, under glare or against a dark rail)."""
        return any(abs(circles[i].y - rail) - circles[i].radius
                   <= config.far_rail * radius for i in chain)

    if set(bottom) & set(top) or reaches(top, float(height)) or reaches(bottom, 0.0):
        cut = _meeting(order, light, circles, height)
        top, bottom = order[:cut], order[cut:]
    claimed = set(bottom) | set(top)
    for i in order:
        if i not in claimed:
            (bottom if circles[i].y >= height / 2.0 else top).append(i)
    return bottom, top


def _meeting(order: list[int], light: list[bool], circles: list[Circle], height: int) -> int:
    """Where a rail-to-rail chain (sorted top to bottom) parts into two stacks: the cut
    with the fewest checkers off their stack's colour when the two stacks differ, else
    the one nearest the middle of the field."""
    best_cut, best_wrong = 0, len(order) + 1
    for cut in range(1, len(order)):
        upper, lower = order[:cut], order[cut:]
        up_light = 2 * sum(light[i] for i in upper) >= len(upper)
        low_light = 2 * sum(light[i] for i in lower) >= len(lower)
        if up_light == low_light:
            continue
        wrong = sum(light[i] != up_light for i in upper) + sum(light[i] != low_light
                                                              for i in lower)
        if wrong < best_wrong:
            best_cut, best_wrong = cut, wrong
    if best_wrong <= len(order) // 4:
        return best_cut
    return sum(circles[i].y < height / 2.0 for i in order)
