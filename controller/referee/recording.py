"""A play recorded (or called, at once or by the opponent in *players* mode), a game that
left the rules' path, and a game's (and the match's) end announced.

These are methods of :class:`~controller.referee.machine.Referee`, kept here as
functions of it (``self``) and bound to it in its class body.
"""

from dataclasses import replace
from typing import TYPE_CHECKING

from controller.game.events import Move
from controller.game.game import Game
from controller.game.match import Match
from controller.game.result import Ending
from controller.records.record import scores_before
from controller.referee.board import LIGHT, colour_name
from controller.referee.plays import PlayJudgement
from controller.referee.state import CallWindow, Divergence, Snapshot, Stage, _Out
from controller.rules.position import Position

if TYPE_CHECKING:
    from controller.referee.machine import Referee


def _record_play(self: "Referee", judgement: PlayJudgement, out: "_Out") -> "Referee":
    game = self.game
    mover = game.turn
    assert judgement.play is not None and game.dice is not None
    session = self.session.apply(Move(mover, judgement.play))
    out.emit("play", colour_name(mover), move=judgement.move, legal=True,
             dice=list(game.dice), position_id=_position_id(judgement))
    state = replace(self, session=session, stage=Stage.ROLL,
                    undo_point=Snapshot(self.session, self.divergences),
                    restored=False, message="", last_move=judgement.move,
                    resynced=max(0, self.resynced - 1), parted=None,
                    rereads=(), stood=None if self.stood is not None
                    and self.stood[0] == mover else self.stood)
    return state._after_result(len(self.session.games), out)


def _call_now(self: "Referee", judgement: PlayJudgement, out: "_Out") -> "Referee":
    mover = self.game.turn
    assert self.game.dice is not None
    out.emit("play", colour_name(mover), move=judgement.move, legal=False,
             dice=list(self.game.dice), position_id=_position_id(judgement))
    out.emit("illegal_play", colour_name(mover), reason="; ".join(judgement.reasons),
             reasons=list(judgement.reasons), legal_plays=list(judgement.closest),
             mode=self.settings.mode)
    out.beeps += 1
    return replace(self, stage=Stage.RESTORE, restored=False, message="ILLEGAL",
                   taking_back=judgement.move)


def _open_call(self: "Referee", judgement: PlayJudgement, out: "_Out") -> "Referee":
    game = self.game
    mover = game.turn
    assert judgement.after is not None and game.dice is not None
    out.emit("play", colour_name(mover), move=judgement.move, legal=False,
             dice=list(game.dice), position_id=_position_id(judgement))
    snapshot = Snapshot(self.session, self.divergences)
    window = CallWindow(snapshot, mover, judgement.move, judgement.reasons)
    state = self._diverge(judgement.after.with_turn(mover.opponent),
                          f"{colour_name(mover)}'s illegal play {judgement.move} stood")
    state = replace(state, call=window, undo_point=snapshot, stage=Stage.ROLL,
                    message="CALL?", last_move=judgement.move,
                    stood=self._stood_shift(judgement))
    return state._after_result(len(self.session.games), out)


def _diverge(self: "Referee", position: Position, why: str) -> "Referee":
    """Go on from a position the rules' path does not reach."""
    game = self.game
    fresh = Game.at(position, game.rules, cube_value=game.cube_value,
                    cube_owner=game.cube_owner)
    fresh = replace(fresh, cube_turned=game.cube_turned,
                    automatic_doubles=game.automatic_doubles)
    index = len(self.session.games)
    divergences = self.divergences
    if not any(d.game == index for d in divergences):
        divergences = (*divergences, Divergence(index, game.events, why))
    return replace(self, session=replace(self.session, game=fresh), divergences=divergences)


def _after_result(self: "Referee", games_before: int, out: "_Out") -> "Referee":
    """Announce a game that has just finished (and the match) and wait for the next set-up."""
    if len(self.session.games) > games_before:
        return self._announce_end(self.session.games[-1], out)
    return self


def _announce_end(self: "Referee", finished: Game, out: "_Out") -> "Referee":
    result = finished.result
    assert result is not None
    ending = {Ending.PASSED: "pass", Ending.RESIGNED: "resign"}.get(
        result.ending, result.kind.name.lower())
    score = scores_before(self.session)
    out.emit("game_over", colour_name(result.winner), winner=colour_name(result.winner),
             points=result.points, result=ending,
             score={"light": score[LIGHT], "dark": score[LIGHT.opponent]})
    if isinstance(self.session, Match) and self.session.is_over:
        winner = self.session.winner
        assert winner is not None
        out.emit("match_over", colour_name(winner), winner=colour_name(winner),
                 score={"light": score[LIGHT], "dark": score[LIGHT.opponent]})
        return replace(self, stage=Stage.OVER, call=None, undo_point=None,
                       message="MATCH OVER", dice_down=())
    return replace(self, stage=Stage.SETUP, call=None, undo_point=None,
                   message="GAME OVER", dice_down=(), glimpsed=())


def _position_id(judgement: PlayJudgement) -> str | None:
    return None if judgement.after is None else judgement.after.position_id()
