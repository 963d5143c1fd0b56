"""Seeded random positions aimed at the places move generators get wrong.

Uniformly random boards almost never put a checker on the bar in front of a
closed board, leave a die that cannot be played, or bear off with a die
bigger than the highest point, yet those are exactly where a generator and
GNU Backgammon disagree if they ever do.  So the corpus is a mix of small
generators, each aimed at one such situation, plus plain middle games.  The
differential test and the benchmark draw from the same :func:`corpus`, so
the speed measured is the speed on the cases that were checked.

Every position is valid: 15 checkers a side (the ones not on the board are
borne off), never both players on one point, both players still have a
checker on the board, and either player may be on roll (so both
orientations of every conversion get exercised).
"""

import random
from collections.abc import Callable, Sequence
from typing import Final

from controller.rules import Player, Position

Entry = tuple[Position, int, int]
"""A position and the roll to generate plays for."""

Generator = Callable[[random.Random], Entry]

BAR: Final = 25
CHECKERS: Final = 15
HOME: Final = range(1, 7)
POINTS: Final = range(1, 25)


class _Board:
    """Both sides' counts, each from its own side, while a position is built.

    ``mover`` is the player who will be on roll.  The helpers refuse to put a
    checker where the other side already is, so every generator gets
    validity for free and only has to say where it wants checkers.
    """

    def __init__(self) -> None:
        self.mover = [0] * 26
        self.opponent = [0] * 26

    def mover_may_use(self, point: int) -> bool:
        return point == BAR or self.opponent[25 - point] == 0

    def opponent_may_use(self, point: int) -> bool:
        return point == BAR or self.mover[25 - point] == 0

    def mover_left(self) -> int:
        return CHECKERS - sum(self.mover[1:])

    def opponent_left(self) -> int:
        return CHECKERS - sum(self.opponent[1:])

    def put_mover(self, point: int, count: int = 1) -> None:
        if not self.mover_may_use(point):
            raise ValueError(f"opponent holds the mover's point {point}")
        self.mover[point] += count

    def put_opponent(self, point: int, count: int = 1) -> None:
        if not self.opponent_may_use(point):
            raise ValueError(f"mover holds the opponent's point {point}")
        self.opponent[point] += count

    def put_opponent_upto(self, point: int, count: int) -> None:
        """Put ``count`` opposing checkers on ``point``, or as many as are left."""
        self.put_opponent(point, min(count, self.opponent_left()))

    def scatter_mover(self, rng: random.Random, count: int, points: Sequence[int],
                      stacks: int | None = None) -> None:
        """Drop ``count`` checkers on a few random usable ``points``.

        Picking a handful of points first and then filling them gives
        stacks, blots and gaps in realistic proportions.
        """
        usable = [p for p in points if self.mover_may_use(p)]
        _fill(rng, count, usable, stacks, self.mover)

    def scatter_opponent(self, rng: random.Random, count: int, points: Sequence[int],
                         stacks: int | None = None) -> None:
        usable = [p for p in points if self.opponent_may_use(p)]
        _fill(rng, count, usable, stacks, self.opponent)

    def position(self, rng: random.Random) -> Position:
        """The finished position; the checkers not placed are borne off."""
        mover, opponent = list(self.mover), list(self.opponent)
        mover[0] = CHECKERS - sum(mover[1:])
        opponent[0] = CHECKERS - sum(opponent[1:])
        if mover[0] < 0 or opponent[0] < 0:
            raise ValueError("more than 15 checkers placed")
        if mover[0] == CHECKERS or opponent[0] == CHECKERS:
            raise ValueError("a finished game is not a position to move in")
        turn = rng.choice((Player.ZERO, Player.ONE))
        return Position.from_relative(mover, opponent, turn)


def _fill(rng: random.Random, count: int, usable: Sequence[int], stacks: int | None,
          row: list[int]) -> None:
    if count <= 0:
        return
    if not usable:
        raise ValueError("no usable point left")
    k = stacks if stacks is not None else rng.randint(2, 7)
    chosen = rng.sample(list(usable), min(max(k, 1), len(usable)))
    for _ in range(count):
        row[rng.choice(chosen)] += 1


def roll(rng: random.Random) -> tuple[int, int]:
    """Two fair dice (a double one time in six)."""
    return rng.randint(1, 6), rng.randint(1, 6)


def _with_roll(rng: random.Random, board: _Board) -> Entry:
    position = board.position(rng)
    return (position, *roll(rng))


# -- the generators -----------------------------------------------------------


def midgame(rng: random.Random) -> Entry:
    """Plain middle game: all 30 checkers on the points, nobody on the bar."""
    b = _Board()
    b.scatter_mover(rng, CHECKERS, POINTS, rng.randint(4, 9))
    b.scatter_opponent(rng, CHECKERS, POINTS, rng.randint(4, 9))
    return _with_roll(rng, b)


def bar_mover(rng: random.Random) -> Entry:
    """The mover has one to four checkers on the bar, sometimes both sides do."""
    b = _Board()
    b.put_mover(BAR, rng.choice((1, 1, 1, 2, 2, 3, 4)))
    if rng.random() < 0.3:
        b.put_opponent(BAR, rng.randint(1, 2))
    for point in rng.sample(list(HOME), rng.randint(0, 5)):
        b.put_opponent_upto(point, rng.choice((1, 2, 2, 3)))
    b.scatter_mover(rng, b.mover_left(), POINTS)
    b.scatter_opponent(rng, b.opponent_left(), POINTS)
    return _with_roll(rng, b)


def bar_opponent(rng: random.Random) -> Entry:
    """Only the opponent is on the bar, so a hit adds to a bar already occupied."""
    b = _Board()
    b.put_opponent(BAR, rng.randint(1, 3))
    b.scatter_opponent(rng, rng.randint(2, 6), range(19, 25), rng.randint(1, 3))
    b.scatter_mover(rng, CHECKERS, POINTS)
    b.scatter_opponent(rng, b.opponent_left(), POINTS)
    return _with_roll(rng, b)


def closed_board(rng: random.Random) -> Entry:
    """The opponent holds all six home points and the mover is on the bar: a dance."""
    b = _Board()
    for point in HOME:
        b.put_opponent(point, 2)
    b.put_mover(BAR, rng.randint(1, 3))
    b.scatter_opponent(rng, b.opponent_left(), range(1, 19))
    b.scatter_mover(rng, b.mover_left(), range(1, 19))
    return _with_roll(rng, b)


def nearly_closed(rng: random.Random) -> Entry:
    """Five home points held, the mover on the bar; half the rolls hit the gap."""
    b = _Board()
    gap = rng.choice(list(HOME))
    for point in HOME:
        if point != gap:
            b.put_opponent(point, 2)
    if rng.random() < 0.3:
        b.put_opponent(gap, 1)
    b.put_mover(BAR, rng.randint(1, 3))
    b.scatter_opponent(rng, b.opponent_left(), [p for p in POINTS if p != gap])
    b.scatter_mover(rng, b.mover_left(), POINTS)
    position = b.position(rng)
    d1, d2 = roll(rng)
    if rng.random() < 0.5:
        d1 = gap
    return position, d1, d2


def _one_gap_two_on_bar(rng: random.Random, gap: int) -> _Board:
    b = _Board()
    for point in HOME:
        if point != gap:
            b.put_opponent(point, 2)
    if rng.random() < 0.3:
        b.put_opponent(gap, 1)
    b.put_mover(BAR, rng.randint(2, 3))
    b.scatter_opponent(rng, b.opponent_left(), [p for p in POINTS if p != gap])
    b.scatter_mover(rng, b.mover_left(), POINTS)
    return b


def one_die_entry(rng: random.Random) -> Entry:
    """Two on the bar, one entry point open, a non-double: exactly one die plays.

    The first checker enters with the matching die; the second is still on
    the bar and cannot enter with the other die, so nothing else may move.
    """
    gap = rng.choice(list(HOME))
    other = rng.choice([d for d in range(1, 7) if d != gap])
    dice = (gap, other) if rng.random() < 0.5 else (other, gap)
    return (_one_gap_two_on_bar(rng, gap).position(rng), *dice)


def only_lower_die(rng: random.Random) -> Entry:
    """As :func:`one_die_entry` with the open point matching the lower die.

    The rule "play the higher die" cannot apply, so the lower one is played.
    """
    gap = rng.randint(1, 5)
    other = rng.randint(gap + 1, 6)
    dice = (gap, other) if rng.random() < 0.5 else (other, gap)
    return (_one_gap_two_on_bar(rng, gap).position(rng), *dice)


def _blocked_board(rng: random.Random) -> _Board:
    """Few mover checkers among many opposing points: dice often do not play."""
    b = _Board()
    b.scatter_mover(rng, rng.randint(1, 6), range(1, 25), rng.randint(1, 3))
    if rng.random() < 0.2:
        b.put_mover(BAR)
    for point in rng.sample(list(POINTS), 12):
        if b.opponent_may_use(point) and b.opponent_left() >= 2:
            b.put_opponent(point, 2)
    if b.opponent_left():
        b.scatter_opponent(rng, b.opponent_left(), POINTS)
    return b


def one_die_blocked(rng: random.Random) -> Entry:
    """A non-double of which only one die can be played, found by search.

    Unlike :func:`one_die_entry` the blockage is anywhere on the board,
    including bear-offs where moving inside the home board is blocked.
    """
    for _ in range(500):
        b = _blocked_board(rng)
        position = b.position(rng)
        d1 = rng.randint(1, 6)
        d2 = rng.choice([d for d in range(1, 7) if d != d1])
        if most_dice_playable(position, d1, d2) == 1:
            return position, d1, d2
    return one_die_entry(rng)  # pragma: no cover - the search succeeds within a few tries


def partial_doubles(rng: random.Random) -> Entry:
    """A double of which one, two or three of the four moves can be played."""
    for _ in range(500):
        b = _blocked_board(rng)
        position = b.position(rng)
        die = rng.randint(1, 6)
        if 1 <= most_dice_playable(position, die, die) <= 3:
            return position, die, die
    return one_die_entry(rng)  # pragma: no cover


def prime(rng: random.Random) -> Entry:
    """Five or six consecutive opposing points with mover checkers trapped behind."""
    b = _Board()
    length = rng.choice((5, 6))
    low = rng.randint(2, 18 - length)
    for point in range(low, low + length):
        b.put_opponent(25 - point, 2)
    behind = range(low + length, min(24, low + length + 6) + 1)
    b.scatter_mover(rng, rng.randint(1, 3), behind, rng.randint(1, 2))
    if rng.random() < 0.2:
        b.put_mover(BAR)
    b.scatter_mover(rng, b.mover_left(), POINTS)
    b.scatter_opponent(rng, b.opponent_left(), POINTS)
    return _with_roll(rng, b)


def bearoff_race(rng: random.Random) -> Entry:
    """Both sides bearing off with no contact left."""
    b = _Board()
    b.scatter_mover(rng, rng.randint(1, CHECKERS), HOME, rng.randint(1, 6))
    b.scatter_opponent(rng, rng.randint(1, CHECKERS), HOME, rng.randint(1, 6))
    return _with_roll(rng, b)


def bearoff_contact(rng: random.Random) -> Entry:
    """The mover bears off with opposing checkers still to pass.

    Contact means an opposing checker in the home board *below* the mover's
    highest checker, or on the bar (it enters there); one above has been
    passed already and changes nothing.
    """
    b = _Board()
    mine = rng.sample(list(HOME), rng.randint(2, 6))
    b.scatter_mover(rng, rng.randint(2, CHECKERS), mine, len(mine))
    top = max(p for p in HOME if b.mover[p])
    below = [25 - p for p in range(1, top) if not b.mover[p]]
    if not below or rng.random() < 0.3:
        b.put_opponent(BAR, rng.randint(1, 2))
    if below:
        for point in rng.sample(below, rng.randint(1, len(below))):
            b.put_opponent_upto(point, rng.choice((1, 1, 2, 3)))
    if b.opponent_left():
        b.scatter_opponent(rng, rng.randint(0, b.opponent_left()), POINTS)
    return _with_roll(rng, b)


def bearoff_overshoot(rng: random.Random) -> Entry:
    """Bearing off with at least one die higher than the highest occupied point."""
    b = _Board()
    top = rng.randint(1, 5)
    b.put_mover(top)
    b.scatter_mover(rng, rng.randint(0, 10), range(1, top + 1))
    if rng.random() < 0.5:
        b.scatter_opponent(rng, rng.randint(1, CHECKERS), HOME)
    else:
        b.scatter_opponent(rng, rng.randint(1, CHECKERS), POINTS)
    position = b.position(rng)
    big, other = rng.randint(top + 1, 6), rng.randint(1, 6)
    return (position, big, other) if rng.random() < 0.5 else (position, other, big)


def few_checkers(rng: random.Random) -> Entry:
    """One to three checkers a side left anywhere, even outside home after a hit."""
    b = _Board()
    if rng.random() < 0.2:
        b.put_mover(BAR)
    b.scatter_mover(rng, rng.randint(1, 3) - b.mover[BAR], POINTS)
    b.scatter_opponent(rng, rng.randint(1, 3), POINTS)
    return _with_roll(rng, b)


def spread(rng: random.Random) -> Entry:
    """Fifteen checkers on many points with room to move: doubles branch widest here."""
    b = _Board()
    b.scatter_opponent(rng, CHECKERS, range(1, 7), rng.randint(1, 4))
    points = rng.sample(list(range(1, 19)), rng.randint(10, 15))
    for point in points:
        b.put_mover(point)
    b.scatter_mover(rng, b.mover_left(), points, len(points))
    position = b.position(rng)
    if rng.random() < 0.75:
        die = rng.randint(1, 6)
        return position, die, die
    return (position, *roll(rng))


KINDS: Final[dict[str, Generator]] = {
    "midgame": midgame,
    "bar_mover": bar_mover,
    "bar_opponent": bar_opponent,
    "closed_board": closed_board,
    "nearly_closed": nearly_closed,
    "one_die_entry": one_die_entry,
    "only_lower_die": only_lower_die,
    "one_die_blocked": one_die_blocked,
    "partial_doubles": partial_doubles,
    "prime": prime,
    "bearoff_race": bearoff_race,
    "bearoff_contact": bearoff_contact,
    "bearoff_overshoot": bearoff_overshoot,
    "few_checkers": few_checkers,
    "spread": spread,
}
"""Every generator by name; :func:`corpus` draws from all of them."""

_WEIGHTS: Final = {"midgame": 3, "spread": 2}


def corpus(seed: int, n: int) -> list[Entry]:
    """``n`` entries mixing every kind (middle games and spread boards twice as often)."""
    rng = random.Random(seed)
    names = list(KINDS)
    weights = [_WEIGHTS.get(name, 1) for name in names]
    return [KINDS[name](rng) for name in rng.choices(names, weights, k=n)]


def labelled_corpus(seed: int, n: int) -> list[tuple[str, Entry]]:
    """As :func:`corpus` (the very same entries) with each entry's kind."""
    rng = random.Random(seed)
    names = list(KINDS)
    weights = [_WEIGHTS.get(name, 1) for name in names]
    return [(name, KINDS[name](rng)) for name in rng.choices(names, weights, k=n)]


# -- an independent, deliberately naive count of playable dice ------------------


def most_dice_playable(position: Position, die1: int, die2: int) -> int:
    """How many dice the longest legal sequence of moves uses.

    Written straight from the rules, move by move, without any of the
    engine's shortcuts, so the corpus can pick "only one die plays" cases
    without trusting the code it is meant to test.
    """
    mover = list(position.layout(position.turn))
    theirs = position.layout(position.turn.opponent)
    blocked = [False] + [theirs[25 - p] >= 2 for p in range(1, 25)]
    if die1 == die2:
        return _longest(mover, [die1] * 4, blocked)
    return max(_longest(mover, [die1, die2], blocked), _longest(mover, [die2, die1], blocked))


def playable_alone(position: Position, die: int) -> bool:
    """True when some checker can move ``die`` pips (as the first move of a turn)."""
    mover = list(position.layout(position.turn))
    theirs = position.layout(position.turn.opponent)
    blocked = [False] + [theirs[25 - p] >= 2 for p in range(1, 25)]
    return bool(_single_moves(mover, die, blocked))


def _longest(mover: list[int], dice: list[int], blocked: list[bool]) -> int:
    if not dice:
        return 0
    best = 0
    for after in _single_moves(mover, dice[0], blocked):
        best = max(best, 1 + _longest(after, dice[1:], blocked))
        if best == len(dice):
            break
    return best


def _single_moves(mover: list[int], die: int, blocked: list[bool]) -> list[list[int]]:
    """Every board after one legal move of ``die`` (hits do not matter for the mover)."""
    sources = [BAR] if mover[BAR] else [p for p in POINTS if mover[p]]
    all_home = sum(mover[7:26]) == 0
    out: list[list[int]] = []
    for source in sources:
        target = source - die
        if target >= 1:
            if blocked[target]:
                continue
        elif not all_home or (target < 0 and any(mover[source + 1:7])):
            continue
        after = list(mover)
        after[source] -= 1
        after[max(target, 0)] += 1
        out.append(after)
    return out
