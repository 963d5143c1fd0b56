"""How a game ended and what it is worth."""

from dataclasses import dataclass
from enum import Enum, IntEnum

from controller.rules.player import Player


class WinKind(IntEnum):
    """Single game, gammon or backgammon (the multiplier before settings)."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


class Ending(Enum):
    """Why the game ended."""

    BORNE_OFF = "borne off"
    PASSED = "double passed"
    RESIGNED = "resigned"


@dataclass(frozen=True, slots=True)
class GameResult:
    """The end of one game."""

    winner: Player
    kind: WinKind
    ending: Ending
    cube_value: int
    """The cube's value the game was decided at (before the offer, for a pass)."""
    points: int
    """What the winner scores: cube value times the (settings-adjusted) multiplier.
    In Acey-Deucey, the stake times the loser's checkers not borne off."""
