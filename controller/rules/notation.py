"""Move notation as GNU Backgammon writes it: ``24/18 13/10``, ``bar/22*``,
``6/off``, ``8/5(2)``, ``24/18*/13``.

One checker's consecutive moves are joined into one segment (``24/20``),
keeping an intermediate point only where it hit; identical segments are
counted (``8/5(2)``).  :func:`format_play` and :func:`parse_play` are a pair:
parsing a formatted play gives back a play with the same result.
"""

import itertools
import re
from collections.abc import Iterable
from typing import Final

from controller.rules.errors import IllegalPlayError, InvalidMoveNotationError
from controller.rules.layout import BAR, HAND, OFF
from controller.rules.move import Move, Play
from controller.rules.position import Position, check_dice

_TOKEN: Final = re.compile(
    r"(?P<path>(?:bar|hand|\d{1,2})(?:/(?:off|\d{1,2})\*?)+)(?:\((?P<count>[1-4])\))?",
    re.IGNORECASE,
)
_SEP: Final = re.compile(r"[\s,]+")

Segment = tuple[int, int, bool]
"""(source, destination, hit on arrival) of one checker's combined move."""


def _name(place: int) -> str:
    if place == HAND:
        return "hand"
    if place == BAR:
        return "bar"
    if place == OFF:
        return "off"
    return str(place)


def _chains(moves: list[Move], hit_points: set[int]) -> list[list[int]]:
    """Join each checker's consecutive moves into one list of points.

    Moves are taken highest source first (as gnubg lists them); a move that
    starts where a chain ends continues it.  An intermediate point stays in
    the chain only when a blot was hit there.
    """
    chains: list[list[int]] = []
    for move in sorted(moves, key=lambda m: (-m.source, -m.destination)):
        for chain in chains:
            if chain[-1] == move.source and move.source != OFF:
                if move.source not in hit_points:
                    chain.pop()
                chain.append(move.destination)
                break
        else:
            chains.append([move.source, move.destination])
    return chains


def format_play(moves: Iterable[Move]) -> str:
    """GNU Backgammon notation for a play's moves (empty string for a dance).

    As gnubg writes it, a hit belongs to the *point*, not to the checker that
    made it: the first segment reaching a point where a blot stood gets the
    ``*``, and segments that differ only in which checker hit are counted
    together (``6/2*(2)``).
    """
    moves = list(moves)
    hit_points = {m.destination for m in moves if m.hit}
    counts: dict[tuple[int, ...], int] = {}
    for chain in _chains(moves, hit_points):
        key = tuple(chain)
        counts[key] = counts.get(key, 0) + 1
    marked: set[int] = set()
    texts: list[str] = []
    for points, count in counts.items():
        parts = [_name(points[0])]
        for point in points[1:-1]:
            parts.append(f"{_name(point)}*")
            marked.add(point)
        end = points[-1]
        star = end in hit_points and end not in marked
        if star:
            marked.add(end)
        parts.append(_name(end) + ("*" if star else ""))
        text = "/".join(parts)
        texts.append(text if count == 1 else f"{text}({count})")
    return " ".join(texts)


def _place(token: str, text: str, *, source: bool) -> int:
    low = token.lower()
    if low == "hand":
        if not source:
            raise InvalidMoveNotationError(f"{text!r}: a checker cannot move into the hand")
        return HAND
    if low == "bar":
        if not source:
            raise InvalidMoveNotationError(f"{text!r}: a checker cannot move to the bar")
        return BAR
    if low == "off":
        return OFF
    value = int(low)
    if source and value == 25:
        return BAR
    if not source and value == 0:
        return OFF
    if not 1 <= value <= 24:
        raise InvalidMoveNotationError(f"{text!r}: point {value} is not on the board")
    return value


def parse_segments(text: str) -> list[Segment]:
    """Split notation into single segments, repeating counted ones.

    Raises :class:`InvalidMoveNotationError` for text that is not notation.
    """
    segments: list[Segment] = []
    stripped = text.strip()
    if not stripped:
        return segments
    for token in _SEP.split(stripped):
        match = _TOKEN.fullmatch(token)
        if not match:
            raise InvalidMoveNotationError(f"{token!r} is not a move like 24/18, bar/22* or 6/off")
        pieces = match.group("path").split("/")
        count = int(match.group("count") or 1)
        places: list[tuple[int, bool]] = [(_place(pieces[0], token, source=True), False)]
        for piece in pieces[1:]:
            hit = piece.endswith("*")
            places.append((_place(piece.rstrip("*"), token, source=False), hit))
        chain: list[Segment] = []
        for (src, _), (dst, hit) in itertools.pairwise(places):
            if dst >= src:
                raise InvalidMoveNotationError(f"{token!r}: checkers only move forward")
            if src == OFF:
                raise InvalidMoveNotationError(f"{token!r}: nothing moves on after bearing off")
            chain.append((src, dst, hit))
        segments.extend(chain * count)
    return segments


def parse_play(position: Position, text: str, die1: int, die2: int) -> Play:
    """The legal play of ``die1``-``die2`` that ``text`` describes.

    Raises :class:`InvalidMoveNotationError` for text that is not notation
    and :class:`IllegalPlayError` for notation that is no legal play here.
    """
    check_dice(die1, die2)
    segments = parse_segments(text)
    moves = tuple(Move(src, dst) for src, dst, _ in segments)
    try:
        claimed = position.result_of(Play(moves, (die1, die2)))
    except IllegalPlayError as exc:
        raise IllegalPlayError(f"{text.strip() or '(no move)'}: {exc}") from exc
    play = position.legal_play_to(claimed, die1, die2)
    hits_marked = {dst for _, dst, hit in segments if hit}
    if play is not None and hits_marked <= {m.destination for m in play.moves if m.hit}:
        return play
    raise IllegalPlayError(f"{text.strip() or '(no move)'} is not a legal play of {die1}-{die2}")
