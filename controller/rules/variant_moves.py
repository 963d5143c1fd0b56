"""Legal plays under a :class:`~controller.rules.variant.Variant`, checkers in hand included.

The standard generator (:mod:`controller.rules.movegen`) is fast because it
knows only points, the bar and off.  The variants add a fourth place, the
*hand*: checkers not yet brought into play.  This module is the general,
plain version: one checker moved by one die at a time (:func:`steps`), every
order of the dice tried breadth first, then the standard rules about how
much of a roll must be used.  It is slower than ``movegen`` but reads like
the rules, and for the standard game it gives exactly the same results
(the tests hold it to ``Position.legal_positions``).

Boards are seen from the mover, as everywhere in the engine: the mover's
places are ``0`` (off), ``1``-``24`` (points from the mover's home),
``25`` (the bar) and :data:`HAND` (``26``).  A checker in hand enters like
one from the bar: a die ``d`` brings it to point ``25 - d``.

The same :func:`steps` also serves the judge: asked for *relaxed* steps it
also makes the moves a rule forbids and says which rule each breaks, so the
judge can tell which rule a wrong board broke.

Notation extends GNU Backgammon's with ``hand`` as a source (``hand/22``,
``hand/20/14``, ``hand/19(2)``); see :func:`format_variant_play`.

>>> from controller.rules.variant import variant_start
>>> dutch = variant_start(Variant.DUTCH)
>>> [format_variant_play(p) for p in variant_legal_plays(dutch, 6, 5, Variant.DUTCH)]
['hand/20 hand/19']
>>> acey = variant_start(Variant.ACEY_DEUCEY)
>>> can_play_both(acey, 1, 2, Variant.ACEY_DEUCEY)
True
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from types import MappingProxyType
from typing import Final

from controller.rules import layout as lay
from controller.rules.errors import (
    IllegalPlayError,
    InvalidMoveNotationError,
    InvalidPositionError,
)
from controller.rules.move import Move, Play
from controller.rules.notation import format_play, parse_segments
from controller.rules.player import Player
from controller.rules.position import Position, check_dice
from controller.rules.variant import Variant

HAND: Final = lay.HAND
"""The mover's place for checkers in hand (26): a move's source when a checker enters from hand.

Here, unlike in the packed key, it is a real place: :class:`Board` counts
the checkers in it."""

OFF: Final = lay.OFF
BAR: Final = lay.BAR
HOME: Final = range(1, 7)
"""The mover's home board."""
_PLACES: Final = 27
"""Places of the mover: off, 24 points, bar, hand."""
_SOURCES: Final = (HAND, BAR, *range(24, 0, -1))
"""Every place a checker can move from, furthest from home first."""


class Rule(Enum):
    """A rule about where one die may take one checker.

    The generator never breaks one; the judge's relaxed replays do, to find
    out which rule a board that no legal play leaves has broken.
    """

    BAR_FIRST = "bar-first"
    """A checker on the bar enters before any other checker moves."""
    ENTER_ALL_FIRST = "enter-all-first"
    """Dutch: no checker moves on while one is still in hand."""
    NO_EARLY_HIT = "no-early-hit"
    """Dutch: no hit before a checker stands in the home board."""
    BLOCKED = "blocked"
    """No stop on a point the opponent holds with two or more checkers."""
    BEAR_OFF_OUTSIDE = "bear-off-outside"
    """Bearing off only with all 15 checkers in the home board."""
    BEAR_OFF_SHORT = "bear-off-short"
    """A die smaller than the point never bears off from it."""
    FULL_VALUE = "full-value"
    """A die larger than the point bears off only from the highest point."""


@dataclass(frozen=True, slots=True)
class Breach:
    """One rule broken by one step, with the mover's place it concerns."""

    rule: Rule
    place: int
    die: int = 0
    """The die of a bear-off breach (its sentence names it); 0 for the others."""


@dataclass(frozen=True, slots=True)
class Board:
    """Both sides' checkers seen from the mover, hand included.

    ``mine`` has 27 counts (off, points 1-24, bar, hand) from the mover's
    side; ``theirs`` the opponent's 26 counts from *their* side (their point
    ``p`` is the mover's ``25 - p``).  The opponent's hand never changes
    during the mover's turn, so it is not stored.
    """

    mine: tuple[int, ...]
    theirs: tuple[int, ...]

    @classmethod
    def of(cls, position: Position) -> "Board":
        """The board of ``position`` seen from the player on roll."""
        mover = position.turn
        return cls((*position.layout(mover), position.in_hand(mover)),
                   position.layout(mover.opponent))

    def position(self, mover: Player) -> Position:
        """This board as a position with ``mover``'s opponent on roll (the play is over)."""
        if mover == Player.ZERO:
            return Position(self.mine[:HAND], self.theirs, Player.ONE)
        return Position(self.theirs, self.mine[:HAND], Player.ZERO)

    def key(self, mover: Player) -> int:
        """The packed board (``Position.key``: player 0 low) when ``mover`` moved."""
        mine, theirs = lay.pack(self.mine[:HAND]), lay.pack(self.theirs)
        if mover == Player.ZERO:
            return mine | (theirs << lay.HALF)
        return theirs | (mine << lay.HALF)

    def opponent_on(self, point: int) -> int:
        """The opponent's checkers on the mover's ``point`` (1-24)."""
        return self.theirs[25 - point]

    def reached_home(self) -> bool:
        """True when a checker of the mover's stands in the home board or is borne off."""
        return self.mine[OFF] > 0 or any(self.mine[p] for p in HOME)

    def all_home(self) -> bool:
        """True when all 15 are in the home board or off (none in hand, none on the bar)."""
        return self.mine[OFF] + sum(self.mine[p] for p in HOME) == lay.CHECKERS

    def any_above(self, point: int) -> bool:
        """True when a checker of the mover's is further from home than ``point``."""
        return any(self.mine[place] for place in range(point + 1, _PLACES))

    def moved(self, source: int, destination: int, hit: bool) -> "Board":
        """One checker taken from ``source`` to ``destination``; a hit blot goes to their bar."""
        mine = list(self.mine)
        mine[source] -= 1
        mine[destination] += 1
        theirs = self.theirs
        if hit:
            row = list(theirs)
            row[25 - destination] -= 1
            row[BAR] += 1
            theirs = tuple(row)
        return Board(tuple(mine), theirs)


@dataclass(frozen=True, slots=True)
class Step:
    """One checker moved by one die, the board it leaves and the rules it breaks."""

    move: Move
    board: Board
    breaks: frozenset[Breach] = frozenset()


def _landing(board: Board, source: int, destination: int, variant: Variant,
             gate: frozenset[Breach]) -> Step:
    """A step to a point: a hit when a blot stands there, breaches where forbidden."""
    there = board.opponent_on(destination)
    breaks = set(gate)
    if there >= 2:
        breaks.add(Breach(Rule.BLOCKED, destination))
    hit = there == 1
    if hit and variant.hit_needs_home and not board.reached_home():
        breaks.add(Breach(Rule.NO_EARLY_HIT, destination))
    return Step(Move(source, destination, hit), board.moved(source, destination, hit),
                frozenset(breaks))


def _bearing_off(board: Board, source: int, die: int, gate: frozenset[Breach]) -> Step:
    """A step bearing a checker off from ``source``, with the bear-off rules it breaks."""
    breaks = set(gate)
    if not board.all_home():
        breaks.add(Breach(Rule.BEAR_OFF_OUTSIDE, OFF))
    if die < source:
        breaks.add(Breach(Rule.BEAR_OFF_SHORT, source, die))
    elif die > source and board.any_above(source):
        breaks.add(Breach(Rule.FULL_VALUE, source, die))
    return Step(Move(source, OFF), board.moved(source, OFF, False), frozenset(breaks))


def steps(board: Board, die: int, variant: Variant, *, relaxed: bool = False,
          may_bear_off: bool = True) -> list[Step]:
    """Every single move of ``die``, legal ones only unless ``relaxed``.

    Relaxed, it also gives the moves the rules forbid (a checker moving
    while one waits on the bar or, in Dutch, in hand; a stop on a blocked
    point; an early hit; bearing off with a checker outside, with a die too
    small or by overshooting a higher checker), each with the rules it
    breaks.  Bearing off is offered only when ``may_bear_off``: the judge
    knows whether the board it looks for has more checkers off.
    """
    mine = board.mine
    bar_waits = mine[BAR] > 0
    hand_waits = variant.enter_all_first and mine[HAND] > 0
    out: list[Step] = []
    for source in _SOURCES:
        if not mine[source]:
            continue
        gate: set[Breach] = set()
        if bar_waits and source != BAR:
            gate.add(Breach(Rule.BAR_FIRST, BAR))
        if hand_waits and source not in (BAR, HAND):
            gate.add(Breach(Rule.ENTER_ALL_FIRST, HAND))
        if gate and not relaxed:
            continue
        frozen_gate = frozenset(gate)
        candidates: list[Step] = []
        if source in (BAR, HAND):
            candidates.append(_landing(board, source, BAR - die, variant, frozen_gate))
        else:
            destination = source - die
            if destination >= 1:
                candidates.append(_landing(board, source, destination, variant, frozen_gate))
            if may_bear_off and (destination <= 0 or relaxed):
                candidates.append(_bearing_off(board, source, die, frozen_gate))
        out.extend(step for step in candidates if relaxed or not step.breaks)
    return out


# -- legal plays ----------------------------------------------------------------

Moves = tuple[Move, ...]


@dataclass(frozen=True, slots=True)
class LegalPlays:
    """The legal results of one roll: one way to reach each, and the dice a play uses."""

    results: Mapping[Board, Moves]
    dice_used: int
    """Moves in every legal play (0 when nothing can move, 4 for a double in full)."""


def dice_orders(die1: int, die2: int) -> tuple[tuple[int, ...], ...]:
    """The orders the dice of a roll can be played in (a double is four of one number)."""
    if die1 == die2:
        return ((die1,) * 4,)
    return ((die1, die2), (die2, die1))


def _walk(board: Board, order: tuple[int, ...], variant: Variant) -> list[dict[Board, Moves]]:
    """Legal boards after each number of dice of ``order``, with one way to each.

    Level ``k`` holds the boards reached by playing the first ``k`` dice;
    the walk stops at the first level nothing can reach.  Boards reached
    twice keep the first way found: what can follow depends only on the
    board and the dice left, never on the way there.
    """
    levels: list[dict[Board, Moves]] = [{board: ()}]
    for die in order:
        reached: dict[Board, Moves] = {}
        for before, moves in levels[-1].items():
            for step in steps(before, die, variant):
                reached.setdefault(step.board, (*moves, step.move))
        if not reached:
            break
        levels.append(reached)
    return levels


def legal_plays_of(board: Board, die1: int, die2: int, variant: Variant) -> LegalPlays:
    """The legal results of ``die1``-``die2`` on a mover-relative board.

    The standard rules of using a roll, which every variant keeps: as many
    dice as can be played must be played, and when only one of two
    different dice can be, the higher one if it can.
    """
    orders = dice_orders(die1, die2)
    walks = [_walk(board, order, variant) for order in orders]
    used = max(len(walk) - 1 for walk in walks)
    if used == 1 and die1 != die2:
        high = max(die1, die2)
        with_high = [walk for walk, order in zip(walks, orders, strict=True)
                     if order[0] == high and len(walk) > 1]
        walks = with_high or walks
    results: dict[Board, Moves] = {}
    if used:
        for walk in walks:
            if len(walk) - 1 == used:
                for after, moves in walk[used].items():
                    results.setdefault(after, moves)
    return LegalPlays(MappingProxyType(results), used)


def check_variant_position(position: Position, variant: Variant) -> None:
    """Raise :class:`InvalidPositionError` for checkers in hand in the standard game."""
    if variant is Variant.STANDARD:
        for player in Player:
            if position.in_hand(player):
                raise InvalidPositionError(
                    f"standard backgammon has no checkers in hand; player {player.value} "
                    f"has {position.in_hand(player)} (put borne-off checkers off)"
                )


@dataclass(frozen=True, slots=True)
class _Query:
    """One roll's legal plays, as each caller needs them."""

    legal: LegalPlays
    plays: Mapping[int, Play]
    """One legal play per result, by the result's packed board (:attr:`Position.key`)."""


@lru_cache(maxsize=64)
def _query(position: Position, die1: int, die2: int, variant: Variant) -> _Query:
    """The legal plays of a roll, remembered.

    The referee judges the same position before a play many times while
    the player moves checkers, so the last few queries are kept.  Results
    are keyed by packed board rather than by :class:`Position`: building
    and validating a position per result would cost more than finding them.
    """
    legal = legal_plays_of(Board.of(position), die1, die2, variant)
    mover = position.turn
    plays = {after.key(mover): Play(moves, (die1, die2))
             for after, moves in legal.results.items()}
    return _Query(legal, MappingProxyType(plays))


def _checked_query(position: Position, die1: int, die2: int, variant: Variant) -> _Query:
    check_dice(die1, die2)
    check_variant_position(position, variant)
    return _query(position, die1, die2, variant)


def variant_play_table(position: Position, die1: int, die2: int,
                       variant: Variant) -> Mapping[int, Play]:
    """One legal play for each legal result, by the result's packed board (``Position.key``).

    Empty when the roll cannot be played at all.
    """
    return _checked_query(position, die1, die2, variant).plays


def variant_legal_positions(position: Position, die1: int, die2: int,
                            variant: Variant) -> frozenset[Position]:
    """Every distinct position a legal play of this roll can leave.

    As :meth:`Position.legal_positions`: the opponent is on roll in each,
    and an empty set means the roll cannot be played.
    """
    legal = _checked_query(position, die1, die2, variant).legal
    return frozenset(after.position(position.turn) for after in legal.results)


def variant_legal_plays(position: Position, die1: int, die2: int,
                        variant: Variant) -> list[Play]:
    """One legal play per distinct result, sorted by notation.

    A roll that cannot be played gives one empty play (a dance), so the
    list is never empty, as with :meth:`Position.legal_plays`.
    """
    table = variant_play_table(position, die1, die2, variant)
    if not table:
        return [Play((), (die1, die2))]
    return sorted(table.values(), key=format_variant_play)


def variant_legal_play_to(before: Position, after: Position, die1: int, die2: int,
                          variant: Variant) -> Play | None:
    """A legal play leaving the checkers of ``after`` (its turn is ignored), or None.

    A dance when nothing can move and nothing moved.
    """
    table = variant_play_table(before, die1, die2, variant)
    if not table:
        return Play((), (die1, die2)) if after.key == before.key else None
    return table.get(after.key)


def max_dice_playable(position: Position, die1: int, die2: int, variant: Variant) -> int:
    """How many moves every legal play of ``die1``-``die2`` makes (0 to 4)."""
    return _checked_query(position, die1, die2, variant).legal.dice_used


def can_play_both(position: Position, die1: int, die2: int, variant: Variant) -> bool:
    """True when the player on roll can play both ``die1`` and ``die2``.

    The Acey-Deucey turn after a 1-2 asks this ("hvis en spiller ikke er i
    stand til å flytte både den første 1 og 2, så svingene stopper
    umiddelbart", rules-no.txt): when it is False the chosen double and the
    extra throw are forfeited.  For a double it asks whether two of the four
    moves can be made.
    """
    return max_dice_playable(position, die1, die2, variant) >= 2


def can_play_double_in_full(position: Position, die: int, variant: Variant) -> bool:
    """True when the player on roll can make all four moves of a double ``die``.

    The Acey-Deucey turn asks this of the double chosen after a 1-2 ("hvis
    alle fire trekk som utgjør doblen ikke kan tas, blir det påfølgende
    ekstrakastet tapt", rules-no.txt).  The position must have the same
    player on roll who just played the 1-2 (``after.swap_turn()``).
    """
    return max_dice_playable(position, die, die, variant) == 4


# -- notation -------------------------------------------------------------------

_HAND_NAME: Final = "hand"


def format_variant_play(play: Play | Iterable[Move]) -> str:
    """GNU Backgammon notation with ``hand`` for moves from hand: ``hand/19 hand/20``.

    :func:`controller.rules.notation.format_play` does the work (it joins a
    checker's moves and counts equal segments whatever the places are
    called); it writes the hand as ``26``, which no point of the board is,
    so a segment starting ``26/`` is one from hand and is renamed.
    """
    moves = play.moves if isinstance(play, Play) else tuple(play)
    text = format_play(moves)
    prefix = f"{HAND}/"
    return " ".join(
        _HAND_NAME + "/" + token[len(prefix):] if token.startswith(prefix) else token
        for token in text.split()
    )


def parse_variant_segments(text: str) -> list[tuple[int, int, bool]]:
    """Split variant notation into (source, destination, hit) segments.

    A token starting ``hand/`` is parsed as if it started ``bar/`` (a
    checker in hand enters exactly like one on the bar) and its bar sources
    are then renamed :data:`HAND`.  Raises
    :class:`InvalidMoveNotationError` for text that is not notation.
    """
    segments: list[tuple[int, int, bool]] = []
    for token in text.split():
        if token.lower().startswith(_HAND_NAME + "/"):
            entered = parse_segments("bar" + token[len(_HAND_NAME):])
            segments.extend((HAND if src == BAR else src, dst, hit) for src, dst, hit in entered)
        elif token.lower().startswith(_HAND_NAME):
            raise InvalidMoveNotationError(f"{token!r} is not a move like hand/22")
        else:
            segments.extend(parse_segments(token))
    return segments


def _replay(board: Board, segments: list[tuple[int, int, bool]], text: str) -> Board:
    """The board after moving each segment's checker straight there, hitting a blot."""
    for source, destination, _ in segments:
        if not board.mine[source]:
            where = {HAND: "in hand", BAR: "on the bar"}.get(source, f"on point {source}")
            raise IllegalPlayError(f"{text}: no checker {where}")
        there = board.opponent_on(destination) if destination else 0
        if there >= 2:
            raise IllegalPlayError(f"{text}: point {destination} is blocked")
        board = board.moved(source, destination, there == 1)
    return board


def parse_variant_play(position: Position, text: str, die1: int, die2: int,
                       variant: Variant) -> Play:
    """The legal play of ``die1``-``die2`` under ``variant`` that ``text`` describes.

    Raises :class:`InvalidMoveNotationError` for text that is not notation
    and :class:`IllegalPlayError` for notation that is no legal play here.
    """
    table = variant_play_table(position, die1, die2, variant)
    segments = parse_variant_segments(text)
    shown = text.strip() or "(no move)"
    claimed = _replay(Board.of(position), segments, shown).key(position.turn)
    if not table:
        if not segments:
            return Play((), (die1, die2))
        raise IllegalPlayError(f"{shown}: {die1}-{die2} cannot be played here")
    play = table.get(claimed)
    hits_marked = {dst for _, dst, hit in segments if hit}
    if play is not None and hits_marked <= {m.destination for m in play.moves if m.hit}:
        return play
    raise IllegalPlayError(f"{shown} is not a legal play of {die1}-{die2}")
