"""Referee events in words for the screen, read from two metres away.

The page shows these strings as they are, so the wording is decided (and
tested) here, once, rather than in the browser.  Calls name the die or the
play and the reason, because a player who is told only "illegal" will ask
why; a warning says "look", because it is never a call (issue 5, rule 5).
"""

import re
from collections.abc import Mapping
from typing import Any, Final

REROLL_REASONS: Final[Mapping[str, str]] = {
    "cocked": "cocked",
    "wrong_half": "in the wrong half",
    "on_checker": "on a checker",
    "off_field": "off the field",
    "early": "thrown before the opponent picked up the dice",
}
"""How each reason for a void throw reads after "the die ... is"."""

CALLS: Final = frozenset({"reroll", "illegal_play", "call_upheld", "cube_refused", "warning",
                          "resign_rejected"})
"""Events the page shows prominently until the game moves on."""


_PIXELS: Final = re.compile(r" at \(-?\d+(?:\.\d+)?, -?\d+(?:\.\d+)?\)")
"""A die's place in camera pixels, as the referee's details give it for the log."""


def _plain(detail: object) -> str:
    """A detail for the players: camera pixel positions mean nothing at the table
    (the page draws the die where it lies), so they are left out."""
    return _PIXELS.sub("", str(detail))


def _who(event: Mapping[str, Any]) -> str:
    player = event.get("player")
    return str(player).capitalize() if isinstance(player, str) else "A player"


def _die(value: object) -> str:
    if isinstance(value, Mapping) and isinstance(value.get("value"), int):
        return f"the {value['value']}"
    return "a die"


def _plays(plays: object, most: int = 4) -> str:
    if not isinstance(plays, list) or not plays:
        return ""
    shown = [str(p) or "(no move)" for p in plays[:most]]
    more = f" (and {len(plays) - most} more)" if len(plays) > most else ""
    return "; ".join(shown) + more


def describe(event: Mapping[str, Any]) -> str:
    """One line for the event's JSON form (:meth:`RefereeEvent.to_json`)."""
    name = str(event.get("event"))
    who = _who(event)
    match name:
        case "game_start":
            return (f"Game {event.get('game')}: {event.get('bottom')} sits at the bottom, "
                    f"home boards on the {event.get('home')}")
        case "opening_roll":
            dice = event.get("dice") or {}
            light, dark = dice.get("light"), dice.get("dark")
            if event.get("tie"):
                return f"Opening roll {light}-{dark}: a tie, throw again"
            return f"Opening roll: light {light}, dark {dark}; {who} starts"
        case "roll":
            dice = event.get("dice") or []
            seen = " (inferred from the play)" if event.get("inferred") else ""
            return f"{who} rolls {'-'.join(str(d) for d in dice)}{seen}"
        case "reroll":
            reason = REROLL_REASONS.get(str(event.get("reason")), str(event.get("reason")))
            detail = event.get("detail")
            tail = f": {_plain(detail)}" if detail else ""
            whose = f", {who}" if event.get("player") else ""
            return f"Roll again{whose}: {_die(event.get('die'))} is {reason}{tail}"
        case "play":
            move = event.get("move") or "no move"
            if event.get("legal") is False:
                return f"{who} plays {move}: not a legal play"
            return f"{who} plays {move}"
        case "illegal_play":
            legal = _plays(event.get("legal_plays"))
            tail = f". Legal: {legal}" if legal else ""
            return f"Illegal play by {who}: {event.get('reason')}{tail}"
        case "call_upheld":
            return (f"Call upheld: {event.get('mover')}'s play {event.get('move')} was illegal "
                    f"({event.get('reason')}); put the checkers back")
        case "play_stands":
            return f"{who}'s play {event.get('move')} stands"
        case "double":
            return f"{who} doubles to {event.get('cube')}"
        case "take":
            return f"{who} takes; the cube is at {event.get('cube')}"
        case "pass":
            return f"{who} passes"
        case "cube_refused":
            return f"{who}: {event.get('button')} refused: {event.get('reason')}"
        case "resign":
            return f"{who} resigns ({event.get('level') or 'single'})"
        case "resign_rejected":
            return f"{who}'s resignation ({event.get('level')}) is rejected"
        case "accept":
            return f"{who} accepts the resignation ({event.get('level')})"
        case "game_over":
            points = event.get("points")
            plural = "" if points == 1 else "s"
            return f"{str(event.get('winner')).capitalize()} wins {points} point{plural} " \
                   f"({event.get('result')})"
        case "match_over":
            return f"{str(event.get('winner')).capitalize()} wins the match"
        case "position_restored":
            return "The position is restored: play again"
        case "correction":
            return f"Operator: {event.get('action')}: {event.get('detail')}"
        case "resumed":
            return f"The referee resumed: {event.get('expecting')}"
        case "warning":
            return f"Look: {_plain(event.get('detail') or event.get('reason'))}"
    return f"{who}: {name}"
