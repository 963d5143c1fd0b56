"""A seeded random-but-legal player, for the record and match-file tests.

It plays whole matches and money sessions through the real
:class:`~controller.game.match.Match`, so everything it does is legal, and
it does now and then what a record has to survive: doubles, takes and
passes, resignations at every level (offered on either player's turn, before
or after rolling, accepted or declined), dances, opening ties.  The same seed
always plays the same match.

Dice are thrown in either order (a record must not depend on which die is
named first).  Test-only: the user-facing ``bgref selfplay`` lives elsewhere.
"""

import random
from dataclasses import dataclass

from controller.game.events import (
    AcceptResignation,
    ChooseDouble,
    DeclineResignation,
    Double,
    Event,
    Move,
    OpeningRoll,
    Pass,
    Resign,
    ResignLevel,
    Roll,
    Take,
)
from controller.game.game import Game, Phase
from controller.game.match import Match, MatchRules
from controller.game.money import MoneyRules, MoneySession
from controller.game.settings import GameRules
from controller.records.record import MatchRecord
from controller.rules.player import Player


@dataclass(frozen=True, slots=True)
class Habits:
    """How often the random player does the rarer things."""

    double: float = 0.04
    """Chance to double when allowed, before each roll."""
    take: float = 0.65
    """Chance to take a double."""
    resign: float = 0.006
    """Chance, at each decision, that one of the players offers to resign."""
    accept: float = 0.6
    """Chance that an offered resignation is accepted."""


def _dice(rng: random.Random) -> tuple[int, int]:
    return rng.randint(1, 6), rng.randint(1, 6)


def next_event(game: Game, rng: random.Random, habits: Habits = Habits()) -> Event:
    """A random event the rules allow in ``game`` now."""
    if game.resignation is not None:
        answerer = game.resignation[0].opponent
        if rng.random() < habits.accept:
            return AcceptResignation(answerer)
        return DeclineResignation(answerer)
    phase = game.phase
    if phase is Phase.OPENING:
        return OpeningRoll(_dice(rng))
    if phase in (Phase.ROLL, Phase.PLAY) and rng.random() < habits.resign:
        level = rng.choices(list(ResignLevel), weights=(6, 3, 1))[0]
        return Resign(rng.choice(list(Player)), level)
    if phase is Phase.ROLL:
        if game.may_double(game.turn) and rng.random() < habits.double:
            return Double(game.turn)
        return Roll(game.turn, _dice(rng))
    if phase is Phase.DOUBLED:
        answerer = game.turn.opponent
        return Take(answerer) if rng.random() < habits.take else Pass(answerer)
    if phase is Phase.CHOOSE_DOUBLE:
        return ChooseDouble(game.turn, rng.randint(1, 6))
    return Move(game.turn, rng.choice(game.legal_plays()))


def play_match(seed: int, length: int, *, rules: GameRules | None = None,
               crawford: bool = True, habits: Habits = Habits()) -> Match:
    """A whole match to ``length`` points, played at random from ``seed``."""
    rng = random.Random(seed)
    match = Match.new(MatchRules(length=length, crawford=crawford, game=rules or GameRules()))
    while not match.is_over:
        match = match.apply(next_event(match.game, rng, habits))
    return match


def play_session(seed: int, games: int, *, rules: MoneyRules | None = None,
                 habits: Habits = Habits()) -> MoneySession:
    """A money session of ``games`` finished games, played at random from ``seed``."""
    rng = random.Random(seed)
    session = MoneySession.new(rules)
    while len(session.games) < games:
        session = session.apply(next_event(session.game, rng, habits))
    return session


def play_events(game_state: Match | MoneySession, seed: int, count: int,
                habits: Habits = Habits()) -> Match | MoneySession:
    """``count`` more random events (stopping early when a match ends): a game in progress."""
    rng = random.Random(seed)
    state = game_state
    for _ in range(count):
        if isinstance(state, Match) and state.is_over:
            break
        state = state.apply(next_event(state.game, rng, habits))
    return state


Action = tuple[object, ...]
"""One step of a :func:`trace`."""


def trace(record: MatchRecord) -> list[list[Action]]:
    """What a match file keeps of each game, to compare records read back.

    Rolls with sorted dice (a file names the higher die first), plays by the
    position they leave (a file may order the single moves differently;
    a dance is only its roll, which a file cannot tell from a roll that
    could not be played when the game ended),
    cube actions with the cube's value, tied opening throws, and the result;
    resignations appear only through the result, so declined ones and one
    still waiting for an answer (which a file cannot hold) leave no trace.
    """
    _, games = record.replay_games()
    traces = []
    for game in games:
        steps: list[Action] = []
        state = Game.new(game.rules)
        for event in game.events:
            state = state.apply(event)
            match event:
                case OpeningRoll(dice=(zero, one)) if zero == one:
                    steps.append(("tie", zero))
                case OpeningRoll() | Roll() | ChooseDouble() if state.dice is not None:
                    steps.append(("roll", state.turn, tuple(sorted(state.dice))))
                case Move(player=player, play=play) if not play.is_dance:
                    steps.append(("play", player, state.position.key))
                case Double(player=player) | Take(player=player) | Pass(player=player):
                    steps.append((type(event).__name__, player, state.cube_value))
        if state.result is not None:
            result = state.result
            steps.append(("result", result.winner, result.points, result.ending))
        traces.append(steps)
    return traces
