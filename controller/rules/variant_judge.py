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

Finding the rule is the standard diagnosis
(:func:`controller.rules.diagnosis.conclude`): the turn is replayed with
the rules about where a die may take a checker lifted
(:func:`variant_moves.steps` with ``relaxed=True``), every sequence
reaching the mover's checkers as seen is charged with the rules it broke,
with dice it left unplayed and with hits the opponent's side does not show,
and a rule is announced only when every simplest way to reach the board
breaks it.  Otherwise the verdict says the board cannot be reached with the
roll.  This module brings only what the hand changes: the facts of the
mover's checkers, the replays, and the sentences of the rules a relaxed
step breaks.  The two Dutch-only rules have kinds of their own,
:attr:`FaultKind.ENTER_ALL_FIRST` and :attr:`FaultKind.NO_EARLY_HIT`.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from controller.rules import variant_moves as vm
from controller.rules.diagnosis import EARLY_HIT_TEXT, Roll, conclude
from controller.rules.faults import Breach, Fault, FaultKind
from controller.rules.judge import CLOSEST, Verdict, judge
from controller.rules.move import Play
from controller.rules.nearest import nearest_plays
from controller.rules.position import Position, check_dice
from controller.rules.relaxed import BAR_FIRST, blocked, full_value, short
from controller.rules.variant import Variant
from controller.rules.variant_moves import (
    BAR,
    HAND,
    OFF,
    Board,
    Rule,
    check_variant_position,
    max_dice_playable,
    steps,
    variant_play_table,
)

ENTER_ALL_TEXT: Final = "all 15 checkers must be entered before any checker moves on"
OUTSIDE_TEXT: Final = "bearing off before all 15 checkers are in the home board"
_SUMMARIES: Final[Mapping[FaultKind, str]] = MappingProxyType({})
"""Hit breaches that differ in detail are listed, joined by "or" (the
standard judge sums them up instead)."""


def _breach_of(breach: vm.Breach) -> Breach:
    """The sentence for a rule a relaxed step broke."""
    rule, place, die = breach.rule, breach.place, breach.die
    if rule is Rule.BAR_FIRST:
        return BAR_FIRST
    if rule is Rule.ENTER_ALL_FIRST:
        return Breach(FaultKind.ENTER_ALL_FIRST, ENTER_ALL_TEXT)
    if rule is Rule.NO_EARLY_HIT:
        return Breach(FaultKind.NO_EARLY_HIT,
                      f"{EARLY_HIT_TEXT} (a blot was hit on point {place})", (place,))
    if rule is Rule.BLOCKED:
        return blocked(place)
    if rule is Rule.BEAR_OFF_OUTSIDE:
        return Breach(FaultKind.BEAR_OFF_OUTSIDE, OUTSIDE_TEXT)
    if rule is Rule.BEAR_OFF_SHORT:
        return short(die, place)
    return full_value(die, place)


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
        faults.append(Fault(
            FaultKind.COUNT,
            f"checkers appeared or disappeared: {after[HAND] - before[HAND]} of the mover's "
            "checkers left the board (a checker in hand can only enter, never go back)"))
        return faults
    if after[OFF] < before[OFF]:
        faults.append(Fault(FaultKind.BACKWARDS, "a borne-off checker was put back on the board",
                            (OFF,)))
    if after[BAR] > before[BAR]:
        text = "checkers moved backwards: a checker of the mover's was put on the bar"
        faults.append(Fault(FaultKind.BACKWARDS, text, (BAR,)))
        return faults
    behind_before = before[HAND] + before[BAR]
    behind_after = after[HAND] + after[BAR]
    for point in range(24, 0, -1):
        behind_before += before[point]
        behind_after += after[point]
        if behind_after > behind_before:
            faults.append(Fault(FaultKind.BACKWARDS,
                                f"checkers moved backwards: a checker moved back to point {point}",
                                (point,)))
            break
    return faults


@dataclass(frozen=True, slots=True)
class _Explanation:
    """A way to reach the mover's checkers as seen, and the rules it broke.

    It is a :class:`controller.rules.diagnosis.Way`, as the diagnosis charges it.
    """

    breaches: frozenset[Breach]
    unused: tuple[int, ...]
    """Dice left unplayed, ascending."""
    board: Board
    """The whole board it leaves, hits on the opponent included."""
    variant: Variant

    @property
    def theirs(self) -> tuple[int, ...]:
        """The opponent's side it leaves, from their side."""
        return self.board.theirs

    def playable(self, die: int) -> bool:
        """Whether ``die`` has a legal move on the board it leaves."""
        return bool(steps(self.board, die, self.variant))


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
        self.seen: dict[tuple[Board, tuple[int, ...]], list[frozenset[vm.Breach]]] = {}

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

    def visit(self, board: Board, rest: tuple[int, ...], breaches: frozenset[vm.Breach]) -> None:
        if board.mine == self.goal:
            charged = frozenset(_breach_of(breach) for breach in breaches)
            self.found.add(_Explanation(charged, rest, board, self.variant))
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


def _diagnose(before: Position, after: Position, die1: int, die2: int,
              variant: Variant) -> tuple[Fault, ...]:
    """Why ``after`` is no legal result of ``die1``-``die2`` from ``before``.  Never empty."""
    mover = before.turn
    start, seen = Board.of(before), Board.of(after.with_turn(mover))
    roll = Roll(die1, die2, max_dice_playable(before, die1, die2, variant),
                lambda die: bool(steps(start, die, variant)), _SUMMARIES)
    return conclude(roll, _mover_facts(start.mine, seen.mine), (start.theirs, seen.theirs),
                    lambda: _explain(start, seen.mine, roll.dice, variant),
                    tuple(p for p in range(7, BAR + 1) if start.mine[p]),
                    counted="checkers on the board and off")


def variant_judge(before: Position, after: Position, die1: int, die2: int,
                  variant: Variant) -> Verdict:
    """Judge the play of ``die1``-``die2`` under ``variant`` that turned ``before`` into ``after``.

    ``before`` has the mover on roll; only the checkers of ``after``
    count, not whose turn it says.  The standard game is judged by
    :func:`controller.rules.judge.judge`.
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


__all__ = ["variant_judge"]
