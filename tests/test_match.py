"""Match play with the Crawford rule, and money play with running totals.

Rules from shared/rules/README.md, "Stakes, cube and scoring".
"""

import pytest

from controller.game.errors import CubeError, MatchError
from controller.game.events import (
    AcceptResignation,
    Double,
    Move,
    OpeningRoll,
    Pass,
    Resign,
    ResignLevel,
    Roll,
    Take,
)
from controller.game.match import Match, MatchRules
from controller.game.money import MoneyRules, MoneySession
from controller.game.settings import GameRules
from controller.rules import Player

ZERO, ONE = Player.ZERO, Player.ONE


def win_game(match: Match, winner: Player, level: ResignLevel = ResignLevel.SINGLE) -> Match:
    """The loser resigns at ``level`` right after the opening roll."""
    match = match.apply(OpeningRoll((6, 1) if winner == ZERO else (1, 6)))
    loser = winner.opponent
    return match.apply(Resign(loser, level)).apply(AcceptResignation(winner))


def test_scores_add_up_and_the_match_ends_at_n() -> None:
    match = Match.new(MatchRules(length=3))
    match = win_game(match, ZERO)
    assert match.score == (1, 0)
    match = win_game(match, ONE, ResignLevel.GAMMON)
    assert match.score == (1, 2)
    assert not match.is_over
    match = win_game(match, ZERO, ResignLevel.BACKGAMMON)
    assert match.score == (4, 2)
    assert match.is_over and match.winner == ZERO
    with pytest.raises(MatchError):
        match.apply(OpeningRoll((3, 1)))


def test_crawford_game_has_no_cube_and_post_crawford_has() -> None:
    """Crawford rule: in the one game after a player first reaches N-1, no
    doubling; after that the cube returns (cy, hu)."""
    match = Match.new(MatchRules(length=5))
    match = win_game(match, ZERO, ResignLevel.GAMMON)  # 2-0
    assert not match.crawford_game
    match = win_game(match, ZERO, ResignLevel.GAMMON)  # 4-0: reaches N-1
    assert match.crawford_game
    match = match.apply(OpeningRoll((2, 1)))
    assert match.game.double_refusal(ONE) == "the cube is not in play in this game"
    match = match.apply(Resign(ZERO, ResignLevel.SINGLE)).apply(AcceptResignation(ONE))  # 4-1
    assert not match.crawford_game and match.post_crawford
    match = match.apply(OpeningRoll((1, 2)))
    assert match.game.rules.cube
    # Player 1 is on roll after the opening; after their play player 0 may double.
    match = match.apply(Move(ONE, match.game.legal_plays()[0]))
    assert match.game.may_double(ZERO)


def test_crawford_only_once() -> None:
    """The Crawford game is the *one* game after the leader first reaches N-1."""
    match = Match.new(MatchRules(length=3))
    match = win_game(match, ZERO, ResignLevel.GAMMON)  # 2-0: Crawford next
    assert match.crawford_game
    match = win_game(match, ONE, ResignLevel.SINGLE)  # 2-1
    match = win_game(match, ONE, ResignLevel.SINGLE)  # 2-2: player 1 reaches N-1 too
    assert not match.crawford_game and match.post_crawford


def test_crawford_can_be_switched_off() -> None:
    match = Match.new(MatchRules(length=3, crawford=False))
    match = win_game(match, ZERO, ResignLevel.GAMMON)
    assert not match.crawford_game and match.game.rules.cube


def test_no_cube_in_a_one_point_match() -> None:
    """The cube is not used in a 1-point match (cy, hu)."""
    match = Match.new(MatchRules(length=1)).apply(OpeningRoll((6, 1)))
    assert not match.game.rules.cube
    match = match.apply(Move(ZERO, match.game.legal_plays()[0]))
    with pytest.raises(CubeError, match="not in play"):
        match.apply(Double(ONE))


def test_pointless_cube_is_a_warning_not_a_ban() -> None:
    """hu: at 3-3 in a 7-point match there is no need to double at 4."""
    match = Match.new(MatchRules(length=7))
    match = win_game(match, ZERO, ResignLevel.BACKGAMMON)  # 3-0
    match = win_game(match, ONE, ResignLevel.BACKGAMMON)  # 3-3
    assert match.score == (3, 3)
    match = match.apply(OpeningRoll((6, 1)))
    assert match.cube_warning(ZERO) is None  # cube at 1 < 4 needed
    match = match.apply(Move(ZERO, match.game.legal_plays()[0]))
    match = match.apply(Double(ONE)).apply(Take(ZERO))  # cube 2, player 0 owns
    match = match.apply(Roll(ONE, (3, 1)))
    match = match.apply(Move(ONE, match.game.legal_plays()[0]))
    match = match.apply(Double(ZERO)).apply(Take(ONE))  # cube 4: covers 4 needed
    assert match.game.cube_value == 4
    warning = match.cube_warning(ONE)
    assert warning is not None and "needs 4" in warning
    assert match.game.may_double(ONE) is False  # not on turn yet: the ban is turn-based only
    match = match.apply(Roll(ZERO, (2, 1)))
    match = match.apply(Move(ZERO, match.game.legal_plays()[0]))
    assert match.game.may_double(ONE)  # warned, still allowed


def test_gammons_count_in_match_play_even_with_jacoby_set() -> None:
    """Jacoby is a money-play rule: usually not used in match play."""
    match = Match.new(MatchRules(length=5, game=GameRules(jacoby=True)))
    assert match.game.rules.jacoby is False


def test_money_totals_with_stake_and_jacoby() -> None:
    """Money play: stake per point; Jacoby: gammons single unless the cube was turned."""
    session = MoneySession.new(MoneyRules(stake=5, game=GameRules(jacoby=True)))
    session = session.apply(OpeningRoll((6, 1)))
    session = session.apply(Resign(ONE, ResignLevel.GAMMON)).apply(AcceptResignation(ZERO))
    assert session.totals == (5, -5)  # gammon counts single: cube never turned
    session = session.apply(OpeningRoll((1, 6)))
    session = session.apply(Move(ONE, session.game.legal_plays()[0]))
    session = session.apply(Double(ZERO)).apply(Pass(ONE))
    assert session.totals == (10, -10)
    assert len(session.games) == 2
