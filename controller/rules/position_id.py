"""GNU Backgammon Position IDs.

The ID packs both boards into 80 bits: for each player, for each of their
points 1-24 and then the bar, one 1-bit per checker followed by a 0-bit.
Bits fill ten bytes least-significant bit first, which are written as 14
characters of base64.  The player on roll is the *second* player in the bit
string (gnubg's ``anBoard[1]``), whatever gnubg's manual says; the ID does not
say which player that is, so decoding takes it as an argument.
"""

import base64
import binascii
import re
from typing import Final

from controller.rules import layout as lay
from controller.rules.errors import InvalidPositionError, InvalidPositionIdError
from controller.rules.player import Player
from controller.rules.position import Position

_ID_RE: Final = re.compile(r"[A-Za-z0-9+/]{14}")


def encode_position_id(position: Position) -> str:
    """The 14-character Position ID of ``position``."""
    bits = 0
    n = 0
    for player in (position.turn.opponent, position.turn):
        row = position.layout(player)
        for place in range(1, 26):
            count = row[place]
            bits |= ((1 << count) - 1) << n
            n += count + 1
    data = bits.to_bytes(10, "little")
    return base64.b64encode(data).decode("ascii")[:14]


def decode_position_id(position_id: str, turn: Player = Player.ZERO) -> Position:
    """Parse a Position ID, with ``turn`` as the player on roll.

    Borne-off counts are what is missing from 15.  Raises
    :class:`InvalidPositionIdError` for anything gnubg would not accept.
    """
    text = position_id.strip()
    if not _ID_RE.fullmatch(text):
        raise InvalidPositionIdError(
            f"a Position ID is 14 characters of A-Z a-z 0-9 + /, not {position_id!r}"
        )
    try:
        data = base64.b64decode(text + "==", validate=True)
    except (binascii.Error, ValueError) as exc:  # pragma: no cover - regex guards this
        raise InvalidPositionIdError(f"{position_id!r} is not base64") from exc
    bits = int.from_bytes(data[:10], "little")
    rows: list[list[int]] = []
    n = 0
    for side in ("opponent", "player on roll"):
        row = [0] * lay.PLACES
        for place in range(1, 26):
            count = 0
            while (bits >> n) & 1:
                count += 1
                n += 1
                if n >= 80:
                    raise InvalidPositionIdError(f"{position_id!r} runs past 80 bits")
            n += 1
            row[place] = count
        total = sum(row)
        if total > lay.CHECKERS:
            raise InvalidPositionIdError(
                f"{position_id!r} gives the {side} {total} checkers; at most 15"
            )
        row[lay.OFF] = lay.CHECKERS - total
        rows.append(row)
    if n > 80:
        raise InvalidPositionIdError(f"{position_id!r} runs past 80 bits")
    if bits >> n:
        raise InvalidPositionIdError(f"{position_id!r} has stray bits after both boards")
    try:
        return Position.from_relative(rows[1], rows[0], Player(turn))
    except InvalidPositionError as exc:
        raise InvalidPositionIdError(f"{position_id!r}: {exc}") from exc
