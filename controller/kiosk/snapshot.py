"""The referee as the kiosk page draws it: one JSON object, documented in ``docs/kiosk.md``.

The page is a view of the referee and nothing else, so everything it shows
is read off the (immutable) referee and the panel state here, in Python,
where it is tested; the browser only draws.  The board is given as the
camera sees it (physical points, ``0`` = bottom right, as ``read-image``
numbers them), so the drawing needs no rules: it puts the checkers where
the players have them.
"""

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final, Literal

from controller.panel import PanelState
from controller.referee.board import LIGHT, colour_name
from controller.rules.physical import PhysicalBoard, to_physical
from vision.observation import Die

if TYPE_CHECKING:
    from controller.referee.machine import Referee

SCHEMA: Final = 1


def _counts(light: int, dark: int) -> dict[str, int]:
    return {"light": light, "dark": dark}


def board_json(board: PhysicalBoard) -> dict[str, Any]:
    """Checkers per physical point, on the bar and borne off."""
    return {
        "points": [_counts(c.light, c.dark) for c in board.points],
        "bar": _counts(board.bar.light, board.bar.dark),
        "off": _counts(board.off.light, board.off.dark),
    }


def _die(die: Die) -> dict[str, Any]:
    return {"value": die.value, "side": die.side, "flat": die.flat,
            "on_checker": die.on_checker}


def _cube_place(referee: "Referee") -> Literal["centre", "top", "bottom"]:
    owner = referee.game.cube_owner
    if owner is None or referee.seating is None:
        return "centre"
    return referee.seat(owner)


def referee_view(referee: "Referee", panel: PanelState) -> dict[str, Any]:
    """Everything the page shows about the game now (without the log, which the feed keeps)."""
    from controller.referee.machine import Stage

    game = referee.game
    seating = referee.seating
    board = None if seating is None else board_json(to_physical(game.position, seating, LIGHT))
    dice_out = referee.stage in (Stage.PLAY, Stage.RESTORE) and game.dice is not None
    call: Mapping[str, Any] | None = None
    if referee.call is not None:
        call = {"caller": colour_name(referee.call.mover.opponent),
                "mover": colour_name(referee.call.mover),
                "move": referee.call.move,
                "reasons": list(referee.call.reasons)}
    return {
        "schema": SCHEMA,
        "stage": referee.stage.value,
        "expecting": referee.expecting(),
        "condition": referee.condition,
        "camera_ok": panel.camera_ok,
        "match": {
            "length": panel.match_length,
            "score": _counts(panel.score_light, panel.score_dark),
            "crawford": panel.crawford,
            "game": referee.games_started,
        },
        "turn": panel.turn,
        "cube": {"value": panel.cube_value, "owner": panel.cube_owner,
                 "in_play": panel.cube_in_play, "place": _cube_place(referee)},
        "seating": None if seating is None else {
            "bottom": colour_name(seating.bottom), "home": seating.home.value},
        "board": board,
        "dice": {
            "player": colour_name(game.turn) if dice_out else None,
            "values": list(game.dice) if dice_out and game.dice is not None else None,
            "lying": [_die(d) for d in referee.dice_down],
            "void": [_die(d) for d in referee.ignored],
            "void_by": None if referee.void_by is None else colour_name(referee.void_by),
        },
        "calls": {
            "steady": sorted(panel.call_steady),
            "blink": sorted(panel.call_blink),
            "message": panel.message,
            "window": call,
        },
    }
