"""GNU Backgammon Match IDs, and the ``PositionID:MatchID`` pair gnubg prints.

A Match ID is a 67-bit key written as 12 characters of base64 (9 bytes, no
padding).  Fields are packed least-significant bit first, each field's own
low bit first, and bytes are filled from their low bit (the same convention
as the Position ID)::

    bits  0-3   log2 of the cube value
    bits  4-5   cube owner: 0 = player 0, 1 = player 1, 3 = centred
    bit   6     player on roll (who rolls or has rolled the dice)
    bit   7     Crawford game
    bits  8-10  game state (see GameState)
    bit   11    player to decide now (differs from bit 6 during offers)
    bit   12    double offered
    bits 13-14  resignation offered (see Resignation)
    bits 15-17  higher die (0 = not rolled)
    bits 18-20  lower die
    bits 21-35  match length (0 = money)
    bits 36-50  player 0's score
    bits 51-65  player 1's score
    bit   66    Jacoby rule *not* in force

gnubg's manual stops at bit 65; bit 66 is what gnubg 1.07 actually writes
(1 in every match, and in money play unless the Jacoby rule is on), so
without it no Match ID of a match would round-trip.  IDs from programs
that follow the manual leave bit 66 at 0; in match play the bit means
nothing and is accepted either way.  The five bits after the key are always
zero.  The layout was checked against gnubg 1.07's own output
(``tests/test_match_id.py``).
"""

import base64
import binascii
import re
from typing import Final

from controller.rules.errors import (
    InvalidMatchIdError,
    InvalidMatchStateError,
    InvalidPositionIdError,
)
from controller.rules.match_state import (
    GameState,
    MatchState,
    Resignation,
)
from controller.rules.player import Player
from controller.rules.position import Position
from controller.rules.position_id import decode_position_id, encode_position_id

MATCH_ID_LENGTH: Final = 12
KEY_BITS: Final = 67
_CENTRED: Final = 3
_ID_RE: Final = re.compile(r"[A-Za-z0-9+/]{12}")

# (name, first bit, width) in key order; decoding and encoding share it so
# the two can never disagree about where a field sits.
_FIELDS: Final = (
    ("cube_log2", 0, 4),
    ("cube_owner", 4, 2),
    ("on_roll", 6, 1),
    ("crawford", 7, 1),
    ("game_state", 8, 3),
    ("turn", 11, 1),
    ("double_offered", 12, 1),
    ("resignation", 13, 2),
    ("die1", 15, 3),
    ("die2", 18, 3),
    ("match_length", 21, 15),
    ("score0", 36, 15),
    ("score1", 51, 15),
    ("no_jacoby", 66, 1),
)


def encode_match_id(state: MatchState) -> str:
    """The 12-character Match ID of ``state``."""
    values = {
        "cube_log2": state.cube_log2,
        "cube_owner": _CENTRED if state.cube_owner is None else int(state.cube_owner),
        "on_roll": int(state.on_roll),
        "crawford": int(state.crawford),
        "game_state": int(state.game_state),
        "turn": int(state.turn),
        "double_offered": int(state.double_offered),
        "resignation": int(state.resignation),
        "die1": state.dice[0],
        "die2": state.dice[1],
        "match_length": state.match_length,
        "score0": state.score[0],
        "score1": state.score[1],
        "no_jacoby": int(not state.jacoby),
    }
    key = 0
    for name, first, _width in _FIELDS:
        key |= values[name] << first
    return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")


def decode_match_id(match_id: str) -> MatchState:
    """Parse a Match ID.

    Raises :class:`InvalidMatchIdError` for text that is not 12 base64
    characters, for bit patterns no field allows (cube owner 2, game state
    5-7, a die of 7, stray bits past the key) and for impossible
    combinations (see :class:`MatchState`).
    """
    text = match_id.strip()
    if not _ID_RE.fullmatch(text):
        raise InvalidMatchIdError(
            f"a Match ID is {MATCH_ID_LENGTH} characters of A-Z a-z 0-9 + /, not {match_id!r}"
        )
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError) as exc:  # pragma: no cover - regex guards this
        raise InvalidMatchIdError(f"{match_id!r} is not base64") from exc
    key = int.from_bytes(data, "little")
    if key >> KEY_BITS:
        raise InvalidMatchIdError(f"{text!r} has bits set past the {KEY_BITS}-bit key")
    raw = {name: (key >> first) & ((1 << width) - 1) for name, first, width in _FIELDS}
    if raw["cube_owner"] == 2:
        raise InvalidMatchIdError(f"{text!r}: cube owner code 2 means nobody (0, 1 or 3 expected)")
    if raw["game_state"] > max(GameState):
        raise InvalidMatchIdError(f"{text!r}: game state code {raw['game_state']} is undefined")
    for die in ("die1", "die2"):
        if raw[die] > 6:
            raise InvalidMatchIdError(f"{text!r}: a die shows {raw[die]}")
    try:
        return MatchState(
            match_length=raw["match_length"],
            score=(raw["score0"], raw["score1"]),
            cube_value=1 << raw["cube_log2"],
            cube_owner=None if raw["cube_owner"] == _CENTRED else Player(raw["cube_owner"]),
            on_roll=Player(raw["on_roll"]),
            turn=Player(raw["turn"]),
            crawford=bool(raw["crawford"]),
            game_state=GameState(raw["game_state"]),
            double_offered=bool(raw["double_offered"]),
            resignation=Resignation(raw["resignation"]),
            dice=(raw["die1"], raw["die2"]),
            jacoby=not raw["no_jacoby"] and raw["match_length"] == 0,
        )
    except InvalidMatchStateError as exc:
        raise InvalidMatchIdError(f"{text!r}: {exc}") from exc


def format_gnubg_id(position: Position, state: MatchState) -> str:
    """``PositionID:MatchID`` as gnubg prints it (its "GNUbg ID").

    The Position ID is written from the point of view of the player on roll
    (``state.on_roll``), as gnubg stores its board, even while the opponent
    is deciding on a double or a resignation.
    """
    if position.turn != state.on_roll:
        raise InvalidMatchIdError(
            f"the position has player {position.turn.value} on roll "
            f"but the match state has player {state.on_roll.value}"
        )
    return f"{encode_position_id(position)}:{encode_match_id(state)}"


def parse_gnubg_id(text: str) -> tuple[Position, MatchState]:
    """Parse ``PositionID:MatchID``; the position's turn is the Match ID's player on roll.

    Raises :class:`InvalidPositionIdError` or :class:`InvalidMatchIdError`
    for the faulty half, :class:`InvalidMatchIdError` when there is no colon.
    """
    position_text, colon, match_text = text.strip().partition(":")
    if not colon:
        raise InvalidMatchIdError(f"a GNUbg ID is PositionID:MatchID, not {text!r}")
    state = decode_match_id(match_text)
    try:
        position = decode_position_id(position_text, state.on_roll)
    except InvalidPositionIdError as exc:
        raise InvalidPositionIdError(f"in GNUbg ID {text.strip()!r}: {exc}") from exc
    return position, state
