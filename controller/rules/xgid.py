"""eXtreme Gammon position IDs (XGID), read and written.

An XGID is ten colon-separated fields after ``XGID=``::

    XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10
         board                      | | | |  | | | | max cube (log2, money)
                                    | | | |  | | | match length (0 = money)
                                    | | | |  | | Crawford (match) / rules (money)
                                    | | | |  | score top
                                    | | | |  score bottom
                                    | | | dice: 00 = not rolled, D = doubled
                                    | | player on roll: 1 bottom, -1 top
                                    | cube owner: 1 bottom, 0 centre, -1 top
                                    cube value (log2)

The board is 26 characters seen from the bottom player: character 0 is the
top player's bar, 1-24 are the bottom player's points 1-24 (the top player's
25-p), 25 is the bottom player's bar; ``-`` is empty, ``A``-``O`` count the
bottom player's checkers and ``a``-``o`` the top player's.  Checkers not on
the board are borne off.

**Which player is which.**  The bottom player is :data:`BOTTOM`, player 1,
and the top player is player 0, because that is how gnubg's ``set xgid``
imports an XGID (and gnubg's text board draws player 1, ``X``, at the
bottom).  So an XGID converted here gives the same Position ID and Match ID
as gnubg's import, which ``tests/test_xgid.py`` checks.

**Money-play rules field**: bit 1 = Jacoby rule, bit 2 = beavers allowed,
so 0-3; in match play the field is 1 for the Crawford game, else 0.

**Doubles**: dice ``D`` means the player on roll has doubled and the
opponent must answer; the cube fields still show the cube before the
double, as the Match ID does.  XG's beaver and raccoon codes (``B``, ``R``)
are rejected: gnubg's import rejects them too and their cube semantics are
not published, so guessing would produce wrong states silently.

The max-cube field is XG's money-play cube limit; gnubg ignores it and so
does :class:`MatchState`, so :class:`Xgid` carries it (default 10, what XG
writes) only so that IDs round-trip.
"""

import re
from dataclasses import dataclass
from typing import Final

from controller.rules import layout as lay
from controller.rules.errors import InvalidMatchStateError, InvalidPositionError, InvalidXgidError
from controller.rules.match_state import (
    MAX_CUBE_LOG2,
    GameState,
    MatchState,
    Resignation,
)
from controller.rules.player import Player
from controller.rules.position import Position

BOTTOM: Final = Player.ONE
"""XG's bottom player (upper-case checkers), as gnubg imports XGIDs."""
TOP: Final = Player.ZERO
"""XG's top player (lower-case checkers)."""
DEFAULT_MAX_CUBE_LOG2: Final = 10

_PREFIX: Final = "XGID="
_FIELD_COUNT: Final = 10
_BOARD_RE: Final = re.compile(r"[-A-Oa-o]{26}")
_INT_RE: Final = re.compile(r"-?\d{1,5}")
_JACOBY: Final = 1
_BEAVERS: Final = 2
_SIDE: Final = {1: BOTTOM, -1: TOP}


@dataclass(frozen=True, slots=True)
class Xgid:
    """Everything an XGID says: the board, the match state and XG's extras.

    ``position.turn`` is the player on roll, always equal to
    ``match.on_roll``.  ``beavers`` (money play only) and ``max_cube_log2``
    have no place in a Match ID and are kept here so that text survives a
    round trip.
    """

    position: Position
    match: MatchState
    beavers: bool = False
    max_cube_log2: int = DEFAULT_MAX_CUBE_LOG2

    def __post_init__(self) -> None:
        if self.position.turn != self.match.on_roll:
            raise InvalidXgidError(
                f"the position has player {self.position.turn.value} on roll "
                f"but the match state has player {self.match.on_roll.value}"
            )
        if self.beavers and self.match.match_length:
            raise InvalidXgidError("beavers are a money-play rule, not allowed in a match")
        if not 0 <= self.max_cube_log2 <= MAX_CUBE_LOG2:
            raise InvalidXgidError(
                f"the max cube is 2^0 to 2^{MAX_CUBE_LOG2}, not 2^{self.max_cube_log2}"
            )
        _check_expressible(self.match)


def _check_expressible(state: MatchState) -> None:
    """Refuse match states an XGID has no way to write."""
    if state.game_state != GameState.PLAYING:
        raise InvalidXgidError(
            f"an XGID describes a game in progress, not game state {state.game_state.name}"
        )
    if state.resignation != Resignation.NONE:
        raise InvalidXgidError("an XGID cannot hold a pending resignation")
    if state.double_offered and state.turn == state.on_roll:
        raise InvalidXgidError("an XGID here cannot hold a beavered cube")
    if not state.double_offered and state.turn != state.on_roll:
        raise InvalidXgidError(
            "without a pending double the player to decide is the player on roll in an XGID"
        )


# -- board ----------------------------------------------------------------


def _board_text(position: Position) -> str:
    top, bottom = position.layout(TOP), position.layout(BOTTOM)
    chars = [_count_char(top[lay.BAR], upper=False)]
    for point in range(1, 25):
        if bottom[point]:
            chars.append(_count_char(bottom[point], upper=True))
        else:
            chars.append(_count_char(top[25 - point], upper=False))
    chars.append(_count_char(bottom[lay.BAR], upper=True))
    return "".join(chars)


def _count_char(count: int, *, upper: bool) -> str:
    if not count:
        return "-"
    return chr((ord("A") if upper else ord("a")) + count - 1)


def _parse_board(text: str, turn: Player) -> Position:
    if len(text) != 26:
        raise InvalidXgidError(f"the board field has 26 characters, not {len(text)}: {text!r}")
    if not _BOARD_RE.fullmatch(text):
        raise InvalidXgidError(f"the board is made of '-', A-O and a-o, not {text!r}")
    top = [0] * lay.PLACES
    bottom = [0] * lay.PLACES
    if text[0].isupper():
        raise InvalidXgidError("character 0 is the top player's bar: '-' or a-o")
    if text[25].islower():
        raise InvalidXgidError("character 25 is the bottom player's bar: '-' or A-O")
    for index, char in enumerate(text):
        if char == "-":
            continue
        if char.isupper():
            bottom[lay.BAR if index == 25 else index] = ord(char) - ord("A") + 1
        else:
            top[lay.BAR if index == 0 else 25 - index] = ord(char) - ord("a") + 1
    for row, side in ((top, "top"), (bottom, "bottom")):
        total = sum(row)
        if total > lay.CHECKERS:
            raise InvalidXgidError(f"the {side} player has {total} checkers; at most 15")
        row[lay.OFF] = lay.CHECKERS - total
    layouts = {TOP: top, BOTTOM: bottom}
    try:
        return Position(layouts[Player.ZERO], layouts[Player.ONE], turn)
    except InvalidPositionError as exc:  # pragma: no cover - one char per point
        raise InvalidXgidError(str(exc)) from exc


# -- whole ID ---------------------------------------------------------------


def format_xgid(xgid: Xgid) -> str:
    """The XGID text, ``XGID=`` included."""
    state = xgid.match
    side = {BOTTOM: 1, TOP: -1}
    cube_position = 0 if state.cube_owner is None else side[state.cube_owner]
    dice = "D" if state.double_offered else f"{state.dice[0]}{state.dice[1]}"
    if state.match_length:
        rules = int(state.crawford)
    else:
        rules = (_JACOBY if state.jacoby else 0) | (_BEAVERS if xgid.beavers else 0)
    fields = (
        _board_text(xgid.position),
        state.cube_log2,
        cube_position,
        side[state.on_roll],
        dice,
        state.score[BOTTOM],
        state.score[TOP],
        rules,
        state.match_length,
        xgid.max_cube_log2,
    )
    return _PREFIX + ":".join(str(field) for field in fields)


def parse_xgid(text: str) -> Xgid:
    """Parse an XGID (the ``XGID=`` prefix is optional).

    Raises :class:`InvalidXgidError` naming the faulty field, including for
    impossible combinations (a Crawford game nobody is one point away for,
    a score past the match length ...).
    """
    body = text.strip()
    if body[: len(_PREFIX)].upper() == _PREFIX:
        body = body[len(_PREFIX) :]
    fields = body.split(":")
    if len(fields) != _FIELD_COUNT:
        raise InvalidXgidError(
            f"an XGID has {_FIELD_COUNT} fields separated by ':', "
            f"{text.strip()!r} has {len(fields)}"
        )
    board, cube, cube_position, turn, dice, bottom, top, rules, length, max_cube = fields
    cube_log2 = _number(cube, "cube value (log2)", 0, MAX_CUBE_LOG2)
    owner_code = _number(cube_position, "cube position", -1, 1)
    on_roll = _SIDE.get(_number(turn, "player on roll", -1, 1))
    if on_roll is None:
        raise InvalidXgidError(f"the player on roll is 1 (bottom) or -1 (top), not {turn!r}")
    position = _parse_board(board, on_roll)
    match_length = _number(length, "match length", 0, 32767)
    rules_code = _number(rules, "Crawford/rules", 0, 1 if match_length else 3)
    double_offered, roll = _parse_dice(dice)
    score = {
        BOTTOM: _number(bottom, "bottom score", 0, 32767),
        TOP: _number(top, "top score", 0, 32767),
    }
    try:
        state = MatchState(
            match_length=match_length,
            score=(score[Player.ZERO], score[Player.ONE]),
            cube_value=1 << cube_log2,
            cube_owner=None if owner_code == 0 else _SIDE[owner_code],
            on_roll=on_roll,
            turn=on_roll.opponent if double_offered else on_roll,
            crawford=bool(match_length and rules_code),
            game_state=GameState.PLAYING,
            double_offered=double_offered,
            dice=roll,
            jacoby=bool(not match_length and rules_code & _JACOBY),
        )
    except InvalidMatchStateError as exc:
        raise InvalidXgidError(f"{text.strip()!r}: {exc}") from exc
    return Xgid(
        position=position,
        match=state,
        beavers=bool(not match_length and rules_code & _BEAVERS),
        max_cube_log2=_number(max_cube, "max cube (log2)", 0, MAX_CUBE_LOG2),
    )


def _number(text: str, name: str, low: int, high: int) -> int:
    if not _INT_RE.fullmatch(text):
        raise InvalidXgidError(f"the {name} field must be a whole number, not {text!r}")
    value = int(text)
    if not low <= value <= high:
        raise InvalidXgidError(f"the {name} field must be {low} to {high}, not {value}")
    return value


def _parse_dice(text: str) -> tuple[bool, tuple[int, int]]:
    """(double offered, dice) of the dice field."""
    upper = text.upper()
    if upper == "D":
        return True, (0, 0)
    if upper in ("B", "R"):
        raise InvalidXgidError(
            f"beavered and raccooned cubes (dice field {text!r}) are not supported"
        )
    if len(text) != 2 or not text.isdigit():
        raise InvalidXgidError(
            f"the dice field is 00 (not rolled), D (doubled) or two dice like 52, not {text!r}"
        )
    die1, die2 = int(text[0]), int(text[1])
    if text != "00" and not (1 <= die1 <= 6 and 1 <= die2 <= 6):
        raise InvalidXgidError(f"dice show 1 to 6, not {text!r}")
    return False, (die1, die2)


# -- conversions ------------------------------------------------------------


def xgid_to_gnubg(text: str) -> tuple[Position, MatchState]:
    """The position and match state of an XGID (what gnubg's ``set xgid`` sets)."""
    xgid = parse_xgid(text)
    return xgid.position, xgid.match


def gnubg_to_xgid(
    position: Position,
    state: MatchState,
    *,
    beavers: bool = False,
    max_cube_log2: int = DEFAULT_MAX_CUBE_LOG2,
) -> str:
    """The XGID of a position and match state.

    Raises :class:`InvalidXgidError` for states an XGID cannot hold (a game
    not in progress, a pending resignation, a beavered cube).
    """
    return format_xgid(Xgid(position, state, beavers=beavers, max_cube_log2=max_cube_log2))
