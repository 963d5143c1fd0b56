"""The events of a game, as the referee records them.

Each event says who acted.  A game is the sequence of its events; replaying
them through :meth:`Game.apply <controller.game.game.Game.apply>` rebuilds
every state, so the list is the complete record (and what the journal and
the match files are written from).
"""

from dataclasses import dataclass
from enum import IntEnum

from controller.rules.move import Play
from controller.rules.player import Player


class ResignLevel(IntEnum):
    """What a resigning player offers to lose: 1, 2 or 3 times the cube."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


@dataclass(frozen=True, slots=True)
class OpeningRoll:
    """Each player throws one die; ``dice[0]`` is player 0's, ``dice[1]`` player 1's."""

    dice: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Roll:
    """The player on turn throws both dice."""

    player: Player
    dice: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Move:
    """The player on turn plays the dice (an empty play when nothing can move)."""

    player: Player
    play: Play


@dataclass(frozen=True, slots=True)
class ChooseDouble:
    """Acey-Deucey: after playing a 1-2 the player names a double to play."""

    player: Player
    die: int


@dataclass(frozen=True, slots=True)
class Double:
    """The player on turn offers the cube before rolling."""

    player: Player


@dataclass(frozen=True, slots=True)
class Take:
    """The player doubled accepts: they own the cube at twice the value."""

    player: Player


@dataclass(frozen=True, slots=True)
class Pass:
    """The player doubled declines and loses the game at the value before the offer."""

    player: Player


@dataclass(frozen=True, slots=True)
class Resign:
    """A player offers to lose a single game, a gammon or a backgammon."""

    player: Player
    level: ResignLevel


@dataclass(frozen=True, slots=True)
class AcceptResignation:
    """The opponent of the resigning player accepts: the game ends."""

    player: Player


@dataclass(frozen=True, slots=True)
class DeclineResignation:
    """The opponent declines; play goes on where it was."""

    player: Player


Event = (
    OpeningRoll | Roll | Move | ChooseDouble | Double | Take | Pass | Resign
    | AcceptResignation | DeclineResignation
)
"""Anything that can happen in a game."""
