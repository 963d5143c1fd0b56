"""Every worked example about moving and bearing off in the three rule texts.

Each test cites its rule text (``cy`` Welsh, ``hu`` Hungarian, ``no``
Norwegian, in ``shared/rules/``) with a short quote; the last test checks
that every quote really is in its file, so a citation cannot drift.

Positions are written out as ``{point: count}`` from each side's own
point of view (25 = bar); checkers a side does not place are borne off.
Where a text's example relies on a diagram the text file does not contain,
the docstring says which simplest position stands in for it.  Expected
results are worked out by hand in the docstrings and written as positions,
not taken from the engine.

Every example is run for both players on roll, so both orientations of
the engine are exercised.
"""

import re
from collections.abc import Callable, Mapping
from typing import TypeVar

import pytest

from controller.rules import IllegalPlayError, Move, Play, Player, Position, parse_play
from tests.shared_data import shared_file

BAR = 25
OFF = 0

Counts = Mapping[int, int]
F = TypeVar("F", bound=Callable[..., object])

CITATIONS: list[tuple[str, str]] = []


def cites(text: str, quote: str) -> Callable[[F], F]:
    """Record that a test enforces ``quote`` from ``rules-<text>.txt``."""
    CITATIONS.append((text, quote))

    def mark(test: F) -> F:
        return test

    return mark


def layout(counts: Counts) -> list[int]:
    """26 counts ``[off, 1..24, bar]``; unplaced checkers are borne off."""
    row = [0] * 26
    for place, count in counts.items():
        row[place] = count
    placed = sum(row)
    assert placed <= 15, counts
    row[OFF] += 15 - placed
    return row


def position(mover: Player, own: Counts, theirs: Counts) -> Position:
    """``mover`` on roll with ``own`` checkers against ``theirs``."""
    return Position.from_relative(layout(own), layout(theirs), mover)


def after(mover: Player, own: Counts, theirs: Counts) -> Position:
    """The position ``mover`` should leave: these checkers, opponent on roll."""
    return position(mover, own, theirs).with_turn(mover.opponent)


def is_legal(start: Position, text: str, d1: int, d2: int) -> bool:
    """Does ``text`` name a legal play of the roll (both dice orders agree)?"""
    answers = set()
    for a, b in ((d1, d2), (d2, d1)):
        try:
            parse_play(start, text, a, b)
            answers.add(True)
        except IllegalPlayError:
            answers.add(False)
    assert len(answers) == 1, f"{text}: dice order changed the verdict"
    return answers.pop()


def played(start: Position, text: str, d1: int, d2: int) -> Position:
    """The position after the legal play ``text``."""
    return start.play(parse_play(start, text, d1, d2))


def results(start: Position, d1: int, d2: int) -> frozenset[Position]:
    """All legal results, checked to be the same for both dice orders."""
    first = start.legal_positions(d1, d2)
    assert start.legal_positions(d2, d1) == first
    return first


@pytest.fixture(params=list(Player), ids=lambda p: f"mover{p.value}")
def mover(request: pytest.FixtureRequest) -> Player:
    player: Player = request.param
    return player


START: dict[int, int] = {24: 2, 13: 5, 8: 3, 6: 5}


# -- the starting position and the direction of play --------------------------

@cites("no", "På Svart side, plasser 2 hvite stykker på punkt 1, 5 svarte stykker på firkant 6")
@cites("no", "Hvit side bør speile dette arrangementet nøyaktig")
def test_starting_position(mover: Player) -> None:
    """no: on Black's side (numbered 1-12 from Black's inner-board corner):
    2 white on 1, 5 black on 6, 3 black on 8, 5 white on 12; White's side
    mirrors it.  Black's 1 is White's 24 and Black's 12 is White's 13, so
    each side has 2 on its 24, 5 on its 13, 3 on its 8 and 5 on its 6.
    """
    start = Position.initial(mover)
    assert start.layout(mover) == tuple(layout(START))
    for player in Player:
        other = player.opponent
        # "2 white checkers on Black's point 1": White's 24-point.
        assert start.checkers(player, 24) == 2 and start.checkers(other, 25 - 24) == 0
        # "5 white checkers on Black's point 12": White's 13-point.
        assert start.checkers(player, 13) == 5 and start.checkers(other, 25 - 13) == 0
        assert start.checkers(player, 8) == 3 and start.checkers(player, 6) == 5
    assert start.bar(mover) == start.off(mover) == 0


@cites("hu", "csökkenő számsorrendben kell mozognia az 1 pont felé")
@cites("cy", "bob amser yn flaen")
def test_checkers_only_move_forward(mover: Player) -> None:
    """hu: the farthest checkers are on the 24-point and all checkers move in
    descending order towards the 1-point.  cy: a checker always moves
    forward.  So from the start every move of every roll goes to a lower
    point number (of the mover's own numbering)."""
    start = Position.initial(mover)
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            for play in start.legal_plays(d1, d2):
                assert all(m.destination < m.source for m in play.moves), play


# -- two dice, two moves -----------------------------------------------------

@cites("cy", "nid yw tafliad o 2 a 4 yn cynrychioli symudiad o 6 lle")
@cites("cy", "Mae tair ffordd i chwarae'r tafliad hwn")
@cites("hu", "Az egyik ellenőrző mindkét számot használhatja, de különálló mozdulatokként")
def test_two_and_four_three_ways(mover: Player) -> None:
    """cy: 2 and 4 is not a move of 6 but a move of 2 and a move of 4, played
    three ways: (1) one checker 2, another 4; (2) one checker 2 then 4;
    (3) one checker 4 then 2.  The text has no position; the start serves.

    (1) 24/22 13/9: own 24:1 22:1 13:4 9:1 8:3 6:5.
    (2) 24/22/18 and (3) 24/20/18: own 24:1 18:1 13:5 8:3 6:5 (our 22, 20 and
    18 are the opponent's empty 3, 5 and 7-points).
    """
    start = position(mover, START, START)
    one_each = after(mover, {24: 1, 22: 1, 13: 4, 9: 1, 8: 3, 6: 5}, START)
    same_checker = after(mover, {24: 1, 18: 1, 13: 5, 8: 3, 6: 5}, START)
    assert played(start, "24/22 13/9", 2, 4) == one_each
    assert played(start, "24/22/18", 2, 4) == same_checker
    assert played(start, "24/20/18", 4, 2) == same_checker
    assert {one_each, same_checker} <= results(start, 2, 4)


@cites("cy", "nid yw tafliad o 2 a 4 yn cynrychioli symudiad o 6 lle")
def test_two_and_four_is_not_a_six(mover: Player) -> None:
    """cy (same passage): the roll is two moves, not one of 6, so a checker
    whose 2 and 4 landing points are both blocked cannot go 6 even to an
    open point.  Opponent 24:2 13:5 8:2 6:2 5:2 3:2 holds our 20 and 22;
    our 18 (their 7) is empty.  The back checkers stay; 13/9 13/11 is fine.
    """
    opp = {24: 2, 13: 5, 8: 2, 6: 2, 5: 2, 3: 2}
    start = position(mover, START, opp)
    assert not is_legal(start, "24/18", 4, 2)
    assert not is_legal(start, "24/22/18", 4, 2)
    assert not is_legal(start, "24/20/18", 4, 2)
    assert is_legal(start, "13/9 13/11", 4, 2)
    for play in start.legal_plays(4, 2):
        assert all(m.source != 24 for m in play.moves), play


@cites("hu", "ha egy játékosnak van egy 2 és 3 játszani")
@cites("hu", "így meg kell próbálni a mozog a többi ellenőrök máshol a táblán")
def test_two_and_three_blocked_checker_others_must_move(mover: Player) -> None:
    """hu: with 2-3 to play, a checker with an empty point five away cannot
    move when the opponent owns the points 2 and 3 away; every number must
    still be played, with other checkers.  Simplest position: our start
    against an opponent holding their 3 and 4-points (our 22 and 21) and
    not their 6 (our 19 empty): 24:2 13:5 8:4 4:2 3:2.  Every legal play
    uses both dice and none moves a back checker.
    """
    opp = {24: 2, 13: 5, 8: 4, 4: 2, 3: 2}
    start = position(mover, START, opp)
    assert not is_legal(start, "24/19", 2, 3)
    plays = start.legal_plays(2, 3)
    assert plays and all(len(p.moves) == 2 for p in plays)
    assert all(m.source != 24 for p in plays for m in p.moves)


@cites("cy", "Er enghraifft ar gyfer tafliad o 5-3")
def test_five_three_by_one_checker(mover: Player) -> None:
    """cy: a 5-3 may be played by one checker (the text's picture is
    missing).  From the start: 13/8/5 ends 13:4 5:1; 24/21/16 ends 24:1
    16:1 (our 21 and 16 are their empty 4 and 9).  24/19/16 is not
    possible: our 19 is their 6-point, 5 checkers."""
    start = position(mover, START, START)
    assert played(start, "13/8/5", 5, 3) == after(mover, {24: 2, 13: 4, 8: 3, 6: 5, 5: 1}, START)
    assert played(start, "24/21/16", 5, 3) == after(
        mover, {24: 1, 16: 1, 13: 5, 8: 3, 6: 5}, START
    )
    assert not is_legal(start, "24/19/16", 5, 3)


@cites("cy", "Nid yw'r bar yn ofod ynddo'i hun; nid yw ei groesi'n costio dim pwyntiau symud")
def test_crossing_the_bar_costs_nothing(mover: Player) -> None:
    """cy: the bar is not a space.  8/5 with a 3 crosses it (between the 7
    and 6-points) and 24/18 with a 6 crosses the other half's bar (between
    19 and 18); both take exactly their die."""
    start = position(mover, START, START)
    assert played(start, "8/5 6/5", 3, 1) == after(mover, {24: 2, 13: 5, 8: 2, 6: 4, 5: 2}, START)
    assert played(start, "24/18 6/5", 6, 1) == after(
        mover, {24: 1, 18: 1, 13: 5, 8: 3, 6: 4, 5: 1}, START
    )


# -- doubles -------------------------------------------------------------------

SIXES_OWN = {BAR: 1, 24: 3, 6: 11}
SIXES_OPP = {2: 15}


@cites("cy", "Mae tafliad o 6-6 er enghraifft yn caniatáu 4 symudiad o 6 lle")
@cites("cy", "Felly bydd 4 symudiad")
@cites("hu", "lehet mozgatni annyi a négy, mint lehetséges bármilyen kombinációja az ő Dáma")
def test_six_six_distributions(mover: Player) -> None:
    """cy: 6-6 is four moves of 6, distributed (1) one checker four times,
    (2) one three times and another once, (3) two and two, (4) one once and
    another three times, (5) four different checkers.

    A checker can only move 24 pips in one turn if it starts on the bar
    (from the 24-point it would need to bear off), so the simplest position
    with all five: own bar:1 24:3 6:11, the opponent's 15 on their 2-point
    (our 23), out of the way.  The 6s on the 6-point cannot bear off (not
    all home).  The entering checker (bar/19) may go on to 13, 7, 1; each
    24 checker to 18, 12, 6.  With a = further moves of the entered checker
    and b = the 24 checkers' moves (a + sum b = 3): a=3; a=2 b=1; a=1 b=2 or
    1+1; a=0 b=3, 2+1 or 1+1+1: seven results.
    """
    start = position(mover, SIXES_OWN, SIXES_OPP)

    def own(extra: Counts) -> Position:
        return after(mover, extra, SIXES_OPP)

    distributions = {
        "bar/19/13/7/1": own({1: 1, 24: 3, 6: 11}),  # (1)
        "bar/19/13/7 24/18": own({7: 1, 24: 2, 18: 1, 6: 11}),  # (2)
        "bar/19/13 24/18/12": own({13: 1, 24: 2, 12: 1, 6: 11}),  # (3)
        "bar/19 24/18/12/6": own({19: 1, 24: 2, 6: 12}),  # (4)
        "bar/19 24/18 24/18 24/18": own({19: 1, 18: 3, 6: 11}),  # (5)
    }
    for text, expected in distributions.items():
        assert played(start, text, 6, 6) == expected, text
    others = {
        own({13: 1, 24: 1, 18: 2, 6: 11}),  # bar/13 24/18(2)
        own({19: 1, 24: 1, 18: 1, 12: 1, 6: 11}),  # bar/19 24/18 24/12
    }
    assert results(start, 6, 6) == set(distributions.values()) | others
    assert all(len(p.moves) == 4 for p in start.legal_plays(6, 6))


@cites("hu", "lehet mozgatni annyi a négy, mint lehetséges bármilyen kombinációja az ő Dáma")
@cites("no", "så mange trekk som mulig må gjøres hver tur")
def test_doubles_play_as_many_as_possible(mover: Player) -> None:
    """hu: with a double, move as many of the four as possible; no: as many
    moves as possible each turn.  Own 13:1 1:14; the opponent holds their
    20-point (our 5), the rest on their 6.  With 4-4, 13/9 is possible, 9/5
    is blocked and the 1-point checkers cannot move (not all home).  One
    move is played, three are forfeited: 9:1 1:14.
    """
    opp = {20: 2, 6: 13}
    start = position(mover, {13: 1, 1: 14}, opp)
    assert results(start, 4, 4) == {after(mover, {9: 1, 1: 14}, opp)}
    assert [len(p.moves) for p in start.legal_plays(4, 4)] == [1]


@cites("cy", "Nid oes terfyn ar nifer y darnau o'r un lliw sydd wedi'u pentyrru ar le")
def test_no_limit_on_stacking(mover: Player) -> None:
    """cy: no limit on checkers of one colour on a point.  Own 16:1 13:14
    with 2-1: 16/13 makes fifteen on the 13-point (opponent on their 6)."""
    opp = {6: 15}
    start = position(mover, {16: 1, 13: 14}, opp)
    assert played(start, "16/14/13", 2, 1) == after(mover, {13: 15}, opp)
    assert after(mover, {13: 15}, opp) in results(start, 2, 1)


# -- landing, blocking, hitting --------------------------------------------------

OPENED_3_1 = {24: 2, 13: 5, 8: 2, 6: 4, 5: 2}  # the start after 8/5 6/5


@cites("cy", "os yw'r chwaraewr du yn taflu 5-4, ni all symud ei ddarnau cefn ymlaen 4 na 5")
@cites("cy", "Mae hyd yn oed yn amhosibl stopio")
@cites("hu", "ellenfele nem szállhat le ezekre")
@cites("no", "motstanderen kan ikke lande en brikke på et slikt punkt")
def test_five_four_back_checkers_stuck(mover: Player) -> None:
    """cy: black rolls 5-4 and cannot move the back checkers 4 or 5, nor 9
    at once though that point is free.  The diagram is missing; the
    simplest match is our start against an opponent who opened 3-1
    (8/5 6/5: 24:2 13:5 8:2 6:4 5:2), who holds our 20 and 19 (their 5 and
    6); our 15 (their 10) is empty."""
    start = position(mover, START, OPENED_3_1)
    for text in ("24/20", "24/19", "24/15", "24/20/15", "24/19/15"):
        assert not is_legal(start, text, 5, 4), text
    assert is_legal(start, "13/8 13/9", 5, 4)
    plays = start.legal_plays(5, 4)
    assert plays and all(m.source != 24 for p in plays for m in p.moves)


@cites("cy", "mae'n bosibl pasio'n uniongyrchol dros le sy'n cael ei feddiannu gan sawl darn")
def test_jumping_over_blocked_points(mover: Player) -> None:
    """cy: one may pass straight over points held by the opponent.  Same
    position: 24/18 with a 6 jumps their 5 and 6-points (our 20, 19), then
    18/13 with the 5: own 24:1 13:6 8:3 6:5."""
    start = position(mover, START, OPENED_3_1)
    assert played(start, "24/18/13", 6, 5) == after(mover, {24: 1, 13: 6, 8: 3, 6: 5}, OPENED_3_1)


@cites("no", "fordi en prime ikke kan krysses av en motstander")
@cites("hu", "hat ponttal prime, amely járhatatlan")
def test_six_prime_cannot_be_passed(mover: Player) -> None:
    """no/hu: six blocked points in a row (a prime) cannot be crossed by the
    opponent.  The opponent holds their 2 to 7-points (our 23 to 18), 2
    each, 3 on their 13; our back checker on 24 never moves, whatever the
    roll, while the rest (14 on our 6) still play inside."""
    theirs = {2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 2, 13: 3}
    start = position(mover, {24: 1, 6: 14}, theirs)
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            plays = start.legal_plays(d1, d2)
            assert all(m.source != 24 for p in plays for m in p.moves), (d1, d2)
            assert all(r.checkers(mover, 24) == 1 for r in results(start, d1, d2))


OPENED_6_2 = {24: 1, 18: 1, 13: 4, 11: 1, 8: 3, 6: 5}  # the start after 24/18 13/11


@cites("cy", "Fodd bynnag, nid yw taro byth yn orfodol")
@cites("cy", "ei feddiannu gan un yn unig o ddarnau'r gwrthwynebydd")
@cites("hu", "bár lehet, hogy úgy dönt, hogy nem hit")
def test_hitting_is_allowed_not_compulsory(mover: Player) -> None:
    """cy: a checker may land on a lone opposing checker, which is hit and
    put on the bar; hitting is never compulsory.  The opponent opened 6-2
    24/18 13/11, leaving a blot on their 18 (our 7).  With 6-1:
    13/7* 8/7 hits: own 24:2 13:4 8:2 7:2 6:5, theirs bar:1 24:1 13:4 11:1
    8:3 6:5.  24/18 24/23 does not: own 23:1 18:1 13:5 8:3 6:5, theirs
    unchanged.  Both are legal."""
    start = position(mover, START, OPENED_6_2)
    hit = after(mover, {24: 2, 13: 4, 8: 2, 7: 2, 6: 5},
                {BAR: 1, 24: 1, 13: 4, 11: 1, 8: 3, 6: 5})
    no_hit = after(mover, {23: 1, 18: 1, 13: 5, 8: 3, 6: 5}, OPENED_6_2)
    assert played(start, "13/7* 8/7", 6, 1) == hit
    assert played(start, "24/18 24/23", 6, 1) == no_hit
    assert {hit, no_hit} <= results(start, 6, 1)


# -- using both dice, the higher die, forfeits ------------------------------------

@cites("cy", "Rhaid chwarae'r ddau ddis os yw symudiadau cyfreithlon yn bodoli")
@cites("cy", "mae'n waharddiedig chwarae un dis mewn ffordd nad oes dim symudiad cyfreithlon")
@cites("cy", "Mae'n waharddiedig pasio eich tro tra bod symudiad yn bosibl")
@cites("no", "Spillerens er ikke tillatt å passere på sine trekk")
def test_must_not_strand_the_other_die(mover: Player) -> None:
    """cy: both dice must be played when they can be, and a die may not be
    played so as to leave the other unplayable when some play uses both.
    Own 10:1 8:1 1:13 (the 1s cannot move: not all home); the opponent
    holds our 4 and 2 (their 21 and 23) with the rest on their 6.
    6-3: the 6 alone is blocked (10/4, 8/2).  The 3 can go 10/7 or 8/5.
    After 8/5 no 6 is playable; after 10/7 the 6 plays 7/1.  So the only
    play is 10/7/1: own 8:1 1:14.  8/5 alone is illegal."""
    opp = {21: 2, 23: 2, 6: 11}
    start = position(mover, {10: 1, 8: 1, 1: 13}, opp)
    assert results(start, 6, 3) == {after(mover, {8: 1, 1: 14}, opp)}
    assert not is_legal(start, "8/5", 6, 3)
    assert is_legal(start, "10/7/1", 6, 3)


@cites("cy", "mae'n rhaid blaenoriaethu'r dis uwch pan fo'n bosibl")
@cites("hu", "de a második szám mozgatásához blokkolva van, a magasabb számot kell lejátszani")
def test_higher_die_when_only_one_can_be_played(mover: Player) -> None:
    """cy/hu: when only one die can be played, the higher one.  Own 12:1
    1:14; the opponent holds our 5 (their 20).  5-2: 12/7 or 12/10, but
    never both (7/5 and 10/5 are blocked).  The 5 must be played: 7:1 1:14.
    """
    opp = {20: 2, 6: 13}
    start = position(mover, {12: 1, 1: 14}, opp)
    assert results(start, 5, 2) == {after(mover, {7: 1, 1: 14}, opp)}
    assert not is_legal(start, "12/10", 5, 2)


@cites("cy", "mae'n rhaid blaenoriaethu'r dis uwch pan fo'n bosibl")
def test_lower_die_when_higher_cannot_be_played(mover: Player) -> None:
    """cy: the higher die "when possible".  As above but the opponent also
    holds our 7 (their 18): the 5 is unplayable, the 2 goes 12/10."""
    opp = {20: 2, 18: 2, 6: 11}
    start = position(mover, {12: 1, 1: 14}, opp)
    assert results(start, 5, 2) == {after(mover, {10: 1, 1: 14}, opp)}


@cites("cy", "Mae dis nas chwaraewyd yn cael eu fforffeidio")
def test_unplayable_dice_are_forfeited(mover: Player) -> None:
    """cy: unplayed dice are forfeited.  Own 12:1 1:14, the opponent holds
    our 7 and 10 (their 18 and 15): 5-2 cannot be played at all."""
    start = position(mover, {12: 1, 1: 14}, {18: 2, 15: 2, 6: 11})
    assert results(start, 5, 2) == frozenset()
    assert start.legal_plays(5, 2) == [Play((), (5, 2))]


# -- the bar -------------------------------------------------------------------------

ON_BAR_START = {BAR: 1, 24: 1, 13: 5, 8: 3, 6: 5}


@cites("no", "Et kast på 5 gjør at brikken kan komme inn på punkt 5 på motstanderens indre bord")
@cites("hu", "a 24 pontból számítva")
@cites("cy", "Mae ailgyflwyno yn cael ei wneud ym mwrdd cartref y gwrthwynebydd")
def test_entering_on_the_die_point(mover: Player) -> None:
    """no: a 5 enters on point 5 of the opponent's inner board (our 20).
    One of our back checkers is on the bar, the opponent is at the start
    (their 5 and 3 are empty).  With 5-3 every play enters, on 20 or 22."""
    start = position(mover, ON_BAR_START, START)
    entries = set()
    for play in start.legal_plays(5, 3):
        first = play.moves[0]
        assert first.source == BAR, play
        entries.add(first.destination)
    assert entries == {20, 22}
    assert played(start, "bar/20 24/21", 5, 3) == after(
        mover, {24: 0, 21: 1, 20: 1, 13: 5, 8: 3, 6: 5}, START
    )


@cites("cy", "Rhaid i chwaraewr sydd ag un darn neu fwy ar y bar eu hailgyflwyno cyn gwneud unrhyw")
@cites("no", "kan ingen andre brikker flyttes før alle slike brikker har kommet inn igjen")
def test_enter_before_anything_else(mover: Player) -> None:
    """cy/no: with checkers on the bar nothing else moves until all are in.
    Same position: 13/8 13/10 is illegal.  With two on the bar (own bar:2
    13:5 8:3 6:5) and 6-5 against the start: the 6 would enter on their
    6-point (blocked), the 5 enters on 20, and the 6 may not be used by
    another checker while one is still on the bar: own bar:1 20:1 13:5 8:3
    6:5 is the only result."""
    start = position(mover, ON_BAR_START, START)
    assert not is_legal(start, "13/8 13/10", 5, 3)
    two_up = position(mover, {BAR: 2, 13: 5, 8: 3, 6: 5}, START)
    assert results(two_up, 6, 5) == {after(mover, {BAR: 1, 20: 1, 13: 5, 8: 3, 6: 5}, START)}


@cites("cy", "Rhaid i chwaraewr sydd ag un darn neu fwy ar y bar eu hailgyflwyno cyn gwneud unrhyw")
def test_doubles_enter_every_checker_first(mover: Player) -> None:
    """cy: one *or more* checkers on the bar all enter first.  Three on the
    bar (own bar:3 13:5 8:2 6:5) against the start, 3-3: all three enter on
    22 (their empty 3-point), and the fourth 3 cannot move them on (19 is
    their 6-point) so it is played elsewhere.  Two on the bar with 5-5
    against an opponent holding their 5 (our 20): nothing enters, nothing
    moves."""
    three_up = position(mover, {BAR: 3, 13: 5, 8: 2, 6: 5}, START)
    plays = three_up.legal_plays(3, 3)
    assert plays
    for play in plays:
        assert play.moves[:3] == (Move(BAR, 22),) * 3, play
        assert len(play.moves) == 4 and play.moves[3].source in {13, 8, 6}, play
    for result in results(three_up, 3, 3):
        assert result.bar(mover) == 0 and result.checkers(mover, 22) == 3
    two_up = position(mover, {BAR: 2, 13: 5, 8: 3, 6: 5}, OPENED_3_1)
    assert results(two_up, 5, 5) == frozenset()


ENTRY_OWN = {BAR: 1, 13: 5, 8: 4, 6: 5}
FIVE_POINTS = {6: 2, 5: 2, 4: 2, 3: 2, 2: 2}


@pytest.mark.parametrize(
    ("case", "own", "theirs"),
    [
        ("empty", ENTRY_OWN, FIVE_POINTS | {13: 5}),
        ("own checker", {BAR: 1, 24: 1, 13: 4, 8: 4, 6: 5}, FIVE_POINTS | {13: 5}),
        ("blot", ENTRY_OWN, FIVE_POINTS | {1: 1, 13: 4}),
    ],
)
@cites("cy", "Os oes gan Ddu un ymhlith y ddau ddis, gall ailgyflwyno ar bwynt cyntaf")
def test_entering_with_a_one(mover: Player, case: str, own: Counts, theirs: Counts) -> None:
    """cy: with a 1 among the dice, Black may enter on the first point of
    White's home board if it is empty, holds Black's own checkers, or holds
    one opposing checker.  The opponent holds their 2-6 points, so with 6-1
    the 6 cannot enter and the 1 must: bar/24 (hitting in the blot case).
    Then the 6 can be 24/18, 13/7 or 8/2 (our 18, 7, 2 are their empty 7,
    18, 23): three results each."""
    start = position(mover, own, theirs)
    found = results(start, 6, 1)
    assert len(found) == 3, case
    for play in start.legal_plays(6, 1):
        assert play.moves[0] == Move(BAR, 24, hit=case == "blot"), play
    for result in found:
        assert result.bar(mover) == 0
        assert result.bar(mover.opponent) == (1 if case == "blot" else 0)
    if case == "blot":
        hit_theirs = FIVE_POINTS | {BAR: 1, 13: 4}
        assert found == {
            after(mover, {18: 1, 13: 5, 8: 4, 6: 5}, hit_theirs),
            after(mover, {24: 1, 13: 4, 8: 4, 7: 1, 6: 5}, hit_theirs),
            after(mover, {24: 1, 13: 5, 8: 3, 6: 5, 2: 1}, hit_theirs),
        }


@cites("cy", "nid yw cyfuno gwerthoedd y ddau ddis i ailgyflwyno yn cael ei ganiatáu")
def test_no_entering_on_the_sum(mover: Player) -> None:
    """cy: the entry point must come from one die; the dice may not be
    added.  The opponent holds their 1 and 2-points (our 24, 23), their
    3-point (our 22) is empty.  2-1 cannot enter even though 2+1 = 3 is
    open; 3-1 enters on 22."""
    theirs = {1: 2, 2: 2, 13: 11}
    start = position(mover, ENTRY_OWN, theirs)
    assert results(start, 2, 1) == frozenset()
    assert is_legal(start, "bar/22 8/7", 3, 1)


@cites("cy", "os bydd y ddau ddis yn glanio ar bwyntiau wedi'u blocio, mae ailgyflwyno yn amhosibl")
@cites("hu", "lehet, hogy nem játszik a kocka tekercs más Dáma máshol a táblán")
@cites("no", "kan spilleren ikke flytte noen annen brikke og spille passerer til motstanderen")
def test_both_entry_points_blocked_is_a_pass(mover: Player) -> None:
    """cy: with a checker on the bar and both dice pointing at blocked
    points, the player cannot enter and passes; the other checkers may not
    move.  The opponent holds their 6 and 1-points only: 6-1 dances although
    13/7 and 8/7 would be open; 6-2 enters on 23."""
    theirs = {6: 2, 1: 2, 13: 11}
    start = position(mover, ENTRY_OWN, theirs)
    assert results(start, 6, 1) == frozenset()
    assert start.legal_plays(6, 1) == [Play((), (6, 1))]
    assert is_legal(start, "bar/23 13/7", 6, 2)


@cites("cy", "Pan fydd gan fwrdd cartref bwynt wedi'i flocio ar bob un o'i 6 phwynt")
@cites("hu", "mind a hat hazai pontját kitöltötte")
def test_closed_board(mover: Player) -> None:
    """cy/hu: a home board blocked on all six points is closed; an opponent
    on the bar cannot play at all, whatever the roll."""
    theirs = {6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2, 13: 3}
    start = position(mover, ENTRY_OWN, theirs)
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            assert results(start, d1, d2) == frozenset(), (d1, d2)


# -- bearing off -------------------------------------------------------------------

AWAY = {6: 5, 5: 5, 4: 5}  # an opponent safely at home, out of the way


@cites("cy", "RHAID iddo ddefnyddio'r 6 i dynnu darn oddi ar bwynt 6")
@cites("cy", "GALL y 4 gael ei ddefnyddio i dynnu allan o bwynt 4")
def test_six_four_with_every_home_point_made(mover: Player) -> None:
    """cy: White rolls 6-4 with two or more checkers on every home point:
    the 6 MUST bear off from the 6-point; the 4 MAY bear off from the
    4-point or move 4 from the 5 or 6-point to the 1 or 2-point.
    Own 1-6: two each, 3 off.  Results:
      6/off 4/off: 6:1 5:2 4:1 3:2 2:2 1:2, 5 off;
      6/off 5/1:   6:1 5:1 4:2 3:2 2:2 1:3, 4 off;
      6/off 6/2:   5:2 4:2 3:2 2:3 1:2, 4 off.
    Nothing else: 6/2 5/1 (the 6 not bearing off) is illegal."""
    home = {6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2}
    start = position(mover, home, AWAY)
    assert results(start, 6, 4) == {
        after(mover, {6: 1, 5: 2, 4: 1, 3: 2, 2: 2, 1: 2}, AWAY),
        after(mover, {6: 1, 5: 1, 4: 2, 3: 2, 2: 2, 1: 3}, AWAY),
        after(mover, {5: 2, 4: 2, 3: 2, 2: 3, 1: 2}, AWAY),
    }
    assert not is_legal(start, "6/2 5/1", 6, 4)


@cites("cy", "rhaid i chi dynnu darn oddi ar y pwynt uchaf sy'n cael ei feddiannu")
@cites("no", "har spilleren lov til å bære den neste høyeste brikken")
def test_die_above_highest_point_bears_off_highest(mover: Player) -> None:
    """cy: a die higher than the highest occupied point bears off from the
    highest point.  Own 3:2 2:1, 12 off; 6-5 takes both 3s off (never the
    2 while a 3 is left): 2:1, 14 off."""
    start = position(mover, {3: 2, 2: 1}, AWAY)
    assert results(start, 6, 5) == {after(mover, {2: 1}, AWAY)}


@cites("cy", "Pryd bynnag y bo'n bosibl, rhaid chwarae dis i'w werth llawn")
def test_full_value_when_possible(mover: Player) -> None:
    """cy: a die must be played to its full value whenever possible.  Own
    6:1 1:1, 13 off; 2-1.  The 2 cannot take the 1-point checker off while
    the 6 is there.  Results: 6/4 1/off (4:1, 14 off) and 6/4/3 (3:1 1:1);
    not 6/5 with the 1 and 1/off with the 2 (5:1, 14 off)."""
    start = position(mover, {6: 1, 1: 1}, AWAY)
    assert results(start, 2, 1) == {
        after(mover, {4: 1}, AWAY),
        after(mover, {3: 1, 1: 1}, AWAY),
    }
    assert not is_legal(start, "6/5 1/off", 2, 1)


@cites("hu", "meg kell mozgatni az 5 az ő 6 pont felett az ő 1 pont")
def test_five_with_no_checker_on_five_moves_from_six(mover: Player) -> None:
    """hu: bearing off with a 5 and no checker on the 5-point but some on
    the 6-point, the 5 must be moved from the 6 to the 1-point.  Own 6:2
    3:1, 12 off; 5-5: 6/1 twice, then the 3 is highest (3/off), then the 1
    (1/off): 1:1, 14 off."""
    start = position(mover, {6: 2, 3: 1}, AWAY)
    assert results(start, 5, 5) == {after(mover, {1: 1}, AWAY)}
    assert is_legal(start, "6/1(2) 3/off 1/off", 5, 5)


@cites("hu", "Ha nincs Dáma sem az 5, sem a 6 ponton")
def test_five_or_six_bears_off_from_next_lower_point(mover: Player) -> None:
    """hu: no checkers on the 5 or 6-point and a 5 or even a 6 rolled: a
    checker comes off the next lower occupied point.  Own 4:1 2:2, 12 off;
    6-5: the 4 comes off, then a 2: 2:1, 14 off."""
    start = position(mover, {4: 1, 2: 2}, AWAY)
    assert results(start, 6, 5) == {after(mover, {2: 1}, AWAY)}


@cites("hu", "ha egy játékos két korongja a 6 pont, valamint két, az 5 pontot, majd dob egy 6-5")
@cites("hu", "teljesen legális elviselni az egyik a 6 pont")
def test_six_five_need_not_leave_two_blots(mover: Player) -> None:
    """hu: two on the 6, two on the 5, 6-5 rolled, the opponent waiting on
    the bar: the player need not bear off one from each point (two blots);
    bearing off a 6 and playing the other 6 to the 1-point with the 5 is
    legal.  Own 6:2 5:2, 11 off; opponent bar:1 and the rest in their home.
    The 6 can only bear off a 6-point checker, the 5 then bears off from 5
    or plays 6/1: results 6:1 5:1 (13 off) and 5:2 1:1 (12 off)."""
    theirs = {BAR: 1, 6: 4, 5: 4, 4: 3, 3: 3}
    start = position(mover, {6: 2, 5: 2}, theirs)
    assert results(start, 6, 5) == {
        after(mover, {6: 1, 5: 1}, theirs),
        after(mover, {5: 2, 1: 1}, theirs),
    }
    assert is_legal(start, "6/off 5/off", 6, 5)
    assert is_legal(start, "6/off 6/1", 6, 5)


@cites("hu", "amely az 1, 2, 5, illetve 6 pontot, a játékos dob 4, 3, nem ellenőrző jön le")
def test_four_three_moves_inside_without_bearing_off(mover: Player) -> None:
    """hu: four checkers left on the 1, 2, 5 and 6-points and 4-3 rolled: no
    checker comes off; the 4 and 3 are played with the 5 and 6-point
    checkers.  By hand: no checker on 4 or 3, higher ones exist, so neither
    die bears off; 6/2 5/2 (1:1 2:3) or 6/3 5/1 (1:2 2:1 3:1); one checker
    cannot take both (6/3 then 3/off with the 4 is barred by the 5)."""
    start = position(mover, {6: 1, 5: 1, 2: 1, 1: 1}, AWAY)
    assert results(start, 4, 3) == {
        after(mover, {2: 3, 1: 1}, AWAY),
        after(mover, {3: 1, 2: 1, 1: 2}, AWAY),
    }


@cites("hu", "két dáma az ő 1 pont, kettő az ő 3 pont, egy pedig az ő 6 pont, és dob egy 5-2")
@cites("hu", "ő először játszani a 2, az ő 6 pont az ő 4 pont")
def test_five_two_two_first_then_bear_off(mover: Player) -> None:
    """hu: two on the 1, two on the 3, one on the 6, and 5-2: the player
    need not play 6/1 3/1; he may play the 2 first, 6/4, then bear the
    checker off the 4-point with the 5.  Own 6:1 3:2 1:2, 10 off.
    Results: 6/1 3/1 (3:1 1:4, 10 off) and 6/4/off (3:2 1:2, 11 off)."""
    start = position(mover, {6: 1, 3: 2, 1: 2}, AWAY)
    assert results(start, 5, 2) == {
        after(mover, {3: 1, 1: 4}, AWAY),
        after(mover, {3: 2, 1: 2}, AWAY),
    }
    assert is_legal(start, "6/4/off", 5, 2)
    assert is_legal(start, "6/1 3/1", 5, 2)


@cites("no", "hvis spilleren har et stykke på punkt 5, to stykker på punkt 3")
@cites("no", "vil spilleren bære av de fire høyest plasserte brikkene")
@cites("hu", "képes lesz elviselni le négy dáma egyetlen tekercs")
def test_five_five_bears_off_four(mover: Player) -> None:
    """no: with 5-5 and checkers on 5, 3, 3, 2, 1, the four highest come off
    and one is left on the 1-point.  Own 5:1 3:2 2:1 1:1, 10 off -> 1:1."""
    start = position(mover, {5: 1, 3: 2, 2: 1, 1: 1}, AWAY)
    assert results(start, 5, 5) == {after(mover, {1: 1}, AWAY)}
    assert is_legal(start, "5/off 3/off(2) 2/off", 5, 5)


@cites("no", "kan de velge å flytte en brikke i sitt indre bord i stedet")
def test_moving_inside_instead_of_bearing_off(mover: Player) -> None:
    """no: the player need not bear off; he may move inside the home board
    instead.  Own 4:2 2:1, 12 off; 2-1.  Results: 2/off 4/3 (4:1 3:1, 13
    off), 4/2 4/3 (3:1 2:2) and 4/2 2/1 = 4/1 (4:1 2:1 1:1); the last two
    bear nothing off although 2/off was possible."""
    start = position(mover, {4: 2, 2: 1}, AWAY)
    assert results(start, 2, 1) == {
        after(mover, {4: 1, 3: 1}, AWAY),
        after(mover, {3: 1, 2: 2}, AWAY),
        after(mover, {4: 1, 2: 1, 1: 1}, AWAY),
    }


@cites("no", "når alle brikkene er til stede i en spillers indre bord, kan spilleren starte")
@cites("cy", "Y nod canolradd o gêm Backgammon: dod â'ch holl ddarnau i'ch bwrdd cartref")
def test_bear_off_as_soon_as_all_are_home(mover: Player) -> None:
    """no: bearing off starts when all checkers are in the home board, which
    can happen during the turn.  Own 13:1 1:14 (nobody in the way), 4-4:
    13/9/5/1 brings the last one home and the fourth 4 bears a checker off
    the 1-point: 1:14, 1 off.  Own 7:1 6:3 5:3 4:3 3:2, 3 off, 6-5: the 6
    can only be 7/1 until the 7 is home; the 5 can be 7/2 or 6/1 at once.
    7/1 then 5/off (6:3 5:2 4:3 3:2 1:1, 4 off), 7/1 and 6/1 (6:2 5:3 4:3
    3:2 1:2, 3 off), or 7/2 then 6/off (6:2 5:3 4:3 3:2 2:1, 4 off)."""
    theirs = {6: 15}
    start = position(mover, {13: 1, 1: 14}, theirs)
    assert results(start, 4, 4) == {after(mover, {1: 14}, theirs)}
    nearly = position(mover, {7: 1, 6: 3, 5: 3, 4: 3, 3: 2}, theirs)
    assert results(nearly, 6, 5) == {
        after(mover, {6: 3, 5: 2, 4: 3, 3: 2, 1: 1}, theirs),
        after(mover, {6: 2, 5: 3, 4: 3, 3: 2, 1: 2}, theirs),
        after(mover, {6: 2, 5: 3, 4: 3, 3: 2, 2: 1}, theirs),
    }


@cites("cy", "ni allwch dynnu allan mwy o ddarnau nes bod y darn sydd wedi'i daro'n ailgyflwyno")
@cites("hu", "a medve le késik")
@cites("no", "kan ikke starte på nytt før alle brikkene er igjen bosatt i det indre bordet")
def test_hit_during_bear_off_stops_it(mover: Player) -> None:
    """cy/hu/no: a checker hit after bearing off began must re-enter and come
    all the way home before bearing off resumes.  Own bar:1 6:3 5:3 4:3
    3:2, 3 off; the opponent has 2 on their 24 (our 1) and 13 on their 13.
    No roll bears anything off: after entering the checker is in the
    opponent's home board, at least 12 pips from home."""
    theirs = {24: 2, 13: 13}
    start = position(mover, {BAR: 1, 6: 3, 5: 3, 4: 3, 3: 2}, theirs)
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            for play in start.legal_plays(d1, d2):
                assert not any(m.bears_off for m in play.moves), (d1, d2, play)
            assert all(r.off(mover) == 3 for r in results(start, d1, d2))


# -- the citations themselves ------------------------------------------------------

def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize(("text", "quote"), CITATIONS, ids=[q[:40] for _, q in CITATIONS])
def test_quote_is_in_its_rule_text(text: str, quote: str) -> None:
    path = shared_file("rules", f"rules-{text}.txt")
    assert _normal(quote) in _normal(path.read_text(encoding="utf-8"))
