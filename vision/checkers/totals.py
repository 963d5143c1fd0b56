"""Counts made to add up: using how many checkers each side has on the board.

The referee always knows how many checkers each side has on the board:
fifteen, less those it saw borne off.  The image sometimes cannot tell two
readings of a stack apart (a second layer shifted a tenth of a diameter
hides almost completely; a row checker set a little off its place looks
like a shifted one), and a frame with one colour only cannot tell light
from dark without a colour model.  Given the totals, the stack reading's
alternatives (:attr:`.stacks.Stack.alternatives`) are taken where one closes
the gap (the most plausible, if several do), and a frame whose colours
add up the wrong way round is turned.  Totals that still do not add up say
the frame is misread: every misread board on the renders shows it.

A single image, read with no history, still knows something of the totals
from the rules: a side bears off only once all its checkers are in its
home board, one quarter of the board.  A side with checkers in two or more
quarters, or on the bar, has (nearly always: only a checker hit after its
side began bearing off breaks this) all fifteen on the board.  A side all
in one quarter may be bearing off: its total is fifteen less the checkers
in the tray, when a tray is in view, else unknown.  Both sides' counts on
the board and in the tray add up to at most fifteen, which settles a tray
misread as fuller than it can be (:func:`consistent_off`).
"""

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from vision.checkers.stacks import Stack, StackConfig
from vision.checkers.tray import TrayConfig
from vision.observation import Counts

if TYPE_CHECKING:
    from vision.checkers.count import CheckerCount

SIDE: Final = 15
"""Checkers a side plays with."""


def choose_alternatives(counts: Sequence[int], options: Sequence[Sequence[tuple[int, float]]],
                        wanted: int, config: StackConfig, floor: float | None = None) -> list[int]:
    """Stack counts of one colour made to add up to ``wanted`` (checkers known to be on
    the board) by taking the single most plausible alternative that closes the gap, when
    one is at least ``floor`` plausible (``config.plausible`` when not given); when none
    does and ``config.pairs``, the most plausible two alternatives of two stacks that
    close it together (a pair as plausible as its less plausible half, and only over
    ``config.pair_floor``); else the counts as read."""
    floor = config.plausible if floor is None else floor
    gap = wanted - sum(counts)
    if gap == 0:
        return list(counts)
    best: tuple[float, int, int] | None = None
    for i, (count, choices) in enumerate(zip(counts, options, strict=True)):
        for other, plausibility in choices:
            if other - count == gap and plausibility >= floor and (
                    best is None or plausibility > best[0]):
                best = (plausibility, i, other)
    chosen = list(counts)
    if best is not None:
        chosen[best[1]] = best[2]
        return chosen
    if config.pairs:
        pair = _best_pair(counts, options, gap, max(floor, config.pair_floor))
        if pair is not None:
            for i, other in pair:
                chosen[i] = other
    return chosen


def _best_pair(counts: Sequence[int], options: Sequence[Sequence[tuple[int, float]]],
               gap: int, floor: float) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """Two alternatives of two different stacks whose changes add up to ``gap``, the pair
    whose less plausible half is the most plausible (and above ``floor``); None if none."""
    changes = [(plausibility, i, other) for i, (count, choices)
               in enumerate(zip(counts, options, strict=True))
               for other, plausibility in choices
               if plausibility > floor and other != count and abs(other - count) < abs(gap)
               and (other - count) * gap > 0]
    best: tuple[float, tuple[tuple[int, int], tuple[int, int]]] | None = None
    for a, (pa, ia, oa) in enumerate(changes):
        for pb, ib, ob in changes[a + 1:]:
            if ia == ib or (oa - counts[ia]) + (ob - counts[ib]) != gap:
                continue
            if best is None or min(pa, pb) > best[0]:
                best = (min(pa, pb), ((ia, oa), (ib, ob)))
    return None if best is None else best[1]


def known_totals(stacks: dict[int, tuple[Stack, bool]], bar: list[int],
                 on_board: Counts | tuple[int | None, int | None],
                 config: StackConfig, presumed: bool = False) -> dict[int, int]:
    """Stack counts (per point; stacks given with their colour, True for light) made to
    match the checkers known to be on the board, colour by colour (None: not known, the
    counts stay as read); ``bar`` holds the (light, dark) checkers on the bar.
    ``presumed``: the totals are only implied by the rules, and an alternative must be
    ``config.presumed`` plausible to be taken."""
    if isinstance(on_board, Counts):
        on_board = (on_board.light, on_board.dark)
    out: dict[int, int] = {}
    for colour, wanted in zip((True, False), on_board, strict=True):
        points = [p for p, (_, c) in stacks.items() if c == colour]
        if wanted is None:
            out.update((p, stacks[p][0].count) for p in points)
            continue
        chosen = choose_alternatives([stacks[p][0].count for p in points],
                                     [stacks[p][0].alternatives for p in points],
                                     wanted - bar[0 if colour else 1], config,
                                     config.presumed if presumed else None)
        out.update(zip(points, chosen, strict=True))
    return out


def colours_swapped(read: Counts, on_board: Counts) -> bool:
    """Whether the colours read are the wrong way round: each colour's count is the
    other's known number, and not its own (a frame with one colour only, whose
    lightness guessed wrong)."""
    return (read.light, read.dark) == (on_board.dark, on_board.light) \
        and read.light != read.dark


def quarter(point: int) -> int:
    """The quarter of the board (0-3) a physical point lies in: six points, one side of
    the bar, one row."""
    return point // 6


def presumed_on_board(stacks: dict[int, tuple[Stack, bool]], bar: list[int],
                      off: Counts | None) -> tuple[int | None, int | None]:
    """How many checkers of each colour (light, dark) the rules say are on the board,
    as far as one image tells (see the module's note); None where it cannot say."""
    out: list[int | None] = []
    for index, colour in enumerate((True, False)):
        quarters = {quarter(p) for p, (stack, c) in stacks.items() if c == colour
                    and stack.count > 0}
        if bar[index] > 0 or len(quarters) >= 2:
            out.append(SIDE)
        elif off is not None:
            out.append(SIDE - (off.light if colour else off.dark))
        else:
            out.append(None)
    return out[0], out[1]


def tray_range(read: int, guess: float, spread: tuple[float, float]) -> tuple[int, int]:
    """The checkers a tray's block read as ``read`` may hold: its length is ``read``
    checkers of the guessed thickness (``guess``, a share of the diameter) give or take
    half of one, and a set's checkers are ``spread[0]`` to ``spread[1]`` of their
    diameter thick.  A block the tray read as none holds none here (the range (0, 0))."""
    if read <= 0:
        return 0, 0
    low = max(math.ceil((read - 0.5) * guess / spread[1] - 1e-9), 1)
    high = min(math.floor((read + 0.5) * guess / spread[0] + 1e-9), SIDE)
    return min(low, read), max(high, read)


def presumed_ranges(stacks: dict[int, tuple[Stack, bool]], bar: list[int], off: Counts,
                    guess: float | None, spread: tuple[float, float], hit: bool = False
                    ) -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
    """As :func:`presumed_on_board` with a tray in view, each colour's total on the board
    as a range (least, most): a side that may be bearing off has fifteen less what its
    tray block may hold (see :func:`tray_range`: the tray counts a block by its length
    over the checkers' thickness, only guessed, ``guess``, when the slabs' stripes are
    too faint to measure it; ``guess`` None: the thickness was measured and the tray's
    count is taken exactly).  A side spread over the board (or on the bar) has fifteen,
    or with ``hit``, when the tray shows checkers of its colour, anything from fifteen
    less what its block may hold to fifteen (it may have been hit after it began bearing
    off)."""
    exact = presumed_on_board(stacks, bar, off)
    out: list[tuple[int, int] | None] = []
    for index, total in enumerate(exact):
        if total is None:
            out.append(None)
            continue
        read = off.light if index == 0 else off.dark
        quarters = {quarter(p) for p, (stack, c) in stacks.items()
                    if c == (index == 0) and stack.count > 0}
        low, high = (read, read) if guess is None else tray_range(read, guess, spread)
        if bar[index] > 0 or len(quarters) >= 2:
            out.append((SIDE - high, total) if hit and read > 0 else (total, total))
            continue
        out.append((SIDE - high, SIDE - low))
    return out[0], out[1]


def on_board_counts(count: "CheckerCount") -> Counts:
    """How many checkers of each colour a count has on the points and the bar."""
    return Counts(sum(p.light for p in count.points) + count.bar.light,
                  sum(p.dark for p in count.points) + count.bar.dark)


def consistent_off(on_board: Counts, off: Counts, config: TrayConfig | None = None) -> Counts:
    """The tray's counts made to agree with the board's: each side's fifteen are on the
    board or in the tray.

    The board is read far more surely than the tray (whose rows of slabs are
    counted by their length, and whose lone block takes its colour from its
    lightness, which a black checker's bright rim fools).  So the tray's two
    blocks take the colours (as read, or the other way round) that leave each
    side's sum nearer fifteen; a block within ``config.board_tolerance`` of
    what the board leaves off is that many, and none holds more than that; a
    side with none on the board has all fifteen in the tray (it is in view:
    they can be nowhere else), unless the board is plainly misread (more than
    fifteen of a side).  Otherwise a side the tray shows none of keeps its
    none: the board may have missed some, or a player holds them.
    """
    config = config or TrayConfig()
    left = (max(SIDE - on_board.light, 0), max(SIDE - on_board.dark, 0))
    coloured = tray_colours(on_board, off)
    light, dark = coloured.light, coloured.dark
    sane = on_board.light <= SIDE and on_board.dark <= SIDE
    out = []
    for read, wanted in ((light, left[0]), (dark, left[1])):
        near = read > 0 and abs(read - wanted) <= config.board_tolerance
        out.append(wanted if near or (sane and wanted == SIDE) else min(read, wanted))
    return Counts(out[0], out[1])


def tray_colours(on_board: Counts, off: Counts) -> Counts:
    """The tray's two blocks as read, with the colours (as read, or the other way
    round) that leave each side's sum nearer fifteen; the counts themselves are the
    tray's own (the first step of :func:`consistent_off`; the observation's
    ``off_read`` holds them, none over fifteen)."""
    left = (max(SIDE - on_board.light, 0), max(SIDE - on_board.dark, 0))

    def miss(light: int, dark: int) -> int:
        return abs(left[0] - light) + abs(left[1] - dark)

    if miss(off.dark, off.light) < miss(off.light, off.dark):
        return Counts(off.dark, off.light)
    return Counts(off.light, off.dark)


def tray_may_settle(count: "CheckerCount") -> bool:
    """Whether a tray's count may have settled a stack of ``count`` (read with it): a
    side with no checker on the bar and all its checkers on the board in one quarter
    may be bearing off, and its total on the board is then taken as fifteen less the
    tray's (see :func:`presumed_on_board`)."""
    for colour in ("light", "dark"):
        if getattr(count.bar, colour):
            continue
        quarters = {quarter(p) for p, c in enumerate(count.points) if getattr(c, colour)}
        if len(quarters) == 1:
            return True
    return False
