"""Replaying a turn with some rules suspended, to find which rule a board broke.

The camera shows only the board before and after a play, never the path
the checkers took.  To name the rule a wrong board breaks, the diagnosis
asks which sequences of single-die moves would produce the mover's checkers
as seen if the rules about *where* a die may take a checker were lifted:
a checker may stop on a blocked point, move while another waits on the bar,
bear off with checkers outside, bear off with too small a die, or overshoot
from a lower point.  Every lifted rule a sequence relies on is recorded as a
:class:`Breach`.  Dice still have to be played one at a time at their face
value, so a board that needs a die it does not show stays unexplained.

Only the mover's half of the board has to match: what happened to the
opponent's checkers (hits that were or were not put on the bar) is judged
afterwards from the board each sequence predicts.
"""

from dataclasses import dataclass
from typing import Final

from controller.rules import layout as lay
from controller.rules.faults import Breach, FaultKind

_OUTSIDE_PLACES: Final = range(7, 26)


@dataclass(frozen=True, slots=True)
class Explanation:
    """A way to reach the mover's checkers as seen, and what it broke.

    It is a :class:`controller.rules.diagnosis.Way`, as the diagnosis charges it.
    """

    breaches: frozenset[Breach]
    unused: tuple[int, ...]
    """Dice left unplayed, ascending."""
    key: int
    """The whole board this sequence leaves (mover-relative), hits included."""

    @property
    def theirs(self) -> tuple[int, ...]:
        """The opponent's side this sequence leaves, from their side."""
        return lay.unpack(self.key >> lay.HALF)

    def playable(self, die: int) -> bool:
        """Whether ``die`` has a legal move on the board this sequence leaves."""
        return playable(self.key, die)


BAR_FIRST: Final = Breach(FaultKind.BAR_FIRST, "a checker on the bar must enter first", (lay.BAR,))
OUTSIDE: Final = Breach(FaultKind.BEAR_OFF_OUTSIDE,
                        "bearing off with a checker outside the home board")


def blocked(point: int) -> Breach:
    """A stop on ``point`` while the opponent holds it."""
    return Breach(FaultKind.BLOCKED, f"point {point} is blocked", (point,))


def short(die: int, point: int) -> Breach:
    """Bearing off from ``point`` with a die smaller than it."""
    return Breach(FaultKind.BEAR_OFF_SHORT, f"a {die} cannot bear off from the {point}-point",
                  (point,))


def full_value(die: int, point: int) -> Breach:
    """Bearing off from ``point`` with a larger die while a checker stands higher."""
    return Breach(
        FaultKind.FULL_VALUE,
        f"the {die} may bear off from the {point}-point only when no checker stands higher",
        (point,),
    )


def _opponent_on(key: int, point: int) -> int:
    """The opponent's checkers on the mover's ``point`` (1-24)."""
    return (key >> (lay.HALF + lay.NIBBLE * (25 - point))) & 15


def _moved(key: int, source: int, destination: int) -> int:
    """``key`` with one mover checker taken from ``source`` to ``destination``."""
    return key - (1 << (lay.NIBBLE * source)) + (1 << (lay.NIBBLE * destination))


def _hit(key: int, point: int) -> int:
    """``key`` with the opponent's blot on the mover's ``point`` sent to their bar."""
    return key - (1 << (lay.HALF + lay.NIBBLE * (25 - point))) + (
        1 << (lay.HALF + lay.NIBBLE * lay.BAR)
    )


def relaxed_steps(key: int, die: int, may_bear_off: bool) -> list[tuple[int, frozenset[Breach]]]:
    """Every move of one checker by ``die``, legal or not, with what it breaks.

    Bearing off is offered only when ``may_bear_off``: the search knows
    whether the board it must reach has more checkers off.
    """
    me = lay.unpack(key & lay.LOW_MASK)
    on_bar = me[lay.BAR] > 0
    outside = any(me[p] for p in _OUTSIDE_PLACES)
    out: list[tuple[int, frozenset[Breach]]] = []
    for source in range(lay.BAR, 0, -1):
        if not me[source]:
            continue
        base: frozenset[Breach] = (
            frozenset((BAR_FIRST,)) if on_bar and source != lay.BAR else frozenset()
        )
        target = source - die
        if target >= 1:
            there = _opponent_on(key, target)
            moved = _moved(key, source, target)
            if there >= 2:
                out.append((moved, base | {blocked(target)}))
            elif there == 1:
                out.append((_hit(moved, target), base))
            else:
                out.append((moved, base))
            if may_bear_off and source != lay.BAR:
                extra = {short(die, source)} | ({OUTSIDE} if outside else set())
                out.append((_moved(key, source, lay.OFF), base | extra))
        elif may_bear_off:
            breaks = set(base)
            if outside:
                breaks.add(OUTSIDE)
            if target < 0 and any(me[p] for p in range(source + 1, 26)):
                breaks.add(full_value(die, source))
            out.append((_moved(key, source, lay.OFF), frozenset(breaks)))
    return out


def playable(key: int, die: int) -> bool:
    """Whether ``die`` has a legal move on the mover-relative board ``key``."""
    return any(not breaches for _, breaches in relaxed_steps(key, die, may_bear_off=True))


class _Search:
    """Depth-first search over relaxed sequences towards one mover layout."""

    def __init__(self, goal: int) -> None:
        self.goal = goal
        self.want = lay.unpack(goal)
        # need[x]: checkers the goal has on places x..25; checkers only move
        # down, so a board with fewer there can never reach the goal.
        self.need = [sum(self.want[x:]) for x in range(lay.PLACES)]
        self.found: set[Explanation] = set()
        self.seen: dict[tuple[int, tuple[int, ...]], list[frozenset[Breach]]] = {}

    def hopeless(self, key: int, rest: tuple[int, ...]) -> bool:
        me = lay.unpack(key & lay.LOW_MASK)
        above = 0
        for place in range(lay.BAR, -1, -1):
            above += me[place]
            if above < self.need[place]:
                return True
        misplaced = sum(max(0, have - want) for have, want in zip(me, self.want, strict=True))
        if misplaced > len(rest):
            return True
        if me[lay.OFF] == self.want[lay.OFF]:
            # No more bearing off: every remaining move costs exactly its die.
            pips = sum(place * (me[place] - self.want[place]) for place in range(1, 26))
            return pips > sum(rest)
        return False

    def visit(self, key: int, rest: tuple[int, ...], breaches: frozenset[Breach]) -> None:
        if key & lay.LOW_MASK == self.goal:
            self.found.add(Explanation(breaches, rest, key))
            return
        may_bear_off = ((key >> (lay.NIBBLE * lay.OFF)) & 15) < self.want[lay.OFF]
        for die in sorted(set(rest), reverse=True):
            left = list(rest)
            left.remove(die)
            remaining = tuple(left)
            for key2, new in relaxed_steps(key, die, may_bear_off):
                if self.hopeless(key2, remaining):
                    continue
                grown = breaches | new
                slot = self.seen.setdefault((key2, remaining), [])
                # A state reached before with a subset of these breaches
                # already leads to everything this one can, with fewer faults.
                if any(old <= grown for old in slot):
                    continue
                slot.append(grown)
                self.visit(key2, remaining, grown)


def explain(start: int, target: int, dice: tuple[int, ...]) -> frozenset[Explanation]:
    """All ways (up to breaches) to turn ``start``'s mover half into ``target``'s.

    Both keys are mover-relative; ``dice`` are the dice of the roll, four
    of them for doubles.  Sequences may stop before every die is played.
    """
    search = _Search(target & lay.LOW_MASK)
    rest = tuple(sorted(dice))
    if not search.hopeless(start, rest):
        search.visit(start, rest, frozenset())
    return frozenset(search.found)
