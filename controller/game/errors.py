"""Errors of the game layer.

Subclasses of :class:`~controller.rules.errors.RulesError`, so one
``except RulesError`` still catches everything the rules reject.
"""

from controller.rules.errors import RulesError


class GameError(RulesError):
    """An event that the rules do not allow at this point of the game."""


class NotYourTurnError(GameError):
    """An event by the player who is not the one to act."""


class CubeError(GameError):
    """A cube action the rules do not allow (Crawford, not the owner, ...)."""


class MatchError(RulesError):
    """A match or session action that cannot happen (match over, ...)."""


class RecordError(RulesError):
    """A match record or match file that cannot be read or replayed."""
