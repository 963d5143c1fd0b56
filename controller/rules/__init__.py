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
    InvalidMatchStateError,
    InvalidMoveNotationError,
    InvalidPositionError,
    InvalidPositionIdError,
    InvalidXgidError,
    NotationError,
    RulesError,
)
from controller.rules.faults import Fault, FaultKind
from controller.rules.judge import Verdict, judge
from controller.rules.match_id import (
    decode_match_id,
    encode_match_id,
    format_gnubg_id,
    parse_gnubg_id,
)
from controller.rules.match_state import GameState, MatchState, Resignation
from controller.rules.move import Move, Play
from controller.rules.notation import format_play, parse_play
from controller.rules.physical import (
    Colour,
    Counts,
    PhysicalBoard,
    Seating,
    SetUpError,
    Side,
    physical_index,
    point_number,
    recognise_start,
    to_physical,
    to_position,
)
from controller.rules.player import Player
from controller.rules.position import Position
from controller.rules.position_id import decode_position_id, encode_position_id
from controller.rules.xgid import Xgid, format_xgid, parse_xgid

__all__ = [
    "Colour",
    "Counts",
    "Fault",
    "FaultKind",
    "GameState",
    "IllegalPlayError",
    "InvalidDiceError",
    "InvalidMatchIdError",
    "InvalidMatchStateError",
    "InvalidMoveNotationError",
    "InvalidPositionError",
    "InvalidPositionIdError",
    "InvalidXgidError",
    "MatchState",
    "Move",
    "NotationError",
    "PhysicalBoard",
    "Play",
    "Player",
    "Position",
    "Resignation",
    "RulesError",
    "Seating",
    "SetUpError",
    "Side",
    "Verdict",
    "Xgid",
    "decode_match_id",
    "decode_position_id",
    "encode_match_id",
    "encode_position_id",
    "format_gnubg_id",
    "format_play",
    "format_xgid",
    "judge",
    "parse_gnubg_id",
    "parse_play",
    "parse_xgid",
    "physical_index",
    "point_number",
    "recognise_start",
    "to_physical",
    "to_position",
]
