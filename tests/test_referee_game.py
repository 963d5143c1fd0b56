"""Whole games and matches refereed from observation streams.

The games are self-played by the game layer (random legal players); the
stream shows each of them being set up, thrown, played checker by checker
and ended.  What the referee must announce is read from the game layer's
own record of the match, never from the referee.
"""

import pytest

from controller.game.events import Move, OpeningRoll, Roll
from controller.game.match import Match
from controller.game.selfplay import selfplay_match
from controller.records.matfile import format_mat
from controller.records.record import MatchRecord
from controller.referee.machine import Referee, Stage
from controller.referee.settings import RefereeSettings
from controller.rules.notation import format_play
from tests.referee_streams import SEATINGS, colour, names, run, script_match


def _expected_plays(match: Match) -> list[tuple[str, str]]:
    """(mover, gnubg notation) of every play of the match, from the game layer's record."""
    plays = []
    for game in match.games:
        for event in game.events:
            if isinstance(event, Move):
                plays.append((colour(event.player), format_play(event.play.moves)))
    return plays


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_self_played_match_is_followed_to_the_end(seating: object) -> None:
    match = selfplay_match(4, 3)
    assert match.is_over and len(match.games) == 3
    script = script_match(match, seating)  # type: ignore[arg-type]
    referee, events = run(Referee.new(RefereeSettings(match_length=3)), script.inputs)

    got = [(e.player, e.data["move"]) for e in events if e.event == "play"]
    assert got == _expected_plays(match)
    assert all(e.data["legal"] for e in events if e.event == "play")
    assert not [n for n in names(events) if n.startswith("warning") or n == "reroll"]
    assert names(events).count("game_start") == 3
    overs = [e for e in events if e.event == "game_over"]
    assert [(e.data["winner"], e.data["points"]) for e in overs] == [
        (colour(g.result.winner), g.result.points) for g in match.games if g.result]
    assert events[-1].event == "match_over"
    assert events[-1].data["winner"] == colour(match.winner)  # type: ignore[arg-type]
    assert referee.stage is Stage.OVER
    assert referee.session.score == match.score


def test_rolls_and_opening_rolls_match_the_record() -> None:
    match = selfplay_match(7, 1)
    _, events = run(Referee.new(RefereeSettings(match_length=1)),
                          script_match(match, SEATINGS[3]).inputs)
    game = match.games[0]
    openings = [e.dice for e in game.events if isinstance(e, OpeningRoll)]
    assert [(e.data["dice"]["light"], e.data["dice"]["dark"])
            for e in events if e.event == "opening_roll"] == openings
    rolls = [(colour(e.player), list(e.dice)) for e in game.events if isinstance(e, Roll)]
    assert [(e.player, e.data["dice"]) for e in events if e.event == "roll"] == rolls


def test_the_match_file_is_the_game_layers_at_any_time() -> None:
    match = selfplay_match(4, 3)
    script = script_match(match, SEATINGS[1])
    settings = RefereeSettings(match_length=3)
    referee, _ = run(Referee.new(settings), script.inputs)
    want = format_mat(MatchRecord.from_match(match, ("Light", "Dark")))
    assert format_mat(referee.match_record()) == want
    # Half-way through, the file is the record so far and still replays.
    half, _ = run(Referee.new(settings), script.inputs[: len(script.inputs) // 2])
    text = format_mat(half.match_record())
    assert text.startswith(want.split(" Game 2")[0][:200])


def test_the_referee_is_a_deterministic_value() -> None:
    match = selfplay_match(2, 1)
    inputs = script_match(match, SEATINGS[0]).inputs
    first, events1 = run(Referee.new(RefereeSettings(match_length=1)), inputs)
    second, events2 = run(Referee.new(RefereeSettings(match_length=1)), inputs)
    assert first == second
    assert [e.to_json() for e in events1] == [e.to_json() for e in events2]
