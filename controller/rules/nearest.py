"""How far a board is from another: the basis of "you probably meant ...".

When a play is illegal the referee shows the legal plays whose boards are
nearest to what the camera sees.  The distance is the number of checkers a
player would have to pick up and put down elsewhere to turn one board into
the other: per player, the checkers in excess on some places or missing
from others, whichever is larger (a checker moved from an excess place to a
missing one counts once; one to add or remove counts once too), summed over
both players.  Ties are broken by how many pips those corrections cover, so
a checker one point off comes before one six points off.
"""

from collections.abc import Callable, Iterable

from controller.rules import layout as lay
from controller.rules.move import Play
from controller.rules.position import Position


def key_distance(a: int, b: int) -> tuple[int, int]:
    """(checkers to move, pips they travel) between two packed boards.

    Only the places where the boards differ are visited (found from the
    XOR of the keys): the referee ranks every legal result of a roll, and
    doubles can have hundreds.
    """
    checkers = pips = 0
    for shift in (0, lay.HALF):
        half_a, half_b = (a >> shift) & lay.LOW_MASK, (b >> shift) & lay.LOW_MASK
        diff = half_a ^ half_b
        excess = missing = running = last = 0
        while diff:
            place = ((diff & -diff).bit_length() - 1) // lay.NIBBLE
            offset = place * lay.NIBBLE
            gap = ((half_a >> offset) & 15) - ((half_b >> offset) & 15)
            # On a line, fixing the counts costs the sum over places of how
            # many checkers must cross each one: the running surplus, which
            # only changes where the boards differ.
            pips += abs(running) * (place - last)
            running += gap
            last = place
            if gap > 0:
                excess += gap
            else:
                missing -= gap
            diff &= ~(15 << offset)
        pips += abs(running) * (lay.PLACES - last)
        checkers += max(excess, missing)
    return checkers, pips


def board_distance(a: Position, b: Position) -> int:
    """Checkers to move to turn board ``a`` into board ``b`` (turns ignored)."""
    return key_distance(a.key, b.key)[0]


def nearest_plays(target: int, results: Iterable[int], play_of: Callable[[int], Play],
                  limit: int) -> tuple[Play, ...]:
    """The ``limit`` plays whose results lie nearest ``target``, nearest first.

    ``results`` are the legal boards and ``play_of`` names the play leaving
    each; plays are only built for the few boards that can make the cut
    (doubles can have hundreds), and ties are ordered by notation.
    """
    ranked = sorted((key_distance(target, key), key) for key in results)
    if not ranked:
        return ()
    cut = ranked[min(limit, len(ranked)) - 1][0]
    finalists = [(rank, play_of(key)) for rank, key in ranked if rank <= cut]
    finalists.sort(key=lambda item: (item[0], str(item[1])))
    return tuple(play for _, play in finalists[:limit])
