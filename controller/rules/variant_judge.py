"""Judging a play of a variant from the board before and the board after it.

As :func:`controller.rules.judge.judge` does for the standard game: a play
is legal when the board after is one a legal play of the roll leaves
(:mod:`controller.rules.variant_moves`); otherwise the verdict names the
rules broken and the nearest legal plays.  The standard game is handed to
that judge unchanged.

The variants add a place the camera cannot see, the hand: a checker in
hand is simply one that is not on the board.  So a checker that vanished
from the board looks like one put back in hand, and the count of checkers
in hand only ever goes down.

Finding the rule works like the standard diagnosis
(:mod:`controller.rules.diagnosis`): the turn is replayed with the rules
about where a die may take a checker lifted (:func:`variant_moves.steps`
with ``relaxed=True``), every sequence reaching the mover's checkers as
seen is charged with the rules it broke, with dice it left unplayed and
with hits the opponent's side does not show, and a rule is announced only
when every simplest way to reach the board breaks it.  Otherwise the
verdict says the board cannot be reached with the roll.

Two faults exist only in Dutch backgammon and have no :class:`FaultKind`
yet: see :class:`VariantFaultKind` and :class:`VariantFault`.
"""

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Final

from controller.rules.diagnosis import hit_breaches, opponent_facts
from controller.rules.faults import Fault, FaultKind, plural_points, times
from controller.rules.judge import CLOSEST, Verdict, judge
from controller.rules.move import Play
from controller.rules.nearest import nearest_plays
from controller.rules.position import Position, check_dice
from controller.rules.variant import Variant
from controller.rules.variant_moves import (
    BAR,
    HAND,
    OFF,
    Board,
    Breach,
    Rule,
    check_variant_position,
    dice_orders,
    max_dice_playable,
    steps,
    variant_play_table,
)


class VariantFaultKind(Enum):
    """Faults of rules only a variant has.

    :class:`FaultKind` cannot gain members without editing its module;
    until it does, these travel in :class:`VariantFault`.
    """

    ENTER_ALL_FIRST = "enter-all-first"
    """Dutch: a checker moved on while one was still in hand."""
    NO_EARLY_HIT = "no-early-hit"
    """Dutch: a hit before any checker of the mover's stood in the home board."""


AnyKind = FaultKind | VariantFaultKind
"""The kind of any fault a variant verdict can hold."""

_NEAREST_STANDARD_KIND: Final = {
    VariantFaultKind.ENTER_ALL_FIRST: FaultKind.BAR_FIRST,
    VariantFaultKind.NO_EARLY_HIT: FaultKind.BLOCKED,
}
"""What a caller that knows only :class:`FaultKind` sees: a checker waiting
in hand is held back as one on the bar is, and before reaching home a blot
is as closed to the mover as a made point (the fault's points light it)."""


@dataclass(frozen=True, slots=True)
class VariantFault(Fault):
    """A fault of a variant-only rule: :attr:`kind` is its nearest standard kind."""

    variant_kind: VariantFaultKind | None = None


def fault_kind(fault: Fault) -> AnyKind:
    """The precise kind of ``fault``: its variant kind when it has one."""
    if isinstance(fault, VariantFault) and fault.variant_kind is not None:
        return fault.variant_kind
    return fault.kind


def variant_kinds(verdict: Verdict) -> tuple[AnyKind, ...]:
    """The precise kinds of a verdict's faults, variant kinds included."""
    return tuple(fault_kind(fault) for fault in verdict.faults)


_ORDER: Final[tuple[AnyKind, ...]] = (
    FaultKind.COUNT,
    FaultKind.NOT_MOVERS_CHECKER,
    FaultKind.OPPONENT_CHANGED,
    FaultKind.HIT_NOT_ON_BAR,
    FaultKind.BACKWARDS,
    FaultKind.BAR_FIRST,
    VariantFaultKind.ENTER_ALL_FIRST,
    VariantFaultKind.NO_EARLY_HIT,
    FaultKind.BLOCKED,
    FaultKind.BEAR_OFF_OUTSIDE,
    FaultKind.BEAR_OFF_SHORT,
    FaultKind.FULL_VALUE,
    FaultKind.UNPLAYED_DIE,
    FaultKind.HIGHER_DIE,
    FaultKind.PIPS,
    FaultKind.UNREACHABLE,
)
"""The order faults are announced in: physical facts, then rules, then fallbacks."""
_RANK: Final = {kind: rank for rank, kind in enumerate(_ORDER)}

ENTER_ALL_TEXT: Final = "all 15 checkers must be entered before any checker moves on"
EARLY_HIT_TEXT: Final = "no hitting before a checker has reached the home board"
BAR_FIRST_TEXT: Final = "a checker on the bar must enter first"
OUTSIDE_TEXT: Final = "bearing off before all 15 checkers are in the home board"
_FULL_VALUE_PREFIX: Final = "must use the full value of a die when it can: "
_MAX_ALTERNATIVES: Final = 3


@dataclass(frozen=True, slots=True)
class _Charge:
    """One thing a way of reaching the board did wrong, with its sentence."""

    kind: AnyKind
    text: str
    points: tuple[int, ...] = ()


def _fault(kind: AnyKind, text: str, points: tuple[int, ...] = ()) -> Fault:
    if isinstance(kind, VariantFaultKind):
        return VariantFault(_NEAREST_STANDARD_KIND[kind], text, points, kind)
    return Fault(kind, text, points)


def _charge_of(breach: Breach) -> _Charge:
    """The sentence for a rule a relaxed step broke."""
    rule, place, die = breach.rule, breach.place, breach.die
    if rule is Rule.BAR_FIRST:
        return _Charge(FaultKind.BAR_FIRST, BAR_FIRST_TEXT, (BAR,))
    if rule is Rule.ENTER_ALL_FIRST:
        return _Charge(VariantFaultKind.ENTER_ALL_FIRST, ENTER_ALL_TEXT)
    if rule is Rule.NO_EARLY_HIT:
        return _Charge(VariantFaultKind.NO_EARLY_HIT,
                       f"{EARLY_HIT_TEXT} (a blot was hit on point {place})", (place,))
    if rule is Rule.BLOCKED:
        return _Charge(FaultKind.BLOCKED, f"point {place} is blocked", (place,))
    if rule is Rule.BEAR_OFF_OUTSIDE:
        return _Charge(FaultKind.BEAR_OFF_OUTSIDE, OUTSIDE_TEXT)
    if rule is Rule.BEAR_OFF_SHORT:
        return _Charge(FaultKind.BEAR_OFF_SHORT,
                       f"a {die} cannot bear off from the {place}-point", (place,))
    return _Charge(FaultKind.FULL_VALUE,
                   f"the {die} may bear off from the {place}-point only when no checker "
                   "stands higher", (place,))


# -- the mover's side: facts and relaxed replays -------------------------------------


def _pips(mine: tuple[int, ...]) -> int:
    """Pips to bear everything off; a checker in hand is as far as one on the bar."""
    return sum(place * mine[place] for place in range(1, BAR + 1)) + BAR * mine[HAND]


def _mover_facts(before: tuple[int, ...], after: tuple[int, ...]) -> list[Fault]:
    """Faults of the mover's checkers that no sequence of moves can explain.

    Both rows have 27 places, the hand last.  Checkers only ever leave the
    hand and the bar, and on or behind any point there can never be more of
    the mover's checkers afterwards (the hand and the bar are behind every
    point).
    """
    faults: list[Fault] = []
    if after[HAND] > before[HAND]:
        faults.append(_fault(
            FaultKind.COUNT,
            f"checkers appeared or disappeared: {after[HAND] - before[HAND]} of the mover's "
            "checkers left the board (a checker in hand can only enter, never go back)"))
        return faults
    if after[OFF] < before[OFF]:
        faults.append(_fault(FaultKind.BACKWARDS, "a borne-off checker was put back on the board",
                             (OFF,)))
    if after[BAR] > before[BAR]:
        text = "checkers moved backwards: a checker of the mover's was put on the bar"
        faults.append(_fault(FaultKind.BACKWARDS, text, (BAR,)))
        return faults
    behind_before = before[HAND] + before[BAR]
    behind_after = after[HAND] + after[BAR]
    for point in range(24, 0, -1):
        behind_before += before[point]
        behind_after += after[point]
        if behind_after > behind_before:
            faults.append(_fault(FaultKind.BACKWARDS,
                                 f"checkers moved backwards: a checker moved back to point {point}",
                                 (point,)))
            break
    return faults


@dataclass(frozen=True, slots=True)
class _Explanation:
    """A way to reach the mover's checkers as seen, and the rules it broke."""

    breaches: frozenset[Breach]
    unused: tuple[int, ...]
    """Dice left unplayed, ascending."""
    board: Board
    """The whole board it leaves, hits on the opponent included."""


class _Search:
    """Depth-first search over relaxed sequences towards the mover's checkers as seen."""

    def __init__(self, goal: tuple[int, ...], variant: Variant) -> None:
        self.goal = goal
        self.variant = variant
        # need[x]: the goal's checkers on places x and behind (the hand
        # furthest back).  Checkers only move forward, so a board with fewer
        # there can never become the goal.
        self.need = [sum(goal[x:]) for x in range(len(goal))]
        self.found: set[_Explanation] = set()
        self.seen: dict[tuple[Board, tuple[int, ...]], list[frozenset[Breach]]] = {}

    def hopeless(self, board: Board, rest: tuple[int, ...]) -> bool:
        mine = board.mine
        if mine[BAR] < self.goal[BAR]:
            return True
        behind = 0
        for place in range(HAND, -1, -1):
            behind += mine[place]
            if behind < self.need[place]:
                return True
        misplaced = sum(max(0, have - want) for have, want in zip(mine, self.goal, strict=True))
        if misplaced > len(rest):
            return True
        if mine[OFF] == self.goal[OFF]:
            # No more bearing off: every remaining move costs exactly its die.
            return _pips(mine) - _pips(self.goal) > sum(rest)
        return False

    def visit(self, board: Board, rest: tuple[int, ...], breaches: frozenset[Breach]) -> None:
        if board.mine == self.goal:
            self.found.add(_Explanation(breaches, rest, board))
            return
        may_bear_off = board.mine[OFF] < self.goal[OFF]
        for die in sorted(set(rest), reverse=True):
            left = list(rest)
            left.remove(die)
            remaining = tuple(left)
            for step in steps(board, die, self.variant, relaxed=True, may_bear_off=may_bear_off):
                if self.hopeless(step.board, remaining):
                    continue
                grown = breaches | step.breaks
                slot = self.seen.setdefault((step.board, remaining), [])
                # A state reached before with a subset of these breaches
                # already leads to everything this one can, with fewer faults.
                if any(old <= grown for old in slot):
                    continue
                slot.append(grown)
                self.visit(step.board, remaining, grown)


def _explain(start: Board, goal: tuple[int, ...], dice: tuple[int, ...],
             variant: Variant) -> frozenset[_Explanation]:
    """Every way (up to the rules broken) to turn the mover's checkers into ``goal``."""
    search = _Search(goal, variant)
    rest = tuple(sorted(dice))
    if not search.hopeless(start, rest):
        search.visit(start, rest, frozenset())
    return frozenset(search.found)


# -- charging explanations ------------------------------------------------------------


def _playable(board: Board, die: int, variant: Variant) -> bool:
    return bool(steps(board, die, variant))


class _Context:
    """The roll and what a legal play of it uses, as the charges need them."""

    def __init__(self, start: Board, die1: int, die2: int, dice_used: int,
                 variant: Variant) -> None:
        self.start = start
        self.die1, self.die2 = die1, die2
        self.doubles = die1 == die2
        self.dice = dice_orders(die1, die2)[0]
        self.dice_used = dice_used
        self.variant = variant
        self.roll = f"{die1}-{die2}"

    def dice_charge(self, explanation: _Explanation) -> _Charge | None:
        """The dice rule a sequence broke by what it left unplayed, if any."""
        used = len(self.dice) - len(explanation.unused)
        if used < self.dice_used:
            if used == 0:
                text = f"no checker moved, but {self.roll} can be played"
            elif self.doubles:
                text = (f"the {self.die1} could be played {times(self.dice_used)} "
                        f"but was played only {times(used)}")
            elif _playable(explanation.board, explanation.unused[0], self.variant):
                text = f"the {explanation.unused[0]} could be played and was not"
            else:
                text = "both dice could be played"
            return _Charge(FaultKind.UNPLAYED_DIE, text)
        high = max(self.die1, self.die2)
        if (used == self.dice_used == 1 and not self.doubles and explanation.unused == (high,)
                and _playable(self.start, high, self.variant)):
            return _Charge(FaultKind.HIGHER_DIE,
                           f"the higher die ({high}) must be played when only one can")
        return None

    def generic(self, kind: AnyKind) -> str | None:
        """A sentence true of every charge of ``kind`` when they differ in detail."""
        if kind == FaultKind.UNPLAYED_DIE:
            if self.doubles:
                return f"the {self.die1} could be played {times(self.dice_used)}"
            return "both dice could be played"
        if kind == VariantFaultKind.NO_EARLY_HIT:
            return EARLY_HIT_TEXT
        return None


Sheet = frozenset[_Charge]


def _sheet(explanation: _Explanation, context: _Context,
           opponent: tuple[tuple[int, ...], tuple[int, ...]] | None) -> Sheet:
    """Everything one explanation breaks: lifted rules, dice, hits the board does not show."""
    charges = {_charge_of(breach) for breach in explanation.breaches}
    dice = context.dice_charge(explanation)
    if dice is not None:
        charges.add(dice)
    if opponent is not None:
        before, after = opponent
        for breach in hit_breaches(before, after, explanation.board.theirs):
            charges.add(_Charge(breach.kind, breach.text, breach.points))
    return frozenset(charges)


def _merge(kind: AnyKind, charges: Iterable[_Charge], context: _Context,
           outside: tuple[int, ...]) -> Fault:
    """One fault saying what every one of ``charges`` (all of ``kind``) says."""
    distinct = sorted(set(charges), key=lambda c: (c.points, c.text))
    points = outside if kind == FaultKind.BEAR_OFF_OUTSIDE else tuple(
        sorted({p for c in distinct for p in c.points}))
    generic = context.generic(kind)
    if len(distinct) == 1:
        text = distinct[0].text
    elif kind == FaultKind.BLOCKED:
        text = f"{plural_points(points)} are blocked"
    elif kind == VariantFaultKind.NO_EARLY_HIT:
        text = f"{EARLY_HIT_TEXT} (a blot was hit on {plural_points(points)})"
    elif generic is not None:
        text = generic
    else:
        text = " or ".join(c.text for c in distinct)
    prefix = _FULL_VALUE_PREFIX if kind == FaultKind.FULL_VALUE else ""
    return _fault(kind, prefix + text, points)


def _from_sheets(sheets: Collection[Sheet], context: _Context,
                 outside: tuple[int, ...]) -> list[Fault]:
    """The faults every simplest sheet agrees on, or the alternatives when none.

    A sheet breaking the same kinds of rule as another and more is a worse
    explanation and is dropped; a kind announced is worded from every
    remaining sheet that breaks it, so it holds whichever way the checkers
    went.
    """
    kinds = {sheet: frozenset(c.kind for c in sheet) for sheet in sheets}
    simplest = {k for k in kinds.values() if not any(other < k for other in kinds.values())}
    if frozenset() in simplest:
        return []

    def merged(kind: AnyKind, within: frozenset[AnyKind]) -> Fault:
        found = (c for sheet, ks in kinds.items() if within <= ks for c in sheet if c.kind == kind)
        return _merge(kind, found, context, outside)

    common = frozenset.intersection(*simplest)
    if common:
        return [merged(kind, common) for kind in _ORDER if kind in common]
    text = f"this board cannot be reached with {context.roll}"
    if len(simplest) <= _MAX_ALTERNATIVES:
        options = sorted(
            (" and ".join(merged(kind, option).text for kind in _ORDER if kind in option)
             for option in simplest),
            key=lambda option: (len(option), option),
        )
        text += " without breaking a rule: either " + ", or ".join(options)
    return [_fault(FaultKind.UNREACHABLE, text)]


def _diagnose(before: Position, after: Position, die1: int, die2: int,
              variant: Variant) -> tuple[Fault, ...]:
    """Why ``after`` is no legal result of ``die1``-``die2`` from ``before``.  Never empty."""
    mover = before.turn
    start, seen = Board.of(before), Board.of(after.with_turn(mover))
    op0, op1 = start.theirs, seen.theirs
    context = _Context(start, die1, die2, max_dice_playable(before, die1, die2, variant), variant)
    faults = _mover_facts(start.mine, seen.mine)
    mover_wrong = bool(faults)
    opponent = opponent_facts(op0, op1)
    opp_count = [] if sum(op0) == sum(op1) else [_fault(
        FaultKind.COUNT,
        f"checkers appeared or disappeared: the opponent has {sum(op1)} checkers on the board "
        f"and off, not {sum(op0)}")]
    faults += opponent
    explanations = frozenset() if mover_wrong else _explain(start, seen.mine, context.dice,
                                                            variant)
    if explanations:
        hits = (op0, op1) if not opponent else None
        sheets = {_sheet(e, context, hits) for e in explanations}
        outside = tuple(p for p in range(7, BAR + 1) if start.mine[p])
        faults += _from_sheets(sheets, context, outside)
        if opponent:
            faults += opp_count
    else:
        faults += opp_count
    if (not explanations and not mover_wrong) or not faults:
        faults.append(_fault(FaultKind.UNREACHABLE,
                             f"this board cannot be reached with {die1}-{die2}"))
    faults.sort(key=lambda f: _RANK[fault_kind(f)])
    return tuple(faults)


def variant_judge(before: Position, after: Position, die1: int, die2: int,
                  variant: Variant) -> Verdict:
    """Judge the play of ``die1``-``die2`` under ``variant`` that turned ``before`` into ``after``.

    ``before`` has the mover on roll; only the checkers of ``after``
    count, not whose turn it says.  Faults of the Dutch-only rules are
    :class:`VariantFault` values (read them with :func:`variant_kinds`).
    The standard game is judged by :func:`controller.rules.judge.judge`.
    """
    check_dice(die1, die2)
    check_variant_position(before, variant)
    if variant is Variant.STANDARD:
        return judge(before, after, die1, die2)
    dice = (die1, die2)
    plays = variant_play_table(before, die1, die2, variant)
    play = plays.get(after.key)
    if play is not None:
        return Verdict(True, play)
    if not plays and after.key == before.key:
        return Verdict(True, Play((), dice))
    faults = _diagnose(before, after, die1, die2, variant)
    if not plays:
        return Verdict(False, None, faults, (Play((), dice),))
    return Verdict(False, None, faults, nearest_plays(after.key, plays, plays.__getitem__, CLOSEST))


__all__ = [
    "AnyKind",
    "VariantFault",
    "VariantFaultKind",
    "fault_kind",
    "variant_judge",
    "variant_kinds",
]
