"""End to end on rendered games: renderer, vision pipeline, stabiliser, ``bgref referee``.

Short games (an opening and four turns, then a resignation) are staged by
``bench/streams`` with faults planted at high rates, every distinct scene is
rendered, every frame read by the real pipeline in stream mode, and the
stream is given to ``bgref referee --replay -``.  The referee must catch
every planted illegal play and void throw and make no call the truth does
not contain.  The benchmark ``bench/referee_accuracy.py`` measures the same
over hundreds of games with random board styles and cameras; these games use
one clear set-up (a printed board, white dice, the camera straight above) so
that a failure here points at the referee or at a regression in the vision,
not at the hardest styles.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bench.streams.evaluate import officiate
from bench.streams.scoring import Tally
from bench.streams.store import make_stream
from controller.simulation.director import Direction, Director

SHORT = Direction(max_turns=4, illegal_rate=0.5, void_rate=0.35, early_rate=0.15,
                  voids=("cocked", "wrong_half", "on_checker"),
                  style=("printed-blue", "white-black", "white"), overhead=True,
                  match_length=0)
GAMES = {2: "players", 3: "strict"}
"""Seeds, one in each mode, whose short games plant faults of several kinds."""


def _direction(seed: int) -> Direction:
    return replace(SHORT, mode=GAMES[seed])  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def tallies(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Tally]:
    folder: Path = tmp_path_factory.mktemp("streams")
    out = {}
    for seed in GAMES:
        files = make_stream(seed, _direction(seed), folder)
        out[seed] = officiate(files)[1]
    return out


def test_the_short_games_plant_faults_to_catch() -> None:
    # The staging alone (no rendering): the games above must hold faults, or the
    # end-to-end test below would pass by having nothing to catch.
    planted = Tally()
    for seed in GAMES:
        truth = Director(seed, _direction(seed)).run()[2]
        assert truth.games and truth.games[-1].result == "resign"
        assert all(p.mistake is not None for p in truth.plays if not p.legal)
        assert all(t.t_settled > 0.0 for t in truth.throws)
        planted.illegal_planted.update(p.mistake for p in truth.plays if p.mistake)
        planted.void_planted.update(t.void for t in truth.throws if t.void)
    assert sum(planted.illegal_planted.values()) >= 2
    assert sum(planted.void_planted.values()) >= 2


@pytest.mark.parametrize("seed", sorted(GAMES))
def test_every_planted_fault_is_caught_and_nothing_else_called(
        tallies: dict[int, Tally], seed: int) -> None:
    tally = tallies[seed]
    problems = "\n".join(str(p) for p in tally.problems)
    assert not tally.false_calls, problems
    assert tally.false_verdicts == 0, problems
    assert tally.illegal_caught == tally.illegal_planted, problems
    assert tally.void_caught == tally.void_planted, problems
    assert tally.void_reason_wrong == 0, problems
    assert tally.outcome_right == tally.outcome_expected, problems


@pytest.mark.parametrize("seed", sorted(GAMES))
def test_the_games_are_followed_to_the_end(tallies: dict[int, Tally], seed: int) -> None:
    # A roll the vision did not see (a die showing 1 is the usual one) is no call;
    # the benchmark counts those.  What is seen must be right, and the game must end.
    tally = tallies[seed]
    problems = "\n".join(str(p) for p in tally.problems)
    assert tally.games_ended == tally.games == 1, problems
    assert tally.rolls_wrong_dice == 0, problems
    assert tally.plays_wrong_move == 0, problems
