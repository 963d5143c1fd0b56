"""Legal plays worked out by hand, one rule of "Rolling and moving" and
"Bearing off" (shared/rules/README.md) at a time.

Positions are written as {point: checkers} from each player's own side; the
opponent's point p is the mover's point 25 - p.
"""

from controller.rules import Player, Position


def pos(mine: dict[int, int], theirs: dict[int, int], bar: int = 0,
        their_bar: int = 0) -> Position:
    def row(points: dict[int, int], on_bar: int) -> list[int]:
        counts = [0] * 26
        for point, n in points.items():
            counts[point] = n
        counts[25] = on_bar
        counts[0] = 15 - sum(counts)
        return counts

    return Position(row(mine, bar), row(theirs, their_bar), Player.ZERO)


def plays(position: Position, d1: int, d2: int) -> set[str]:
    return {str(p) for p in position.legal_plays(d1, d2)}


def test_start_4_2_gives_gnubgs_eighteen_plays() -> None:
    # The list gnubg's `hint` prints for 4-2 from the starting position.
    assert plays(Position.initial(), 4, 2) == {
        "8/4 6/4", "24/20 13/11", "24/22 13/9", "13/11 13/9", "24/22 24/20", "24/18",
        "24/20 6/4", "13/9 6/4", "24/20 8/6", "13/7", "13/9 8/6", "24/22 8/4",
        "13/11 8/4", "24/22 6/2", "13/11 6/2", "8/2", "6/4 6/2", "8/6 8/4",
    }


def test_blocked_intermediate_point_stops_a_combined_move() -> None:
    # One checker on 10; opponent holds the mover's 7 and 4 (their 18 and 21).
    # 6-3: 10/4 blocked, 10/7 blocked, so neither die can be played with the
    # lone checker, and 10/1 would need a stop on 7 or 4: both blocked.  The
    # checkers on 2 cannot move 6 or 3 either (not all home, so no bearing off).
    position = pos({10: 1, 2: 14}, {18: 2, 21: 2, 1: 11})
    assert plays(position, 6, 3) == {""}
    assert position.legal_positions(6, 3) == frozenset()


def test_both_dice_must_be_played_when_possible() -> None:
    # Checker on 9 and 3; opponent holds mover's 4 (their 21).
    # 5-1: 9/4 is blocked, 3/off is not allowed (not all home), so the only way
    # to use both dice is 9/8 then 8/3, written 9/3.
    position = pos({9: 1, 3: 1, 1: 13}, {21: 2, 1: 13})
    assert plays(position, 5, 1) == {"9/3"}


def test_higher_die_must_be_played_when_only_one_can() -> None:
    # Lone checker on 13 outside; opponent holds mover's 5, 7 (their 20, 18).
    # 6-2: 13/7 blocked; 13/11 then 11/5 blocked; 13/11 is the only 2; the 6
    # can be played only as 13/7: blocked.  So the 2 alone: 13/11.
    only_two = pos({13: 1, 1: 14}, {20: 2, 18: 2, 1: 11})
    assert plays(only_two, 6, 2) == {"13/11"}
    # Now 7 open, 11 blocked and 5 blocked: either die alone, never both
    # (13/7 then 7/5 blocked; 13/11 blocked).  The higher (6) must be played.
    either = pos({13: 1, 1: 14}, {14: 2, 20: 2, 1: 11})
    assert plays(either, 6, 2) == {"13/7"}


def test_a_checker_on_the_bar_enters_before_anything_else() -> None:
    # Opponent's home board: their 1-6 = mover's 24-19; they hold 24, 22, 21.
    position = pos({6: 5, 8: 4, 13: 5}, {1: 2, 3: 2, 4: 2, 13: 9}, bar=1)
    # 6-4: enter with 6 on 19 (open) or with 4 on 21 (blocked). Then the 4 is
    # free for any checker.
    result = plays(position, 6, 4)
    # Every play enters first (on 19 with the 6; 21 is blocked for the 4), so
    # the 4 is free afterwards: bar/19/15 is written bar/15.
    assert all(p.startswith("bar/") for p in result)
    assert not any(p.startswith("bar/21") for p in result)
    assert {"bar/15", "bar/19 13/9", "bar/19 6/2", "bar/19 8/4"} <= result


def test_entry_uses_a_single_die_never_the_sum() -> None:
    # Two on the bar; only the 20 is open (their 5-point); 5-5 enters both and
    # moves two more (bar/20 20/15 twice is written bar/15(2)); 3-2 and 4-1
    # enter nothing: the 5 is not a sum of dice.
    position = pos({13: 13}, {1: 2, 2: 2, 3: 2, 4: 2, 6: 2, 13: 5}, bar=2)
    assert plays(position, 3, 2) == {""}
    assert plays(position, 4, 1) == {""}
    assert plays(position, 5, 5) == {
        "bar/15(2)", "bar/10 bar/20", "bar/15 bar/20 13/8", "bar/20(2) 13/3", "bar/20(2) 13/8(2)",
    }


def test_only_one_checker_enters_when_one_die_fits() -> None:
    # Two on the bar, only 20 open; 5-3: enter one with the 5, the 3 is lost
    # because the other checker is still on the bar.
    position = pos({13: 13}, {1: 2, 2: 2, 3: 2, 4: 2, 6: 2, 13: 5}, bar=2)
    assert plays(position, 5, 3) == {"bar/20"}


def test_closed_board_means_no_entry() -> None:
    position = pos({13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}, bar=1)
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            assert position.legal_positions(d1, d2) == frozenset()


def test_hitting_is_allowed_never_compulsory() -> None:
    # Blot on mover's 5 (their 20): 8/5* and 8/7/5? 2-1... use 3-1 from start-like.
    position = pos({6: 5, 8: 3, 13: 5, 24: 2}, {20: 1, 6: 5, 8: 3, 13: 5, 24: 1})
    result = plays(position, 3, 1)
    assert "8/5* 6/5" in result
    assert "24/23 13/10" in result  # no hit at all is legal too


def test_bearing_off_needs_every_checker_home() -> None:
    # 14 home, one on 7: nothing bears off before the 7 comes home.  With 6-1,
    # 7/6 (the 1) then 6/off (the 6) is written 7/off.
    position = pos({7: 1, 6: 2, 5: 12}, {1: 15})
    result = plays(position, 6, 1)
    assert "7/off" in result
    assert all("off" not in p or p.startswith("7/") or "7/6" in p or "7/1" in p
               for p in result)
    assert "6/off 7/6" not in result


def test_higher_die_than_highest_point_bears_off_from_the_highest() -> None:
    position = pos({3: 2, 1: 1}, {1: 15})
    assert plays(position, 6, 5) == {"3/off(2)"}


def test_full_value_must_be_used_when_possible() -> None:
    # Checkers on 6 and 2; a 4: 6/2 must be played (a 4 cannot bear off from 2
    # while 6 is occupied); with 4-1: 6/2 2/1, 6/5 ... the 4 never bears off the 2.
    position = pos({6: 1, 2: 1}, {1: 15})
    # 4 first: 6/2, then the 1 moves a checker 2/1; 1 first: 6/5 or 2/1, then
    # the 4 must go 5/1 or 6/2.  Every order leaves one checker on 2 and one on 1.
    assert plays(position, 4, 1) == {"6/1"}


def test_moving_inside_home_instead_of_bearing_off_is_allowed() -> None:
    # Two on 6, two on 5; 1-1 may bear off nothing and just move inside
    # (6/5 twice and 5/4 twice is written 6/4(2)).
    position = pos({6: 2, 5: 2}, {1: 15})
    assert "6/4(2)" in plays(position, 1, 1)
    assert not any("off" in p for p in plays(position, 1, 1))


def test_doubles_play_four_times_or_as_many_as_possible() -> None:
    # One checker on 24 with the opponent holding the mover's 12: 6-6 plays
    # 24/18 and 18/12 is blocked; other checkers are home: 6/off x3? No: not all
    # home while one is on 18.  So only 24/18.
    position = pos({24: 1, 6: 14}, {13: 2, 2: 13})
    assert plays(position, 6, 6) == {"24/18"}
