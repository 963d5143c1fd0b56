"""Our legal plays *as text* against the real gnubg's ``hint`` list.

For a few hundred seeded random positions and rolls, gnubg (0-ply, no
pruning, every move listed) prints each legal play once, in its own
notation; ``str(play)`` for ``Position.legal_plays`` must give the same set
of strings.  This checks the move generator and the notation formatter at
once against the program whose notation we copy.

Where a string differs, the test also compares by resulting position
(parsing gnubg's text with our parser), so a failure says whether the move
list or only the notation is wrong.

Positions come from three seeded sources: random games played from the
start (middle games with hits and entering from the bar, racing, bearing
off), random checkers on the bar against made home boards, and random
bear-offs with and without contact.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

import pytest

from controller.rules import IllegalPlayError, Player, Position, parse_play
from tests.gnubg_cli import Gnubg, running_gnubg

SEED: Final = 20240611
GAMES: Final = 12
FROM_GAMES: Final = 220
BAR_CASES: Final = 50
BEAROFF_CASES: Final = 50

_HINT_LINE: Final = re.compile(r"^\s*\d+\.\s+(?:Cubeful|Cubeless)\s+\d+-ply\s+(.*?)\s+Eq\.:")
_NO_MOVES: Final = "There are no legal moves."


@dataclass(frozen=True)
class Case:
    """A position, a roll, and where the case came from (for failure messages)."""

    position: Position
    dice: tuple[int, int]
    source: str

    def label(self) -> str:
        return f"{self.source} {self.position.position_id()} {self.dice[0]}-{self.dice[1]}"


# -- generating cases --------------------------------------------------------


def _roll(rng: random.Random) -> tuple[int, int]:
    return rng.randint(1, 6), rng.randint(1, 6)


def _game_positions(rng: random.Random) -> Iterator[Position]:
    """Positions of one random game, from the opening to the last roll."""
    position = Position.initial(Player(rng.randint(0, 1)))
    while position.winner() is None:
        yield position
        play = rng.choice(position.legal_plays(*_roll(rng)))
        position = position.result_of(play)


def _random_side(rng: random.Random, points: list[int], checkers: int) -> list[int]:
    row = [0] * 26
    for _ in range(checkers):
        row[rng.choice(points)] += 1
    row[0] = 15 - sum(row)
    return row


def _bar_position(rng: random.Random) -> Position:
    """Checkers on the bar in front of a home board with some points made."""
    opponent = [0] * 26
    made = rng.sample(range(1, 7), rng.randint(2, 6))
    for point in made:
        opponent[point] = 2
    blots = [p for p in range(1, 7) if p not in made]
    if blots and rng.random() < 0.7:
        opponent[rng.choice(blots)] = 1
    while sum(opponent) < 15:
        opponent[rng.choice([*made, 8, 13])] += 1
    # The mover's point p is the opponent's 25 - p: keep off the opponent's points.
    free = [p for p in range(1, 25) if opponent[25 - p] == 0]
    mover = [0] * 26
    mover[25] = rng.randint(1, 3)
    for _ in range(rng.randint(5, 15 - mover[25])):
        mover[rng.choice(free)] += 1
    mover[0] = 15 - sum(mover)
    return Position.from_relative(mover, opponent, Player(rng.randint(0, 1)))


def _bearoff_position(rng: random.Random) -> Position:
    """The mover bearing off, against a race or a few checkers still behind."""
    mover = _random_side(rng, list(range(1, 7)), rng.randint(1, 15))
    if rng.random() < 0.5:
        # Contact: opponent checkers on the mover's home points (their 19-24).
        free = [p for p in range(1, 7) if mover[p] == 0]
        opponent = [0] * 26
        for point in rng.sample(free, min(len(free), rng.randint(1, 2))):
            opponent[25 - point] = rng.randint(1, 2)
        rest = 15 - sum(opponent) - rng.randint(0, 6)
        for _ in range(rest):
            opponent[rng.randint(1, 6)] += 1
        opponent[0] = 15 - sum(opponent)
    else:
        opponent = _random_side(rng, list(range(1, 7)), rng.randint(1, 15))
    return Position.from_relative(mover, opponent, Player(rng.randint(0, 1)))


def make_cases() -> list[Case]:
    """The seeded cases: random-game positions, bar entries, bear-offs."""
    rng = random.Random(SEED)
    pool: list[Position] = []
    for _ in range(GAMES):
        pool.extend(_game_positions(rng))
    cases = [Case(p, _roll(rng), "game") for p in rng.sample(pool, FROM_GAMES)]
    cases += [Case(_bar_position(rng), _roll(rng), "bar") for _ in range(BAR_CASES)]
    cases += [Case(_bearoff_position(rng), _roll(rng), "bearoff") for _ in range(BEAROFF_CASES)]
    return cases


# -- asking gnubg --------------------------------------------------------------


def gnubg_plays(gnubg: Gnubg, case: Case) -> set[str]:
    """gnubg's list of legal plays for the case, as printed by ``hint``."""
    position_id = case.position.position_id()
    d1, d2 = case.dice
    text = gnubg.run(f"set board {position_id}", f"set dice {d1} {d2}", "hint 99999")
    if f"Position ID: {position_id}" not in text:
        raise AssertionError(f"gnubg did not take board {position_id}:\n{text}")
    if _NO_MOVES in text:
        return {""}
    plays = {m.group(1) for line in text.splitlines() if (m := _HINT_LINE.match(line))}
    if not plays:
        raise AssertionError(f"no hint list for {case.label()}:\n{text}")
    return plays


@pytest.fixture(scope="module")
def answers() -> Iterator[list[tuple[Case, set[str], set[str]]]]:
    """(case, gnubg's strings, our strings) for every case, one gnubg session."""
    with running_gnubg() as gnubg:
        gnubg.run(
            "new session",
            "set evaluation chequerplay evaluation plies 0",
            "set evaluation chequerplay evaluation prune off",
        )
        rows = []
        for case in make_cases():
            ours = {str(play) for play in case.position.legal_plays(*case.dice)}
            rows.append((case, gnubg_plays(gnubg, case), ours))
        yield rows


def _result(position: Position, text: str, dice: tuple[int, int]) -> str:
    try:
        return position.result_of(parse_play(position, text, *dice)).position_id()
    except IllegalPlayError as exc:
        return f"illegal: {exc}"


def test_the_cases_cover_the_hard_situations() -> None:
    cases = make_cases()
    assert len(cases) >= 300
    assert len({case.label() for case in cases}) >= 290
    on_bar = [c for c in cases if c.position.bar(c.position.turn)]
    bearing_off = [c for c in cases if sum(c.position.layout(c.position.turn)[7:26]) == 0]
    doubles = [c for c in cases if c.dice[0] == c.dice[1]]
    dances = [c for c in cases if c.position.legal_plays(*c.dice)[0].is_dance]
    hits = [
        c for c in cases if any(m.hit for p in c.position.legal_plays(*c.dice) for m in p.moves)
    ]
    assert len(on_bar) >= 60
    assert len(bearing_off) >= 60
    assert len(doubles) >= 40
    assert len(dances) >= 5
    assert len(hits) >= 80


def test_same_results_as_gnubg(answers: list[tuple[Case, set[str], set[str]]]) -> None:
    """Same set of resulting positions (the move list), whatever the notation."""
    wrong = []
    for case, theirs, ours in answers:
        their_results = {_result(case.position, text, case.dice) for text in theirs}
        our_results = {_result(case.position, text, case.dice) for text in ours}
        if their_results != our_results or len(theirs) != len(ours):
            wrong.append(f"{case.label()}: gnubg {sorted(theirs)} ours {sorted(ours)}")
    assert not wrong, f"{len(wrong)} cases differ:\n" + "\n".join(wrong[:10])


def _notation_differences(rows: list[tuple[Case, set[str], set[str]]]) -> list[str]:
    return [
        f"{case.label()}: only gnubg {sorted(theirs - ours)} only ours {sorted(ours - theirs)}"
        for case, theirs, ours in rows
        if theirs != ours
    ]


def test_same_notation_as_gnubg_for_plain_rolls(
    answers: list[tuple[Case, set[str], set[str]]],
) -> None:
    """Exactly the strings gnubg prints, for every non-double roll."""
    rows = [row for row in answers if row[0].dice[0] != row[0].dice[1]]
    wrong = _notation_differences(rows)
    assert not wrong, f"{len(wrong)} of {len(rows)} cases differ:\n" + "\n".join(wrong[:25])


def test_same_notation_as_gnubg_for_doubles(
    answers: list[tuple[Case, set[str], set[str]]],
) -> None:
    """Exactly the strings gnubg prints, for doubles (four moves, shared points)."""
    rows = [row for row in answers if row[0].dice[0] == row[0].dice[1]]
    wrong = _notation_differences(rows)
    assert not wrong, f"{len(wrong)} of {len(rows)} cases differ:\n" + "\n".join(wrong[:25])
