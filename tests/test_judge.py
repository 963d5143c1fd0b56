"""Judging a play from the board before and the board after.

Every expected verdict here was worked out by hand from the rules digest
(/work/shared/rules/README.md, "Rolling and moving" and "Bearing off"); the
comment above each example gives the reasoning so it can be checked.

Boards are written with :func:`board`, from the mover's seat: both the
mover's and the opponent's checkers are placed by the *mover's* point
numbers (1-6 the mover's home board, 19-24 the opponent's), so
``board({13: 1, ...}, {7: 2, ...})`` reads "my checker on my 13-point, two
of theirs on my 7-point".
"""

import random
import re
from collections.abc import Mapping
from typing import Any

import pytest

from controller.rules import InvalidPositionError, Move, Play, Player, Position
from controller.rules.faults import FaultKind as K
from controller.rules.judge import CLOSEST, Verdict, judge
from controller.rules.nearest import board_distance

Spec = Mapping[Any, int]
"""Checkers per place: points 1-24 (ints) or "bar" / "off"; Any because
mappings are invariant in their keys and most specs hold only points."""


def board(mover: Spec, opponent: Spec, turn: Player = Player.ZERO) -> Position:
    """A position with ``turn`` to move, both sides placed by the mover's point numbers.

    Keys are points 1-24 as the mover counts them, or ``"bar"`` / ``"off"``
    for each side's own bar and borne-off checkers.
    """

    def row(spec: Spec, theirs: bool) -> list[int]:
        counts = [0] * 26
        for where, count in spec.items():
            if where == "off":
                counts[0] += count
            elif where == "bar":
                counts[25] += count
            else:
                assert isinstance(where, int)
                counts[25 - where if theirs else where] += count
        return counts

    return Position.from_relative(row(mover, False), row(opponent, True), turn)


START = {24: 2, 13: 5, 8: 3, 6: 5}
START_THEIRS = {1: 2, 12: 5, 17: 3, 19: 5}
INITIAL = board(START, START_THEIRS)


def moved(spec: Spec, *moves: tuple[int | str, int | str]) -> dict[Any, int]:
    """``spec`` with one checker taken from the first place of each pair to the second."""
    out: dict[Any, int] = dict(spec)
    for source, destination in moves:
        out[source] -= 1
        if not out[source]:
            del out[source]
        out[destination] = out.get(destination, 0) + 1
    return out


def verdict(before: Position, mover: Spec, opponent: Spec, die1: int, die2: int) -> Verdict:
    return judge(before, board(mover, opponent, before.turn), die1, die2)


def texts(plays: tuple[Play, ...]) -> list[str]:
    return [str(play) for play in plays]


# -- legal plays --------------------------------------------------------------


def test_a_legal_play_is_legal_and_gives_the_play() -> None:
    result = verdict(INITIAL, moved(START, (8, 5), (6, 5)), START_THEIRS, 3, 1)
    assert result.legal
    assert result.play is not None and str(result.play) == "8/5 6/5"
    assert result.faults == () and result.reasons == () and result.closest == ()


def test_the_turn_of_the_board_after_does_not_matter() -> None:
    after = board(moved(START, (8, 5), (6, 5)), START_THEIRS)
    for turn in Player:
        assert judge(INITIAL, after.with_turn(turn), 3, 1).legal


def test_a_forced_dance_is_legal_only_without_moving() -> None:
    # On the bar against a board closed on the mover's 19-24: nothing moves.
    theirs = {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, "off": 3}
    mine = {"bar": 1, 13: 5, 8: 4, 6: 5}
    before = board(mine, theirs)
    stayed = judge(before, before, 6, 5)
    assert stayed.legal and stayed.play == Play((), (6, 5))
    # Moving anyway: the bar checker cannot enter, so nothing else may move.
    ran = verdict(before, moved(mine, (13, 7), (13, 8)), theirs, 6, 5)
    assert not ran.legal
    assert ran.kinds == (K.BAR_FIRST,)
    assert texts(ran.closest) == [""]


# -- dice left unplayed ------------------------------------------------------


def test_no_checker_moved() -> None:
    result = judge(INITIAL, INITIAL, 3, 1)
    assert result.reasons == ("no checker moved, but 3-1 can be played",)
    assert result.kinds == (K.UNPLAYED_DIE,)


def test_a_die_left_unplayed_that_could_still_be_played() -> None:
    # 13/8 plays the 5 only; afterwards 13/7 still plays the 6.
    result = verdict(INITIAL, moved(START, (13, 8)), START_THEIRS, 6, 5)
    assert result.reasons == ("the 6 could be played and was not",)


def test_both_dice_could_be_played() -> None:
    # Mine: 24, 3 (13 off).  Theirs: two on my 16, so 24/22/16 and 24/18/16
    # are blocked; 3/off is not allowed (24 is outside).  The only legal play
    # is 24/18 3/1.  Playing 24/22 leaves no 6 (22/16 blocked, 3 cannot bear
    # off), so the fault is having killed the 6, not skipping it.
    mine, theirs = {24: 1, 3: 1, "off": 13}, {16: 2, 19: 13}
    before = board(mine, theirs)
    assert texts(tuple(before.legal_plays(6, 2))) == ["24/18 3/1"]
    result = verdict(before, moved(mine, (24, 22)), theirs, 6, 2)
    assert result.reasons == ("both dice could be played",)
    assert texts(result.closest)[0] == "24/18 3/1"


def test_the_higher_die_must_be_played_when_only_one_can() -> None:
    # One checker on 24 (14 off), theirs two on my 16: 24/18 then 18/16 is
    # blocked, 24/22 then 22/16 is blocked, so only one die can be played,
    # and it must be the 6.
    mine, theirs = {24: 1, "off": 14}, {16: 2, 19: 13}
    before = board(mine, theirs)
    result = verdict(before, moved(mine, (24, 22)), theirs, 6, 2)
    assert result.reasons == ("the higher die (6) must be played when only one can",)
    assert texts(result.closest) == ["24/18"]


def test_doubles_played_only_twice() -> None:
    result = verdict(INITIAL, moved(START, (8, 5), (8, 5)), START_THEIRS, 3, 3)
    assert result.reasons == ("the 3 could be played four times but was played only twice",)


# -- bar, blocks ---------------------------------------------------------------


def test_a_checker_on_the_bar_must_enter_first() -> None:
    # Mine on the bar; their 5 on my 19 block the 6, my 20 is open for the 5.
    mine = {"bar": 1, 24: 1, 13: 5, 8: 3, 6: 5}
    before = board(mine, START_THEIRS)
    result = verdict(before, moved(mine, (13, 7), (13, 8)), START_THEIRS, 6, 5)
    assert result.reasons == ("a checker on the bar must enter first",)
    assert result.faults[0].points == (25,)
    # bar/20 13/7 differs in two checkers (the bar one, one 13 one); bar/14
    # in three.
    assert texts(result.closest)[:2] == ["bar/20 13/7", "bar/14"]


def test_both_intermediate_points_blocked() -> None:
    # Mine: 13, four on 6 (10 off).  Theirs hold my 7 and 8, so 13/2 would
    # have to stop on 7 (6 first) or 8 (5 first).  Legal is only 6/1: the 6
    # cannot bear off (13 is outside) and 13/7, 13/8 are blocked.
    mine, theirs = {13: 1, 6: 4, "off": 10}, {7: 2, 8: 2, 20: 11}
    before = board(mine, theirs)
    result = verdict(before, moved(mine, (13, 2)), theirs, 6, 5)
    assert result.reasons == ("points 7 and 8 are blocked",)
    assert result.faults[0].points == (7, 8)
    assert texts(result.closest) == ["6/1"]


def test_one_open_intermediate_point_makes_it_legal() -> None:
    mine, theirs = {13: 1, 6: 4, "off": 10}, {7: 2, 20: 13}
    result = verdict(board(mine, theirs), moved(mine, (13, 2)), theirs, 6, 5)
    assert result.legal and str(result.play) == "13/2"


def test_the_only_way_stops_on_a_blocked_point() -> None:
    # 6-6 takes the 13 checker 13/7/1: 7 is theirs.  Nothing else can move
    # (6/off needs every checker home), so the legal play is a dance.
    mine, theirs = {13: 1, 6: 4, "off": 10}, {7: 2, 20: 13}
    result = verdict(board(mine, theirs), moved(mine, (13, 1)), theirs, 6, 6)
    assert result.reasons == ("point 7 is blocked",)
    assert result.closest == (Play((), (6, 6)),)


def test_entering_on_a_blocked_point() -> None:
    # On the bar with 4-1: my 21 and 24 are theirs, so neither die enters.
    # bar/20 needs a stop on 24 (1 first) or 21 (4 first).
    theirs = {24: 2, 21: 2, 19: 2, "off": 9}
    mine = {"bar": 1, 6: 14}
    result = verdict(board(mine, theirs), moved(mine, ("bar", 20)), theirs, 4, 1)
    assert result.reasons == ("points 21 and 24 are blocked",)


# -- bearing off --------------------------------------------------------------

FAR = {20: 15}
"""Opponent checkers out of the way (all on my 20-point)."""


def test_bearing_off_with_a_checker_outside() -> None:
    # 6/off 5/off while a checker waits on 8.
    mine = {8: 1, 6: 2, 5: 2, "off": 10}
    result = verdict(board(mine, FAR), moved(mine, (6, "off"), (5, "off")), FAR, 6, 5)
    assert result.reasons == ("bearing off with a checker outside the home board",)
    assert result.faults[0].points == (8,)


def test_a_die_too_small_to_bear_off() -> None:
    # 5 and 2 left, 3-1 played as 5/off 2/1: the 3 cannot take the 5 off.
    mine = {5: 1, 2: 1, "off": 13}
    result = verdict(board(mine, FAR), moved(mine, (5, "off"), (2, 1)), FAR, 3, 1)
    assert result.reasons == ("a 3 cannot bear off from the 5-point",)
    assert texts(result.closest) == ["5/1"]


def test_a_die_must_be_used_in_full() -> None:
    # 6 and 3 left, 5-1 played as 3/off 6/5: the 5 takes the 3 off while
    # the 6 stands higher.  Legal: 6/1 3/2, or the 6 all the way off
    # (6/5/off or 6/1/off); no legal play leaves a checker on 5.
    mine = {6: 1, 3: 1, "off": 13}
    result = verdict(board(mine, FAR), moved(mine, (3, "off"), (6, 5)), FAR, 5, 1)
    assert result.reasons == (
        "must use the full value of a die when it can: the 5 may bear off from the 3-point "
        "only when no checker stands higher",
    )
    assert result.kinds == (K.FULL_VALUE,)


# Worked examples of the rules digest ---------------------------------------


def test_hu_six_five_against_a_blot() -> None:
    # Two on 6, two on 5, theirs with a checker on the bar waiting to hit.
    # Legal: 6/off 5/off (two blots) or 6/off 6/1 (one blot, on the 1).
    mine = {6: 2, 5: 2, "off": 11}
    theirs = {"bar": 1, 24: 2, 23: 3, 22: 3, 21: 3, 20: 3}
    before = board(mine, theirs)
    safe = verdict(before, moved(mine, (6, "off"), (6, 1)), theirs, 6, 5)
    bold = verdict(before, moved(mine, (6, "off"), (5, "off")), theirs, 6, 5)
    assert safe.legal and bold.legal
    assert len(before.legal_positions(6, 5)) == 2
    # Both off the 5-point: the 6 takes a 5-point checker while the 6-point
    # is still occupied.
    wrong = verdict(before, moved(mine, (5, "off"), (5, "off")), theirs, 6, 5)
    assert wrong.kinds == (K.FULL_VALUE,)
    assert "the 6 may bear off from the 5-point" in wrong.reasons[0]


def test_hu_four_three_with_checkers_on_one_two_five_six() -> None:
    # A 4 or a 3 cannot bear off from 2 or 1 while 5 and 6 are occupied,
    # so both dice move the back checkers: 6/2 5/2 or 6/3 5/1, nothing off.
    mine = {6: 1, 5: 1, 2: 1, 1: 1, "off": 11}
    before = board(mine, FAR)
    assert verdict(before, moved(mine, (6, 2), (5, 2)), FAR, 4, 3).legal
    assert verdict(before, moved(mine, (6, 3), (5, 1)), FAR, 4, 3).legal
    assert len(before.legal_positions(4, 3)) == 2
    # 6/2 and 1/off: the 3 bears off the 1 while 2 and 5 stand higher.
    wrong = verdict(before, moved(mine, (6, 2), (1, "off")), FAR, 4, 3)
    assert wrong.kinds == (K.FULL_VALUE,)
    assert "the 3 may bear off from the 1-point" in wrong.reasons[0]


def test_hu_five_two_with_two_on_one_two_on_three_one_on_six() -> None:
    # Not forced to play 6/1 3/1: 6/4 with the 2 makes the 4 the highest
    # point, and the 5 then bears it off.  Both are legal.
    mine = {6: 1, 3: 2, 1: 2, "off": 10}
    before = board(mine, FAR)
    assert verdict(before, moved(mine, (6, 1), (3, 1)), FAR, 5, 2).legal
    off = verdict(before, moved(mine, (6, "off")), FAR, 5, 2)
    assert off.legal and off.play is not None
    assert off.play.moves == (Move(6, 4), Move(4, 0))
    # 3/off 3/1: the 5 cannot take a 3 off while the 6 is occupied.
    wrong = verdict(before, moved(mine, (3, "off"), (3, 1)), FAR, 5, 2)
    assert wrong.kinds == (K.FULL_VALUE,)
    assert "the 5 may bear off from the 3-point" in wrong.reasons[0]


def test_no_five_five_with_checkers_on_five_three_three_two_one() -> None:
    # Four 5s take off the four highest: 5, 3, 3, 2, leaving the 1.
    mine = {5: 1, 3: 2, 2: 1, 1: 1, "off": 10}
    before = board(mine, FAR)
    right = verdict(before, {1: 1, "off": 14}, FAR, 5, 5)
    assert right.legal
    assert len(before.legal_positions(5, 5)) == 1
    # Keeping the 2 instead: the last 5 took the 1 while the 2 stood higher.
    kept_two = verdict(before, {2: 1, "off": 14}, FAR, 5, 5)
    assert kept_two.kinds == (K.FULL_VALUE,)
    assert "the 5 may bear off from the 1-point" in kept_two.reasons[0]
    # Stopping after three.
    three = verdict(before, {2: 1, 1: 1, "off": 13}, FAR, 5, 5)
    assert three.reasons == ("the 5 could be played four times but was played only three times",)


# -- physical mistakes -----------------------------------------------------------


def test_checkers_moved_backwards() -> None:
    result = verdict(INITIAL, moved(START, (6, 8)), START_THEIRS, 3, 1)
    assert result.reasons == ("checkers moved backwards: a checker moved back to point 8",)


def test_a_checker_put_on_the_movers_own_bar() -> None:
    result = verdict(INITIAL, moved(START, (13, "bar")), START_THEIRS, 3, 1)
    assert result.kinds == (K.BACKWARDS,)
    assert "put on the bar" in result.reasons[0]


def test_a_borne_off_checker_put_back() -> None:
    mine = {6: 1, "off": 14}
    result = verdict(board(mine, FAR), {6: 2, "off": 13}, FAR, 3, 1)
    assert result.kinds == (K.BACKWARDS, K.BACKWARDS)
    assert result.reasons[0] == "a borne-off checker was put back on the board"


def test_a_checker_disappeared() -> None:
    # 13/8 13/10 with 5-3, and a third 13-point checker knocked off the table.
    mine = moved(START, (13, 8), (13, 10))
    mine[13] -= 1
    result = verdict(INITIAL, mine, START_THEIRS, 5, 3)
    assert result.reasons == (
        "checkers appeared or disappeared: the mover has 14 checkers, not 15",)


def test_the_opponents_checker_moved() -> None:
    # 8/5 6/5 is legal, but one of theirs went from my 1 to my 4.
    theirs = moved(START_THEIRS, (1, 4))
    result = verdict(INITIAL, moved(START, (8, 5), (6, 5)), theirs, 3, 1)
    assert result.reasons == (
        "a checker was moved that was not the mover's "
        "(the opponent's checkers left point 1 and arrived on point 4)",
    )


def test_a_point_of_two_cannot_be_hit() -> None:
    # 13/8 13/7 is legal, but both of theirs on my 1 went to their bar.
    theirs = moved(START_THEIRS, (1, "bar"), (1, "bar"))
    result = verdict(INITIAL, moved(START, (13, 8), (13, 7)), theirs, 6, 5)
    assert result.kinds == (K.OPPONENT_CHANGED,)
    assert result.reasons[0].startswith("the opponent's checkers on point 1 changed without")


def test_a_blot_sent_to_the_bar_without_a_hit() -> None:
    # Their blot on my 20 goes to the bar though 8/5 6/5 never touched it.
    theirs = {1: 2, 12: 5, 17: 3, 19: 4, 20: 1}
    result = verdict(board(START, theirs), moved(START, (8, 5), (6, 5)),
                     moved(theirs, (20, "bar")), 3, 1)
    assert result.reasons == (
        "the opponent's checker on point 20 went to the bar without being hit",)


def test_a_hit_checker_not_put_on_the_bar() -> None:
    # Their blot on my 5; 8/5* 6/5 hits it, but it was lifted off the board.
    theirs = {1: 1, 5: 1, 12: 5, 17: 3, 19: 5}
    gone = dict(theirs)
    del gone[5]
    result = verdict(board(START, theirs), moved(START, (8, 5), (6, 5)), gone, 3, 1)
    assert result.reasons == ("a hit checker was not put on the bar (point 5)",)
    assert texts(result.closest)[0] == "8/5* 6/5"


def test_two_explanations_with_nothing_in_common() -> None:
    # 13/2 with 6-5; theirs hold my 7 and have a blot on my 8, which is
    # still there.  Either the checker stopped on the blocked 7, or it
    # stopped on 8 and hit the blot, which then was not put on the bar.
    mine, theirs = {13: 1, 6: 4, "off": 10}, {7: 2, 8: 1, 20: 12}
    result = verdict(board(mine, theirs), moved(mine, (13, 2)), theirs, 6, 5)
    assert result.reasons == (
        "this board cannot be reached with 6-5 without breaking a rule: either point 7 is "
        "blocked, or a hit checker was not put on the bar (point 8)",
    )
    assert texts(result.closest) == ["13/8*/2"]


# -- pips, fallbacks, closest plays ---------------------------------------------


def test_a_miscounted_move_and_the_closest_plays() -> None:
    # 13/7 8/4 with 6-5: 6 + 4 = 10 pips, and no die shows 4.
    result = verdict(INITIAL, moved(START, (13, 7), (8, 4)), START_THEIRS, 6, 5)
    assert result.reasons == ("moved 10 pips but the dice allow 11",
                              "this board cannot be reached with 6-5")
    # 13/7 8/3 differs in one checker (on 4, not 3); 13/2 and 13/8 13/7 in
    # two, 13/2 by 3 pips (7 to 8, 4 to 2), 13/8 13/7 by 9 (13 to 8, 4 to 8).
    # Every other play differs in three or more.
    assert texts(result.closest) == ["13/7 8/3", "13/2", "13/8 13/7"]
    assert len(result.closest) == CLOSEST


def test_right_pips_wrong_split() -> None:
    # 13/9 13/6: 4 + 7 = 11 pips, but neither is a die.
    result = verdict(INITIAL, moved(START, (13, 9), (13, 6)), START_THEIRS, 6, 5)
    assert result.reasons == ("this board cannot be reached with 6-5",)


def test_the_mover_may_be_either_player() -> None:
    mine, theirs = {13: 1, 6: 4, "off": 10}, {7: 2, 8: 2, 20: 11}
    before = board(mine, theirs, Player.ONE)
    result = judge(before, board(moved(mine, (13, 2)), theirs, Player.ONE), 6, 5)
    assert result.reasons == ("points 7 and 8 are blocked",)


def test_board_distance_counts_checkers_to_move() -> None:
    a = board(START, START_THEIRS)
    assert board_distance(a, a) == 0
    assert board_distance(a, board(moved(START, (13, 7)), START_THEIRS)) == 1
    assert board_distance(a, board(moved(START, (13, 7), (6, 5)), START_THEIRS)) == 2
    # A checker of each side out of place: one each.
    assert board_distance(a, board(moved(START, (13, 7)), moved(START_THEIRS, (1, 4)))) == 2
    # A missing checker is one to put back.
    fewer = dict(START)
    fewer[6] -= 1
    assert board_distance(a, board(fewer, START_THEIRS)) == 1


# -- properties over random positions -----------------------------------------


def random_position(rng: random.Random) -> Position:
    """A valid board with bar, borne-off and home-only boards reasonably often."""
    rows = [[0] * 26, [0] * 26]
    for side in (0, 1):
        home_only = rng.random() < 0.3
        for _ in range(15):
            place = 0
            for _attempt in range(10):
                draw = rng.random()
                if draw < 0.05 and not home_only:
                    place = 25
                elif draw < 0.15:
                    place = 0
                else:
                    place = rng.randint(1, 6 if home_only else 24)
                if not (side == 1 and 1 <= place <= 24 and rows[0][25 - place]):
                    break
            else:
                place = 0
            rows[side][place] += 1
    return Position(rows[0], rows[1], Player(rng.randint(0, 1)))


def test_every_legal_result_is_judged_legal() -> None:
    rng = random.Random(20240601)
    judged = 0
    for _ in range(2500):
        before = random_position(rng)
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        results = before.legal_positions(d1, d2)
        if not results:
            results = frozenset({before})
        for after in results:
            result = judge(before, after.with_turn(Player(rng.randint(0, 1))), d1, d2)
            assert result.legal, (before, after, d1, d2)
            assert result.play is not None
            assert before.result_of(result.play).key == after.key
            judged += 1
    assert judged > 50_000


def _backward(before: tuple[int, ...], after: tuple[int, ...]) -> bool:
    return after[0] < before[0] or any(sum(after[x:]) > sum(before[x:]) for x in range(1, 26))


def _check_truthful(before: Position, after: Position, d1: int, d2: int,
                    result: Verdict) -> None:
    """Each reason checked against the boards by its own definition."""
    me, them = before.turn, before.turn.opponent
    mine0, mine1 = before.layout(me), after.layout(me)
    theirs0, theirs1 = before.layout(them), after.layout(them)
    for fault in result.faults:
        kind = fault.kind
        if kind == K.BAR_FIRST:
            assert before.bar(me) > 0
        elif kind == K.BLOCKED:
            assert all(before.checkers(them, 25 - p) >= 2 for p in fault.points)
        elif kind in (K.BEAR_OFF_OUTSIDE, K.BEAR_OFF_SHORT, K.FULL_VALUE):
            assert after.off(me) > before.off(me)
            if kind == K.BEAR_OFF_OUTSIDE:
                assert any(mine0[7:])
        elif kind == K.COUNT:
            assert sum(mine0) != sum(mine1) or sum(theirs0) != sum(theirs1)
        elif kind == K.BACKWARDS:
            assert _backward(mine0, mine1)
        elif kind == K.NOT_MOVERS_CHECKER:
            assert theirs1[25] < theirs0[25] or theirs1[0] != theirs0[0] or any(
                theirs1[p] > theirs0[p] for p in range(1, 25))
        elif kind == K.HIT_NOT_ON_BAR:
            assert all(before.checkers(them, 25 - p) == 1 for p in fault.points)
        elif kind == K.OPPONENT_CHANGED:
            assert theirs0 != theirs1
        elif kind == K.HIGHER_DIE:
            assert d1 != d2
            assert all(len(p.moves) == 1 and p.moves[0].source - p.moves[0].destination
                       >= min(d1, d2) for p in before.legal_plays(d1, d2))
        elif kind == K.UNPLAYED_DIE:
            assert not before.legal_plays(d1, d2)[0].is_dance
        elif kind == K.PIPS:
            match = re.match(r"moved (-?\d+) pips", fault.text)
            assert match is not None
            assert int(match.group(1)) == before.pip_count(me) - after.pip_count(me)


def _sloppy(before: Position, rng: random.Random, d1: int, d2: int) -> Position:
    """Some of the dice played by random checkers with no rule but "forward, hit blots"."""
    mover, other = list(before.layout(before.turn)), list(before.layout(before.turn.opponent))
    dice = [d1] * 4 if d1 == d2 else [d1, d2]
    rng.shuffle(dice)
    for die in dice[: rng.randint(1, len(dice))]:
        source = rng.choice([p for p in range(1, 26) if mover[p]] or [0])
        if not source:
            break
        destination = max(0, source - die)
        mover[source] -= 1
        mover[destination] += 1
        if destination and other[25 - destination] == 1:
            other[25 - destination] = 0
            other[25] += 1
    try:
        return Position.from_relative(mover, other, before.turn)
    except InvalidPositionError:
        return before


def _mangled(before: Position, rng: random.Random, d1: int, d2: int) -> Position:
    """A board a careless player might leave: right idea, something off."""
    way = rng.randrange(7)
    if way == 6:
        return _sloppy(before, rng, d1, d2)
    if way == 0:  # another roll's play
        e1, e2 = rng.randint(1, 6), rng.randint(1, 6)
        return rng.choice(sorted(before.legal_positions(e1, e2), key=Position.position_id)
                          or [before])
    play = rng.choice(before.legal_plays(d1, d2))
    if way == 1 and len(play.moves) > 1:  # stopped early
        return before.result_of(Play(play.moves[:-1], play.dice))
    after = before.result_of(play)
    mover, other = list(after.layout(before.turn)), list(after.layout(before.turn.opponent))
    if way == 2 and other[25] > before.bar(before.turn.opponent):  # hit checker set aside
        other[25] -= 1
    else:  # one checker of either side nudged, or lost (way 5)
        row = mover if way != 3 else other
        source = rng.choice([p for p in range(26) if row[p]])
        row[source] -= 1
        if way != 5:
            row[min(25, max(0, source + rng.choice((-6, -3, -1, 1, 2, 5))))] += 1
    try:
        return Position.from_relative(mover, other, before.turn)
    except InvalidPositionError:
        return after


def test_random_wrong_boards_are_judged_illegal_for_true_reasons() -> None:
    rng = random.Random(99)
    seen: set[K] = set()
    illegal = 0
    for _ in range(600):
        before = random_position(rng)
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        after = _mangled(before, rng, d1, d2)
        result = judge(before, after, d1, d2)
        legal = before.legal_positions(d1, d2)
        expected = after.key in {p.key for p in legal} or (not legal and after.key == before.key)
        assert result.legal == expected, (before, after, d1, d2)
        if result.legal:
            continue
        illegal += 1
        assert result.play is None and result.faults and result.closest
        assert len(result.closest) <= CLOSEST
        nearest = min(board_distance(after, p) for p in legal) if legal else board_distance(
            after, before)
        assert board_distance(after, before.result_of(result.closest[0])) == nearest
        _check_truthful(before, after, d1, d2, result)
        seen.update(result.kinds)
    assert illegal > 400
    # The sample exercises the common kinds, not only the fallback.
    assert {K.UNPLAYED_DIE, K.BACKWARDS, K.PIPS, K.UNREACHABLE, K.COUNT, K.HIT_NOT_ON_BAR,
            K.NOT_MOVERS_CHECKER} <= seen, seen


@pytest.mark.parametrize("die1,die2", [(6, 5), (3, 3)])
def test_judging_does_not_depend_on_dice_order(die1: int, die2: int) -> None:
    after = board(moved(START, (13, 7), (8, 4)), START_THEIRS)
    assert judge(INITIAL, after, die1, die2).kinds == judge(INITIAL, after, die2, die1).kinds
