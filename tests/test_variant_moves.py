"""Legal plays of the Dutch and Acey-Deucey variants, worked out by hand.

The variants are defined by the Norwegian rules,
/work/shared/rules/rules-no.txt (sections "nederlandsk Backgammon" and
"Acey Deucey"); everything they do not change is standard backgammon
(same file, "Grunnleggende Spill" and "Peiling Off").  Each test quotes the
passage it relies on and says how the expected plays follow from it.

Boards are written with :func:`board` from the mover's seat: both sides'
checkers are placed by the *mover's* point numbers (1-6 the mover's home
board, 19-24 the opponent's home board, where the mover enters), and every
checker not placed is in hand.  A checker entering with a die ``d`` comes
in on the mover's point ``25 - d``: rules-no.txt, "Et kast på 5 gjør at
brikken kan komme inn på punkt 5 på motstanderens indre bord" (the
opponent's 5-point is the mover's 20-point).
"""

import random
from collections.abc import Mapping
from typing import Any

import pytest

from controller.rules import (
    IllegalPlayError,
    InvalidMoveNotationError,
    InvalidPositionError,
    Player,
    Position,
)
from controller.rules.move import Move, Play
from controller.rules.variant import Variant, variant_start
from controller.rules.variant_moves import (
    HAND,
    can_play_both,
    can_play_double_in_full,
    format_variant_play,
    max_dice_playable,
    parse_variant_play,
    variant_legal_play_to,
    variant_legal_plays,
    variant_legal_positions,
)
from tests.corpus import corpus

DUTCH, ACEY, STANDARD = Variant.DUTCH, Variant.ACEY_DEUCEY, Variant.STANDARD

Spec = Mapping[Any, int]
"""Checkers per place: points 1-24 by the mover's numbering, or "bar" / "off"."""


def board(mover: Spec, opponent: Spec | None = None, turn: Player = Player.ZERO) -> Position:
    """A position with ``turn`` on roll; both sides placed by the mover's point numbers.

    Checkers of either side not placed anywhere are in hand.
    """

    def row(spec: Spec, theirs: bool) -> list[int]:
        counts = [0] * 26
        for where, count in spec.items():
            if where == "off":
                counts[0] += count
            elif where == "bar":
                counts[25] += count
            else:
                counts[25 - where if theirs else where] += count
        return counts

    return Position.from_relative(row(mover, False), row(opponent or {}, True), turn)


def results(position: Position, die1: int, die2: int, variant: Variant) -> set[Position]:
    return set(variant_legal_positions(position, die1, die2, variant))


def after(mover: Spec, opponent: Spec | None = None, moved_by: Player = Player.ZERO) -> Position:
    """A resulting position: the same placement, the opponent of ``moved_by`` on roll."""
    return board(mover, opponent, moved_by).swap_turn()


def texts(position: Position, die1: int, die2: int, variant: Variant) -> list[str]:
    return [format_variant_play(p) for p in variant_legal_plays(position, die1, die2, variant)]


# -- starting positions ----------------------------------------------------------------


@pytest.mark.parametrize("variant", [DUTCH, ACEY])
def test_variants_start_with_everything_in_hand(variant: Variant) -> None:
    """rules-no.txt: Dutch "alle brikkene starter av brettet «i hånd»", Acey-Deucey
    "alle brikkene starter brettet «i hånden»"."""
    for turn in Player:
        start = variant_start(variant, turn)
        assert start.turn == turn
        assert all(start.in_hand(player) == 15 for player in Player)
        assert all(start.layout(player) == (0,) * 26 for player in Player)


def test_the_standard_game_starts_from_the_usual_setup() -> None:
    """rules-no.txt, "Start": 2 on the 24-point, 5 on the 13, 3 on the 8, 5 on the 6."""
    start = variant_start(STANDARD, Player.ONE)
    assert start == Position.initial(Player.ONE)
    assert [start.checkers(Player.ONE, p) for p in (24, 13, 8, 6)] == [2, 5, 3, 5]


# -- Dutch backgammon: entering --------------------------------------------------------


def test_dutch_opening_six_five_enters_on_19_and_20_only() -> None:
    """rules-no.txt, Dutch: "alle 15 må legges inn på motstanderens indre bord før noen
    kan fortsette videre".  The 6 enters on 25-6 = 19, the 5 on 25-5 = 20, and
    neither checker may move on while 13 are still in hand."""
    start = variant_start(DUTCH)
    assert results(start, 6, 5, DUTCH) == {after({19: 1, 20: 1})}
    assert texts(start, 6, 5, DUTCH) == ["hand/20 hand/19"]


def test_dutch_opening_double_enters_four_checkers() -> None:
    """rules-no.txt: "Når en dobbel er kastet, er fire trekk tillatt" and, Dutch, all
    15 enter before any moves on: 3-3 enters four checkers on 22."""
    start = variant_start(DUTCH)
    assert results(start, 3, 3, DUTCH) == {after({22: 4})}
    assert texts(start, 3, 3, DUTCH) == ["hand/22(4)"]


def test_dutch_both_dice_enter_while_two_are_in_hand() -> None:
    """rules-no.txt, Dutch: all 15 must be entered before any checker moves on.  With
    13 on the board and 2 in hand, 6-5 must enter both (19 and 20); moving 21/15
    21/16 instead is not allowed, although Acey-Deucey allows it."""
    before = board({19: 5, 20: 5, 21: 3})
    assert results(before, 6, 5, DUTCH) == {after({19: 6, 20: 6, 21: 3})}
    moved_on = after({19: 5, 20: 5, 21: 1, 15: 1, 16: 1})
    assert moved_on not in results(before, 6, 5, DUTCH)
    assert moved_on in results(before, 6, 5, ACEY)


def test_dutch_last_checker_entered_lets_the_other_die_move_on() -> None:
    """rules-no.txt, Dutch: "alle 15 må legges inn ... før noen kan fortsette videre".
    With 14 on the board and 1 in hand, 6-5 first enters the last checker; once
    all 15 are in, the other die may move any checker on.

    Enter with the 6 (on 19), then a 5: 21/16, 20/15 or 19/14.
    Enter with the 5 (on 20), then a 6: 21/15, 20/14 (the same board as 19/14
    above) or 19/13.  Five distinct boards; none leaves the checker in hand.
    """
    before = board({19: 5, 20: 5, 21: 4})
    assert results(before, 6, 5, DUTCH) == {
        after({19: 6, 20: 5, 21: 3, 16: 1}),
        after({19: 6, 20: 4, 21: 4, 15: 1}),
        after({19: 5, 20: 5, 21: 4, 14: 1}),
        after({19: 5, 20: 6, 21: 3, 15: 1}),
        after({19: 4, 20: 6, 21: 4, 13: 1}),
    }


def test_dutch_blocked_entry_freezes_every_checker() -> None:
    """rules-no.txt, Dutch: no checker moves on before all 15 are entered; and
    "et punkt med to eller flere brikker av samme farge på det er trygt".  The
    opponent holds the mover's 19 and 20, so neither the 6 nor the 5 can enter the
    last checker; the checkers on the board may not move either: the roll is lost.
    In Acey-Deucey the same roll moves the board checkers."""
    before = board({22: 5, 23: 5, 24: 4}, {19: 2, 20: 2})
    assert variant_legal_positions(before, 6, 5, DUTCH) == frozenset()
    assert variant_legal_plays(before, 6, 5, DUTCH) == [Play((), (6, 5))]
    assert max_dice_playable(before, 6, 5, DUTCH) == 0
    assert max_dice_playable(before, 6, 5, ACEY) == 2


# -- Dutch backgammon: hitting ---------------------------------------------------------


def test_dutch_no_hit_before_a_checker_is_home() -> None:
    """rules-no.txt, Dutch: "en spiller kan ikke ta motspillerens brikke før minst en
    av hans brikker er flyttet inn i hans indre (peiling) bord".

    All 15 on the mover's 13, none home, an opposing blot on 9, roll 4-1.  The
    4 from 13 would hit on 9, so it is not allowed, not even as the stop of
    13/9/8: only 13/12/8 remains.  In Acey-Deucey (standard hitting) the hits
    13/9* 13/12 and 13/9*/8 are legal too.
    """
    before = board({13: 15}, {9: 1})
    no_hit = after({13: 14, 8: 1}, {9: 1})
    assert results(before, 4, 1, DUTCH) == {no_hit}
    assert results(before, 4, 1, ACEY) == {
        no_hit,
        after({13: 14, 8: 1}, {"bar": 1}),
        after({13: 13, 12: 1, 9: 1}, {"bar": 1}),
    }


def test_dutch_hits_once_a_checker_is_home() -> None:
    """rules-no.txt, Dutch: the hitting ban lasts only until one checker has reached
    the home board.  With a checker on the 5-point, 4-1 may hit on 9.

    Checkers on 13 (14) and 5 (1), opposing blot on 9, 4-1:
    13/9* 13/12, 13/9*/8, 13/12/8, 13/9* 5/4 and 13/12 5/1; the 5-point checker
    cannot bear off (rules-no.txt, "Peiling Off": only with all checkers home).
    """
    before = board({13: 14, 5: 1}, {9: 1})
    assert results(before, 4, 1, DUTCH) == {
        after({13: 12, 12: 1, 9: 1, 5: 1}, {"bar": 1}),
        after({13: 13, 8: 1, 5: 1}, {"bar": 1}),
        after({13: 13, 8: 1, 5: 1}, {9: 1}),
        after({13: 13, 9: 1, 4: 1}, {"bar": 1}),
        after({13: 13, 12: 1, 1: 1}, {9: 1}),
    }


def test_dutch_reaching_home_with_one_die_frees_the_other_to_hit() -> None:
    """rules-no.txt, Dutch: no hit "før minst en av hans brikker er flyttet inn i hans
    indre bord".  Checkers on 13 (14) and 8 (1), opposing blot on 9, roll 4-2:
    8/6 brings a checker home first, after which 13/9* may hit."""
    before = board({13: 14, 8: 1}, {9: 1})
    assert after({13: 13, 9: 1, 6: 1}, {"bar": 1}) in results(before, 4, 2, DUTCH)


def test_dutch_the_move_that_first_reaches_home_may_not_hit() -> None:
    """rules-no.txt, Dutch, read strictly: a checker must already *have been* moved
    into the home board ("før minst en av hans brikker er flyttet inn") before a
    hit, so the move that first arrives home may not hit there.  Checkers on 13
    (14) and 8 (1), none home, opposing blot on 4, roll 4-3: 8/4* is not allowed;
    8/5 13/9 is."""
    before = board({13: 14, 8: 1}, {4: 1})
    legal = results(before, 4, 3, DUTCH)
    assert after({13: 13, 10: 1, 4: 1}, {"bar": 1}) not in legal
    assert after({13: 13, 9: 1, 5: 1}, {4: 1}) in legal
    assert after({13: 13, 10: 1, 4: 1}, {"bar": 1}) in results(before, 4, 3, ACEY)


def test_dutch_may_not_hit_while_entering() -> None:
    """rules-no.txt, Dutch: the hitting ban covers every move, entering included.
    The last checker in hand would enter with a 5 on 20, where an opposing blot
    stands; no checker is home, so it cannot enter, and nothing else may move
    while it waits: 5-5 is lost.  Acey-Deucey enters and hits."""
    before = board({24: 14}, {20: 1})
    assert variant_legal_plays(before, 5, 5, DUTCH) == [Play((), (5, 5))]
    # Acey-Deucey: hand/20*/15 and 24/19(2) is one of the ways to play all four 5s.
    assert after({24: 12, 19: 2, 15: 1}, {"bar": 1}) in results(before, 5, 5, ACEY)
    # Entering alone is not enough: all four 5s must be played when they can be.
    entered = after({24: 14, 20: 1}, {"bar": 1})
    assert variant_legal_play_to(before, entered, 5, 5, ACEY) is None


# -- Acey-Deucey -----------------------------------------------------------------------


def test_acey_deucey_opening_may_move_an_entered_checker_on() -> None:
    """rules-no.txt, Acey-Deucey: "det er ikke nødvendig at alle brikker legges inn
    før andre brikker kan flyttes".  From all in hand 6-5 enters two checkers
    (19 and 20) or enters one and moves it on to 14 (hand/19/14 = hand/20/14)."""
    start = variant_start(ACEY)
    assert results(start, 6, 5, ACEY) == {after({19: 1, 20: 1}), after({14: 1})}


def test_acey_deucey_opening_double_partitions_four_moves() -> None:
    """rules-no.txt, Acey-Deucey: entering may mix with moving; doubles give four
    moves.  3-3 from all in hand: a checker given m of the four 3s ends on
    25 - 3m (22, 19, 16, 13), so the boards are the partitions of 4:
    4 = 13; 3+1 = 16, 22; 2+2 = 19, 19; 2+1+1 = 19, 22, 22; 1+1+1+1 = 22 x4."""
    start = variant_start(ACEY)
    assert results(start, 3, 3, ACEY) == {
        after({13: 1}),
        after({16: 1, 22: 1}),
        after({19: 2}),
        after({19: 1, 22: 2}),
        after({22: 4}),
    }


def test_acey_deucey_mixes_entering_and_moving() -> None:
    """rules-no.txt, Acey-Deucey: a checker in hand may enter at any time ("Dette
    gjelder i begynnelsen og under spillet").  One checker on 10, 14 in hand,
    6-5: enter both (19, 20); enter one and move it on (14); enter one and move
    the 10 with the other die (hand/19 10/5, hand/20 10/4).  The 10 cannot use
    both dice (10/4/-1 would bear off with checkers outside).  Dutch allows only
    the first: both dice must enter while checkers are in hand."""
    before = board({10: 1})
    assert results(before, 6, 5, ACEY) == {
        after({19: 1, 20: 1, 10: 1}),
        after({14: 1, 10: 1}),
        after({19: 1, 5: 1}),
        after({20: 1, 4: 1}),
    }
    assert results(before, 6, 5, DUTCH) == {after({19: 1, 20: 1, 10: 1})}


# -- the bar comes first ---------------------------------------------------------------


def test_acey_deucey_bar_enters_before_the_hand_or_the_board() -> None:
    """rules-no.txt: "hvis en spiller har en eller flere brikker på linjen, kan ingen
    andre brikker flyttes før alle slike brikker har kommet inn igjen".

    On the bar 1, on 13 one, 13 in hand; the opponent holds the mover's 19.
    6-5: the 6 cannot enter the bar checker (19 blocked), so the 5 enters it on
    20 first; then the 6: 20/14 or 13/7 (hand/19 is blocked).  Entering a hand
    checker or moving 13 while the bar checker waits is not allowed.
    """
    before = board({"bar": 1, 13: 1}, {19: 2})
    assert results(before, 6, 5, ACEY) == {
        after({14: 1, 13: 1}, {19: 2}),
        after({20: 1, 7: 1}, {19: 2}),
    }


def test_dutch_bar_enters_before_the_hand() -> None:
    """rules-no.txt: bar first (as above), and Dutch: the hand before the board.
    On the bar 1, in hand 1, 13 on 21; the opponent holds the mover's 19.  6-5:
    the bar checker enters with the 5 on 20 (the 6 is blocked); the hand checker
    then needs the 6, blocked too, and nothing else may move.  One die is played,
    and it is the bar checker that entered, not the one in hand."""
    before = board({"bar": 1, 21: 13}, {19: 2})
    assert results(before, 6, 5, DUTCH) == {after({20: 1, 21: 13}, {19: 2})}
    assert texts(before, 6, 5, DUTCH) == ["bar/20"]


# -- bearing off -----------------------------------------------------------------------


@pytest.mark.parametrize("variant", [DUTCH, ACEY])
def test_no_bearing_off_with_a_checker_in_hand(variant: Variant) -> None:
    """rules-no.txt, "Peiling Off": "når alle brikkene er til stede i en spillers
    indre bord, kan spilleren starte «peiling off»"; a checker in hand is not in
    the home board.  14 home (two on 6) and one in hand, 6-5: nothing is borne
    off.  With the 15th on the 6-point instead, 6/off 5/off is legal."""
    home = {6: 2, 5: 3, 4: 3, 3: 3, 2: 2, 1: 1}
    in_hand = board(home)
    assert all(r.off(Player.ZERO) == 0 for r in results(in_hand, 6, 5, variant))
    all_home = board({**home, 6: 3})
    assert after({6: 2, 5: 2, 4: 3, 3: 3, 2: 2, 1: 1, "off": 2}) in results(
        all_home, 6, 5, variant)


@pytest.mark.parametrize("variant", [STANDARD, DUTCH, ACEY])
def test_the_norwegian_double_five_bear_off(variant: Variant) -> None:
    """rules-no.txt, "Peiling Off": "med et kast med dobbel 5, hvis spilleren har et
    stykke på punkt 5, to stykker på punkt 3, ett stykke på punkt 2 og ett stykke
    på punkt 1, vil spilleren bære av de fire høyest plasserte brikkene og bli
    igjen med bare ett stykke på punkt 1" (the other ten already off)."""
    before = board({5: 1, 3: 2, 2: 1, 1: 1, "off": 10}, {24: 15})
    assert results(before, 5, 5, variant) == {after({1: 1, "off": 14}, {24: 15})}


def test_the_double_five_with_one_checker_in_hand_only_brings_it_home() -> None:
    """rules-no.txt, "Peiling Off": no bearing off before all are home.  As the
    example above but with one of the ten in hand instead of off (Acey-Deucey):
    a 5 cannot bear off, and nothing in the home board can move 5 without
    bearing off, so all four 5s take the hand checker in: hand/20/15/10/5."""
    before = board({5: 1, 3: 2, 2: 1, 1: 1, "off": 9}, {24: 15})
    assert results(before, 5, 5, ACEY) == {after({5: 2, 3: 2, 2: 1, 1: 1, "off": 9}, {24: 15})}
    assert texts(before, 5, 5, ACEY) == ["hand/5"]


# -- helpers for the acey-deucey turn --------------------------------------------------


def test_one_and_two_both_playable_from_the_start() -> None:
    """rules-no.txt, Acey-Deucey: "en spiller som kaster en acey deucey flytter først
    en 1 og en 2 på vanlig måte".  From all in hand both enter (24 and 23)."""
    assert can_play_both(variant_start(ACEY), 1, 2, ACEY)


def test_one_and_two_not_both_playable() -> None:
    """rules-no.txt, Acey-Deucey: "hvis en spiller ikke er i stand til å flytte både
    den første 1 og 2, så svingene stopper umiddelbart".  All in hand, the
    opponent holds the mover's 22 and 23: the 1 enters on 24, then the 2 can
    neither enter (23) nor move 24/22; the 2 first cannot enter at all."""
    before = board({}, {22: 2, 23: 2})
    assert not can_play_both(before, 1, 2, ACEY)
    assert max_dice_playable(before, 1, 2, ACEY) == 1
    assert texts(before, 1, 2, ACEY) == ["hand/24"]


def test_last_checker_bears_off_with_one_die_only() -> None:
    """rules-no.txt, "Peiling Off": 14 off and the last checker on the 1-point:
    either die bears it off and the game is over, so the 1 and 2 are not both played."""
    assert not can_play_both(board({1: 1, "off": 14}, {24: 15}), 1, 2, ACEY)


def test_double_in_full() -> None:
    """rules-no.txt, Acey-Deucey: "hvis alle fire trekk som utgjør doblen ikke kan
    tas, blir det påfølgende ekstrakastet tapt".

    From all in hand any double is played in full.  One checker on 13, 14 in
    hand, the opponent holding the mover's 19: 6-6 cannot enter and 13/7/1 stops
    after two moves (the 1 may not bear off with checkers outside), so the
    double is not played in full; 5-5 is (hand/20 four times, among others).
    """
    start = variant_start(ACEY)
    assert all(can_play_double_in_full(start, die, ACEY) for die in range(1, 7))
    before = board({13: 1}, {19: 2})
    assert not can_play_double_in_full(before, 6, ACEY)
    assert max_dice_playable(before, 6, 6, ACEY) == 2
    assert can_play_double_in_full(before, 5, ACEY)


# -- notation --------------------------------------------------------------------------


def test_hand_notation_round_trip() -> None:
    """Every legal play's notation parses back to that play (seeded Acey-Deucey boards)."""
    rng = random.Random(7)
    for _ in range(60):
        position = _random_variant_position(rng)
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        for play in variant_legal_plays(position, d1, d2, ACEY):
            text = format_variant_play(play)
            assert parse_variant_play(position, text, d1, d2, ACEY) == play


def test_parse_hand_moves() -> None:
    """hand/20/14 names the checker entering with the 5 and moving on with the 6."""
    start = variant_start(ACEY)
    play = parse_variant_play(start, "hand/20/14", 6, 5, ACEY)
    assert play.dice == (6, 5)
    assert len(play.moves) == 2 and play.moves[0].source == HAND
    both = parse_variant_play(start, "HAND/20 hand/19", 6, 5, ACEY)
    assert sorted(both.moves) == [Move(HAND, 19), Move(HAND, 20)]
    with pytest.raises(IllegalPlayError):
        parse_variant_play(start, "hand/18 hand/19", 6, 5, ACEY)
    with pytest.raises(IllegalPlayError):
        parse_variant_play(variant_start(DUTCH), "hand/20/14", 6, 5, DUTCH)
    with pytest.raises(InvalidMoveNotationError):
        parse_variant_play(start, "handy/20", 6, 5, ACEY)


# -- the standard game is the standard game --------------------------------------------


def _random_standard_position(rng: random.Random) -> Position:
    """Any valid standard board: 15 a side on points, bar or off, never both on a point."""
    mover = [0] * 26
    for _ in range(15):
        mover[rng.randint(0, 25)] += 1
    allowed = [0, 25] + [q for q in range(1, 25) if not mover[25 - q]]
    opponent = [0] * 26
    for _ in range(15):
        opponent[rng.choice(allowed)] += 1
    return Position.from_relative(mover, opponent, rng.choice(list(Player)))


def _random_variant_position(rng: random.Random) -> Position:
    """A board with some checkers of each side still in hand."""
    mover = [0] * 26
    for _ in range(rng.randint(0, 15)):
        mover[rng.choice([*range(1, 25), 25, 25, 0])] += 1
    allowed = [0, 25] + [q for q in range(1, 25) if not mover[25 - q]]
    opponent = [0] * 26
    for _ in range(rng.randint(0, 15)):
        opponent[rng.choice(allowed)] += 1
    return Position.from_relative(mover, opponent, rng.choice(list(Player)))


def test_standard_variant_equals_the_engine_on_the_corpus() -> None:
    """The variant generator, asked for the standard game, must give exactly the
    results of ``Position.legal_positions`` (the engine checked against GNU
    Backgammon), here on the seeded corpus of awkward positions (bar, closed
    boards, bear-offs, one-die rolls, spread doubles)."""
    for position, d1, d2 in corpus(20250611, 2500):
        assert variant_legal_positions(position, d1, d2, STANDARD) == position.legal_positions(
            d1, d2), (position, d1, d2)


def test_standard_variant_equals_the_engine_on_random_boards() -> None:
    """As above on uniformly random boards and rolls, plays included: each play of the
    variant generator replays (standard moves only) to its result."""
    rng = random.Random(1)
    for _ in range(1500):
        position = _random_standard_position(rng)
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        expected = position.legal_positions(d1, d2)
        assert variant_legal_positions(position, d1, d2, STANDARD) == expected
        plays = variant_legal_plays(position, d1, d2, STANDARD)
        if expected:
            assert {position.result_of(play) for play in plays} == set(expected)
        else:
            assert plays == [Play((), (d1, d2))]


def test_standard_game_has_no_checkers_in_hand() -> None:
    """Standard backgammon starts with all 15 on the board (rules-no.txt, "Start")."""
    with pytest.raises(InvalidPositionError):
        variant_legal_plays(board({6: 5}, {24: 15}), 6, 5, STANDARD)


# -- properties of every variant's results ---------------------------------------------


@pytest.mark.parametrize("variant", [DUTCH, ACEY])
def test_results_keep_checkers_and_pass_the_turn(variant: Variant) -> None:
    """On seeded random boards with checkers in hand: the opponent is on roll after
    every play, the mover's checkers in hand never increase, the opponent's hand
    never changes, every play uses the same number of dice, and each play
    replayed by ``Position.result_of`` leaves a legal result."""
    rng = random.Random(3 if variant is DUTCH else 4)
    for _ in range(300):
        position = _random_variant_position(rng)
        mover = position.turn
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        plays = variant_legal_plays(position, d1, d2, variant)
        used = max_dice_playable(position, d1, d2, variant)
        assert {len(play.moves) for play in plays} == {used}
        legal = variant_legal_positions(position, d1, d2, variant)
        if legal:
            # Position.result_of replays moves from hand on the packed key, independently
            # of the generator's own board: both must agree on every play's result.
            assert {position.result_of(play) for play in plays} == legal
        for result in legal:
            assert result.turn == mover.opponent
            assert result.in_hand(mover) <= position.in_hand(mover)
            assert result.in_hand(mover.opponent) == position.in_hand(mover.opponent)
