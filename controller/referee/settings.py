"""How a club configures the live referee, and the JSON file it is read from.

Defaults follow the etiquette text for club play (``shared/rules/README.md``,
"Etiquette"): *players* mode, where the opponent calls an illegal play and an
uncalled one stands; a tournament director switches to *strict*, where the
referee calls at once.  Everything else defaults to the usual tournament
conventions of :class:`~controller.game.settings.GameRules` and
:class:`~controller.game.match.MatchRules`.

The live referee follows standard backgammon only: the variants start with
every checker in hand, and there is no set-up for the camera to recognise.
"""

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from controller.game.match import MatchRules
from controller.game.money import MoneyRules
from controller.game.settings import AutoDoubles, GameRules

Mode = Literal["strict", "players"]


class RefereeSettingsError(ValueError):
    """A setting that cannot be used; the message names the key."""


@dataclass(frozen=True, slots=True)
class RefereeSettings:
    """Everything the referee's decisions depend on besides its inputs."""

    mode: Mode = "players"
    """``players``: the opponent may call an illegal play until they throw;
    ``strict``: the referee calls it at once and waits for the position to
    be put right."""
    match_length: int = 0
    """Points to win the match; 0 for money play."""
    crawford: bool = True
    cube: bool = True
    """Whether the doubling cube is used at all."""
    jacoby: bool = False
    """Money play only: gammons count single until the cube is turned."""
    automatic_doubles: AutoDoubles = AutoDoubles.OFF
    backgammon_multiplier: int = 3
    die_tolerance: float = 12.0
    """Pixels a die may shift and still be the same die: a die nudged by a
    hand or a checker stays the die it was, not a fresh throw."""
    hold: float = 0.3
    """Seconds a board state must hold before the stabiliser reports it
    (passed to :class:`vision.stabiliser.StabiliserConfig` by the session)."""
    dice_hold: float | None = None
    """Seconds a state with dice must hold; None means ``hold``."""

    def __post_init__(self) -> None:
        if self.mode not in ("strict", "players"):
            raise RefereeSettingsError(f"mode: 'strict' or 'players', not {self.mode!r}")
        if not isinstance(self.match_length, int) or isinstance(self.match_length, bool) \
                or not 0 <= self.match_length <= 99:
            raise RefereeSettingsError(
                f"match_length: 0 (money) to 99 points, not {self.match_length!r}")
        if self.backgammon_multiplier not in (2, 3):
            raise RefereeSettingsError(
                f"backgammon_multiplier: 2 or 3, not {self.backgammon_multiplier!r}")
        for name in ("die_tolerance", "hold"):
            value = getattr(self, name)
            if not _seconds_or_pixels(value):
                raise RefereeSettingsError(f"{name}: a number 0 or more, not {value!r}")
        if self.dice_hold is not None and not _seconds_or_pixels(self.dice_hold):
            raise RefereeSettingsError(f"dice_hold: a number 0 or more, not {self.dice_hold!r}")

    @property
    def is_match(self) -> bool:
        """True for match play, False for money."""
        return self.match_length > 0

    def game_rules(self) -> GameRules:
        """The rules of each game (the match switches the cube off where it must)."""
        return GameRules(cube=self.cube, automatic_doubles=self.automatic_doubles,
                         backgammon_multiplier=self.backgammon_multiplier,
                         jacoby=self.jacoby and not self.is_match)

    def match_rules(self) -> MatchRules | MoneyRules:
        """Match rules, or money rules when the match length is 0."""
        if self.is_match:
            return MatchRules(length=self.match_length, crawford=self.crawford,
                              game=self.game_rules())
        return MoneyRules(game=self.game_rules())


def _seconds_or_pixels(value: object) -> bool:
    return (isinstance(value, int | float) and not isinstance(value, bool)
            and math.isfinite(value) and value >= 0)


_BOOLS: Final = ("crawford", "cube", "jacoby")
_KEYS: Final = ("mode", "match_length", "automatic_doubles", "backgammon_multiplier",
                "die_tolerance", "hold", "dice_hold", "variant", *_BOOLS)


def settings_from_json(obj: object) -> RefereeSettings:
    """Settings from a parsed JSON object; unknown keys and bad values name the key."""
    if not isinstance(obj, Mapping):
        raise RefereeSettingsError(f"the settings are a JSON object, not {type(obj).__name__}")
    unknown = sorted(set(obj) - set(_KEYS))
    if unknown:
        raise RefereeSettingsError(f"{unknown[0]}: unknown setting (known: {', '.join(_KEYS)})")
    values: dict[str, Any] = {}
    for key in _BOOLS:
        if key in obj:
            if not isinstance(obj[key], bool):
                raise RefereeSettingsError(f"{key}: true or false, not {obj[key]!r}")
            values[key] = obj[key]
    if "variant" in obj and obj["variant"] != "standard":
        raise RefereeSettingsError(f"variant: the live referee follows 'standard' backgammon "
                                   f"only, not {obj['variant']!r}")
    if "automatic_doubles" in obj:
        choices = [a.value for a in AutoDoubles]
        if obj["automatic_doubles"] not in choices:
            raise RefereeSettingsError(f"automatic_doubles: one of {', '.join(choices)}, "
                                       f"not {obj['automatic_doubles']!r}")
        values["automatic_doubles"] = AutoDoubles(obj["automatic_doubles"])
    for key in ("mode", "match_length", "backgammon_multiplier", "die_tolerance", "hold",
                "dice_hold"):
        if key in obj:
            values[key] = obj[key]
    return RefereeSettings(**values)


def load_settings(path: str | Path) -> RefereeSettings:
    """Read a JSON settings file; every problem is a :class:`RefereeSettingsError`."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RefereeSettingsError(f"cannot read the settings file {path}: "
                                   f"{exc.strerror or exc}") from exc
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RefereeSettingsError(f"{path}: not JSON (line {exc.lineno}: {exc.msg})") from exc
    return settings_from_json(obj)
