"""Judging a play from the board before and the board after it.

The camera never sees the path the checkers took, only two boards.  A play
is legal when the board after is one that some legal play of the roll
leaves; the referee then also knows *a* play that does it (the one it
shows; others with the same result are equivalent).  When it is not, the
verdict says why in sentences a player understands
(:mod:`controller.rules.diagnosis`) and which legal plays come closest
(:mod:`controller.rules.nearest`).

>>> from controller.rules import Position
>>> start = Position.initial()
>>> after = start.play(start.legal_plays(3, 1)[0])
>>> judge(start, after, 3, 1).legal
True
>>> judge(start, start, 3, 1).reasons
('no checker moved, but 3-1 can be played',)
"""

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Final

from controller.rules import layout as lay
from controller.rules import movegen
from controller.rules.diagnosis import diagnose
from controller.rules.faults import Fault, FaultKind
from controller.rules.move import Move, Play
from controller.rules.nearest import nearest_plays
from controller.rules.player import Player
from controller.rules.position import Position, check_dice

CLOSEST: Final = 3
"""How many nearest legal plays an illegal verdict offers."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """The referee's judgement of one play."""

    legal: bool
    play: Play | None = None
    """When legal: a legal play leaving this board (a dance is an empty play)."""
    faults: tuple[Fault, ...] = ()
    """When illegal: what is wrong, most basic first; empty when legal."""
    closest: tuple[Play, ...] = ()
    """When illegal: the legal plays whose boards are nearest, nearest first."""

    @property
    def reasons(self) -> tuple[str, ...]:
        """The faults as sentences for the players."""
        return tuple(fault.text for fault in self.faults)

    @property
    def kinds(self) -> tuple[FaultKind, ...]:
        """The faults as kinds, for the referee and tests."""
        return tuple(fault.kind for fault in self.faults)


@lru_cache(maxsize=64)
def _legal_results(start: int, die1: int, die2: int) -> tuple[Mapping[int, int], int]:
    """The legal results of a roll, remembered: the camera judges the same
    position before a play many times while the player moves checkers."""
    results, length = movegen.generate(start, die1, die2)
    return MappingProxyType(results), length


def _play(start: int, path: int, length: int, dice: tuple[int, int]) -> Play:
    moves = movegen.unpack_path(start, path, length)
    return Play(tuple(Move(s, t, hit) for s, t, hit in moves), dice)


def judge(before: Position, after: Position, die1: int, die2: int) -> Verdict:
    """Judge the play of ``die1``-``die2`` that turned ``before`` into ``after``.

    ``before`` has the mover on roll.  Only the checkers of ``after`` count,
    not whose turn it says, so the camera's board can be passed as it is.
    """
    check_dice(die1, die2)
    dice = (die1, die2)
    start = before.relative_key()
    target = after.key if before.turn == Player.ZERO else lay.swap(after.key)
    results, length = _legal_results(start, die1, die2)
    if target in results:
        return Verdict(True, _play(start, results[target], length, dice))
    if not results and target == start:
        return Verdict(True, Play((), dice))
    faults = diagnose(start, target, die1, die2, legal=results.keys(), length=length)
    if not results:
        return Verdict(False, None, faults, (Play((), dice),))

    def play_of(key: int) -> Play:
        return _play(start, results[key], length, dice)

    return Verdict(False, None, faults, nearest_plays(target, results, play_of, CLOSEST))
