"""The record of a match or money session: who played, under which rules,
and every event of every game.

A :class:`MatchRecord` is a value that can be stored, compared and written
out (:mod:`controller.records.matfile`); :meth:`MatchRecord.replay` rebuilds
the :class:`~controller.game.match.Match` or
:class:`~controller.game.money.MoneySession` by applying every event again,
so a record that replays is a record the rules accept, and a record that
does not says which game and which event went wrong.

Each game keeps the score it started at.  The replay recomputes the score,
so the stored one is a check: a record whose games were cut, reordered or
edited no longer replays.  For money play the "score" is what match files
show, the points each player has won so far, not the net totals.

The cube needs no per-game state: every game of a match or session starts
centred at 1, and automatic doubles are the tied :class:`OpeningRoll` events
of the record itself.
"""

import datetime
import re
from dataclasses import dataclass

from controller.game.errors import RecordError
from controller.game.events import (
    ChooseDouble,
    Event,
    Move,
    OpeningRoll,
    Resign,
    Roll,
)
from controller.game.game import Game
from controller.game.match import Match, MatchRules
from controller.game.money import MoneyRules, MoneySession
from controller.game.settings import GameRules
from controller.rules.errors import RulesError
from controller.rules.layout import BAR
from controller.rules.move import Play

DEFAULT_PLAYERS = ("Player 0", "Player 1")
"""Names used when none are known."""

Session = Match | MoneySession
"""What a record replays into."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game: the score before it and its events, in order."""

    score: tuple[int, int]
    """Points of player 0 and player 1 before this game (money: points won so far)."""
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A whole match or money session, replayable event by event."""

    players: tuple[str, str]
    """Names of player 0 and player 1."""
    rules: MatchRules | MoneyRules
    games: tuple[GameRecord, ...] = ()
    date: datetime.date | None = None
    """The day the match was played, when known."""
    comments: tuple[str, ...] = ()
    """Free text carried along with the record (header comments of an imported file)."""

    # -- reading ----------------------------------------------------------

    @property
    def length(self) -> int:
        """The match length in points; 0 for a money session."""
        return self.rules.length if isinstance(self.rules, MatchRules) else 0

    @property
    def game_rules(self) -> GameRules:
        """The rules every game is played under (a match switches the cube off where it must)."""
        return self.rules.game

    # -- building ---------------------------------------------------------

    @classmethod
    def from_match(cls, match: Match, players: tuple[str, str] = DEFAULT_PLAYERS, *,
                   date: datetime.date | None = None) -> "MatchRecord":
        """The record of ``match`` so far, the game in progress included."""
        return cls(players=players, rules=match.rules,
                   games=_game_records(match.games, match.game), date=date)

    @classmethod
    def from_session(cls, session: MoneySession, players: tuple[str, str] = DEFAULT_PLAYERS, *,
                     date: datetime.date | None = None) -> "MatchRecord":
        """The record of a money session so far, the game in progress included."""
        return cls(players=players, rules=session.rules,
                   games=_game_records(session.games, session.game), date=date)

    # -- replaying --------------------------------------------------------

    def replay(self) -> Session:
        """The match or session after every event; raises :class:`RecordError` if one is refused."""
        return self.replay_games()[0]

    def replay_games(self) -> tuple[Session, tuple[Game, ...]]:
        """The final match or session, and each recorded game as it ended (or stands).

        Every event is applied again; a refused event, a game that stops
        before its record does (or goes on after it), or a stored score that
        the replay does not reach raises :class:`RecordError` naming the game.
        """
        state: Session = (Match.new(self.rules) if isinstance(self.rules, MatchRules)
                          else MoneySession.new(self.rules))
        games: list[Game] = []
        for number, record in enumerate(self.games, 1):
            score = scores_before(state)
            if record.score != score:
                raise RecordError(f"game {number}: the record says it starts at "
                                  f"{record.score[0]}-{record.score[1]}, the replay is at "
                                  f"{score[0]}-{score[1]}")
            if not record.events:
                raise RecordError(f"game {number} has no events")
            finished = len(state.games)
            for index, event in enumerate(record.events, 1):
                if len(state.games) > finished:
                    raise RecordError(f"game {number}, event {index}: the game is already over")
                try:
                    state = state.apply(event)
                except RulesError as exc:
                    raise RecordError(
                        f"game {number}, event {index} ({describe(event)}): {exc}") from exc
            done = len(state.games) > finished
            if not done and number < len(self.games):
                raise RecordError(f"game {number} is not over, but game {number + 1} follows")
            games.append(state.games[-1] if done else state.game)
        return state, tuple(games)


def describe(event: Event) -> str:
    """A short English description of ``event`` for messages ("player 1 plays 24/18 13/9")."""
    match event:
        case OpeningRoll(dice=(zero, one)):
            return f"opening roll {zero} for player 0, {one} for player 1"
        case Roll(player=player, dice=(d1, d2)):
            return f"player {player.value} rolls {d1}-{d2}"
        case Move(player=player, play=play):
            return f"player {player.value} plays {format_any_play(play) or 'nothing'}"
        case ChooseDouble(player=player, die=die):
            return f"player {player.value} chooses double {die}s"
        case Resign(player=player, level=level):
            return f"player {player.value} resigns a {level.name.lower()}"
        case _:
            name = re.sub(r"(?<!^)(?=[A-Z])", " ", type(event).__name__).lower()
            return f"player {event.player.value}: {name}"


def format_any_play(play: Play) -> str:
    """The play in notation; moves from hand (the variants) are written ``hand/22``."""
    if any(move.source > BAR for move in play.moves):
        from controller.rules.variant_moves import format_variant_play

        return format_variant_play(play)
    return str(play)


def scores_before(state: Session) -> tuple[int, int]:
    """The score a match file shows before the next game of ``state``.

    For a match, the match score; for money, the points each player has won.
    """
    if isinstance(state, Match):
        return state.score
    won = [0, 0]
    for game in state.games:
        if game.result is not None:
            won[game.result.winner] += game.result.points
    return won[0], won[1]


def _game_records(finished: tuple[Game, ...], current: Game) -> tuple[GameRecord, ...]:
    """Records of the finished games and of ``current`` if it has begun and is not among them."""
    games = list(finished)
    if current.events and (not finished or current is not finished[-1]):
        games.append(current)
    records = []
    won = [0, 0]
    for game in games:
        records.append(GameRecord(score=(won[0], won[1]), events=game.events))
        if game.result is not None:
            won[game.result.winner] += game.result.points
    return tuple(records)
