"""Where each number goes on the sixteen digits, and when messages show.

The score page, left module then right module::

    L.  3d  5P 7 d  2
    | |   |   |  | '- cube value (2 digits)
    | |   |   |  '--- cube owner: L, d, or - while centred;
    | |   |   |       "CrAF" in the Crawford game, "----" with no cube
    | |   |   '------ P and the match length (blank in money play)
    | |   '---------- d (dark) and dark's score
    | '-------------- light's score
    '---------------- L (light); the point after a letter: that player's turn

A number that does not fit its digits shows as dashes, never cut short.
Messages ("ROLL AGAIN", "NO LINK", ...) take turns with the score page, a
page every :data:`PAGE_MS`, so the score stays in view while they show.
"""

from firmware import bgproto

TYPE_CHECKING = False
if TYPE_CHECKING:
    from firmware.bgproto import Board


PAGE_MS = 1500
WIDTH = 16


def number(value: int, width: int) -> str:
    """Right-aligned; all dashes when it would need more digits."""
    text = str(value)
    if len(text) > width:
        return "-" * width
    return " " * (width - len(text)) + text


def _letter(name: str, colour: int, turn: int) -> str:
    return name + ("." if turn == colour else "")


def _owner(colour: int) -> str:
    if colour == bgproto.LIGHT:
        return "L"
    if colour == bgproto.DARK:
        return "d"
    return "-"


def score_page(board: "Board") -> str:
    text = (_letter("L", bgproto.LIGHT, board.turn) + number(board.score_light, 3)
            + _letter("d", bgproto.DARK, board.turn) + number(board.score_dark, 3))
    if board.match_length:
        text += "P" + number(board.match_length, 2)
    else:
        text += "   "
    text += " "
    if board.crawford:
        text += "CrAF"
    elif not board.cube_in_play:
        text += "----"
    else:
        text += _owner(board.cube_owner) + " " + number(board.cube_value, 2)
    return text


def message_page(text: str) -> str:
    """Centred on the sixteen digits."""
    pad = (WIDTH - len(text)) // 2
    return " " * pad + text


def pages(board: "Board | None", notices: "list[str]") -> "list[str]":
    """Every page to cycle through: the score (once known), then each notice,
    then the board's own message and NO CAMERA."""
    result = []
    if board is not None:
        result.append(score_page(board))
    for notice in notices:
        result.append(message_page(notice))
    if board is not None:
        if board.message:
            result.append(message_page(board.message))
        if not board.camera_ok:
            result.append(message_page("NO CAMERA"))
    return result


def page_at(all_pages: "list[str]", now: int) -> str:
    if not all_pages:
        return ""
    return all_pages[(now // PAGE_MS) % len(all_pages)]
