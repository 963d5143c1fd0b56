"""Judging plays of the Dutch and Acey-Deucey variants from the boards before and after.

The rules are those of /work/shared/rules/rules-no.txt (sections
"nederlandsk Backgammon", "Acey Deucey", and for everything the variants
keep, "Grunnleggende Spill" and "Peiling Off").  Each expected verdict was
worked out by hand; the docstring quotes the passage and gives the
reasoning.  Boards are written from the mover's seat with
:func:`tests.test_variant_moves.board` (both sides by the mover's point
numbers, checkers not placed are in hand).
"""

import random

import pytest

from controller.rules import Player, Position
from controller.rules.faults import Fault
from controller.rules.faults import FaultKind as K
from controller.rules.judge import Verdict, judge
from controller.rules.move import Play
from controller.rules.variant import Variant, variant_start
from controller.rules.variant_judge import variant_judge
from controller.rules.variant_moves import (
    format_variant_play,
    variant_legal_plays,
    variant_legal_positions,
)
from tests.test_variant_moves import after, board

DUTCH, ACEY, STANDARD = Variant.DUTCH, Variant.ACEY_DEUCEY, Variant.STANDARD


def closest(verdict: Verdict) -> list[str]:
    return [format_variant_play(play) for play in verdict.closest]


# -- legal plays -----------------------------------------------------------------------


def test_dutch_opening_entry_is_legal_with_its_play() -> None:
    """rules-no.txt, Dutch: checkers start "i hånd" and enter in the opponent's home
    board; 6-5 enters on 19 and 20."""
    verdict = variant_judge(variant_start(DUTCH), after({19: 1, 20: 1}), 6, 5, DUTCH)
    assert verdict.legal
    assert verdict.play is not None and format_variant_play(verdict.play) == "hand/20 hand/19"
    assert verdict.faults == () and verdict.closest == ()


def test_acey_deucey_entering_and_moving_on_is_legal() -> None:
    """rules-no.txt, Acey-Deucey: "det er ikke nødvendig at alle brikker legges inn
    før andre brikker kan flyttes": 6-5 may enter one checker and move it to 14."""
    verdict = variant_judge(variant_start(ACEY), after({14: 1}), 6, 5, ACEY)
    assert verdict.legal
    assert verdict.play is not None and len(verdict.play.moves) == 2


def test_the_turn_of_the_board_after_does_not_matter() -> None:
    """The camera's board carries no turn; only the checkers count."""
    shown = after({19: 1, 20: 1})
    for turn in Player:
        assert variant_judge(variant_start(DUTCH), shown.with_turn(turn), 6, 5, DUTCH).legal


# -- Dutch: all 15 enter first ---------------------------------------------------------


def test_dutch_moving_on_from_the_opening_entry() -> None:
    """rules-no.txt, Dutch: "alle 15 må legges inn på motstanderens indre bord før noen
    kan fortsette videre".  From all in hand, 6-5 played as hand/19/14 moves a
    checker on while 14 are in hand; the one legal play enters two."""
    verdict = variant_judge(variant_start(DUTCH), after({14: 1}), 6, 5, DUTCH)
    assert not verdict.legal
    assert verdict.reasons == ("all 15 checkers must be entered before any checker moves on",)
    assert verdict.kinds == (K.ENTER_ALL_FIRST,)
    assert closest(verdict) == ["hand/20 hand/19"]


def test_dutch_moving_a_board_checker_instead_of_entering() -> None:
    """rules-no.txt, Dutch, as above.  13 on the board, 2 in hand, 6-5: entering one
    (hand/20) and moving 21/15 with the other die breaks the rule (the second
    checker in hand must enter first); both must enter on 19 and 20."""
    before = board({19: 5, 20: 5, 21: 3})
    verdict = variant_judge(before, after({19: 5, 20: 6, 21: 2, 15: 1}), 6, 5, DUTCH)
    assert verdict.kinds == (K.ENTER_ALL_FIRST,)
    assert closest(verdict)[0] == "hand/20 hand/19"


def test_dutch_blocked_entry_is_a_legal_dance_and_moving_is_not() -> None:
    """rules-no.txt, Dutch: nothing moves on before all 15 are in; the opponent holds
    the mover's 19 and 20, so the last checker cannot enter with 6-5 and the roll
    is lost.  Staying put is legal; moving 24/18 22/17 is not."""
    theirs = {19: 2, 20: 2}
    before = board({22: 5, 23: 5, 24: 4}, theirs)
    stayed = variant_judge(before, before, 6, 5, DUTCH)
    assert stayed.legal and stayed.play == Play((), (6, 5))
    ran = variant_judge(before, after({22: 4, 23: 5, 24: 3, 18: 1, 17: 1}, theirs), 6, 5, DUTCH)
    assert ran.kinds == (K.ENTER_ALL_FIRST,)
    assert closest(ran) == [""]


# -- Dutch: no hit before a checker is home --------------------------------------------


def test_dutch_early_hit() -> None:
    """rules-no.txt, Dutch: "en spiller kan ikke ta motspillerens brikke før minst en
    av hans brikker er flyttet inn i hans indre (peiling) bord".  All 15 on 13,
    none home, an opposing blot on 9, 4-1: 13/9* 13/12 hits too early; the one
    legal play is 13/12/8 (written 13/8)."""
    before = board({13: 15}, {9: 1})
    verdict = variant_judge(before, after({13: 13, 12: 1, 9: 1}, {"bar": 1}), 4, 1, DUTCH)
    assert not verdict.legal
    assert verdict.kinds == (K.NO_EARLY_HIT,)
    assert verdict.reasons == (
        "no hitting before a checker has reached the home board (a blot was hit on point 9)",)
    assert verdict.faults[0].points == (9,)
    assert closest(verdict) == ["13/8"]


def test_the_dutch_faults_have_their_own_kinds() -> None:
    """The two Dutch-only rules are kinds of their own, plain :class:`Fault` values like
    every other: an early hit lights the point of the hit; a checker moving on
    while one waits in hand names no point."""
    before = board({13: 15}, {9: 1})
    early = variant_judge(before, after({13: 13, 12: 1, 9: 1}, {"bar": 1}), 4, 1, DUTCH)
    assert early.kinds == (K.NO_EARLY_HIT,)
    assert type(early.faults[0]) is Fault and early.faults[0].points == (9,)
    moved_on = variant_judge(variant_start(DUTCH), after({14: 1}), 6, 5, DUTCH)
    assert moved_on.kinds == (K.ENTER_ALL_FIRST,)
    assert type(moved_on.faults[0]) is Fault and moved_on.faults[0].points == ()


def test_the_same_hit_is_legal_once_a_checker_is_home() -> None:
    """rules-no.txt, Dutch: the ban ends when a checker has reached the home board;
    with one on the 5-point, 13/9* 13/12 is legal."""
    before = board({13: 14, 5: 1}, {9: 1})
    assert variant_judge(before, after({13: 12, 12: 1, 9: 1, 5: 1}, {"bar": 1}), 4, 1,
                         DUTCH).legal


# -- bar first -------------------------------------------------------------------------


def test_acey_deucey_bar_first() -> None:
    """rules-no.txt: "hvis en spiller har en eller flere brikker på linjen, kan ingen
    andre brikker flyttes før alle slike brikker har kommet inn igjen".  On the
    bar 1, on 13 one, 13 in hand, 19 held by the opponent; 6-5 played as
    hand/20 13/7 leaves the bar checker waiting: the legal plays enter it."""
    theirs = {19: 2}
    before = board({"bar": 1, 13: 1}, theirs)
    verdict = variant_judge(before, after({"bar": 1, 20: 1, 7: 1}, theirs), 6, 5, ACEY)
    assert verdict.kinds == (K.BAR_FIRST,)
    assert verdict.reasons == ("a checker on the bar must enter first",)
    assert sorted(closest(verdict)) == ["bar/14", "bar/20 13/7"]


def test_dutch_bar_before_hand() -> None:
    """rules-no.txt: bar first, even before the Dutch checkers in hand.  On the bar 1,
    in hand 1, 13 on 21, 19 held: entering the hand checker on 20 instead of
    the bar checker is wrong; bar/20 is the legal play."""
    theirs = {19: 2}
    before = board({"bar": 1, 21: 13}, theirs)
    verdict = variant_judge(before, after({"bar": 1, 21: 13, 20: 1}, theirs), 6, 5, DUTCH)
    assert verdict.kinds == (K.BAR_FIRST,)
    assert closest(verdict) == ["bar/20"]


# -- dice not fully played -------------------------------------------------------------


def test_acey_deucey_one_die_entered() -> None:
    """rules-no.txt, "Grunnleggende Spill": "så mange trekk som mulig må gjøres hver
    tur".  From all in hand, entering one checker on 19 leaves the 5 unplayed,
    and the 5 could still enter on 20."""
    verdict = variant_judge(variant_start(ACEY), after({19: 1}), 6, 5, ACEY)
    assert verdict.kinds == (K.UNPLAYED_DIE,)
    assert verdict.reasons == ("the 5 could be played and was not",)


def test_dutch_double_half_entered() -> None:
    """rules-no.txt: "Når en dobbel er kastet, er fire trekk tillatt" and as many as
    possible must be made.  From all in hand 3-3 enters four; two were entered."""
    verdict = variant_judge(variant_start(DUTCH), after({22: 2}), 3, 3, DUTCH)
    assert verdict.reasons == ("the 3 could be played four times but was played only twice",)
    assert closest(verdict) == ["hand/22(4)"]


def test_nothing_moved() -> None:
    """rules-no.txt: "Spillerens er ikke tillatt å passere på sine trekk"."""
    verdict = variant_judge(variant_start(ACEY), variant_start(ACEY), 6, 5, ACEY)
    assert verdict.reasons == ("no checker moved, but 6-5 can be played",)


# -- bearing off, counts, the fallback -------------------------------------------------


def test_bearing_off_with_a_checker_in_hand() -> None:
    """rules-no.txt, "Peiling Off": only "når alle brikkene er til stede i en spillers
    indre bord".  14 home and one in hand: 6/off 5/off is not allowed."""
    home = {6: 2, 5: 3, 4: 3, 3: 3, 2: 2, 1: 1}
    shown = after({6: 1, 5: 2, 4: 3, 3: 3, 2: 2, 1: 1, "off": 2})
    verdict = variant_judge(board(home), shown, 6, 5, ACEY)
    assert verdict.kinds == (K.BEAR_OFF_OUTSIDE,)
    assert verdict.reasons == ("bearing off before all 15 checkers are in the home board",)


def test_a_checker_taken_off_the_board() -> None:
    """Checkers in hand only ever enter (rules-no.txt, both variants): a checker that
    vanished from the board cannot be explained by any move."""
    verdict = variant_judge(board({10: 1}), after({}), 6, 5, ACEY)
    assert verdict.kinds == (K.COUNT,)


def test_an_unreachable_board() -> None:
    """Two checkers entered on 18 and 19 need a 7 and a 6: no rule broken by the
    6-5 explains it, so the referee says only that it cannot be reached."""
    verdict = variant_judge(variant_start(ACEY), after({18: 1, 19: 1}), 6, 5, ACEY)
    assert verdict.reasons == ("this board cannot be reached with 6-5",)
    assert verdict.kinds == (K.UNREACHABLE,)
    assert sorted(closest(verdict)) == ["hand/14", "hand/20 hand/19"]


# -- the standard game -----------------------------------------------------------------


def test_standard_is_judged_by_the_standard_judge() -> None:
    """The standard game needs nothing new: its verdicts are the standard judge's."""
    start = Position.initial()
    for shown in (start, *start.legal_positions(3, 1)):
        assert variant_judge(start, shown, 3, 1, STANDARD) == judge(start, shown, 3, 1)


# -- every legal board is legal, every other board is not ------------------------------


def _random_variant_position(rng: random.Random) -> Position:
    mover = [0] * 26
    for _ in range(rng.randint(0, 15)):
        mover[rng.choice([*range(1, 25), 25, 0])] += 1
    allowed = [0, 25] + [q for q in range(1, 25) if not mover[25 - q]]
    opponent = [0] * 26
    for _ in range(rng.randint(0, 15)):
        opponent[rng.choice(allowed)] += 1
    return Position.from_relative(mover, opponent, rng.choice(list(Player)))


@pytest.mark.parametrize("variant", [DUTCH, ACEY])
def test_verdicts_agree_with_the_legal_plays(variant: Variant) -> None:
    """On seeded random boards: every legal result is judged legal with a play that
    leaves it; a legal result of another roll that this roll cannot leave is
    judged illegal, with at least one reason and the nearest legal plays."""
    rng = random.Random(11 if variant is DUTCH else 12)
    for _ in range(150):
        before = _random_variant_position(rng)
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        legal = variant_legal_positions(before, d1, d2, variant)
        for result in legal:
            verdict = variant_judge(before, result, d1, d2, variant)
            assert verdict.legal and verdict.play is not None
        e1, e2 = rng.randint(1, 6), rng.randint(1, 6)
        for other in variant_legal_positions(before, e1, e2, variant) - legal:
            verdict = variant_judge(before, other, d1, d2, variant)
            assert not verdict.legal and verdict.faults
            plays = variant_legal_plays(before, d1, d2, variant)
            assert set(verdict.closest) <= set(plays)
            assert len(verdict.closest) == min(3, len(plays))
