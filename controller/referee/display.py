"""What the players are told: the sentence of :meth:`Referee.expecting` and the panel.

Both are read off the referee's state, never stored, so a restarted referee
shows exactly what it showed before the crash.
"""

from typing import TYPE_CHECKING

from controller.game.game import Phase
from controller.game.match import Match
from controller.panel import MESSAGE_LENGTH, Colour, PanelState
from controller.records.record import scores_before
from controller.referee.board import LIGHT, colour_name

if TYPE_CHECKING:
    from controller.referee.machine import Referee


def expecting(referee: "Referee") -> str:
    """A sentence for the players: what the referee waits for now."""
    from controller.referee.machine import Stage

    game = referee.game
    turn = colour_name(game.turn)
    other = colour_name(game.turn.opponent)
    match referee.stage:
        case Stage.SETUP:
            if referee.setup_differences:
                return "set up the board: " + "; ".join(referee.setup_differences)
            return "set up the board for the next game"
        case Stage.OPENING:
            assert referee.seating is not None
            bottom = colour_name(referee.seating.bottom)
            top = colour_name(referee.seating.top)
            return (f"opening roll: {bottom} throws one die into the right half, "
                    f"{top} one into the left half")
        case Stage.OVER:
            winner = referee.session.winner if isinstance(referee.session, Match) else None
            score = scores_before(referee.session)
            who = "" if winner is None else f"{colour_name(winner)} won "
            return (f"the match is over: {who}light {score[LIGHT]}, "
                    f"dark {score[LIGHT.opponent]}")
        case Stage.PLAY:
            assert game.dice is not None
            return (f"{turn} to play {game.dice[0]}-{game.dice[1]} and pick up the dice")
        case Stage.RESTORE:
            assert game.dice is not None
            if referee.replay is not None:
                return (f"{turn}'s replay {referee.replay.move} stands once {other} throws "
                        "or presses a button")
            if referee.restored:
                return f"{turn} to play {game.dice[0]}-{game.dice[1]} again"
            what = f"{referee.taking_back} back" if referee.taking_back else "the checkers back"
            return (f"waiting for the position to be restored: {turn} to take {what} "
                    f"(Position ID {game.position.position_id()}), or to make a legal play of "
                    f"{game.dice[0]}-{game.dice[1]}")
    if game.resignation is not None:
        resigner, level = game.resignation
        return (f"{colour_name(resigner.opponent)} to accept or reject "
                f"{colour_name(resigner)}'s resignation ({level.name.lower()})")
    if game.phase is Phase.DOUBLED:
        return f"{other} to take or pass the double to {game.cube_value * 2}"
    if referee.call is not None:
        return (f"{turn} to roll (or to call {colour_name(referee.call.mover)}'s play "
                f"{referee.call.move} first)")
    return f"{turn} to roll"


def panel(referee: "Referee") -> PanelState:
    """What the lights and the scoreboard show now."""
    from controller.referee.machine import Stage

    session, game = referee.session, referee.game
    score = scores_before(session)
    steady: frozenset[Colour] = frozenset()
    blink: frozenset[Colour] = frozenset()
    if referee.call is not None:
        steady = frozenset({_colour(colour_name(referee.call.mover.opponent))})
    if referee.stage is Stage.RESTORE:
        blink = frozenset({_colour(colour_name(game.turn))})
    elif referee.void_by is not None:
        blink = frozenset({_colour(colour_name(referee.void_by))})
    playing = referee.stage in (Stage.ROLL, Stage.PLAY, Stage.RESTORE)
    return PanelState(
        match_length=session.rules.length if isinstance(session, Match) else 0,
        score_light=score[LIGHT],
        score_dark=score[LIGHT.opponent],
        crawford=isinstance(session, Match) and session.crawford_game,
        cube_value=game.cube_value if game.cube_value in (1, 2, 4, 8, 16, 32, 64) else 64,
        cube_owner=None if game.cube_owner is None else _colour(colour_name(game.cube_owner)),
        cube_in_play=game.rules.cube,
        bottom=None if referee.seating is None else _colour(colour_name(referee.seating.bottom)),
        turn=_colour(colour_name(game.turn)) if playing else None,
        call_steady=steady,
        call_blink=blink,
        beeps=referee.beeps,
        message=referee.message[:MESSAGE_LENGTH],
        camera_ok=referee.condition != "no_board",
    )


def _colour(name: str) -> Colour:
    return "light" if name == "light" else "dark"
