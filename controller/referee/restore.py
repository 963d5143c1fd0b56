"""The referee's restore stage (RESTORE): after an illegal play was called, waiting for the
position before the play and then for a legal play of the same dice; the players going
on without the call.

These are methods of :class:`~controller.referee.machine.Referee`, kept here as
functions of it (``self``) and bound to it in its class body.
"""

from dataclasses import replace
from typing import TYPE_CHECKING

from controller.referee.board import BoardReadError, colour_name, position_of, read_board
from controller.referee.plays import judge_play
from controller.referee.state import Stage, _a_throw, _Out, _the_fixture
from controller.referee.throws import split_dice, thrower_half
from vision.observation import Die, Observation

if TYPE_CHECKING:
    from controller.referee.machine import Referee


# RESTORE --------------------------------------------------------------


def _restore(self: "Referee", observation: Observation, seen: tuple[Die, ...],
             out: "_Out") -> "Referee":
    """Waiting for the position before the play, then for a legal play of the same dice.

    The dice are not on the board to be picked up, so nothing marks the
    replay as finished: a legal board is only held as the replay
    (``replay``) until the opponent throws or presses a button, since a
    board half-way through the replay may itself be a legal play.  A
    legal board that ends the game is taken at once.
    """
    game = self.game
    assert self.seating is not None and game.dice is not None
    try:
        reading = read_board(observation)
        board = position_of(reading, self.seating, game.turn.opponent)
    except BoardReadError:
        return self
    state = self
    held = self.replay.after if self.replay is not None else None
    mover = game.turn
    if held is not None and board.layout(mover) == held.layout(mover) and \
            board.layout(mover.opponent) != held.layout(mover.opponent):
        # A legal replay held, and the opponent's checkers moved on from it (their
        # throw unseen): the opponent has acted, so the replay is over, as at their
        # throw (rendered 7e15fdd04acc seed 17: a call, the legal replay shown, then
        # the opponent's throw missed and played, and the replay forgotten; nothing
        # recorded until the next throw seen, 14 s later).  The board is then one of
        # the opponent's turn.
        settled = self.settle_replay(out)
        return settled._roll(observation, seen, out)
    if self.went_on is not None:
        # The opponent threw on a board not put right: their checkers moving on
        # from it show the players went on without the call (see _went_on).
        if board.key == game.position.key:
            state = replace(state, went_on=None)
        else:
            try:
                was = position_of(read_board(self.went_on[0]), self.seating,
                                  game.turn.opponent)
            except BoardReadError:
                was = None
            thrower = game.turn.opponent
            if was is not None and board.layout(thrower) != was.layout(thrower):
                return state._went_on(observation, out)
    if board.key == game.position.key and not state.restored:
        out.emit("position_restored", colour_name(game.turn),
                 position_id=game.position.position_id())
        state = replace(state, restored=True, message="PLAY AGAIN")
    judgement = judge_play(game.position, reading, self.seating, game.dice)
    legal = judgement.kind == "legal" and (board.key != game.position.key
                                           or not game.position.legal_positions(*game.dice))
    state = replace(state, replay=judgement if legal else None)
    if legal and judgement.after is not None and judgement.after.winner() is not None:
        return state.settle_replay(out)
    if not seen:
        return state
    if legal:
        # A throw (good or void) after a legal replay: the replay is over.
        return state.settle_replay(out)._roll(observation, seen, out)
    out.warn("dice", "the position must be put right before the next throw")
    state = replace(state, ignored=(*state.ignored, *seen))
    if board.key != game.position.key and _a_throw(seen) and \
            seen[0].side == thrower_half(self.seat(game.turn.opponent)):
        state = replace(state, went_on=(observation, seen))
    return state


def _went_on(self: "Referee", observation: Observation, out: "_Out") -> "Referee":
    """RESTORE: the opponent threw on a board not put right (``went_on``) and has
    moved their checkers since: the players went on from the board as it stood
    (the call was the camera's mistake, or the restoring and the replay were not
    seen).  Waiting for a position that will not come left the referee out of step
    for the rest of the game (rendered 28de820384cd seed 39: a stack of five read
    as six called in strict mode at 195.7 s, nothing judged after it).  A resync
    from the board the throw lay on (a ``look`` warning), the throw judged as the
    thrower's, then ``observation`` as a board of their play."""
    assert self.went_on is not None
    board, dice = self.went_on
    thrower = self.game.turn.opponent
    tolerance = self.settings.die_tolerance
    state = replace(self, went_on=None, replay=None, ignored=split_dice(
        self.ignored, dice, tolerance)[1], void_by=None)
    state = state._resync(board, thrower, out)._throw(thrower, dice, out, board)
    if state.stage is not Stage.PLAY:
        return state
    seen = split_dice(observation.dice, state.ignored, tolerance)[1]
    seen = tuple(d for d in seen if d.side is None or not any(
        _the_fixture(d, f, tolerance) for f in state.fixtures))
    return state._play(observation, seen, out)
