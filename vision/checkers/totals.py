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
"""

from collections.abc import Sequence

from vision.checkers.stacks import Stack, StackConfig
from vision.observation import Counts


def choose_alternatives(counts: Sequence[int], options: Sequence[Sequence[tuple[int, float]]],
                        wanted: int, config: StackConfig) -> list[int]:
    """Stack counts of one colour made to add up to ``wanted`` (checkers known to be on
    the board) by taking the single most plausible alternative that closes the gap, when
    one is plausible enough; else the counts as read."""
    gap = wanted - sum(counts)
    if gap == 0:
        return list(counts)
    best: tuple[float, int, int] | None = None
    for i, (count, choices) in enumerate(zip(counts, options, strict=True)):
        for other, plausibility in choices:
            if other - count == gap and plausibility >= config.plausible and (
                    best is None or plausibility > best[0]):
                best = (plausibility, i, other)
    chosen = list(counts)
    if best is not None:
        chosen[best[1]] = best[2]
    return chosen


def known_totals(stacks: dict[int, tuple[Stack, bool]], bar: list[int], on_board: Counts,
                 config: StackConfig) -> dict[int, int]:
    """Stack counts (per point; stacks given with their colour, True for light) made to
    match the checkers known to be on the board, colour by colour; ``bar`` holds the
    (light, dark) checkers on the bar."""
    out: dict[int, int] = {}
    for colour, wanted in ((True, on_board.light), (False, on_board.dark)):
        points = [p for p, (_, c) in stacks.items() if c == colour]
        chosen = choose_alternatives([stacks[p][0].count for p in points],
                                     [stacks[p][0].alternatives for p in points],
                                     wanted - bar[0 if colour else 1], config)
        out.update(zip(points, chosen, strict=True))
    return out


def colours_swapped(read: Counts, on_board: Counts) -> bool:
    """Whether the colours read are the wrong way round: each colour's count is the
    other's known number, and not its own (a frame with one colour only, whose
    lightness guessed wrong)."""
    return (read.light, read.dark) == (on_board.dark, on_board.light) \
        and read.light != read.dark
