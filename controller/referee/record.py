"""The match as a record that ``format_mat`` writes, at any moment.

Games that followed the rules are their game events as recorded.  A game
that left the rules' path (an illegal play that stood in *players* mode, a
position set by the operator) cannot be written move by move: a match file
has no way to say "the game went on from this position".  Such a game is
written up to where it left the path and, once finished, closed as the
loser resigning at the level of the result, so the file replays and its
score is the score; a comment says what happened.  A score the operator
adjusted likewise goes into a comment: the file's scores are the games'.
"""

from typing import TYPE_CHECKING

from controller.game.events import AcceptResignation, Event, Resign, ResignLevel
from controller.game.game import Game
from controller.records.record import GameRecord, MatchRecord
from controller.rules.errors import RulesError

if TYPE_CHECKING:
    from controller.referee.machine import Referee

PLAYERS = ("Light", "Dark")
"""Player 0 plays the light checkers, player 1 the dark ones."""


def match_record(referee: "Referee") -> MatchRecord:
    """The record of every game so far, the one in progress included."""
    session = referee.session
    games = list(session.games)
    current = session.game
    if (current.events or current.start is not None) and (not games or current is not games[-1]):
        games.append(current)
    diverged = {d.game: d for d in referee.divergences}
    comments: list[str] = list(referee.notes)
    records: list[GameRecord] = []
    won = [0, 0]
    for index, game in enumerate(games):
        events: tuple[Event, ...] = game.events
        divergence = diverged.get(index)
        if divergence is not None:
            events, note = _closed(divergence.events, game)
            comments.append(f"game {index + 1}: {divergence.why}; {note}")
        if not events:
            comments.append(f"game {index + 1}: left out, it has no recorded events")
            break
        records.append(GameRecord(score=(won[0], won[1]), events=events))
        if game.result is not None:
            won[game.result.winner] += game.result.points
    rules = session.rules
    return MatchRecord(players=PLAYERS, rules=rules, games=tuple(records),
                       comments=tuple(comments))


def _closed(prefix: tuple[Event, ...], game: Game) -> tuple[tuple[Event, ...], str]:
    """The recorded events of a diverged game, closed with its result when it has one."""
    if game.result is None:
        return prefix, "the rest of the game is not in the file"
    result = game.result
    loser = result.winner.opponent
    closing = (Resign(loser, ResignLevel(int(result.kind))), AcceptResignation(result.winner))
    try:
        replayed = Game.replay(game.rules, (*prefix, *closing))
    except RulesError:
        return prefix, "the game could not be closed in the file"
    assert replayed.result is not None
    note = (f"written as a resignation ({result.kind.name.lower()}) at the point it left "
            "the rules' path")
    if replayed.result.points != result.points:
        note += f"; it was worth {result.points} points, the file says {replayed.result.points}"
    return (*prefix, *closing), note

