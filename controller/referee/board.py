"""From an observation to the rules' position, with what the camera could not see.

A tray is not always in view (``off`` is null then).  Borne-off checkers are
then inferred as the ones missing from the board, which is right for a
complete reading and wrong for a checker hidden or lost: the judge of a play
(:mod:`controller.referee.plays`) therefore trusts an inferred tray only
where it cannot mistake a missing checker for a borne-off one.
"""

from dataclasses import dataclass

from controller.rules import layout as lay
from controller.rules.errors import InvalidPositionError
from controller.rules.physical import Colour, Counts, PhysicalBoard, Seating, to_position
from controller.rules.player import Player
from controller.rules.position import Position
from vision.observation import Observation

LIGHT = Player.ZERO
"""The light checkers are always player 0, the dark ones player 1."""


def colour_name(player: Player) -> str:
    """``light`` or ``dark``: players are named by their checkers."""
    return "light" if player == LIGHT else "dark"


def player_named(colour: str) -> Player:
    """The player of the ``light`` or ``dark`` checkers."""
    return LIGHT if colour == "light" else LIGHT.opponent


@dataclass(frozen=True, slots=True)
class BoardReading:
    """The checkers of one observation as a physical board."""

    board: PhysicalBoard
    off_seen: bool
    """False when the tray was out of view and ``off`` was inferred."""


class BoardReadError(ValueError):
    """An observation whose checkers no board can hold (more than 15 of a colour, ...)."""


def read_board(observation: Observation, *, whole: bool = True) -> BoardReading:
    """The observation's checkers; raises :class:`BoardReadError` saying what cannot be.

    ``whole`` False lets a colour have fewer than 15 checkers in all (one
    missed): for finding the legal play a misread board is closest to.
    """
    points = tuple(Counts(c.light, c.dark) for c in observation.points)
    bar = Counts(observation.bar.light, observation.bar.dark)
    if observation.off is not None:
        off = Counts(observation.off.light, observation.off.dark)
    else:
        light = sum(c.light for c in points) + bar.light
        dark = sum(c.dark for c in points) + bar.dark
        for name, count in (("light", light), ("dark", dark)):
            if count > lay.CHECKERS:
                raise BoardReadError(f"{count} {name} checkers on the board; there are 15")
        off = Counts(lay.CHECKERS - light, lay.CHECKERS - dark)
    board = PhysicalBoard(points, bar, off)
    for colour in Colour:
        total = board.total(colour)
        if total > lay.CHECKERS or (whole and total != lay.CHECKERS):
            raise BoardReadError(f"{total} {colour.value} checkers counted on the board, bar "
                                 "and tray; there are 15")
    return BoardReading(board, observation.off is not None)


def position_of(reading: BoardReading, seating: Seating, turn: Player) -> Position:
    """The rules' position the board shows; raises :class:`BoardReadError`."""
    try:
        return to_position(reading.board, seating, LIGHT, turn)
    except InvalidPositionError as exc:
        raise BoardReadError(str(exc)) from exc
