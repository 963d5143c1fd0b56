"""The backgammon rules engine: pure Python, no I/O, immutable values.

>>> from controller.rules import Position
>>> start = Position.initial()
>>> start.position_id()
'4HPwATDgc/ABMA'
>>> [str(play) for play in start.legal_plays(6, 5)][:2]
['13/2', '13/7 8/3']
"""

from controller.rules.errors import (
    IllegalPlayError,
    InvalidDiceError,
    InvalidMatchIdError,
    InvalidMoveNotationError,
    InvalidPositionError,
    InvalidPositionIdError,
    InvalidXgidError,
    NotationError,
    RulesError,
)
from controller.rules.move import Move, Play
from controller.rules.notation import format_play, parse_play
from controller.rules.player import Player
from controller.rules.position import Position
from controller.rules.position_id import decode_position_id, encode_position_id

__all__ = [
    "IllegalPlayError",
    "InvalidDiceError",
    "InvalidMatchIdError",
    "InvalidMoveNotationError",
    "InvalidPositionError",
    "InvalidPositionIdError",
    "InvalidXgidError",
    "Move",
    "NotationError",
    "Play",
    "Player",
    "Position",
    "RulesError",
    "decode_position_id",
    "encode_position_id",
    "format_play",
    "parse_play",
]
