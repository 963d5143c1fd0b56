"""Match records and the .mat match file, without running gnubg.

The expected texts marked "gnubg" were written by GNU Backgammon 1.07
(``export match mat``) after playing the same events by hand in
``gnubg -t``; the only difference our export makes on purpose is ``and the
match`` on the last game's result, and a final line break after a game in
progress.  ``tests/test_matfile_gnubg.py`` checks many more files against
the running program.
"""

import datetime
import re
from collections.abc import Callable

import pytest

from controller.game.errors import RecordError
from controller.game.events import (
    AcceptResignation,
    DeclineResignation,
    Double,
    Event,
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
from controller.game.result import Ending, WinKind
from controller.game.settings import AutoDoubles, GameRules
from controller.records import GameRecord, MatchRecord, format_mat, parse_mat
from controller.rules import Player, parse_play
from controller.rules.variant import Variant
from tests.random_match import Habits, play_events, play_match, play_session, trace

ZERO, ONE = Player.ZERO, Player.ONE
NAMES = ("Alice", "Bob")
DATE = datetime.date(2026, 11, 30)

Step = Event | str
"""An event, or a play in notation for the player on roll."""


def run(state: Match | MoneySession, *steps: Step) -> Match | MoneySession:
    """Apply ``steps``; a string is the play of the dice out, parsed in notation."""
    for step in steps:
        if isinstance(step, str):
            game = state.game
            assert game.dice is not None
            event: Event = Move(game.turn, parse_play(game.position, step, *game.dice))
        else:
            event = step
        state = state.apply(event)
    return state


def record_of(state: Match | MoneySession) -> MatchRecord:
    if isinstance(state, Match):
        return MatchRecord.from_match(state, NAMES, date=DATE)
    return MatchRecord.from_session(state, NAMES, date=DATE)


def text(*lines: str) -> str:
    return "\n".join(lines) + "\n"


# -- gnubg's own layout ---------------------------------------------------------

GNUBG_RESIGNATIONS = text(  # gnubg: resignations before rolling, a game in progress
    '; [EventDate "2026.11.30"]',
    "",
    " 5 point match",
    "",
    " Game 1",
    " Alice : 0                      Bob : 0",
    "  1)                             31: 8/5 6/5 ",
    "  2) 64: 24/18 13/9              ",
    "      Wins 2 points",
    "",
    " Game 2",
    " Alice : 2                      Bob : 0",
    "  1)                             65: 24/18 18/13 ",
    "  2)  Doubles => 2                Takes",
    "  3) 11: 8/7 8/7 6/5 6/5         ",
    "      Wins 2 points",
    "",
    " Game 3",
    " Alice : 4                      Bob : 0",
    "  1) 21: ",
)


def resignations() -> Match:
    return run(  # type: ignore[return-value]
        Match.new(MatchRules(5)),
        OpeningRoll((1, 3)), "8/5 6/5", Roll(ZERO, (4, 6)), "24/18 13/9",
        Resign(ONE, ResignLevel.GAMMON), AcceptResignation(ZERO),
        OpeningRoll((5, 6)), "24/18 18/13", Double(ZERO), Take(ONE), Roll(ZERO, (1, 1)),
        "8/7(2) 6/5(2)", Resign(ONE, ResignLevel.SINGLE), AcceptResignation(ZERO),
        OpeningRoll((2, 1)),  # the Crawford game, Alice's 21 not played yet
    )


GNUBG_ROLLED_THEN_RESIGNED = text(  # gnubg, but for "and the match" and one order of moves
    '; [EventDate "2026.11.30"]',
    "",
    " 3 point match",
    "",
    " Game 1",
    " Alice : 0                      Bob : 0",
    "  1) 31: 8/5 6/5                 64: 24/18 13/9 ",
    # gnubg wrote "13/8 13/11", the order its move generator found for the
    # typed play; files it imports it writes back in this order, as we do.
    "  2) 52: 13/11 13/8              21: ",
    "      Wins 2 points",
    "",
    " Game 2",
    " Alice : 2                      Bob : 0",
    "  1) 65: 24/18 18/13             43: 24/20 13/10 ",
    "  2) 51: 13/8 6/5*               66: ",
    "      Wins 1 point and the match",
    "",
)


def rolled_then_resigned() -> Match:
    return run(  # type: ignore[return-value]
        Match.new(MatchRules(3)),
        OpeningRoll((3, 1)), "8/5 6/5", Roll(ONE, (6, 4)), "24/18 13/9",
        Roll(ZERO, (2, 5)), "13/8 13/11", Roll(ONE, (2, 1)),
        Resign(ONE, ResignLevel.GAMMON), AcceptResignation(ZERO),
        OpeningRoll((6, 5)), "24/13", Roll(ONE, (4, 3)), "24/20 13/10",
        Roll(ZERO, (5, 1)), "13/8 6/5*", Roll(ONE, (6, 6)),
        Resign(ONE, ResignLevel.SINGLE), AcceptResignation(ZERO),
    )


GNUBG_DROPS = text(  # gnubg: drops in both columns, the loser resigning after rolling
    '; [EventDate "2026.11.30"]',
    "",
    " 7 point match",
    "",
    " Game 1",
    " Alice : 0                      Bob : 0",
    "  1)                             31: 8/5 6/5 ",
    "  2) 64: 24/18 13/9              ",
    "      Wins 1 point",
    "",
    " Game 2",
    " Alice : 1                      Bob : 0",
    "  1)                             65: 24/18 18/13 ",
    "  2) 66: 24/18 24/18 13/7 13/7   55: 8/3 8/3 6/1 6/1",
    "  3)  Doubles => 2                Drops",
    "      Wins 1 point",
    "",
    " Game 3",
    " Alice : 2                      Bob : 0",
    "  1) 42: 8/4 6/4                 66: 24/18 24/18 13/7 13/7",
    "  2)  Doubles => 2                Takes",
    "  3) 21:                         Wins 4 points",
    "",
    " Game 4",
    " Alice : 2                      Bob : 4",
    "  1) 21: 13/11 6/5                Doubles => 2",
    "  2)  Drops                       Wins 1 point ",
    "",
    " Game 5",
    " Alice : 2                      Bob : 5",
    "  1) 64: ",
)


def drops() -> Match:
    return run(  # type: ignore[return-value]
        Match.new(MatchRules(7)),
        OpeningRoll((1, 3)), "8/5 6/5", Roll(ZERO, (6, 4)), "24/18 13/9",
        Resign(ONE, ResignLevel.SINGLE), AcceptResignation(ZERO),
        OpeningRoll((5, 6)), "24/13", Roll(ZERO, (6, 6)), "24/18(2) 13/7(2)",
        Roll(ONE, (5, 5)), "8/3(2) 6/1(2)", Double(ZERO), Pass(ONE),
        OpeningRoll((4, 2)), "8/4 6/4", Roll(ONE, (6, 6)), "24/18(2) 13/7(2)",
        Double(ZERO), Take(ONE), Roll(ZERO, (1, 2)),
        Resign(ZERO, ResignLevel.GAMMON), AcceptResignation(ONE),
        OpeningRoll((2, 1)), "13/11 6/5", Double(ONE), Pass(ZERO),
        OpeningRoll((6, 4)),
    )


SCRIPTED = [
    (resignations, GNUBG_RESIGNATIONS),
    (rolled_then_resigned, GNUBG_ROLLED_THEN_RESIGNED),
    (drops, GNUBG_DROPS),
]


@pytest.mark.parametrize(("play", "expected"), SCRIPTED)
def test_export_matches_gnubg_byte_for_byte(play: Callable[[], Match], expected: str) -> None:
    assert format_mat(record_of(play())) == expected


@pytest.mark.parametrize(("play", "expected"), SCRIPTED)
def test_gnubgs_files_read_back_into_the_same_games(play: Callable[[], Match],
                                                    expected: str) -> None:
    match = play()
    as_gnubg_wrote_it = expected.replace(" and the match", "")
    record = parse_mat(as_gnubg_wrote_it)
    assert record.players == NAMES and record.date == DATE and record.length == match.rules.length
    assert trace(record) == trace(record_of(match))
    replayed = record.replay()
    assert isinstance(replayed, Match)
    assert replayed.score == match.score and len(replayed.games) == len(match.games)
    assert format_mat(record) == expected


GNUBG_SELF_PLAY = text(  # gnubg playing itself, 0-ply: its own order of moves
    '; [EventDate "2026.11.30"]',
    "",
    " 3 point match",
    "",
    " Game 1",
    " gnubg : 0                      root : 0",
    "  1)                             53: 8/3 6/3 ",
    "  2) 62: 24/18 13/11             55: 13/8 13/8 6/1* 6/1",
    "  3) 44: 25/21 18/14 13/9 13/9   31: 8/7 7/4* ",
    "  4) 11:                          Doubles => 2",
    "  5)  Takes                      31: 8/7 7/4 ",
    "  6) 63:                         41: 24/20 24/23 ",
    "  7) 54: 25/20 6/2*              11: 25/24 24/23* 6/5* 6/5",
    "  8) 65: 25/19                   65: 23/18 20/14* ",
    "  9) 21: 25/23                   62: 13/11* 8/2* ",
    " 10) 42: 25/23*                  42: 25/21 8/6* ",
    " 11) 41:                         31: 6/3 3/2* ",
    " 12) 42: 25/23*                  43: 25/21 13/10 ",
    " 13) 11:                         62: 10/8 13/7 ",
    " 14) 32: 25/23                   31: 18/15 21/20 ",
    " 15) 54:                         32: 15/13 13/10 ",
    " 16) 64: 25/19                   43: 10/6* 21/18 ",
    " 17) 61: 25/19*                  54: 25/21 11/6* ",
    " 18) 32: 25/23                   11: 14/13 8/7 7/6 7/6",
    " 19) 66:                         64: 20/14 18/14 ",
    " 20) 53:                         21: 13/11 21/20 ",
    " 21) 21: 25/23 6/5*              52: 25/20* 6/4 ",
    " 22) 53:                         41: 14/13 13/9 ",
    " 23) 53:                         21: 14/13 13/11 ",
    " 24) 63:                         22: 11/9 11/9 9/7 7/5",
    " 25) 54:                         32: 20/18 18/15 ",
    " 26) 42: 25/23 9/5               44: 15/11 11/7 9/5 7/3",
    " 27) 21: 13/11 8/7               66: 9/3 6/0 6/0 5/0",
    " 28) 53: 9/4 7/4                 63: 5/0 4/1 ",
    " 29) 66: 23/17 17/11 13/7 11/5   54: 5/1 5/0 ",
    " 30) 62: 23/17 17/15             41: 4/3 4/0 ",
    " 31) 42: 23/21 11/7              61: 1/0 3/0 ",
    " 32) 62: 6/4 15/9                53: 3/0 3/0 ",
    " 33) 42: 23/21 21/17             54: 3/0 3/0 ",
    "                                  Wins 6 points",
    "",
)


def test_reads_a_match_gnubg_played_itself() -> None:
    """Dances, a one-die play (65: 25/19), gnubg's own move order, and gnubg
    resigning a backgammon with the cube at 2 (three of Bob's checkers are
    still on the board)."""
    record = parse_mat(GNUBG_SELF_PLAY)
    match = record.replay()
    assert isinstance(match, Match) and match.is_over
    assert record.players == ("gnubg", "root") and match.score == (0, 6)
    (game,) = match.games
    assert sum(isinstance(e, Move) for e in game.events) == 63
    assert sum(isinstance(e, Move) and e.play.is_dance for e in game.events) == 11
    result = game.result
    assert result is not None and result.winner == ONE and result.ending is Ending.RESIGNED
    assert (result.kind, result.cube_value, result.points) == (WinKind.BACKGAMMON, 2, 6)
    assert game.position.off(ONE) == 12
    # Written again: the same text but for our order of single moves.
    again = format_mat(record)
    assert again.splitlines()[18] == " 13) 11:                         62: 13/7 10/8 "
    assert trace(parse_mat(again)) == trace(record)


# -- round trips ----------------------------------------------------------------

MATCHES = [(seed, length) for seed, length in zip(range(12), [1, 3, 5, 7, 9, 11] * 2,
                                                  strict=True)]


@pytest.mark.parametrize(("seed", "length"), MATCHES)
def test_random_matches_round_trip(seed: int, length: int) -> None:
    match = play_match(seed, length)
    record = record_of(match)
    written = format_mat(record)
    back = parse_mat(written)
    assert trace(back) == trace(record)
    replayed = back.replay()
    assert isinstance(replayed, Match)
    assert replayed.score == match.score and len(replayed.games) == len(match.games)
    assert (back.players, back.rules, back.date) == (record.players, record.rules, record.date)
    assert format_mat(back) == written


def test_a_money_session_is_a_zero_point_match_of_points_won() -> None:
    rules = MoneyRules(stake=5, game=GameRules(jacoby=True))
    session = play_session(3, games=6, rules=rules)
    record = record_of(session)
    written = format_mat(record)
    assert " 0 point match" in written.splitlines()
    assert '; [Jacoby "On"]' in written and '; [Stake "5"]' in written
    won = [0, 0]
    for game_record, game in zip(record.games, session.games, strict=True):
        assert game_record.score == (won[0], won[1])
        assert game.result is not None
        won[game.result.winner] += game.result.points
    back = parse_mat(written)
    assert back.rules == rules and trace(back) == trace(record)
    replayed = back.replay()
    assert isinstance(replayed, MoneySession) and replayed.totals == session.totals


RULES = [
    pytest.param(MatchRules(5, crawford=False), '; [Crawford "Off"]', id="no-crawford"),
    pytest.param(MatchRules(5, game=GameRules(cube=False)), '; [CubeLimit "1"]', id="no-cube"),
    pytest.param(MatchRules(7, game=GameRules(backgammon_multiplier=2)),
                 '; [BackgammonValue "2"]', id="backgammon-2"),
    pytest.param(MatchRules(7, game=GameRules(automatic_doubles=AutoDoubles.UNLIMITED)),
                 '; [AutomaticDoubles "Unlimited"]', id="automatic-doubles"),
]


@pytest.mark.parametrize(("rules", "tag"), RULES)
def test_rules_travel_in_header_tags(rules: MatchRules, tag: str) -> None:
    match: Match | MoneySession = Match.new(rules)
    for seed in range(40):  # several games, some with opening ties
        match = play_events(match, seed, 60, Habits(resign=0.02))
    record = record_of(match)
    written = format_mat(record)
    assert tag in written.splitlines()
    back = parse_mat(written)
    assert back.rules == rules and trace(back) == trace(record)
    assert format_mat(back) == written


def test_opening_ties_double_the_cube_and_are_kept() -> None:
    rules = MatchRules(9, game=GameRules(automatic_doubles=AutoDoubles.ONCE))
    match = run(Match.new(rules), OpeningRoll((3, 3)), OpeningRoll((5, 5)), OpeningRoll((4, 1)),
                "13/9 6/5", Roll(ONE, (6, 5)), "24/13", Double(ZERO), Pass(ONE),
                OpeningRoll((2, 2)), OpeningRoll((1, 2)))
    written = format_mat(record_of(match))
    assert '; [OpeningTies "1: 33 55"]' in written.splitlines()
    assert '; [OpeningTies "2: 22"]' in written.splitlines()
    assert "  2)  Doubles => 4                Drops" in written.splitlines()
    assert "      Wins 2 points" in written.splitlines()
    back = parse_mat(written)
    assert back.games == record_of(match).games
    replayed = back.replay()
    assert isinstance(replayed, Match) and replayed.game.cube_value == 2


def test_a_game_in_progress_keeps_its_last_roll() -> None:
    match = play_events(Match.new(MatchRules(5)), seed=7, count=31)
    assert isinstance(match, Match) and match.game.dice is not None
    record = record_of(match)
    back = parse_mat(format_mat(record))
    assert trace(back) == trace(record)
    replayed = back.replay()
    assert replayed.game.dice is not None
    assert replayed.game.position == match.game.position


def test_a_declined_resignation_has_no_place_in_the_file() -> None:
    match = run(Match.new(MatchRules(3)), OpeningRoll((3, 1)), "8/5 6/5",
                Resign(ONE, ResignLevel.SINGLE), DeclineResignation(ZERO), Roll(ONE, (2, 1)),
                "13/11 6/5")
    record = record_of(match)
    back = parse_mat(format_mat(record))
    assert len(back.games[0].events) == len(record.games[0].events) - 2
    assert trace(back) == trace(record)


@pytest.mark.parametrize("variant", [Variant.DUTCH, Variant.ACEY_DEUCEY])
def test_variants_are_written_in_the_same_layout_with_their_name_on_top(variant: Variant
                                                                        ) -> None:
    rules = GameRules(variant=variant, cube=variant is Variant.DUTCH)
    match = play_match(1, 3, rules=rules)
    record = record_of(match)
    written = format_mat(record)
    name = {Variant.DUTCH: "Dutch Backgammon", Variant.ACEY_DEUCEY: "Acey-Deucey"}[variant]
    assert f'; [Variation "{name}"]' in written.splitlines()
    assert re.search(r"\d\d: hand/\d+", written)
    back = parse_mat(written)
    assert back.rules == record.rules and trace(back) == trace(record)
    replayed = back.replay()
    assert isinstance(replayed, Match) and replayed.score == match.score
    assert format_mat(back) == written


def test_an_empty_match_has_only_its_header() -> None:
    record = MatchRecord(("Ann", "Ben"), MatchRules(5))
    assert format_mat(record) == " 5 point match\n\n"
    assert parse_mat(format_mat(record)).games == ()


# -- lenient reading ------------------------------------------------------------


LENIENT = [
    pytest.param(lambda t: t.replace("\n", "\r\n"), id="windows-line-ends"),
    pytest.param(lambda t: "\ufeff" + t, id="byte-order-mark"),
    pytest.param(lambda t: t.replace("        ", "\t"), id="tabs"),
    pytest.param(lambda t: re.sub(r" +\n", "\n", t), id="no-trailing-spaces"),
    pytest.param(lambda t: t.upper().replace("ALICE", "Alice").replace("BOB", "Bob"),
                 id="upper-case"),
    pytest.param(lambda t: t.replace(" 7 point match", " 7 Point Match").replace(
        "Doubles", "doubles").replace("Takes", "takes").replace("Wins", "wins"), id="case"),
    pytest.param(lambda t: '; [Site "eXtreme Gammon"]\n; [Player 1 "Alice"]\n'
                 '# a note\n\n\n' + t.replace(" Game 3", "\n Game 3"), id="xg-headers"),
    pytest.param(lambda t: t.replace("24/18 18/13", "24/13").replace(
        "8/3 8/3 6/1 6/1", "8/3(2) 6/1(2)"), id="consolidated-moves"),
    pytest.param(lambda t: t.replace("  1) 64: ", "  1) 64: ???"), id="xg-unplayed-roll"),
]


@pytest.mark.parametrize("change", LENIENT)
def test_reading_is_lenient_about_layout(change: Callable[[str], str]) -> None:
    expected = parse_mat(GNUBG_DROPS)
    changed = parse_mat(change(GNUBG_DROPS))
    assert trace(changed) == trace(expected)
    assert changed.players == expected.players


def test_gnubgs_result_on_the_line_of_a_roll_is_read_by_its_column() -> None:
    """When a player resigns after the opponent rolled, gnubg writes "Wins" on
    the line of the roll.  On the left it lands at column 15, and is still
    the left player's (gnubg itself then reads it as the right one's)."""
    left = parse_mat(GNUBG_RESIGNATIONS.replace("  1) 21: ", "  1) 21:       Wins 1 point"))
    match = left.replay()
    assert isinstance(match, Match) and match.score == (5, 0)
    assert left.games[-1].events[-2:] == (Resign(ONE, ResignLevel.SINGLE),
                                          AcceptResignation(ZERO))
    right = parse_mat(text(" 3 point match", "", " Game 1", " Alice : 0   Bob : 0",
                           "  1) 31: 8/5 6/5                 21:  Wins 1 point"))
    assert right.games[0].events[-3:] == (Roll(ONE, (2, 1)), Resign(ZERO, ResignLevel.SINGLE),
                                          AcceptResignation(ONE))


def test_moves_as_other_programs_write_them() -> None:
    changed = (GNUBG_SELF_PLAY.replace("25/", "bar/").replace("/0", "/off")
               .replace("9/3 6/off 6/off 5/off", "9/3 6/off(2) 5/off")
               .replace("8/7 7/4* ", "8/4*").replace("23/17 17/11 13/7 11/5", "23/11 13/7 11/5")
               .replace("11/9 11/9 9/7 7/5", "11/9(2) 9/5"))
    assert (changed.count("bar/"), changed.count("/off"), changed.count("(2)")) == (17, 11, 2)
    assert trace(parse_mat(changed)) == trace(parse_mat(GNUBG_SELF_PLAY))


def test_a_forced_play_may_be_left_out_as_gnubg_allows() -> None:
    record = parse_mat(GNUBG_SELF_PLAY.replace(" 8) 65: 25/19 ", " 8) 65: ")
                       .replace("  6) 63:    ", "  6) 63: Cannot Move"))
    assert trace(record) == trace(parse_mat(GNUBG_SELF_PLAY))


# -- errors ---------------------------------------------------------------------

ERRORS = [
    pytest.param(lambda t: t.replace(" 7 point match", " seven point match"),
                 r"line 3: expected the match length", id="no-match-line"),
    pytest.param(lambda t: "; only a comment\n", r"no ' N point match' line", id="empty"),
    pytest.param(lambda t: t.replace(" Game 1\n", " Game 2\n"),
                 r"line 5: expected game 1, found game 2", id="game-number"),
    pytest.param(lambda t: t.replace(" Alice : 0                      Bob : 0", "Alice 0 Bob 0"),
                 r"line 6: expected 'name : score", id="score-line"),
    pytest.param(lambda t: t.replace("Bob : 4", "Bob : 3"),
                 r"line 25: game 4 starts at 2-3, but the games before it make 2-4",
                 id="wrong-score"),
    pytest.param(lambda t: t.replace(" Alice : 1 ", " Alicia : 1"),
                 r"line 12: game 2 is played by Alicia and Bob", id="other-player"),
    pytest.param(lambda t: t.replace("55: 8/3 8/3 6/1 6/1", "55: 8/3 8/3 6/1 6/2"),
                 r"line 14: game 2, move 2: Bob \(player 1\) 55: 8/3 8/3 6/1 6/2: .*"
                 r"not a legal play", id="illegal-play"),
    pytest.param(lambda t: t.replace("64: 24/18 13/9", "64: 24/18 24/20"),
                 r"line 8: game 1, move 2: Alice \(player 0\) 64: 24/18 24/20: ",
                 id="illegal-play-2"),
    pytest.param(lambda t: t.replace("31: 8/5 6/5", "31: 8/5 6/x"),
                 r"line 7: game 1, move 1: .*'6/x' is not a move", id="not-notation"),
    pytest.param(lambda t: t.replace("  2) 64: 24/18 13/9", "  2)                             "
                                     "64: 24/18 13/9"),
                 r"line 8: game 1, move 2: 64: 24/18 13/9: it is player 0's turn",
                 id="wrong-column"),
    pytest.param(lambda t: t.replace("Doubles => 2                Takes",
                                     "Doubles => 4                Takes"),
                 r"line 21: game 3, move 2: Alice \(player 0\) doubles to 4, but the cube is at 1",
                 id="double-value"),
    pytest.param(lambda t: t.replace("Doubles => 2                Takes",
                                     "Doubles => 2                Beavers"),
                 r"beavers and raccoons are not supported", id="beaver"),
    pytest.param(lambda t: t.replace("Wins 4 points", "Wins 5 points"),
                 r"line 22: game 3, move 3: no resignation by Alice \(player 0\) gives 5 points",
                 id="resignation-points"),
    pytest.param(lambda t: t.replace("  2)  Drops                       Wins 1 point ",
                                     "  2)  Drops                       Wins 2 points"),
                 r"line 27: .*the file says Bob \(player 1\) wins 2, the game gives Bob "
                 r"\(player 1\) 1", id="drop-points"),
    pytest.param(lambda t: t.replace("      Wins 1 point\n\n Game 2", "\n Game 2"),
                 r"line 10: game 1 has no result", id="no-result"),
    pytest.param(lambda t: t.replace("  2) 66: 24/18 24/18 13/7 13/7   55:",
                                     "  2) 66:                         55:"),
                 r"line 14: game 2, move 2: Alice \(player 0\) rolled 66 but no play",
                 id="roll-without-play"),
    pytest.param(lambda t: t.replace("  2) 64: 24/18 13/9 ", "  2) 64: 24/18 13/9 zzz"),
                 r"line 8: game 1, move 2: .*'zzz' is not a move", id="garbage"),
    pytest.param(lambda t: t.replace(" Game 1\n", " Game 1\n Alice : 0   Bob : 0\n  1) xx\n"),
                 r"line 7: cannot read 'xx'", id="garbage-line"),
    pytest.param(lambda t: t.replace("      Wins 1 point\n\n Game 2",
                                     "      Wins 1 point\n  3) 11: 6/5(4)\n\n Game 2"),
                 r"line 10: game 1, move 3: game 1 is over, but '11: 6/5\(4\)' follows",
                 id="after-the-end"),
    pytest.param(lambda t: t.replace("  1) 42: 8/4 6/4", "  1) 44: 8/4 6/4"),
                 r"line 20: game 3, move 1: 44: 8/4 6/4: an opening roll cannot be a double",
                 id="opening-double"),
    pytest.param(lambda t: t.replace("  1) 42: 8/4 6/4", "; Set Pos=xxx\n  1) 42: 8/4 6/4"),
                 r"line 20: positions set in the middle of a game are not supported",
                 id="set-pos"),
    pytest.param(lambda t: '; [Variation "NackGammon"]\n' + t,
                 r"line 1: .*'variation'.*'NackGammon'", id="nackgammon"),
    pytest.param(lambda t: '; [OpeningTies "1: 34"]\n' + t,
                 r"line 1: cannot read the header tag 'openingties'", id="ties"),
]


@pytest.mark.parametrize(("change", "message"), ERRORS)
def test_malformed_files_name_the_line_and_what_is_wrong(change: Callable[[str], str],
                                                          message: str) -> None:
    with pytest.raises(RecordError, match=message):
        parse_mat(change(GNUBG_DROPS))


def test_the_end_of_a_match_is_checked() -> None:
    with pytest.raises(RecordError, match=r"'Wins 2 points and the match', but the match"):
        parse_mat(GNUBG_DROPS.replace("Wins 1 point\n\n Game 2", "Wins 2 points and the match\n"
                                      "\n Game 2").replace("Alice : 1  ", "Alice : 2  "))
    over = GNUBG_ROLLED_THEN_RESIGNED + text(" Game 3", " Alice : 3   Bob : 0", "  1) 21: 13/11")
    with pytest.raises(RecordError, match=r"line 17: game 3 follows the end of the match"):
        parse_mat(over)


# -- records --------------------------------------------------------------------


def test_a_record_replays_into_its_match() -> None:
    match = drops()
    record = record_of(match)
    assert [g.score for g in record.games] == [(0, 0), (1, 0), (2, 0), (2, 4), (2, 5)]
    replayed = record.replay()
    assert isinstance(replayed, Match)
    assert replayed.score == match.score and replayed.games == match.games
    assert replayed.game == match.game


def test_a_finished_match_is_not_recorded_twice() -> None:
    match = rolled_then_resigned()
    assert match.is_over and match.game is match.games[-1]
    assert len(record_of(match).games) == 2


def test_a_tampered_record_does_not_replay() -> None:
    record = record_of(drops())
    games = list(record.games)
    with pytest.raises(RecordError, match="game 2: the record says it starts at 0-0, the replay "
                                          "is at 1-0"):
        MatchRecord(NAMES, record.rules, (games[0], GameRecord((0, 0), games[1].events))
                    ).replay()
    with pytest.raises(RecordError, match=r"game 1, event 3 \(player 1 rolls 6-4\): "):
        wrong_roll = (*games[0].events[:2], Roll(ONE, (6, 4)))
        MatchRecord(NAMES, record.rules, (GameRecord((0, 0), wrong_roll),)).replay()
    with pytest.raises(RecordError, match="game 1 is not over, but game 2 follows"):
        MatchRecord(NAMES, record.rules, (GameRecord((0, 0), games[0].events[:2]),
                                          games[1])).replay()
    with pytest.raises(RecordError, match="game 1, event 7: the game is already over"):
        MatchRecord(NAMES, record.rules, (GameRecord((0, 0), games[0].events
                                                     + games[1].events[:1]),)).replay()
    with pytest.raises(RecordError, match="game 1 has no events"):
        MatchRecord(NAMES, record.rules, (GameRecord((0, 0), ()),)).replay()


@pytest.mark.parametrize("name", ["", " Ann", "A:B", "Ann\nBen"])
def test_names_a_match_file_cannot_hold_are_refused(name: str) -> None:
    with pytest.raises(RecordError, match=r"cannot be written in a \.mat file"):
        format_mat(MatchRecord((name, "Bob"), MatchRules(3)))
