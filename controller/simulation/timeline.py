"""What a camera over a played game sees, as a list of held scenes, and what really happened.

A game is filmed as *moments*: a board state (checkers, dice, cube, hands)
held for a while.  Between moments something changes; within one nothing
does, except sensor noise.  The director (:mod:`.director`) writes the
moments and the button presses from a self-played game; the camera
(:mod:`.camera`) renders one frame per distinct moment and reads it as the
real pipeline would, frame after frame at the stream's rate.

The *truth* is kept beside the stream: every throw (with the time its dice
came to rest, and whether it was void and why), every play (with the time
its dice were picked up, whether it was legal, which mistake was planted),
and therefore which referee calls the stream should produce and which it
must not.  Player names are colours, as the referee's events give them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from vision.observation import Counts
from vision.synth.scene import CubePlacement, DiePlacement, HandPose

Colour = Literal["light", "dark"]
Button = Literal["double", "take", "pass", "call", "resign", "accept", "reject"]
VoidReason = Literal["cocked", "wrong_half", "on_checker", "off_field", "early"]
Exception_ = Literal["race", "forced"]


@dataclass(frozen=True)
class Board:
    """Checkers as the camera counts them: physical points, bar and borne off."""

    points: tuple[Counts, ...]
    bar: Counts = Counts()
    off: Counts = Counts()


@dataclass(frozen=True)
class Shot:
    """One distinct picture: everything the renderer needs that changes during a game."""

    board: Board
    dice: tuple[DiePlacement, ...] = ()
    cube: CubePlacement | None = None
    hands: tuple[HandPose, ...] = ()


@dataclass(frozen=True)
class Moment:
    """A shot held for ``duration`` seconds (at least one frame is shown)."""

    shot: Shot
    duration: float
    label: str
    """What is happening, for people reading a stream: ``throw``, ``tumble``, ``dice``, ..."""


@dataclass(frozen=True)
class Press:
    """A button press at time ``t`` (seconds from the stream's start)."""

    t: float
    button: Button
    player: Colour
    level: Literal["single", "gammon", "backgammon"] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": round(self.t, 4), "button": self.button,
                               "player": self.player}
        if self.level is not None:
            out["level"] = self.level
        return out


@dataclass
class ThrowTruth:
    """One throw: an opening throw (one die each) or a player's two dice."""

    game: int
    turn: int
    player: Colour | None
    """None for the opening throw (both players throw one die)."""
    dice: tuple[int, int]
    """For the opening throw: (light's die, dark's die)."""
    t_settled: float
    """When the last die came to rest (the first frame of the resting dice)."""
    t_gone: float
    """When the dice were off the board again (picked up for a rethrow or after the play)."""
    void: VoidReason | None = None
    exception: Exception_ | None = None
    """An early throw that is *not* void: both bearing off with contact broken, or
    the opponent's play was forced."""
    opening: bool = False


@dataclass
class PlayTruth:
    """One play: the board before and after, and what the referee should say."""

    game: int
    turn: int
    player: Colour
    dice: tuple[int, int]
    legal: bool
    move: str
    """The play in gnubg notation (the planted board's nearest legal play when illegal)."""
    t_final: float
    """When the play became final: the first frame with the mover's dice picked up."""
    mistake: str | None = None
    """The planted illegal play's kind (``distance``, ``bar``, ``blocked``, ``bearoff``,
    ``one_die``); None for a legal play."""
    judge_kinds: tuple[str, ...] = ()
    """The rules engine's fault kinds for the planted board (for the report)."""
    called: bool | None = None
    """Players mode: the opponent pressed *call* before throwing (None: strict mode)."""
    t_call: float | None = None
    t_corrected: float | None = None
    """When the board showed a legal play again after the call (strict, or a call upheld)."""
    forced: bool = False
    """The roll had at most one legal result (an early throw after it is no fault)."""
    dance: bool = False


@dataclass
class GameTruth:
    game: int
    winner: Colour
    result: str
    """single, gammon, backgammon, pass or resign."""
    points: int
    t_end: float


@dataclass
class Truth:
    """Everything the stream's checker needs to know, written as the sidecar."""

    seed: int
    mode: Literal["strict", "players"]
    match_length: int
    """0 for money play."""
    seating: dict[str, str]
    """``bottom`` (colour at the bottom of the image) and ``home`` (left or right)."""
    light_player: int
    """The rules engine's player number (0 or 1) playing the light checkers."""
    throws: list[ThrowTruth] = field(default_factory=list)
    plays: list[PlayTruth] = field(default_factory=list)
    games: list[GameTruth] = field(default_factory=list)
    presses: list[dict[str, Any]] = field(default_factory=list)
    duration: float = 0.0
    style: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Truth:
        throws = [ThrowTruth(**{**t, "dice": tuple(t["dice"])}) for t in data["throws"]]
        plays = [PlayTruth(**{**p, "dice": tuple(p["dice"]),
                              "judge_kinds": tuple(p["judge_kinds"])}) for p in data["plays"]]
        games = [GameTruth(**g) for g in data["games"]]
        return cls(data["seed"], data["mode"], data["match_length"], data["seating"],
                   data["light_player"], throws, plays, games, data["presses"],
                   data["duration"], data.get("style", {}))
