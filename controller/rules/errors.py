"""Exceptions of the rules engine.

One hierarchy so callers can catch everything the engine rejects with
``except RulesError`` while tests and tools can tell the cases apart.
All of them are ``ValueError``: they always mean "this input is wrong".
"""


class RulesError(ValueError):
    """Base class of every error raised by the rules engine."""


class InvalidPositionError(RulesError):
    """A position that cannot occur: negative counts, more than 15 checkers,
    both players on one point."""


class InvalidMatchStateError(RulesError):
    """A combination of match facts that cannot occur (a score beyond the
    match length, a cube value that is not a power of two, ...).  Notation
    parsers wrap it in their own error (:class:`InvalidMatchIdError`,
    :class:`InvalidXgidError`)."""


class InvalidDiceError(RulesError):
    """Dice outside 1-6."""


class NotationError(RulesError):
    """A text in one of the notations could not be parsed."""


class InvalidPositionIdError(NotationError):
    """A malformed GNU Backgammon Position ID."""


class InvalidMatchIdError(NotationError):
    """A malformed GNU Backgammon Match ID."""


class InvalidXgidError(NotationError):
    """A malformed XGID."""


class InvalidMoveNotationError(NotationError):
    """Move notation that does not parse (``24/18 13/10`` style)."""


class IllegalPlayError(RulesError):
    """A well-formed play that the rules do not allow in this position."""
