"""The two players.

Players are numbered 0 and 1 as GNU Backgammon numbers them; which of them
sits at the bottom of the camera image is decided by the physical mapping,
not here.
"""

from enum import IntEnum


class Player(IntEnum):
    """One of the two players of a game."""

    ZERO = 0
    ONE = 1

    @property
    def opponent(self) -> "Player":
        """The other player."""
        return Player.ONE if self is Player.ZERO else Player.ZERO
