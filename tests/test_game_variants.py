"""The game flow of the variants (shared/rules/README.md, "Variants (no)")."""

import pytest

from controller.game.errors import CubeError, GameError
from controller.game.events import ChooseDouble, Double, Move, OpeningRoll, Roll
from controller.game.game import Game, Phase
from controller.game.settings import GameRules
from controller.rules import Play, Player, Position
from controller.rules.layout import HAND
from controller.rules.move import Move as CheckerMove
from controller.rules.variant import Variant

ZERO, ONE = Player.ZERO, Player.ONE
ACEY = GameRules(variant=Variant.ACEY_DEUCEY, cube=False)


def test_variants_start_with_every_checker_in_hand() -> None:
    for variant in (Variant.DUTCH, Variant.ACEY_DEUCEY):
        game = Game.new(GameRules(variant=variant))
        for player in Player:
            assert game.position.in_hand(player) == 15


def test_acey_deucey_turn_sequence() -> None:
    game = Game.new(ACEY).apply(OpeningRoll((3, 1)))
    game = game.apply(Move(ZERO, Play((CheckerMove(HAND, 22), CheckerMove(HAND, 24)), (3, 1))))
    assert game.turn == ONE and game.phase is Phase.ROLL
    game = game.apply(Roll(ONE, (1, 2)))
    game = game.apply(Move(ONE, Play((CheckerMove(HAND, 24), CheckerMove(HAND, 23)), (1, 2))))
    assert game.phase is Phase.CHOOSE_DOUBLE and game.turn == ONE
    game = game.apply(ChooseDouble(ONE, 5))
    assert game.dice == (5, 5)
    game = game.apply(Move(ONE, Play(tuple(CheckerMove(HAND, 20) for _ in range(4)), (5, 5))))
    assert game.phase is Phase.ROLL and game.turn == ONE  # throws again


def test_acey_deucey_turn_ends_when_the_1_and_2_cannot_both_be_played() -> None:
    """If the 1 and 2 cannot both be played the turn ends there."""
    # Player 1 (everything in hand) enters a 1 on their 24-point and a 2 on
    # their 23-point: player 0's 1- and 2-points, which player 0 holds.
    mine = [0] * 26
    mine[1], mine[2], mine[6] = 2, 2, 11
    position = Position(mine, [0] * 26, ONE)
    game = Game.at(position, ACEY).apply(Roll(ONE, (1, 2)))
    game = game.apply(Move(ONE, Play((), (1, 2))))
    assert game.turn == ZERO and game.phase is Phase.ROLL


def test_acey_deucey_extra_throw_lost_when_the_double_is_not_played_in_full() -> None:
    """If the chosen double cannot be played in full the extra throw is lost."""
    # Player 1 plays the 1-2 from hand (their 24 and 23), then chooses 6-6.
    # A 6 enters on their 19-point and moves 24->18, 23->17: player 0's 6-,
    # 7- and 8-points, all held by player 0.  No 6 can be played at all.
    theirs = [0] * 26
    theirs[6] = theirs[7] = theirs[8] = 2
    game = Game.at(Position(theirs, [0] * 26, ONE), ACEY)
    game = game.apply(Roll(ONE, (2, 1)))
    game = game.apply(Move(ONE, Play((CheckerMove(HAND, 23), CheckerMove(HAND, 24)), (2, 1))))
    game = game.apply(ChooseDouble(ONE, 6))
    assert [p.moves for p in game.legal_plays()] == [()]
    game = game.apply(Move(ONE, Play((), (6, 6))))
    assert game.turn == ZERO  # the extra throw is forfeited


def test_acey_deucey_stake_doubles_at_every_acey_deucey_when_set() -> None:
    """Some double the stake at every acey-deucey (no)."""
    rules = GameRules(variant=Variant.ACEY_DEUCEY, cube=False, acey_deucey_doubles_stake=True)
    game = Game.new(rules).apply(OpeningRoll((2, 1)))
    assert game.cube_value == 2


def test_acey_deucey_has_no_cube() -> None:
    game = Game.at(Position([0] * 26, [0] * 26, ZERO), ACEY)
    with pytest.raises(CubeError):
        game.apply(Double(ZERO))


def test_acey_deucey_loser_pays_per_checker_left() -> None:
    """The loser pays the stake times the number of their checkers still on the board."""
    winner = [0] * 26
    winner[0], winner[1] = 14, 1
    loser = [0] * 26
    loser[0], loser[3], loser[10] = 11, 2, 2  # 4 checkers not borne off
    game = Game.at(Position(winner, loser, ZERO), ACEY).apply(Roll(ZERO, (4, 3)))
    game = game.apply(Move(ZERO, Play((CheckerMove(1, 0),), (4, 3))))
    assert game.result is not None
    assert (game.result.winner, game.result.points) == (ZERO, 4)


def test_dutch_every_checker_enters_before_any_moves_on() -> None:
    """Dutch: all 15 must be entered before any checker moves on."""
    game = Game.new(GameRules(variant=Variant.DUTCH)).apply(OpeningRoll((6, 5)))
    plays = {str(p) for p in game.legal_plays()}
    assert plays == {"hand/20 hand/19"}
    with pytest.raises(GameError):
        game.apply(Move(ZERO, Play((CheckerMove(HAND, 19), CheckerMove(19, 14)), (6, 5))))
