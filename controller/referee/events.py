"""What the referee announces: one :class:`RefereeEvent` per decision.

The JSON line of an event is ``{"t", "event", "player"?, **data}`` exactly as
issue 5's command-line contract spells it; the fields of each event are
listed in :data:`EVENT_FIELDS` and described in ``docs/referee.md``.  The
contract's events are joined by a few the contract allows to be added:
``resign_rejected``, ``accept``, ``position_restored``, ``correction``,
``resumed`` (the session's, after a restart) and warnings with reason
``setup`` carrying the set-up's differences.
"""

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, Literal

Colour = Literal["light", "dark"]

EVENT_FIELDS: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType({
    "game_start": ("game", "bottom", "home", "cube"),
    "opening_roll": ("dice", "tie"),
    "roll": ("dice", "inferred"),
    "reroll": ("reason", "die", "detail"),
    "play": ("move", "legal", "dice", "position_id"),
    "illegal_play": ("reason", "reasons", "legal_plays", "mode"),
    "call_upheld": ("reason", "mover", "move"),
    "play_stands": ("move",),
    "double": ("cube",),
    "take": ("cube",),
    "pass": (),
    "cube_refused": ("reason", "button"),
    "resign": ("level",),
    "resign_rejected": ("level",),
    "accept": ("level",),
    "game_over": ("winner", "points", "result", "score"),
    "match_over": ("winner", "score"),
    "position_restored": ("position_id",),
    "correction": ("action", "detail"),
    "resumed": ("expecting",),
    "warning": ("reason", "detail"),
})
"""Every event name and the data fields it may carry (besides t, event, player)."""

_RESERVED: Final = frozenset({"t", "event", "player"})


class RefereeEventError(ValueError):
    """A malformed event line (reading a journal or a replay's output)."""


@dataclass(frozen=True, slots=True)
class RefereeEvent:
    """One thing the referee tells the players, at the time of the input that caused it."""

    t: float
    event: str
    player: Colour | None = None
    data: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        if self.event not in EVENT_FIELDS:
            raise RefereeEventError(f"event: unknown event name {self.event!r}")
        clash = _RESERVED & set(self.data)
        if clash:
            raise RefereeEventError(f"data: {', '.join(sorted(clash))} is not a data field")
        try:
            plain = json.loads(json.dumps(dict(self.data), allow_nan=False))
        except (TypeError, ValueError) as exc:
            raise RefereeEventError(f"data: not plain JSON ({exc})") from exc
        # Stored as it reads back from a journal, so replayed events compare equal.
        object.__setattr__(self, "data", MappingProxyType(plain))

    def __hash__(self) -> int:
        return hash((self.t, self.event, self.player, tuple(sorted(self.data))))

    def to_json(self) -> dict[str, Any]:
        """The contract's JSON object (``player`` left out when nobody in particular)."""
        out: dict[str, Any] = {"t": self.t, "event": self.event}
        if self.player is not None:
            out["player"] = self.player
        out.update(self.data)
        return out

    @classmethod
    def from_json(cls, obj: object) -> "RefereeEvent":
        """Read an event line back; raises :class:`RefereeEventError` naming the field."""
        if not isinstance(obj, Mapping):
            raise RefereeEventError(f"an event is a JSON object, not {type(obj).__name__}")
        t = obj.get("t")
        if isinstance(t, bool) or not isinstance(t, int | float):
            raise RefereeEventError(f"t: a time in seconds, not {t!r}")
        name = obj.get("event")
        if not isinstance(name, str):
            raise RefereeEventError(f"event: a name, not {name!r}")
        player = obj.get("player")
        if player not in (None, "light", "dark"):
            raise RefereeEventError(f"player: light or dark, not {player!r}")
        data = {k: v for k, v in obj.items() if k not in _RESERVED}
        return cls(float(t), name, player, data)
