"""Moves and plays.

A *move* is one checker moved by one die; a *play* is everything a player
does with one roll (two moves, four for doubles, fewer when dice are
forfeited).  Points are counted from the mover's own side: 25 is the bar,
0 is borne off.
"""

from dataclasses import dataclass

from controller.rules.layout import BAR, HAND, OFF


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """One checker moved by one die, from the mover's point of view."""

    source: int
    destination: int
    hit: bool = False

    @property
    def enters(self) -> bool:
        """True when the checker comes in from the bar."""
        return self.source == BAR

    @property
    def from_hand(self) -> bool:
        """True when the checker comes into play from hand (Dutch, Acey-Deucey)."""
        return self.source == HAND

    @property
    def bears_off(self) -> bool:
        """True when the checker leaves the board."""
        return self.destination == OFF


@dataclass(frozen=True, slots=True)
class Play:
    """All moves made with one roll, in the order they were made."""

    moves: tuple[Move, ...]
    dice: tuple[int, int]

    def __str__(self) -> str:
        from controller.rules.notation import format_play

        return format_play(self.moves)

    @property
    def is_dance(self) -> bool:
        """True when no checker could move at all."""
        return not self.moves
