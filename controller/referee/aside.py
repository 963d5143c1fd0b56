"""Dice that are no part of a throw: dice parked beside the field on a quiet board, a pair
or a lone die newly beside it (a throw that landed off the field), dice left lying on the
field (fixtures), and ignored dice picked up.

These are methods of :class:`~controller.referee.machine.Referee`, kept here as
functions of it (``self``) and bound to it in its class body.
"""

from dataclasses import replace
from typing import TYPE_CHECKING

from controller.game.game import Phase
from controller.referee.board import BoardReadError, position_of, read_board
from controller.referee.state import PARKED, _Out, _same_place
from controller.referee.throws import VoidThrow, describe_die, split_dice, thrower_half
from controller.rules.player import Player
from vision.observation import Die, Observation

if TYPE_CHECKING:
    from controller.referee.machine import Referee


def _unthrown(self: "Referee", observation: Observation) -> "Referee":
    """A play is over: the dice that lay on the field before its throw and lie in the
    same places now were never thrown; they become fixtures."""
    tolerance = self.settings.die_tolerance
    stayed = tuple(d for d in observation.dice if d.side is not None and any(
        _same_place(d, e, tolerance) for e in self.lying))
    if not stayed:
        return self
    return replace(self, fixtures=(*self.fixtures, *stayed)[-PARKED:], lying=())


def _park(self: "Referee", seen: tuple[Die, ...]) -> tuple["Referee", tuple[Die, ...]]:
    """Set aside dice lying beside the field that are no part of a throw.

    Each player has a pair of dice; the idle pair lies beside the board,
    and the camera may see it (or something it takes for a die).  A die
    off the field counts only when it comes with a fresh throw onto the
    field (a die that bounced off: ``off_field``), and only where no die
    lay beside the field on a quiet board before: whatever lies there
    while no fresh die is on the field is parked, by place alone, since
    its pips may be read differently from frame to frame.
    """
    tolerance = self.settings.die_tolerance
    beside = [d for d in seen if d.side is None]
    if not beside:
        return self, seen
    on_field = tuple(d for d in seen if d.side is not None)
    if not split_dice(on_field, self.dice_down, tolerance)[1]:
        parked = [p for p in self.parked
                  if not any(_same_place(p, d, tolerance) for d in beside)]
        parked = [*parked, *beside][-PARKED:]
        return replace(self, parked=tuple(parked)), on_field
    return self, tuple(d for d in seen if d.side is not None or not any(
        _same_place(d, p, tolerance) for p in self.parked))


def _off_field_pair(self: "Referee", before: tuple[Die, ...], out: "_Out") -> None:
    """ROLL: two or more dice newly parked beside the field at once, none fresh on it,
    may be a throw that landed wholly off the field (void, etiquette 1) or the idle
    pair laid aside: a ``dice`` warning, never a call (the throw again onto the field
    is judged as usual, the dice beside it parked)."""
    tolerance = self.settings.die_tolerance
    new = [d for d in self.parked
           if not any(_same_place(d, b, tolerance) for b in before)]
    if len(new) >= 2 and len(self.parked) > len(before):
        out.warn("dice", f"{len(new)} dice off the field: a throw that lands off the "
                 "field is void, throw again onto it")


def _note_beside(self: "Referee", before: tuple[Die, ...], on_field: tuple[Die, ...],
                 observation: Observation) -> "Referee":
    """ROLL: remember a lone die newly beside the field with no fresh die on it (see
    ``beside``), and notice when it has left."""
    tolerance = self.settings.die_tolerance
    if self.beside:
        lying = any(d.side is None and _same_place(d, self.beside[0], tolerance)
                    for d in observation.dice)
        return self if lying != self.beside_gone else replace(self, beside_gone=not lying)
    new = [d for d in self.parked if not any(_same_place(d, b, tolerance) for b in before)]
    if len(new) != 1 or on_field or \
            self.game.phase is not Phase.ROLL or self.doubt is not None:
        return self
    return replace(self, beside=(new[0],), beside_by=self.game.turn, beside_gone=False)


def _rethrow_after_off_field(self: "Referee", player: Player, seen: tuple[Die, ...],
                             observation: Observation | None,
                             out: "_Out") -> "Referee":
    """ROLL: a lone die came to lie beside the field while ``player`` was to throw
    (``beside``), none on the field with it that the camera saw, and left again;
    now ``player`` throws again into their half with the checkers as they were.

    The throw is thrown again, so it was void, and the die beside the field
    was part of it: its partner on the field was missed (rendered 28de820384cd
    seeds 28 and 44: a die bounced onto the rail, the one on the field not read).
    ``reroll`` (``off_field``) for it, before the rethrow is judged.  A pair of
    dice beside the field stays a warning (the idle pair laid aside), and a die
    still lying beside the field is no part of a new throw."""
    if not self.beside or not self.beside_gone or player != self.beside_by or \
            observation is None or not seen or self.seating is None:
        return self
    half = thrower_half(self.seat(player))
    if any(d.side != half for d in seen):
        return self
    try:
        board = position_of(read_board(observation), self.seating, player)
    except BoardReadError:
        return self
    if board.key != self.game.position.key:
        return self
    lone = self.beside[0]
    fault = VoidThrow("off_field", lone, f"{describe_die(lone)} was off the field (the "
                                         "other die was not seen); thrown again")
    state = replace(self, beside=(), beside_by=None, beside_gone=False)
    return replace(state._void(fault, player, (), out), void_by=None)


def _forget_picked_up(self: "Referee", observation: Observation) -> "Referee":
    """Ignored dice stop being ignored once every one of them has left the board."""
    if not self.ignored:
        return self
    kept = split_dice(observation.dice, self.ignored, self.settings.die_tolerance)[0]
    return self if kept else replace(self, ignored=(), void_by=None)
