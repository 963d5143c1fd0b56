"""``bgref selfplay``: a whole match between random players, printed and exported."""

from collections.abc import Callable
from pathlib import Path

import click

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
    Roll,
    Take,
)
from controller.game.match import Match
from controller.game.selfplay import selfplay_match
from controller.game.settings import AutoDoubles, GameRules
from controller.rules.variant import Variant

NAMES = ("White", "Black")
"""Player 0 and player 1 in printed results and match files."""


def describe(event: Event) -> str:
    """One event as a line of the printed record."""
    match event:
        case OpeningRoll(dice=dice):
            return f"opening roll: {NAMES[0]} {dice[0]}, {NAMES[1]} {dice[1]}"
        case Roll(player=p, dice=dice):
            return f"{NAMES[p]} rolls {dice[0]}-{dice[1]}"
        case Move(player=p, play=play):
            return f"{NAMES[p]} plays {play or '(no legal play)'}"
        case ChooseDouble(player=p, die=die):
            return f"{NAMES[p]} chooses {die}-{die}"
        case Double(player=p):
            return f"{NAMES[p]} doubles"
        case Take(player=p):
            return f"{NAMES[p]} takes"
        case Pass(player=p):
            return f"{NAMES[p]} passes"
        case Resign(player=p, level=level):
            return f"{NAMES[p]} offers to resign a {level.name.lower()}"
        case AcceptResignation(player=p):
            return f"{NAMES[p]} accepts the resignation"
        case DeclineResignation(player=p):
            return f"{NAMES[p]} declines the resignation"
    return repr(event)  # pragma: no cover


def play_and_report(*, seed: int, length: int, variant: str, export: str | None,
                    automatic_doubles: str, backgammon: int, crawford: bool,
                    acey_deucey_doubles_stake: bool, verbose: bool,
                    echo: Callable[[str], None]) -> Match:
    """Play the match, print it, write the match file; returns the match."""
    rules = GameRules(
        automatic_doubles=AutoDoubles(automatic_doubles),
        backgammon_multiplier=backgammon,
        acey_deucey_doubles_stake=acey_deucey_doubles_stake,
    )
    games_seen = 0

    def on_event(match: Match, event: Event) -> None:
        nonlocal games_seen
        if verbose:
            echo(f"  {describe(event)}")
        if len(match.games) > games_seen:
            games_seen = len(match.games)
            result = match.games[-1].result
            assert result is not None
            echo(f"game {games_seen}: {NAMES[result.winner]} wins {result.points} "
                 f"({result.kind.name.lower()}, {result.ending.value}, cube {result.cube_value})"
                 f"  score {match.score[0]}-{match.score[1]}")

    match = selfplay_match(seed, length, Variant(variant), rules=rules, crawford=crawford,
                           on_event=on_event)
    winner = match.winner
    assert winner is not None
    echo(f"{NAMES[winner]} wins the {length}-point {variant} match "
         f"{match.score[winner]}-{match.score[winner.opponent]} in {len(match.games)} games "
         f"(seed {seed})")
    if export is not None:
        from controller.records.matfile import format_mat
        from controller.records.record import MatchRecord

        text = format_mat(MatchRecord.from_match(match, NAMES))
        try:
            Path(export).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise click.ClickException(f"cannot write {export}: {exc.strerror}") from exc
        echo(f"match file written to {export}")
    return match
