"""The players' buttons: cube actions, resignations and calls, checked against the rules.

A press the rules do not allow now is refused with a reason the players
read (``cube_refused`` for the cube, a ``warning`` for the rest) and changes
nothing.  The cube rules themselves are the game layer's
(:meth:`Game.double_refusal <controller.game.game.Game.double_refusal>`);
what this module adds is what only the referee knows: whether the dice are
already out, and the Crawford game named as such.
"""

from dataclasses import replace
from typing import TYPE_CHECKING

from controller.game.events import (
    AcceptResignation,
    DeclineResignation,
    Double,
    Pass,
    Resign,
    ResignLevel,
    Take,
)
from controller.game.game import Phase
from controller.game.match import Match
from controller.referee.board import colour_name, player_named
from controller.referee.inputs import ButtonInput
from controller.rules.errors import RulesError

if TYPE_CHECKING:
    from controller.referee.machine import Referee, _Out

_LEVELS = {"single": ResignLevel.SINGLE, "gammon": ResignLevel.GAMMON,
           "backgammon": ResignLevel.BACKGAMMON}


def press(referee: "Referee", inp: ButtonInput, out: "_Out") -> "Referee":
    """The referee after a button press."""
    from controller.referee.machine import Stage

    if inp.button != "call":
        referee = referee.settle_replay(out)
    if referee.stage in (Stage.SETUP, Stage.OPENING, Stage.OVER) and inp.button != "call":
        what = {Stage.SETUP: "the board is being set up", Stage.OPENING:
                "the opening roll has not been thrown", Stage.OVER: "the match is over"}
        refuse(out, inp, f"{what[referee.stage]}: no {inp.button} now")
        return referee
    match inp.button:
        case "double":
            return _double(referee, inp, out)
        case "take" | "pass":
            return _answer(referee, inp, out)
        case "resign":
            return _resign(referee, inp, out)
        case "accept" | "reject":
            return _accept(referee, inp, out)
        case "call":
            return _call(referee, inp, out)
    return referee


def refuse(out: "_Out", inp: ButtonInput, reason: str) -> None:
    """A press that changes nothing: ``cube_refused`` for the cube buttons, else a warning."""
    if inp.button in ("double", "take", "pass"):
        out.emit("cube_refused", inp.player, reason=reason, button=inp.button)
    else:
        out.warn(inp.button, reason)


def _double(referee: "Referee", inp: ButtonInput, out: "_Out") -> "Referee":
    from controller.referee.machine import Stage

    player, game, session = player_named(inp.player), referee.game, referee.session
    if isinstance(session, Match) and session.crawford_game:
        refuse(out, inp, "no doubling in the Crawford game")
        return referee
    if not game.rules.cube:
        refuse(out, inp, "the cube is not in play in this game")
        return referee
    if referee.stage is not Stage.ROLL or game.phase is Phase.PLAY:
        refuse(out, inp, "a double is offered only before rolling")
        return referee
    reason = game.double_refusal(player)
    if reason is not None:
        refuse(out, inp, reason)
        return referee
    state = referee
    if state.call is not None:
        # Doubling is acting on the position as played: the chance to call it has gone.
        out.emit("play_stands", colour_name(state.call.mover), move=state.call.move)
        state = replace(state, call=None)
    session = state.session.apply(Double(player))
    out.emit("double", inp.player, cube=game.cube_value * 2)
    return replace(state, session=session, message="DOUBLE")


def _answer(referee: "Referee", inp: ButtonInput, out: "_Out") -> "Referee":
    player, game = player_named(inp.player), referee.game
    if game.phase is not Phase.DOUBLED:
        refuse(out, inp, f"no double to {inp.button}")
        return referee
    if player == game.turn:
        refuse(out, inp, f"the doubler's opponent answers the double, not {inp.player}")
        return referee
    before = len(referee.session.games)
    if inp.button == "take":
        session = referee.session.apply(Take(player))
        out.emit("take", inp.player, cube=session.game.cube_value)
        return replace(referee, session=session, message="")
    session = referee.session.apply(Pass(player))
    out.emit("pass", inp.player)
    return replace(referee, session=session)._after_result(before, out)


def _resign(referee: "Referee", inp: ButtonInput, out: "_Out") -> "Referee":
    from controller.referee.machine import Stage

    player, game = player_named(inp.player), referee.game
    if game.resignation is not None:
        refuse(out, inp, "a resignation is already waiting for an answer")
        return referee
    if referee.stage is not Stage.ROLL:
        refuse(out, inp, "resign before the throw: the dice are out and the play is not "
                         "finished")
        return referee
    if game.phase is Phase.DOUBLED:
        refuse(out, inp, "answer the double first (a pass loses the game)")
        return referee
    level = _LEVELS[inp.level or "single"]
    try:
        session = referee.session.apply(Resign(player, level))
    except RulesError as exc:
        refuse(out, inp, str(exc))
        return referee
    out.emit("resign", inp.player, level=level.name.lower())
    return replace(referee, session=session, message="RESIGNS")


def _accept(referee: "Referee", inp: ButtonInput, out: "_Out") -> "Referee":
    player, game = player_named(inp.player), referee.game
    if game.resignation is None:
        refuse(out, inp, f"no resignation to {inp.button}")
        return referee
    resigner, level = game.resignation
    if player == resigner:
        refuse(out, inp, f"the resigning player's opponent answers, not {inp.player}")
        return referee
    name = level.name.lower()
    if inp.button == "reject":
        session = referee.session.apply(DeclineResignation(player))
        out.emit("resign_rejected", inp.player, level=name)
        return replace(referee, session=session, message="")
    before = len(referee.session.games)
    session = referee.session.apply(AcceptResignation(player))
    out.emit("accept", inp.player, level=name)
    return replace(referee, session=session, call=None)._after_result(before, out)


def _call(referee: "Referee", inp: ButtonInput, out: "_Out") -> "Referee":
    from controller.referee.machine import Stage

    player = player_named(inp.player)
    window = referee.call
    if referee.settings.mode == "strict":
        refuse(out, inp, "in strict mode the referee calls illegal plays itself")
        return referee
    if window is None:
        refuse(out, inp, "there is no illegal play to call (the last play was legal, "
                         "or the next throw has been made)")
        return referee
    if player == window.mover:
        refuse(out, inp, "only the opponent calls a play")
        return referee
    out.emit("call_upheld", inp.player, reason="; ".join(window.reasons),
             mover=colour_name(window.mover), move=window.move)
    out.beeps += 1
    return replace(referee, session=window.previous.session, call=None, stage=Stage.RESTORE,
                   restored=False, undo_point=None, divergences=window.previous.divergences,
                   taking_back=window.move,
                   message="ILLEGAL")
