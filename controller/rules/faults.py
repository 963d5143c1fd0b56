"""What the referee can say is wrong with a play.

A :class:`Fault` pairs a sentence for the players with a machine-readable
:class:`FaultKind` (for the referee's lights, logs and tests) and the points
it concerns, counted from the mover's own side, so the referee can light
them.  The kinds are declared in the order the referee announces them:
physical mistakes with the checkers first (a miscount or a checker of the
wrong colour makes every finer rule moot), then the rules of moving, then
the fallbacks used when nothing more precise is certain.
"""

from dataclasses import dataclass
from enum import Enum


class FaultKind(Enum):
    """The rule or physical mistake a fault is about."""

    COUNT = "count"
    """Checkers appeared or disappeared."""
    NOT_MOVERS_CHECKER = "not-movers-checker"
    """An opponent's checker moved."""
    OPPONENT_CHANGED = "opponent-changed"
    """Opponent's checkers removed or sent to the bar without a hit."""
    HIT_NOT_ON_BAR = "hit-not-on-bar"
    """A hit checker was left off the bar."""
    BACKWARDS = "backwards"
    """A mover's checker moved towards the mover's 24-point, the bar or back from off."""
    BAR_FIRST = "bar-first"
    """Another checker moved while one was on the bar."""
    ENTER_ALL_FIRST = "enter-all-first"
    """Dutch: a checker moved on while one was still in hand (all 15 enter first)."""
    NO_EARLY_HIT = "no-early-hit"
    """Dutch: a hit before any checker of the mover's had reached the home board."""
    BLOCKED = "blocked"
    """A checker stopped on a point the opponent holds with two or more."""
    BEAR_OFF_OUTSIDE = "bear-off-outside"
    """Bearing off while a checker is outside the home board."""
    BEAR_OFF_SHORT = "bear-off-short"
    """A die smaller than the point bore a checker off."""
    FULL_VALUE = "full-value"
    """A die bore off from a lower point while a checker stood higher."""
    UNPLAYED_DIE = "unplayed-die"
    """Fewer dice were played than could be."""
    HIGHER_DIE = "higher-die"
    """The lower die was played when only one could be and the higher could."""
    PIPS = "pips"
    """The pips moved do not add up to what the dice allow."""
    UNREACHABLE = "unreachable"
    """No precise rule can be named: the board is simply not a result of the roll."""


@dataclass(frozen=True, slots=True)
class Fault:
    """One thing wrong with a play, in words and as data."""

    kind: FaultKind
    text: str
    points: tuple[int, ...] = ()
    """Points concerned, from the mover's side (0 = off, 25 = the mover's bar)."""

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Breach:
    """One rule one way of reaching a board had to break, with its sentence.

    The replays of a turn with rules lifted (:mod:`controller.rules.relaxed`
    for the standard game, :func:`controller.rules.variant_moves.steps` for
    the variants) charge each way with breaches; the diagnosis
    (:mod:`controller.rules.diagnosis`) merges those every way shares into
    :class:`Fault` values.
    """

    kind: FaultKind
    text: str
    points: tuple[int, ...] = ()


def join_and(parts: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``: lists as a sentence says them."""
    if len(parts) <= 1:
        return "".join(parts)
    return f"{', '.join(parts[:-1])} and {parts[-1]}"


def plural_points(points: tuple[int, ...]) -> str:
    """``point 7`` or ``points 7 and 8`` or ``points 3, 7 and 8``."""
    names = [str(p) for p in sorted(points)]
    return f"point {names[0]}" if len(names) == 1 else f"points {join_and(names)}"


def times(count: int) -> str:
    """``once``, ``twice``, ``three times``, ``four times``."""
    return {1: "once", 2: "twice", 3: "three times", 4: "four times"}.get(count, f"{count} times")
