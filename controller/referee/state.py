"""The pieces of the referee's state (:mod:`controller.referee.machine`) and the
helpers its stages share: what the stages are, the snapshots kept to go back to, the
events of one step, and where dice lie."""

import math
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from controller.game.events import Event
from controller.game.game import Game
from controller.game.match import Match
from controller.game.money import MoneySession
from controller.referee.board import colour_name
from controller.referee.events import RefereeEvent
from controller.rules import layout as lay
from controller.rules.physical import Counts as PhysicalCounts
from controller.rules.player import Player
from vision.observation import Counts, Die

Session = Match | MoneySession
PARKED: Final = 8
"""Places beside the field remembered as holding an idle die."""
RESYNC_PLAYS: Final = 2
"""Plays judged leniently after a resync (one each): the board the position was taken
from may have been misread, and each player's next play is judged against it."""


class Stage(Enum):
    """What the referee is waiting for (see the module docstring)."""

    SETUP = "setup"
    OPENING = "opening"
    ROLL = "roll"
    PLAY = "play"
    RESTORE = "restore"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The record just before a play was recorded (the mover's dice out), to go back to."""

    session: Session
    divergences: tuple["Divergence", ...]


@dataclass(frozen=True, slots=True)
class CallWindow:
    """*Players* mode: an illegal play the opponent may still call."""

    previous: Snapshot
    """The record before the play, restored when the call is upheld."""
    mover: Player
    move: str
    reasons: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Divergence:
    """A game that left the rules' path (a play that stood, a position set by hand).

    The record keeps the game's events up to that moment (``events``);
    :mod:`controller.referee.record` closes it with the result it reached.
    """

    game: int
    """Index of the game in the session (0 for the first)."""
    events: tuple[Event, ...]
    why: str


# -- helpers ------------------------------------------------------------------


class _Out:
    """The events of one step, in order, and the beeps they cost."""

    def __init__(self, t: float) -> None:
        self.t = t
        self.events: list[RefereeEvent] = []
        self.beeps = 0

    def emit(self, event: str, player: str | None, **data: Any) -> None:
        self.events.append(RefereeEvent(self.t, event, player, data))  # type: ignore[arg-type]

    def warn(self, reason: str, detail: str, **data: Any) -> None:
        self.emit("warning", None, reason=reason, detail=detail, **data)


def _only_hit(before: tuple[int, ...], after: tuple[int, ...]) -> bool:
    """Whether a player's checkers (a layout: borne off, points 1-24, bar) went from
    ``before`` to ``after`` only by being hit: fewer or as many on each point, as many
    borne off, and the bar up by as many as the points lost."""
    points = range(1, lay.BAR)
    lost = sum(before[p] - after[p] for p in points)
    return (all(after[p] <= before[p] for p in points) and after[lay.OFF] == before[lay.OFF]
            and after[lay.BAR] - before[lay.BAR] == lost)


def _a_throw(dice: tuple[Die, ...]) -> bool:
    """Two dice on the field in one half: what a throw leaves (etiquette 1)."""
    return len(dice) == 2 and dice[0].side is not None and dice[0].side == dice[1].side


def _the_fixture(die: Die, fixture: Die, tolerance: float) -> bool:
    """Whether ``die`` is ``fixture`` seen again: in its place (its pips may read
    otherwise), or, read in another pose (flat or cocked, on a checker or not), no
    farther than ``tolerance``: a fresh die landing beside a mark (rendered 28de820384cd
    seed 118: a flat 5 23 px from a mark read as a cocked 2 on a checker, twice a roll
    inferred 3-4 s later as one die seen) is no mark."""
    if (die.flat, die.on_checker) == (fixture.flat, fixture.on_checker):
        return _same_place(die, fixture, tolerance)
    return math.hypot(die.center[0] - fixture.center[0],
                      die.center[1] - fixture.center[1]) <= tolerance


def _shifted(places: tuple[Counts | PhysicalCounts | None, ...],
             differences: tuple[tuple[int, int, int], ...], sign: int
             ) -> list[tuple[int, int] | None] | None:
    """The counts of ``places`` (the 24 physical points, the bar, the tray: None when out
    of view) as (light, dark), with ``differences`` (place, light, dark) added ``sign``
    times; None when that leaves a place with fewer than no checkers or needs a tray out
    of view."""
    shifted: list[tuple[int, int] | None] = [None if c is None else (c.light, c.dark)
                                             for c in places]
    for place, light, dark in differences:
        held = shifted[place]
        if held is None:
            return None
        counts = (held[0] + sign * light, held[1] + sign * dark)
        if min(counts) < 0:
            return None
        shifted[place] = counts
    return shifted


def _same_place(a: Die, b: Die, tolerance: float) -> bool:
    return math.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1]) <= 2 * tolerance


def _play_message(game: Game) -> str:
    if game.dice is None:
        return ""
    return f"{colour_name(game.turn).upper()} {game.dice[0]}-{game.dice[1]}"
