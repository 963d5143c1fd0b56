"""One game: the opening roll, turns, the cube, resignations and scoring.

Every test cites the rule it checks from shared/rules/README.md (the digest
of rules-cy.txt, rules-hu.txt and rules-no.txt).
"""

import pytest

from controller.game.errors import CubeError, GameError, NotYourTurnError
from controller.game.events import (
    AcceptResignation,
    DeclineResignation,
    Double,
    Move,
    OpeningRoll,
    Pass,
    Resign,
    ResignLevel,
    Roll,
    Take,
)
from controller.game.game import Game, Phase
from controller.game.result import Ending, WinKind
from controller.game.settings import AutoDoubles, GameRules
from controller.rules import Play, Player, Position
from controller.rules.move import Move as CheckerMove

ZERO, ONE = Player.ZERO, Player.ONE


def row(points: dict[int, int], bar: int = 0, off: int | None = None) -> list[int]:
    counts = [0] * 26
    for point, n in points.items():
        counts[point] = n
    counts[25] = bar
    counts[0] = 15 - sum(counts) if off is None else off
    return counts


def last_checker(loser: dict[int, int], loser_bar: int = 0) -> Game:
    """Player 0 has one checker left, on their 1-point; player 1 as given."""
    return Game.at(Position(row({1: 1}), row(loser, loser_bar), ZERO))


def bear_off_last(game: Game) -> Game:
    """Player 0 rolls 6-5 and bears the last checker off."""
    game = game.apply(Roll(ZERO, (6, 5)))
    return game.apply(Move(ZERO, Play((CheckerMove(1, 0),), (6, 5))))


# -- opening roll --------------------------------------------------------------


def test_higher_opening_die_plays_first_with_both_numbers() -> None:
    """Opening: each throws one die; the higher plays first using both numbers."""
    game = Game.new().apply(OpeningRoll((3, 5)))
    assert game.phase is Phase.PLAY
    assert game.turn == ONE
    assert sorted(game.dice or ()) == [3, 5]
    assert {str(p) for p in game.legal_plays()} >= {"8/3 6/3"}


def test_opening_ties_are_thrown_again() -> None:
    """Opening: ties are thrown again (cube unchanged without automatic doubles)."""
    game = Game.new().apply(OpeningRoll((4, 4)))
    assert game.phase is Phase.OPENING
    assert game.cube_value == 1
    assert game.apply(OpeningRoll((2, 1))).turn == ZERO


def test_automatic_doubles_once_per_game() -> None:
    """Automatic doubles: a tie doubles the stake, cube centred at 2; by
    convention only one automatic double per game (cy)."""
    game = Game.new(GameRules(automatic_doubles=AutoDoubles.ONCE))
    game = game.apply(OpeningRoll((4, 4))).apply(OpeningRoll((6, 6)))
    assert game.cube_value == 2
    assert game.cube_owner is None
    game = game.apply(OpeningRoll((6, 1)))
    assert game.cube_value == 2 and game.cube_owner is None


def test_automatic_doubles_repeat_for_every_tie() -> None:
    """Automatic doubles, repeated for every tie until the dice differ (no)."""
    game = Game.new(GameRules(automatic_doubles=AutoDoubles.UNLIMITED))
    for die in (1, 2, 3):
        game = game.apply(OpeningRoll((die, die)))
    assert game.cube_value == 8
    assert game.cube_owner is None


# -- turns -------------------------------------------------------------------


def test_turns_alternate_and_only_the_player_on_turn_acts() -> None:
    game = Game.new().apply(OpeningRoll((6, 1)))
    assert game.turn == ZERO
    with pytest.raises(NotYourTurnError):
        game.apply(Move(ONE, game.legal_plays()[0]))
    game = game.apply(Move(ZERO, game.legal_plays()[0]))
    assert game.turn == ONE and game.phase is Phase.ROLL
    with pytest.raises(NotYourTurnError):
        game.apply(Roll(ZERO, (3, 3)))


def test_an_illegal_play_is_refused() -> None:
    """Both dice must be played when they can be."""
    game = Game.new().apply(OpeningRoll((3, 1)))
    with pytest.raises(GameError, match="not a legal play"):
        game.apply(Move(ZERO, Play((CheckerMove(8, 5),), (3, 1))))


def test_a_player_who_cannot_enter_passes() -> None:
    """No entry possible: the turn passes (closed board); the play is empty."""
    closed = row({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})
    game = Game.at(Position(row({13: 14}, bar=1), closed, ZERO))
    game = game.apply(Roll(ZERO, (6, 6)))
    assert [p.moves for p in game.legal_plays()] == [()]
    with pytest.raises(GameError, match="cannot be played"):
        game.apply(Move(ZERO, Play((CheckerMove(25, 19),), (6, 6))))
    game = game.apply(Move(ZERO, Play((), (6, 6))))
    assert game.turn == ONE and game.phase is Phase.ROLL


def test_the_game_ends_when_all_fifteen_are_off() -> None:
    """The first to bear off all 15 wins the cube value."""
    game = bear_off_last(last_checker({1: 5, 2: 5}))
    assert game.is_over and game.phase is Phase.OVER
    assert game.result is not None
    assert game.result.winner == ZERO
    assert game.result.kind is WinKind.SINGLE
    assert game.result.points == 1
    with pytest.raises(GameError, match="over"):
        game.apply(Roll(ONE, (1, 1)))


# -- scoring -------------------------------------------------------------------


def test_gammon_and_backgammon() -> None:
    """Gammon x2; backgammon (loser has a checker on the bar or in the
    winner's home board) x3."""
    gammon = bear_off_last(Game.at(Position(row({1: 1}), row({1: 15}, off=0), ZERO)))
    assert gammon.result is not None
    assert (gammon.result.kind, gammon.result.points) == (WinKind.GAMMON, 2)
    # Player 1's 20-point is player 0's 5-point: in the winner's home board.
    backgammon = bear_off_last(
        Game.at(Position(row({1: 1}), row({1: 14, 20: 1}, off=0), ZERO)))
    assert backgammon.result is not None
    assert (backgammon.result.kind, backgammon.result.points) == (WinKind.BACKGAMMON, 3)
    on_bar = bear_off_last(Game.at(Position(row({1: 1}), row({1: 14}, bar=1, off=0), ZERO)))
    assert on_bar.result is not None and on_bar.result.kind is WinKind.BACKGAMMON


def test_backgammon_can_count_double() -> None:
    """Setting: in some countries a backgammon counts only double."""
    rules = GameRules(backgammon_multiplier=2)
    game = bear_off_last(Game.at(Position(row({1: 1}), row({1: 14, 20: 1}, off=0), ZERO), rules))
    assert game.result is not None
    assert (game.result.kind, game.result.points) == (WinKind.BACKGAMMON, 2)


# -- the cube ------------------------------------------------------------------


def test_double_only_before_rolling_and_take_gives_ownership() -> None:
    """A double only before rolling, when centred or owned; take: the taker
    owns the cube at twice the value and only they may redouble."""
    game = Game.at(Position.initial(ZERO))
    assert game.may_double(ZERO) and not game.may_double(ONE)
    doubled = game.apply(Double(ZERO))
    assert doubled.phase is Phase.DOUBLED
    with pytest.raises(NotYourTurnError):
        doubled.apply(Take(ZERO))
    taken = doubled.apply(Take(ONE))
    assert (taken.cube_value, taken.cube_owner, taken.turn) == (2, ONE, ZERO)
    assert taken.double_refusal(ZERO) == "the cube belongs to the opponent"
    rolled = taken.apply(Roll(ZERO, (3, 1)))
    with pytest.raises(CubeError, match="before rolling"):
        rolled.apply(Double(ZERO))
    after = rolled.apply(Move(ZERO, rolled.legal_plays()[0]))
    assert after.may_double(ONE)
    redoubled = after.apply(Double(ONE)).apply(Take(ZERO))
    assert (redoubled.cube_value, redoubled.cube_owner) == (4, ZERO)


def test_a_player_who_cannot_move_may_still_double() -> None:
    """A player who cannot move may still double (cy, hu, no)."""
    closed = row({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})
    game = Game.at(Position(row({13: 14}, bar=1), closed, ZERO))
    assert game.may_double(ZERO)


def test_pass_loses_at_the_value_before_the_offer() -> None:
    """Pass: loses the game at the value before the offer."""
    game = Game.at(Position.initial(ZERO)).apply(Double(ZERO)).apply(Take(ONE))
    game = game.apply(Roll(ZERO, (3, 1)))
    game = game.apply(Move(ZERO, game.legal_plays()[0]))
    game = game.apply(Double(ONE)).apply(Pass(ZERO))
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.ending) == (ONE, 2, Ending.PASSED)


def test_cube_values_go_beyond_64() -> None:
    """The cube shows 64 at most, but players may insist: the true value counts."""
    game = Game.at(Position.initial(ZERO), cube_value=64, cube_owner=ZERO)
    game = game.apply(Double(ZERO)).apply(Take(ONE))
    assert game.cube_value == 128


def test_no_cube_when_the_rules_switch_it_off() -> None:
    game = Game.at(Position.initial(ZERO), GameRules(cube=False))
    with pytest.raises(CubeError, match="not in play"):
        game.apply(Double(ZERO))


def test_jacoby_counts_gammons_single_until_the_cube_is_turned() -> None:
    """Jacoby rule: gammons and backgammons count as single unless the cube
    was turned (money play)."""
    rules = GameRules(jacoby=True)
    centred = bear_off_last(Game.at(Position(row({1: 1}), row({1: 15}, off=0), ZERO), rules))
    assert centred.result is not None
    assert (centred.result.kind, centred.result.points) == (WinKind.GAMMON, 1)
    turned = Game.at(Position(row({1: 1}), row({1: 15}, off=0), ZERO), rules)
    turned = bear_off_last(turned.apply(Double(ZERO)).apply(Take(ONE)))
    assert turned.result is not None and turned.result.points == 4


# -- resignations --------------------------------------------------------------


def test_resignation_accepted_ends_the_game_at_its_level() -> None:
    game = Game.at(Position.initial(ZERO), cube_value=2, cube_owner=ONE)
    offered = game.apply(Resign(ZERO, ResignLevel.GAMMON))
    with pytest.raises(GameError, match="resignation"):
        offered.apply(Roll(ZERO, (3, 1)))
    with pytest.raises(NotYourTurnError):
        offered.apply(AcceptResignation(ZERO))
    over = offered.apply(AcceptResignation(ONE))
    assert over.result is not None
    assert (over.result.winner, over.result.kind, over.result.points) == (
        ONE, WinKind.GAMMON, 4)
    assert over.result.ending is Ending.RESIGNED


def test_resignation_declined_play_goes_on() -> None:
    game = Game.at(Position.initial(ZERO))
    game = game.apply(Resign(ONE, ResignLevel.SINGLE)).apply(DeclineResignation(ZERO))
    assert game.resignation is None and game.phase is Phase.ROLL
    assert game.apply(Roll(ZERO, (2, 1))).phase is Phase.PLAY


def test_replay_rebuilds_the_same_game() -> None:
    game = Game.new().apply(OpeningRoll((6, 1)))
    game = game.apply(Move(ZERO, game.legal_plays()[0]))
    game = game.apply(Double(ONE)).apply(Take(ZERO))
    again = Game.replay(game.rules, game.events)
    assert again == game
