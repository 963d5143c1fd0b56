"""Errors of the dice stage.

They belong in :mod:`vision.errors` (shared, not this stage's to edit); until
they move there they subclass its base so ``except VisionError`` catches them.
"""

from vision.errors import VisionError


class DiceImageError(VisionError, ValueError):
    """An image the dice reader cannot use: missing, empty, unreadable, wrong shape."""
