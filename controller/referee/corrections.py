"""The operator's corrections: undo the last play, set the position, adjust the score.

Each correction that changes the record is announced as a ``correction``
event, so the journal holds it like any other decision; one that cannot be
applied is a ``warning`` naming the argument at fault, and changes nothing.
"""

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from controller.game.match import Match
from controller.referee.board import LIGHT, colour_name, player_named
from controller.referee.inputs import OperatorInput
from controller.rules.errors import RulesError
from controller.rules.player import Player
from controller.rules.position import Position
from controller.rules.xgid import parse_xgid

if TYPE_CHECKING:
    from controller.referee.machine import Referee, _Out


class CorrectionError(ValueError):
    """A correction whose arguments cannot be used."""


def correct(referee: "Referee", inp: OperatorInput, out: "_Out") -> "Referee":
    """The referee after an operator's correction."""
    try:
        match inp.action:
            case "undo":
                return _undo(referee, out)
            case "set_position":
                return _set_position(referee, inp.args, out)
            case "adjust_score":
                return _adjust_score(referee, inp.args, out)
    except CorrectionError as exc:
        out.warn("correction", f"{inp.action}: {exc}")
    return referee


def _undo(referee: "Referee", out: "_Out") -> "Referee":
    from controller.referee.machine import Stage

    snapshot = referee.undo_point
    if snapshot is None or referee.stage not in (Stage.ROLL, Stage.PLAY):
        raise CorrectionError("there is no play to undo in this game")
    if referee.stage is Stage.PLAY:
        raise CorrectionError("the dice are out: the play in progress is not final yet")
    game = snapshot.session.game
    assert game.dice is not None
    out.emit("correction", None, action="undo",
             detail=f"{colour_name(game.turn)}'s last play is undone: put the checkers back "
                    f"and play {game.dice[0]}-{game.dice[1]} again",
             position_id=game.position.position_id())
    return replace(referee, session=snapshot.session, divergences=snapshot.divergences,
                   stage=Stage.RESTORE, restored=False, call=None, undo_point=None,
                   dice_down=(), glimpsed=(), message="UNDO", taking_back=referee.last_move)


def _position_from(args: Mapping[str, object]) -> tuple[Position, int, Player | None]:
    """The position (player on roll included), the cube value and owner the arguments give."""
    if "xgid" in args:
        text = args["xgid"]
        if not isinstance(text, str):
            raise CorrectionError(f"xgid: a text, not {text!r}")
        try:
            xgid = parse_xgid(text)
        except RulesError as exc:
            raise CorrectionError(f"xgid: {exc}") from exc
        return xgid.position, xgid.match.cube_value, xgid.match.cube_owner
    if "position_id" in args:
        text, turn = args["position_id"], args.get("turn")
        if not isinstance(text, str):
            raise CorrectionError(f"position_id: a text, not {text!r}")
        if turn not in ("light", "dark"):
            raise CorrectionError(f"turn: 'light' or 'dark' (who is on roll), not {turn!r}")
        try:
            position = Position.from_position_id(text, player_named(str(turn)))
        except RulesError as exc:
            raise CorrectionError(f"position_id: {exc}") from exc
        return position, 0, None
    raise CorrectionError("give 'xgid', or 'position_id' and 'turn'")


def _set_position(referee: "Referee", args: Mapping[str, object], out: "_Out") -> "Referee":
    from controller.referee.machine import Stage

    if referee.seating is None:
        raise CorrectionError("the seating is not known yet: set up the board once first")
    if referee.stage is Stage.OVER:
        raise CorrectionError("the match is over")
    position, cube_value, cube_owner = _position_from(args)
    if position.winner() is not None:
        raise CorrectionError("a position where a player has borne off everything ends the game")
    state = referee
    if cube_value:
        game = replace(referee.game, cube_value=cube_value, cube_owner=cube_owner)
        state = replace(state, session=replace(state.session, game=game))
    state = state._diverge(position, "the position was set by hand")
    out.emit("correction", None, action="set_position",
             detail=f"position set by hand, {colour_name(position.turn)} to roll",
             position_id=position.position_id())
    return replace(state, stage=Stage.ROLL, call=None, undo_point=None, dice_down=(),
                   glimpsed=(), restored=False, message="")


def _adjust_score(referee: "Referee", args: Mapping[str, object], out: "_Out") -> "Referee":
    session = referee.session
    if not isinstance(session, Match):
        raise CorrectionError("money play keeps no match score to adjust")
    unknown = sorted(set(args) - {"light", "dark"})
    if unknown:
        raise CorrectionError(f"{unknown[0]}: only 'light' and 'dark' scores can be set")
    score = list(session.score)
    for name in ("light", "dark"):
        if name not in args:
            continue
        value = args[name]
        if not isinstance(value, int) or isinstance(value, bool) \
                or not 0 <= value < session.rules.length:
            raise CorrectionError(f"{name}: a score 0 to {session.rules.length - 1}, "
                                  f"not {value!r}")
        score[player_named(name)] = value
    new = (score[0], score[1])
    out.emit("correction", None, action="adjust_score",
             detail=f"score set to light {new[LIGHT]}, dark {new[LIGHT.opponent]}",
             score={"light": new[LIGHT], "dark": new[LIGHT.opponent]})
    note = (f"before game {len(session.games) + 1} the operator set the score to "
            f"light {new[LIGHT]}, dark {new[LIGHT.opponent]}")
    return replace(referee, session=replace(session, score=new), notes=(*referee.notes, note))
