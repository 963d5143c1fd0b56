"""Settings where the three rule texts differ or where clubs choose.

Every default is the usual tournament convention; ``README.md`` lists them.
"""

from dataclasses import dataclass
from enum import Enum

from controller.rules.variant import Variant


class AutoDoubles(Enum):
    """Automatic doubles on opening ties (shared/rules/README.md, "Rolling and moving").

    The cube stays centred and its value doubles at each counted tie.
    """

    OFF = "off"
    ONCE = "once"
    """At most one automatic double per game, the usual convention (cy)."""
    UNLIMITED = "unlimited"
    """Every opening tie doubles again (no)."""


@dataclass(frozen=True, slots=True)
class GameRules:
    """The rules one game is played under."""

    variant: Variant = Variant.STANDARD
    cube: bool = True
    """Whether the doubling cube is in play (off in a Crawford game, a
    1-point match and Acey-Deucey)."""
    automatic_doubles: AutoDoubles = AutoDoubles.OFF
    backgammon_multiplier: int = 3
    """3 by the rule texts; 2 where backgammons count only double (cy, hu, no)."""
    jacoby: bool = False
    """Gammons and backgammons count single while the cube was never turned
    (money play only; cy, hu)."""
    acey_deucey_doubles_stake: bool = False
    """Acey-Deucey only: the stake doubles at every acey-deucey (no)."""

    def __post_init__(self) -> None:
        if self.backgammon_multiplier not in (2, 3):
            raise ValueError("a backgammon counts 3 (or 2 where the club says so)")
