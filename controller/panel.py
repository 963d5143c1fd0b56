"""What the players are shown without a screen: board lights and scoreboard.

The referee decides *what* to show; the GPIO lights (:mod:`controller.gpio`)
and the serial scoreboard (:mod:`controller.scoreboard`) decide *how*.  They
meet in this one immutable value, so each output can be tested on its own by
handing it panel states, and the referee can be tested without any output.

Outputs are level-triggered: they are given the whole state every time and
show it, never a difference.  That makes a reconnected scoreboard or a
restarted referee show the right thing at once.  The two things that happen
once rather than last (a beep, a blink for a fresh call) are counters: an
output acts when the counter moves on, and ignores a repeat of the same value.
"""

from dataclasses import dataclass
from typing import Literal

Colour = Literal["light", "dark"]
"""Checker colour, as vision reports it; players are named by their colour."""

CUBE_VALUES = (1, 2, 4, 8, 16, 32, 64)
MESSAGE_LENGTH = 16
"""Longest message any display must show (two 8-digit modules side by side)."""


class PanelError(ValueError):
    """A panel state that no display could show truthfully."""


@dataclass(frozen=True, slots=True)
class PanelState:
    """Everything the lights and the scoreboard show, at one moment."""

    match_length: int = 0
    """Points to win the match; 0 for money play (no match length shown)."""
    score_light: int = 0
    score_dark: int = 0
    crawford: bool = False
    """This game is the Crawford game (no doubling)."""
    cube_value: int = 1
    cube_owner: Colour | None = None
    """None while the cube is centred."""
    cube_in_play: bool = True
    """False in a Crawford game, Acey-Deucey or with the cube switched off."""
    bottom: Colour | None = None
    """Colour of the player seated at the bottom of the camera image (the
    side of the board the lights' 'bottom' LEDs are on); None until the
    set-up has been recognised."""
    turn: Colour | None = None
    """Whose turn it is; None before the opening roll and between games."""
    call_steady: frozenset[Colour] = frozenset()
    """Players whose call light is on steadily: in *players* mode, the
    opponent of a player who just made an illegal play may call it."""
    call_blink: frozenset[Colour] = frozenset()
    """Players whose call light blinks: their throw was void, or the referee
    called their play (strict mode) and waits for the position to be restored."""
    beeps: int = 0
    """Counter: every increase is one short beep (a new call or void throw)."""
    message: str = ""
    """A short message for the scoreboard ("ROLL AGAIN", "ILLEGAL"); empty for none."""
    camera_ok: bool = True
    """False while the camera is lost (status LED blinks fast, scoreboard says NO CAMERA)."""

    def __post_init__(self) -> None:
        if self.match_length < 0:
            raise PanelError(f"match length {self.match_length} is negative")
        for name, score in (("light", self.score_light), ("dark", self.score_dark)):
            if score < 0:
                raise PanelError(f"{name} score {score} is negative")
        if self.cube_value not in CUBE_VALUES:
            raise PanelError(f"cube value {self.cube_value} is not one of {CUBE_VALUES}")
        if self.beeps < 0:
            raise PanelError("the beep counter cannot go below 0")
        if len(self.message) > MESSAGE_LENGTH:
            raise PanelError(f"message {self.message!r} is longer than {MESSAGE_LENGTH} characters")
        if not self.message.isascii():
            raise PanelError(f"message {self.message!r} must be ASCII")

    def seat_of(self, colour: Colour) -> Literal["bottom", "top"] | None:
        """Where that player sits, once the set-up told us."""
        if self.bottom is None:
            return None
        return "bottom" if colour == self.bottom else "top"
