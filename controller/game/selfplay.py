"""Random-but-legal players, for self-play, demos and soak tests.

They roll, play a random legal play, and now and then double, take, pass,
resign and accept or decline resignations, so a self-played match
exercises every event the referee records.  Deterministic for a seed.
"""

import random
from collections.abc import Callable
from dataclasses import dataclass, replace

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
from controller.game.settings import GameRules
from controller.rules.variant import Variant


@dataclass(frozen=True, slots=True)
class Temperament:
    """How often the random players take each decision."""

    double: float = 0.04
    take: float = 0.7
    resign: float = 0.004
    accept_resignation: float = 0.6


def choose_event(game: Game, rng: random.Random, temperament: Temperament) -> Event:
    """A legal event for whoever must act in ``game``."""
    if game.resignation is not None:
        answerer = game.resignation[0].opponent
        if rng.random() < temperament.accept_resignation:
            return AcceptResignation(answerer)
        return DeclineResignation(answerer)
    turn = game.turn
    match game.phase:
        case Phase.OPENING:
            return OpeningRoll((rng.randint(1, 6), rng.randint(1, 6)))
        case Phase.ROLL:
            if game.may_double(turn) and rng.random() < temperament.double:
                return Double(turn)
            if rng.random() < temperament.resign:
                return Resign(turn, rng.choice(list(ResignLevel)))
            return Roll(turn, (rng.randint(1, 6), rng.randint(1, 6)))
        case Phase.DOUBLED:
            answerer = turn.opponent
            return Take(answerer) if rng.random() < temperament.take else Pass(answerer)
        case Phase.PLAY:
            return Move(turn, rng.choice(game.legal_plays()))
        case Phase.CHOOSE_DOUBLE:
            return ChooseDouble(turn, rng.randint(1, 6))
        case Phase.OVER:
            raise ValueError("the game is over: nobody has to act")
    raise AssertionError(game.phase)  # pragma: no cover


def selfplay_match(
    seed: int,
    length: int,
    variant: Variant = Variant.STANDARD,
    *,
    rules: GameRules | None = None,
    crawford: bool = True,
    temperament: Temperament | None = None,
    on_event: Callable[[Match, Event], None] | None = None,
    max_events: int = 200_000,
) -> Match:
    """Play a whole match to ``length`` points between two random players."""
    rng = random.Random(seed)
    temperament = temperament or Temperament()
    game_rules = replace(rules or GameRules(), variant=variant)
    if variant is Variant.ACEY_DEUCEY:
        game_rules = replace(game_rules, cube=False)
    match = Match.new(MatchRules(length=length, crawford=crawford, game=game_rules))
    for _ in range(max_events):
        if match.is_over:
            return match
        event = choose_event(match.game, rng, temperament)
        match = match.apply(event)
        if on_event is not None:
            on_event(match, event)
    raise RuntimeError(f"seed {seed}: no result after {max_events} events")
