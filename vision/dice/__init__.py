"""Dice: find them, read the pips, tell flat from cocked, on a checker or not.

Stages, each usable alone: :mod:`.pips` (round blobs of either polarity),
:mod:`.faces` (pips grouped into die layouts, side faces told from top
faces), :mod:`.detect` (faces checked to sit on a clean die face),
:mod:`.reader` (any photo in, dice out), :mod:`.board` (the dice on a board
in the rectified field, optionally from a high-resolution capture),
:mod:`.pose` (flat or cocked) and :mod:`.checker` (on a checker or not).
"""

from vision.dice.board import BoardDiceConfig, read_board_dice
from vision.dice.checker import on_checker, on_checker_circles
from vision.dice.reader import ReaderConfig, read_dice
from vision.errors import ImageError

__all__ = ["BoardDiceConfig", "ImageError", "ReaderConfig", "on_checker",
           "on_checker_circles", "read_board_dice", "read_dice"]
