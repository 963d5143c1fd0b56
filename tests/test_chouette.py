"""Chouette: the throw-off, team and box doubles, the ledger and the rotation.

The rule is the chouette section of /work/shared/rules/rules-cy.txt (four
paragraphs from "Mae'r chouette yn amrywiad arbennig"), digested in
shared/rules/README.md ("Chouette" under "Stakes, cube and scoring").  The
paragraphs are cited as cy-1 .. cy-4, as translated in the docstring of
controller/game/chouette.py:

* cy-1: 3 or more players; all throw one die; the highest is in the box.
* cy-2: the second highest is captain and moves; the rest follow in throw order.
* cy-3: box wins -> box stays, captain to the end, next is captain;
  team wins -> captain into the box, old box to the end of the line.
* cy-4: team doubles unanimous; box doubles answered one by one; droppers
  pay the current stake and leave; the box pays or collects from each taker.

Every amount below is worked out by hand in the docstring or comment above it.
"""

import pytest

from controller.game.chouette import (
    BOX,
    TEAM,
    AgreeDouble,
    AlreadyAnsweredError,
    AlreadyThrownError,
    AnswerPendingError,
    Chouette,
    ChouettePhase,
    ChouetteRules,
    DuplicatePlayerError,
    MemberDrop,
    MemberOutError,
    MemberTake,
    NotCaptainError,
    NothingToAnswerError,
    NotOnTeamError,
    PlaceSettledError,
    ProposeDouble,
    RefuseDouble,
    TeamCubeError,
    TeamMember,
    ThrowOff,
    ThrowOffOverError,
    ThrowOffPendingError,
    TooFewPlayersError,
    UnknownPlayerError,
    rotate,
)
from controller.game.errors import CubeError, GameError, MatchError
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
from controller.game.game import Phase
from controller.game.ledger import Payment, PaymentReason, Totals
from controller.game.result import Ending, WinKind
from controller.game.settings import AutoDoubles, GameRules
from controller.rules.errors import InvalidDiceError

ANN, BOB, CAI, DEE, EVE = "Ann", "Bob", "Cai", "Dee", "Eve"


# -- helpers -------------------------------------------------------------------


def seated(order: tuple[str, ...], rules: ChouetteRules | None = None) -> Chouette:
    """A table whose throw-off gave ``order`` (box first) with 6, 5, 4, ...

    The players are listed alphabetically, so the ledger's order is fixed
    whatever the throw order.
    """
    table = Chouette.new(sorted(order), rules)
    for die, player in zip(range(6, 0, -1), order, strict=False):
        table = table.apply(ThrowOff(player, die))
    return table


def play_first(table: Chouette) -> Chouette:
    """The side on turn plays the first legal play of its dice."""
    assert table.game is not None
    return table.apply(Move(table.game.turn, table.game.legal_plays()[0]))


def box_opens(table: Chouette) -> Chouette:
    """Opening roll 6 (box) against 1 (captain): the box plays 6-1 first,
    then the team is to roll (or double)."""
    return play_first(table.apply(OpeningRoll((6, 1))))


def team_rolls(table: Chouette, dice: tuple[int, int] = (3, 2)) -> Chouette:
    """The captain rolls and plays for the team; then the box is to roll or double."""
    return play_first(table.apply(Roll(TEAM, dice)))


def box_rolls(table: Chouette, dice: tuple[int, int] = (4, 2)) -> Chouette:
    """The box rolls and plays; then the team is to roll or double."""
    return play_first(table.apply(Roll(BOX, dice)))


def resigns(table: Chouette, side: object, level: ResignLevel) -> Chouette:
    """``side`` resigns at ``level`` and the other side accepts: the game ends."""
    loser = BOX if side == BOX else TEAM
    return table.apply(Resign(loser, level)).apply(AcceptResignation(loser.opponent))


def zero_sum(table: Chouette) -> bool:
    return sum(table.totals.amounts) == 0


# -- the throw-off -------------------------------------------------------------


def test_throw_off_ties_are_rethrown_only_by_the_tied_players() -> None:
    """cy-1/cy-2: all throw one die; the highest is in the box, the second
    highest captain, the rest follow in throw order.  Ties: only the tied
    players rethrow, to order themselves.

    Round 1: Ann 4, Bob 6, Cai 4, Dee 2, Eve 6 -> places {Bob, Eve} (6),
    {Ann, Cai} (4), Dee (2).  Ann 3 / Cai 5 -> Cai above Ann.  Bob 2 /
    Eve 2 tie again; Bob 1 / Eve 5 -> Eve above Bob.  Order: Eve, Bob, Cai,
    Ann, Dee: Eve in the box, Bob captain, then Cai, Ann, Dee.
    """
    table = Chouette.new([ANN, BOB, CAI, DEE, EVE])
    for player, die in ((ANN, 4), (BOB, 6), (CAI, 4), (DEE, 2), (EVE, 6)):
        table = table.apply(ThrowOff(player, die))
    assert table.phase is ChouettePhase.THROW_OFF
    assert table.ranking == ((BOB, EVE), (ANN, CAI), (DEE,))
    assert table.awaiting == (BOB, EVE, ANN, CAI)
    with pytest.raises(PlaceSettledError):
        table.apply(ThrowOff(DEE, 5))
    # the lower tie may be settled first: places are independent
    table = table.apply(ThrowOff(ANN, 3)).apply(ThrowOff(CAI, 5))
    assert table.ranking == ((BOB, EVE), (CAI,), (ANN,), (DEE,))
    table = table.apply(ThrowOff(BOB, 2)).apply(ThrowOff(EVE, 2))
    assert table.ranking == ((BOB, EVE), (CAI,), (ANN,), (DEE,))
    assert table.box is None and table.awaiting == (BOB, EVE)
    table = table.apply(ThrowOff(BOB, 1)).apply(ThrowOff(EVE, 5))
    assert table.phase is ChouettePhase.PLAYING
    assert table.box == EVE
    assert table.line == (BOB, CAI, ANN, DEE)
    assert table.captain == BOB
    assert table.game is not None and table.game.phase is Phase.OPENING


def test_a_player_throws_once_per_round() -> None:
    """cy-1: each player throws one die (a second die in the same round is refused)."""
    table = Chouette.new([ANN, BOB, CAI]).apply(ThrowOff(ANN, 5))
    with pytest.raises(AlreadyThrownError):
        table.apply(ThrowOff(ANN, 2))


def test_a_fourth_throw_after_three_distinct_dice_is_refused() -> None:
    """cy-1: with 3 players, three different dice settle the order; a fourth
    throw has nothing to decide."""
    table = Chouette.new([ANN, BOB, CAI])
    for player, die in ((ANN, 5), (BOB, 3), (CAI, 1)):
        table = table.apply(ThrowOff(player, die))
    assert (table.box, table.line) == (ANN, (BOB, CAI))
    with pytest.raises(ThrowOffOverError):
        table.apply(ThrowOff(BOB, 6))


def test_fewer_than_three_players_is_not_a_chouette() -> None:
    """cy-1: "3 neu fwy o chwaraewyr" (3 or more players)."""
    with pytest.raises(TooFewPlayersError):
        Chouette.new([ANN, BOB])
    assert Chouette.new([ANN, BOB, CAI]).phase is ChouettePhase.THROW_OFF


def test_bad_throw_off_input_is_refused_precisely() -> None:
    with pytest.raises(DuplicatePlayerError):
        Chouette.new([ANN, BOB, ANN])
    table = Chouette.new([ANN, BOB, CAI])
    with pytest.raises(UnknownPlayerError):
        table.apply(ThrowOff(DEE, 4))
    with pytest.raises(InvalidDiceError):
        table.apply(ThrowOff(ANN, 7))
    with pytest.raises(ThrowOffPendingError):
        table.apply(OpeningRoll((6, 1)))
    # all of them are errors of the game layer
    assert issubclass(ThrowOffPendingError, MatchError)


# -- a whole evening -----------------------------------------------------------


def test_an_evening_of_five_games_rotation_and_ledger() -> None:
    """Four players, 5 units per point.  Throw-off 6, 5, 4, 3: Ann in the box,
    Bob captain, then Cai, Dee (cy-1, cy-2).  Totals listed as Ann, Bob, Cai, Dee.

    Game 1, team resigns a single game: the box wins 1 point from each of the
    3 members (cy-4: "each of them pays the stake"): Bob, Cai, Dee pay Ann 5
    each -> (+15, -5, -5, -5).  Box won (cy-3): Ann stays, Bob to the end:
    line Cai, Dee, Bob.

    Game 2, box resigns a gammon (2 points, no Jacoby): Ann pays each member
    10 -> (-15, +5, +5, +5).  Team won (cy-3): captain Cai into the box, Ann
    to the end: line Dee, Bob, Ann.

    Game 3, box Cai: Dee proposes a double, Bob and Ann agree (cy-4:
    unanimous), Cai takes (cube 2, his); the team resigns single: 2 points x
    5 = 10 from each of Dee, Bob, Ann to Cai -> (-25, -5, +35, -5).  Box won:
    Cai stays, Dee to the end: line Bob, Ann, Dee.

    Game 4, box Cai doubles: Bob takes, Ann drops, Dee takes.  Ann pays the
    stake before the offer, 1 x 5 = 5, and leaves (cy-4).  Bob proposes a
    redouble, Dee (the only other member still in) agrees; Cai passes: the
    team wins at 2: Cai pays Bob 10 and Dee 10 -> (-30, +5, +20, +5).  Team
    won: Bob into the box, Cai to the end: line Ann, Dee, Cai.

    Game 5, box Bob doubles: Ann (captain) drops, Dee takes, Cai drops; Dee
    moves for the team.  Bob resigns single at 2: Bob pays Dee 10; Ann and
    Cai pay Bob 5 each -> (-35, +5, +15, +15).  Team won: Dee, the acting
    captain, into the box; Ann, the captain who dropped, loses her place
    (module convention) and goes to the end ahead of the old box Bob: line
    Cai, Ann, Bob.
    """
    table = seated((ANN, BOB, CAI, DEE), ChouetteRules(stake=5))
    assert (table.box, table.line) == (ANN, (BOB, CAI, DEE))

    # game 1
    table = resigns(box_opens(table), TEAM, ResignLevel.SINGLE)
    assert table.totals.as_dict() == {ANN: 15, BOB: -5, CAI: -5, DEE: -5}
    assert (table.box, table.line) == (ANN, (CAI, DEE, BOB))
    assert table.ledger[0].payments == (
        Payment(BOB, ANN, 5, PaymentReason.GAME),
        Payment(CAI, ANN, 5, PaymentReason.GAME),
        Payment(DEE, ANN, 5, PaymentReason.GAME),
    )
    assert (table.ledger[0].box, table.ledger[0].captain) == (ANN, BOB)

    # game 2
    table = resigns(box_opens(table), BOX, ResignLevel.GAMMON)
    assert table.ledger[1].result.kind is WinKind.GAMMON
    assert table.totals.as_dict() == {ANN: -15, BOB: 5, CAI: 5, DEE: 5}
    assert (table.box, table.line) == (CAI, (DEE, BOB, ANN))

    # game 3
    table = box_opens(table)
    table = table.apply(ProposeDouble(DEE)).apply(AgreeDouble(BOB))
    assert table.phase is ChouettePhase.CONSENT and table.awaiting == (ANN,)
    table = table.apply(AgreeDouble(ANN))
    assert table.game is not None and table.game.phase is Phase.DOUBLED
    table = table.apply(Take(BOX))
    assert table.game is not None
    assert (table.game.cube_value, table.game.cube_owner) == (2, BOX)
    table = resigns(table, TEAM, ResignLevel.SINGLE)
    assert table.totals.as_dict() == {ANN: -25, BOB: -5, CAI: 35, DEE: -5}
    assert (table.box, table.line) == (CAI, (BOB, ANN, DEE))

    # game 4
    table = team_rolls(box_opens(table))
    table = table.apply(Double(BOX))
    assert table.phase is ChouettePhase.ANSWERS
    table = table.apply(MemberTake(BOB)).apply(MemberDrop(ANN)).apply(MemberTake(DEE))
    assert table.members == (
        TeamMember(BOB, True, 2), TeamMember(ANN, False, 1), TeamMember(DEE, True, 2))
    table = box_rolls(table)
    table = table.apply(ProposeDouble(BOB)).apply(AgreeDouble(DEE))
    table = table.apply(Pass(BOX))
    entry = table.ledger[3]
    assert entry.result.ending is Ending.PASSED and entry.result.winner == TEAM
    assert entry.payments == (
        Payment(ANN, CAI, 5, PaymentReason.DROPPED),
        Payment(CAI, BOB, 10, PaymentReason.GAME),
        Payment(CAI, DEE, 10, PaymentReason.GAME),
    )
    assert entry.net(CAI) == -15
    assert table.totals.as_dict() == {ANN: -30, BOB: 5, CAI: 20, DEE: 5}
    assert (table.box, table.line) == (BOB, (ANN, DEE, CAI))

    # game 5
    table = team_rolls(box_opens(table))
    table = table.apply(Double(BOX))
    table = table.apply(MemberDrop(ANN)).apply(MemberTake(DEE)).apply(MemberDrop(CAI))
    assert table.captain == DEE
    table = resigns(table, BOX, ResignLevel.SINGLE)
    assert table.ledger[4].payments == (
        Payment(ANN, BOB, 5, PaymentReason.DROPPED),
        Payment(CAI, BOB, 5, PaymentReason.DROPPED),
        Payment(BOB, DEE, 10, PaymentReason.GAME),
    )
    assert table.totals.as_dict() == {ANN: -35, BOB: 5, CAI: 15, DEE: 15}
    assert (table.box, table.line) == (DEE, (CAI, ANN, BOB))

    assert len(table.games) == len(table.ledger) == 5
    assert zero_sum(table)
    # the record is complete: replaying it rebuilds the same evening
    assert Chouette.replay(table.players, table.rules, table.events) == table


def test_totals_sum_to_zero_after_every_game() -> None:
    """cy-4: money only moves between the box and each member, so the totals
    stay a zero sum (checked after each game, with stake 3 and a gammon)."""
    table = seated((CAI, ANN, BOB), ChouetteRules(stake=3))
    for level, side in ((ResignLevel.GAMMON, TEAM), (ResignLevel.BACKGAMMON, BOX),
                        (ResignLevel.SINGLE, BOX)):
        table = resigns(box_opens(table), side, level)
        assert zero_sum(table)
        assert table.totals.amounts != (0, 0, 0)
    # game 1: team gammoned, Ann and Bob pay Cai 2 x 3 = 6 each; box Cai stays,
    # line Bob, Ann.  game 2: Cai backgammoned, pays Bob and Ann 3 x 3 = 9
    # each; Bob in the box, line Ann, Cai.  game 3: Bob resigns single, pays
    # Ann and Cai 3 each.  Ann -6+9+3 = 6, Bob -6+9-6 = -3, Cai 12-18+3 = -3.
    assert table.totals.as_dict() == {ANN: 6, BOB: -3, CAI: -3}


# -- team doubles --------------------------------------------------------------


def test_one_refusal_means_the_team_does_not_double() -> None:
    """cy-4: the decision to double the box "must always be unanimous within
    the team": Bob proposes, Cai agrees, Dee refuses -> no double; the cube
    stays centred at 1 and the captain rolls."""
    table = box_opens(seated((ANN, BOB, CAI, DEE)))
    table = table.apply(ProposeDouble(BOB)).apply(AgreeDouble(CAI))
    assert table.awaiting == (DEE,)
    with pytest.raises(AnswerPendingError):
        table.apply(Roll(TEAM, (3, 2)))
    table = table.apply(RefuseDouble(DEE))
    assert table.phase is ChouettePhase.PLAYING
    assert table.game is not None
    assert table.game.phase is Phase.ROLL and table.game.cube_value == 1
    assert table.game.cube_owner is None
    with pytest.raises(NothingToAnswerError):
        table.apply(AgreeDouble(CAI))
    table = team_rolls(table)
    assert table.game is not None and table.game.turn == BOX


def test_only_the_captain_proposes_and_only_members_consent() -> None:
    """cy-2: the captain decides for the team; cy-4: the box is not on the team."""
    table = box_opens(seated((ANN, BOB, CAI, DEE)))
    with pytest.raises(NotCaptainError):
        table.apply(ProposeDouble(CAI))
    with pytest.raises(NotOnTeamError):
        table.apply(ProposeDouble(ANN))
    with pytest.raises(AnswerPendingError):
        table.apply(Double(TEAM))
    table = table.apply(ProposeDouble(BOB))
    with pytest.raises(AlreadyAnsweredError):
        table.apply(AgreeDouble(BOB))
    with pytest.raises(NotOnTeamError):
        table.apply(AgreeDouble(ANN))
    with pytest.raises(AnswerPendingError):
        table.apply(ProposeDouble(BOB))


def test_the_team_may_double_only_when_the_game_allows_it() -> None:
    """A double is offered only before rolling, by the side on turn
    (README "Stakes, cube and scoring"): not once the dice are out, not in
    the box's turn."""
    table = seated((ANN, BOB, CAI)).apply(OpeningRoll((1, 6)))
    with pytest.raises(TeamCubeError, match="only before rolling"):
        table.apply(ProposeDouble(BOB))
    table = play_first(table)
    with pytest.raises(TeamCubeError, match="only the player on turn"):
        table.apply(ProposeDouble(BOB))
    assert issubclass(TeamCubeError, CubeError)


# -- box doubles ---------------------------------------------------------------


def test_box_double_answered_member_by_member_over_two_doubles() -> None:
    """cy-4: each member takes or drops the box's cube on their own; droppers
    pay "the current stake" and leave; takers go on "for the new stake".

    Box Ann; line Bob, Cai, Dee; stake 2.  Ann doubles at 1: Bob drops (out
    at 1), Cai and Dee take (cube 2, team's).  The team (Cai captain now)
    redoubles with Dee's consent, Ann takes at 4 and redoubles to 8: Bob may
    no longer answer; Cai drops (out at 4), Dee takes at 8.  The team
    resigns single: Dee pays 8 x 2 = 16, Cai 4 x 2 = 8, Bob 1 x 2 = 2; Ann
    collects 26.
    """
    table = team_rolls(box_opens(seated((ANN, BOB, CAI, DEE), ChouetteRules(stake=2))))
    with pytest.raises(NothingToAnswerError):
        table.apply(MemberTake(BOB))
    table = table.apply(Double(BOX))
    with pytest.raises(AnswerPendingError):
        table.apply(Take(TEAM))
    with pytest.raises(NotOnTeamError):
        table.apply(MemberTake(ANN))
    table = table.apply(MemberDrop(BOB))
    with pytest.raises(AlreadyAnsweredError):
        table.apply(MemberTake(BOB))
    with pytest.raises(AnswerPendingError):
        table.apply(Roll(BOX, (4, 2)))
    table = table.apply(MemberTake(CAI)).apply(MemberTake(DEE))
    assert table.captain == CAI
    table = box_rolls(table)
    table = table.apply(ProposeDouble(CAI)).apply(AgreeDouble(DEE)).apply(Take(BOX))
    table = team_rolls(table).apply(Double(BOX))
    assert table.awaiting == (CAI, DEE)
    with pytest.raises(MemberOutError):
        table.apply(MemberTake(BOB))
    table = table.apply(MemberDrop(CAI)).apply(MemberTake(DEE))
    assert table.members == (
        TeamMember(BOB, False, 1), TeamMember(CAI, False, 4), TeamMember(DEE, True, 8))
    table = resigns(table, TEAM, ResignLevel.SINGLE)
    assert table.ledger[0].payments == (
        Payment(BOB, ANN, 2, PaymentReason.DROPPED),
        Payment(CAI, ANN, 8, PaymentReason.DROPPED),
        Payment(DEE, ANN, 16, PaymentReason.GAME),
    )
    assert table.totals.as_dict() == {ANN: 26, BOB: -2, CAI: -8, DEE: -16}


def test_a_member_who_left_may_not_consent_to_a_team_double() -> None:
    """cy-4: a dropper "leaves the current game": no say in its cube any more."""
    table = team_rolls(box_opens(seated((ANN, BOB, CAI, DEE))))
    table = table.apply(Double(BOX)).apply(MemberTake(BOB)).apply(MemberDrop(CAI))
    table = box_rolls(table.apply(MemberTake(DEE)))
    table = table.apply(ProposeDouble(BOB))
    with pytest.raises(MemberOutError):
        table.apply(AgreeDouble(CAI))
    assert table.awaiting == (DEE,)


def test_everyone_drops_the_box_wins_from_each() -> None:
    """cy-4: droppers pay the current stake and leave; with nobody left the
    game is over and the box has won it.  Stake 5: Bob and Cai pay Ann 5 each;
    the box won, so Ann stays and Bob goes to the end (cy-3)."""
    table = team_rolls(box_opens(seated((ANN, BOB, CAI), ChouetteRules(stake=5))))
    table = table.apply(Double(BOX)).apply(MemberDrop(CAI)).apply(MemberDrop(BOB))
    entry = table.ledger[0]
    assert entry.result.winner == BOX and entry.result.ending is Ending.PASSED
    assert entry.payments == (
        Payment(BOB, ANN, 5, PaymentReason.DROPPED),
        Payment(CAI, ANN, 5, PaymentReason.DROPPED),
    )
    assert table.totals.as_dict() == {ANN: 10, BOB: -5, CAI: -5}
    assert (table.box, table.line) == (ANN, (CAI, BOB))
    assert table.game is not None and table.game.phase is Phase.OPENING


def test_the_captain_drops_and_the_box_wins() -> None:
    """Captain dropping (module convention): the next member in line who took
    moves for the team; the dropped captain paid 1 and still goes to the end
    when the box wins (cy-3: "the dethroned captain moves to the last place").

    Box Ann, line Bob, Cai; Ann doubles, Bob drops, Cai takes and moves; the
    team resigns a gammon at 2: Cai pays 2 x 2 = 4, Bob 1.  Ann stays, Cai
    captain, Bob last.
    """
    table = team_rolls(box_opens(seated((ANN, BOB, CAI))))
    table = table.apply(Double(BOX)).apply(MemberDrop(BOB)).apply(MemberTake(CAI))
    assert table.captain == CAI
    table = box_rolls(table)
    # Cai moves for the team now: the team's double is his to propose
    with pytest.raises(MemberOutError):
        table.apply(ProposeDouble(BOB))
    table = resigns(table, TEAM, ResignLevel.GAMMON)
    assert table.totals.as_dict() == {ANN: 5, BOB: -1, CAI: -4}
    assert (table.box, table.line) == (ANN, (CAI, BOB))


def test_automatic_double_and_jacoby_set_each_members_value() -> None:
    """README, money play options: automatic doubles (an opening tie doubles
    the stake, cube centred at 2; once per game, cy) and the Jacoby rule
    (gammons count single unless the cube was turned).

    Game 1: opening tie 3-3 -> every member in at 2; the box resigns a gammon
    with the cube never turned: Jacoby -> single: Ann pays Bob and Cai 2 each.
    Team won: Bob in the box, line Cai, Ann.
    Game 2: tie 5-5 (cube 2), Bob doubles, both take (4, turned); Bob resigns
    a gammon: 4 x 2 = 8 to Cai and to Ann.
    """
    rules = ChouetteRules(game=GameRules(automatic_doubles=AutoDoubles.ONCE, jacoby=True))
    table = seated((ANN, BOB, CAI), rules)
    table = play_first(table.apply(OpeningRoll((3, 3))).apply(OpeningRoll((6, 1))))
    assert table.members == (TeamMember(BOB, True, 2), TeamMember(CAI, True, 2))
    table = resigns(table, BOX, ResignLevel.GAMMON)
    assert table.totals.as_dict() == {ANN: -4, BOB: 2, CAI: 2}
    assert (table.box, table.line) == (BOB, (CAI, ANN))

    table = play_first(table.apply(OpeningRoll((5, 5))).apply(OpeningRoll((6, 1))))
    table = team_rolls(table)
    table = table.apply(Double(BOX)).apply(MemberTake(ANN)).apply(MemberTake(CAI))
    assert table.members == (TeamMember(CAI, True, 4), TeamMember(ANN, True, 4))
    table = resigns(table, BOX, ResignLevel.GAMMON)
    assert table.ledger[1].payments == (
        Payment(BOB, CAI, 8, PaymentReason.GAME),
        Payment(BOB, ANN, 8, PaymentReason.GAME),
    )
    assert table.totals.as_dict() == {ANN: 4, BOB: -14, CAI: 10}


# -- rotation and ledger values ------------------------------------------------


def test_rotation_rules() -> None:
    """cy-3, and the module's convention for a captain who dropped."""
    line = (BOB, CAI, DEE)
    assert rotate(ANN, line, (), box_won=True) == (ANN, (CAI, DEE, BOB))
    assert rotate(ANN, line, (), box_won=False) == (BOB, (CAI, DEE, ANN))
    assert rotate(ANN, line, (BOB,), box_won=True) == (ANN, (CAI, DEE, BOB))
    assert rotate(ANN, line, (BOB,), box_won=False) == (CAI, (DEE, BOB, ANN))
    # a member other than the captain dropped: the line keeps its order
    assert rotate(ANN, line, (CAI,), box_won=False) == (BOB, (CAI, DEE, ANN))
    with pytest.raises(MatchError):
        rotate(ANN, line, line, box_won=False)


def test_ledger_values_refuse_nonsense() -> None:
    with pytest.raises(ValueError, match="positive"):
        Payment(ANN, BOB, 0, PaymentReason.GAME)
    with pytest.raises(ValueError, match="themselves"):
        Payment(ANN, ANN, 3, PaymentReason.GAME)
    with pytest.raises(ValueError, match="stake"):
        ChouetteRules(stake=0)
    with pytest.raises(KeyError):
        Totals.zero([ANN, BOB]).of(CAI)


def test_errors_belong_to_the_game_layer() -> None:
    """One ``except`` for the referee: every chouette error is a game-layer error."""
    assert issubclass(MemberOutError, CubeError)
    assert issubclass(MemberOutError, GameError)
    assert issubclass(ThrowOffOverError, MatchError)
