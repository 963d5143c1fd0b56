"""Illegal plays real players make, planted on purpose with their kind as the label.

Each kind is a small, believable slip from the board before the play, the
sort of thing a referee must catch and that lies one or two checkers away
from a legal play (a wild board is a misread, and a warning, not a call):

* ``distance``: a legal play with one checker put a point short or long;
* ``bar``: both dice played elsewhere while a checker waits on the bar;
* ``blocked``: one checker moved the sum of the dice although both
  intermediate points are blocked;
* ``bearoff``: a checker borne off while others are still outside home;
* ``one_die``: only one die played when both could be.

Every planted board is checked with the rules engine's judge: it is kept
only when the judge finds it illegal, so a label never lies.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from controller.rules.judge import judge
from controller.rules.nearest import board_distance
from controller.rules.player import Player
from controller.rules.position import Position

MISTAKES: Final = ("distance", "bar", "blocked", "bearoff", "one_die")
OFF, BAR = 0, 25


@dataclass(frozen=True, slots=True)
class Mistake:
    """A planted illegal play."""

    kind: str
    after: Position
    """The board as played (the mover still on turn, as the judge takes it)."""
    judge_kinds: tuple[str, ...]
    nearest: Position
    """The board of the nearest legal play (what a correction restores)."""
    distance: int
    """Checkers between the planted board and the nearest legal one."""


def _rows(position: Position, mover: Player) -> tuple[list[int], list[int]]:
    return list(position.layout(mover)), list(position.layout(mover.opponent))


def _board(mine: list[int], theirs: list[int], mover: Player) -> Position | None:
    if min(mine) < 0 or min(theirs) < 0:
        return None
    layouts = (mine, theirs) if mover == Player.ZERO else (theirs, mine)
    try:
        return Position(layouts[0], layouts[1], mover)
    except ValueError:
        return None


def _open(theirs: list[int], point: int) -> bool:
    """No opposing checker on the mover's ``point`` (the planted slips never hit)."""
    return 1 <= point <= 24 and theirs[25 - point] == 0


def _blocked(theirs: list[int], point: int) -> bool:
    return 1 <= point <= 24 and theirs[25 - point] >= 2


def _step(mine: list[int], theirs: list[int], rng: random.Random, die: int,
          exclude: frozenset[int] = frozenset()) -> bool:
    """Move one of the mover's checkers on the board ``die`` pips to an empty or own point."""
    sources = [p for p in range(1, 25) if mine[p] and p not in exclude and _open(theirs, p - die)]
    if not sources:
        return False
    p = rng.choice(sources)
    mine[p] -= 1
    mine[p - die] += 1
    return True


def _distance(before: Position, dice: tuple[int, int], rng: random.Random) -> Position | None:
    mover = before.turn
    # Plays without hits: a checker that hit on its way and then lands a point off
    # leaves a blot on the bar that nothing hit, which is a misread more than a slip.
    plays = [p for p in before.legal_plays(*dice) if p.moves and not any(m.hit for m in p.moves)]
    if not plays:
        return None
    play = rng.choice(plays)
    landed = sorted({m.destination for m in play.moves if m.destination != OFF})
    if not landed:
        return None
    mine, theirs = _rows(before.play(play), mover)
    point = rng.choice(landed)
    # Not back onto a point a checker left: that is a die not played, not a miscount.
    starts = {m.source for m in play.moves}
    options = [q for q in (point - 1, point + 1) if _open(theirs, q) and q not in starts]
    if not options:
        return None
    target = rng.choice(options)
    mine[point] -= 1
    mine[target] += 1
    return _board(mine, theirs, mover)


def _bar(before: Position, dice: tuple[int, int], rng: random.Random) -> Position | None:
    mover = before.turn
    mine, theirs = _rows(before, mover)
    if not mine[BAR]:
        return None
    for die in dice:
        if not _step(mine, theirs, rng, die):
            return None
    return _board(mine, theirs, mover)


def _blocked_sum(before: Position, dice: tuple[int, int],
                 rng: random.Random) -> Position | None:
    mover = before.turn
    mine, theirs = _rows(before, mover)
    if mine[BAR]:
        return None
    a, b = dice
    sources = [p for p in range(1, 25) if mine[p] and _open(theirs, p - a - b)
               and _blocked(theirs, p - a) and _blocked(theirs, p - b)]
    if not sources:
        return None
    p = rng.choice(sources)
    mine[p] -= 1
    mine[p - a - b] += 1
    return _board(mine, theirs, mover)


def _bearoff(before: Position, dice: tuple[int, int], rng: random.Random) -> Position | None:
    mover = before.turn
    mine, theirs = _rows(before, mover)
    outside = sum(mine[7:26])
    if not 1 <= outside <= 3:
        return None
    first, second = dice if rng.random() < 0.5 else (dice[1], dice[0])
    if not mine[first]:
        first, second = second, first
    if not mine[first]:
        return None
    mine[first] -= 1
    mine[OFF] += 1
    if not _step(mine, theirs, rng, second):
        return None
    return _board(mine, theirs, mover)


def _one_die(before: Position, dice: tuple[int, int], rng: random.Random) -> Position | None:
    mover = before.turn
    plays = [p for p in before.legal_plays(*dice) if len(p.moves) >= 2]
    if not plays:
        return None
    move = rng.choice(plays).moves[0]
    mine, theirs = _rows(before, mover)
    mine[move.source] -= 1
    mine[move.destination] += 1
    if move.hit:
        theirs[25 - move.destination] -= 1
        theirs[BAR] += 1
    return _board(mine, theirs, mover)


_MAKERS: Final[dict[str, Callable[[Position, tuple[int, int], random.Random],
                                  Position | None]]] = {
    "distance": _distance, "bar": _bar, "blocked": _blocked_sum, "bearoff": _bearoff,
    "one_die": _one_die}


def plant(before: Position, dice: tuple[int, int], kind: str,
          rng: random.Random) -> Mistake | None:
    """A ``kind`` slip of ``dice`` from ``before`` (mover on turn), or None when the
    board gives no chance for it.  Tries a few times (some slips land on legal boards)."""
    if kind not in _MAKERS:
        raise ValueError(f"unknown mistake {kind!r}; one of {', '.join(MISTAKES)}")
    for _ in range(6):
        after = _MAKERS[kind](before, dice, rng)
        if after is None:
            return None
        verdict = judge(before, after, *dice)
        if verdict.legal or not verdict.closest:
            continue
        nearest = before.play(verdict.closest[0]) if verdict.closest[0].moves else before
        return Mistake(kind, after, tuple(k.value for k in verdict.kinds), nearest,
                       board_distance(after, nearest))
    return None


def available(before: Position, dice: tuple[int, int], rng: random.Random) -> list[Mistake]:
    """Every kind of slip this roll allows (one example each)."""
    found = [plant(before, dice, kind, rng) for kind in MISTAKES]
    return [m for m in found if m is not None]
