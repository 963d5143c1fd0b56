"""What the referee's pure machine consumes, and their JSON lines.

Every input carries its time ``t`` in seconds, so the machine never reads a
clock and a journal of inputs replays into exactly the same referee.  The
JSON forms are the ``bgref referee --replay`` lines: a button press
``{"t", "button", "player"}`` (``level`` for a resignation), an operator
correction ``{"t", "operator", "args"}``, a stabiliser status
``{"t", "status"}``, and an observation, recognised by its ``schema`` key.
An observation line read here becomes a :class:`StableInput`: the session
decides whether raw frames go through the stabiliser first.
"""

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, Literal, get_args

from vision.errors import ObservationError
from vision.observation import Observation

Colour = Literal["light", "dark"]
Condition = Literal["stable", "settling", "occluded", "no_board"]
Button = Literal["double", "take", "pass", "call", "resign", "accept", "reject"]
ResignLevelName = Literal["single", "gammon", "backgammon"]
OperatorAction = Literal["undo", "set_position", "adjust_score"]

COLOURS: Final[tuple[str, ...]] = get_args(Colour)
CONDITIONS: Final[tuple[str, ...]] = get_args(Condition)
BUTTONS: Final[tuple[str, ...]] = get_args(Button)
LEVELS: Final[tuple[str, ...]] = get_args(ResignLevelName)
ACTIONS: Final[tuple[str, ...]] = get_args(OperatorAction)


class RefereeInputError(ValueError):
    """A malformed input line; the message names the field at fault."""


@dataclass(frozen=True, slots=True)
class StableInput:
    """A board state the stabiliser reported as having held."""

    t: float
    observation: Observation


@dataclass(frozen=True, slots=True)
class StatusInput:
    """The stabiliser's view of the stream changed (a hand over the board, camera lost)."""

    t: float
    condition: Condition


@dataclass(frozen=True, slots=True)
class ButtonInput:
    """A player pressed one of their buttons."""

    t: float
    button: Button
    player: Colour
    level: ResignLevelName | None = None
    """Only for ``resign``: what the player offers to lose (None means single)."""


@dataclass(frozen=True, slots=True)
class OperatorInput:
    """An operator's correction of the record."""

    t: float
    action: OperatorAction
    args: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))


RefereeInput = StableInput | StatusInput | ButtonInput | OperatorInput


def _time(obj: Mapping[str, Any]) -> float:
    t = obj.get("t")
    if isinstance(t, bool) or not isinstance(t, int | float) or not math.isfinite(t):
        raise RefereeInputError(f"t: a time in seconds is needed, not {t!r}")
    return float(t)


def _choice(obj: Mapping[str, Any], key: str, allowed: tuple[str, ...]) -> str:
    value = obj.get(key)
    if value not in allowed:
        raise RefereeInputError(f"{key}: one of {', '.join(allowed)}, not {value!r}")
    return str(value)


def input_from_json(obj: object) -> RefereeInput:
    """Read one input line (already parsed JSON); raises :class:`RefereeInputError`."""
    if not isinstance(obj, Mapping):
        raise RefereeInputError(f"an input is a JSON object, not {type(obj).__name__}")
    if "schema" in obj:
        try:
            observation = Observation.from_json(obj)
        except ObservationError as exc:
            raise RefereeInputError(f"observation: {exc}") from exc
        return StableInput(_time(obj), observation)
    t = _time(obj)
    if "button" in obj:
        button = _choice(obj, "button", BUTTONS)
        player = _choice(obj, "player", COLOURS)
        level = obj.get("level")
        if level is not None and button != "resign":
            raise RefereeInputError(f"level: only a resign button has a level, not {button!r}")
        if level is not None and level not in LEVELS:
            raise RefereeInputError(f"level: one of {', '.join(LEVELS)}, not {level!r}")
        return ButtonInput(t, button, player, level)  # type: ignore[arg-type]
    if "operator" in obj:
        action = _choice(obj, "operator", ACTIONS)
        args = obj.get("args", {})
        if not isinstance(args, Mapping) or not all(isinstance(k, str) for k in args):
            raise RefereeInputError(f"args: an object of named arguments, not {args!r}")
        return OperatorInput(t, action, MappingProxyType(dict(args)))  # type: ignore[arg-type]
    if "status" in obj:
        return StatusInput(t, _choice(obj, "status", CONDITIONS))  # type: ignore[arg-type]
    raise RefereeInputError("an input needs 'schema' (an observation), 'button', "
                            "'operator' or 'status'")


def input_to_json(inp: RefereeInput) -> dict[str, Any]:
    """The JSON line of an input; :func:`input_from_json` reads it back equal."""
    match inp:
        case StableInput(t=t, observation=observation):
            out = observation.to_json()
            out["t"] = t
            return out
        case StatusInput(t=t, condition=condition):
            return {"t": t, "status": condition}
        case ButtonInput(t=t, button=button, player=player, level=level):
            data: dict[str, Any] = {"t": t, "button": button, "player": player}
            if level is not None:
                data["level"] = level
            return data
        case OperatorInput(t=t, action=action, args=args):
            return {"t": t, "operator": action, "args": dict(args)}
    raise RefereeInputError(f"not a referee input: {inp!r}")
