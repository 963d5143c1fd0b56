"""Properties every legal play must have, whatever the position.

These need no oracle: they follow from the rules alone (checkers are
neither made nor lost, they only move forward, the opponent only ever loses
checkers to the bar) and from the notations being lossless.  Positions come
from two sources: arbitrary valid boards built by hypothesis, and the
corpus generators, which reach the rare situations (bar, closed boards,
bear-offs) that arbitrary boards seldom do.  Also here: checks that each
corpus generator makes what its name promises.
"""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.rules import Player, Position, decode_position_id, parse_play
from tests.corpus import BAR, KINDS, Entry, labelled_corpus

SETTINGS = settings(derandomize=True, max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@st.composite
def arbitrary_positions(draw: st.DrawFn) -> Position:
    """Any valid board: 15 checkers a side anywhere, never both sides on a point."""
    mover = [0] * 26
    for place in draw(st.lists(st.integers(0, 25), min_size=15, max_size=15)):
        mover[place] += 1
    allowed = [0, 25] + [q for q in range(1, 25) if not mover[25 - q]]
    opponent = [0] * 26
    for place in draw(st.lists(st.sampled_from(allowed), min_size=15, max_size=15)):
        opponent[place] += 1
    turn = draw(st.sampled_from(list(Player)))
    return Position.from_relative(mover, opponent, turn)


def _from_generator(kind: str, seed: int) -> Position:
    return KINDS[kind](random.Random(seed))[0]


corpus_positions = st.builds(_from_generator, st.sampled_from(sorted(KINDS)),
                             st.integers(0, 2**32))
positions = st.one_of(arbitrary_positions(), corpus_positions)
dice = st.integers(1, 6)


def _backs(row: tuple[int, ...]) -> list[int]:
    """Checkers on or behind each point 1-25 (the bar being furthest back)."""
    return [sum(row[p:26]) for p in range(26)]


@SETTINGS
@given(positions, dice, dice)
def test_every_result_keeps_fifteen_checkers_a_side(position: Position, d1: int,
                                                    d2: int) -> None:
    for after in position.legal_positions(d1, d2):
        for player in Player:
            assert sum(after.layout(player)) == 15
            assert after.in_hand(player) == 0


@SETTINGS
@given(positions, dice, dice)
def test_results_have_the_opponent_on_roll(position: Position, d1: int, d2: int) -> None:
    for after in position.legal_positions(d1, d2):
        assert after.turn == position.turn.opponent


@SETTINGS
@given(positions, dice, dice)
def test_no_checker_of_the_mover_ever_moves_backwards(position: Position, d1: int,
                                                      d2: int) -> None:
    """On or behind any point there are never more of the mover's checkers afterwards."""
    mover = position.turn
    before = _backs(position.layout(mover))
    for after in position.legal_positions(d1, d2):
        now = _backs(after.layout(mover))
        assert all(n <= b for n, b in zip(now, before, strict=True))


@SETTINGS
@given(positions, dice, dice)
def test_pips_drop_by_the_dice_used(position: Position, d1: int, d2: int) -> None:
    """Each move covers its die exactly, except a bear-off, which may cover less.

    So the pip count drops by exactly the sum of the dice (four times the die
    for doubles) when every die is played and nothing is borne off, and
    every play of a roll uses the same number of dice.
    """
    mover = position.turn
    full = 4 if d1 == d2 else 2
    plays = position.legal_plays(d1, d2)
    lengths = {len(play.moves) for play in plays}
    assert len(lengths) == 1
    for play in plays:
        after = position.result_of(play)
        drop = position.pip_count(mover) - after.pip_count(mover)
        remaining = [d1] * 4 if d1 == d2 else [d1, d2]
        for move in play.moves:
            distance = move.source - move.destination
            if distance in remaining:
                remaining.remove(distance)
            else:
                assert move.bears_off, f"{play}: {move} is no die of {d1}-{d2}"
                bigger = [d for d in remaining if d > distance]
                assert bigger, f"{play}: {move} overshoots with no die left"
                remaining.remove(min(bigger))
        assert drop == sum(m.source - m.destination for m in play.moves)
        borne_off = after.off(mover) - position.off(mover)
        if len(play.moves) == full and not borne_off:
            assert drop == (4 * d1 if d1 == d2 else d1 + d2)
        assert drop <= (4 * d1 if d1 == d2 else d1 + d2)


@SETTINGS
@given(positions, dice, dice)
def test_the_opponent_only_loses_checkers_to_the_bar(position: Position, d1: int,
                                                     d2: int) -> None:
    opponent = position.turn.opponent
    before = position.layout(opponent)
    for after in position.legal_positions(d1, d2):
        now = after.layout(opponent)
        assert now[0] == before[0], "the opponent's borne-off checkers stay off"
        lost = 0
        for point in range(1, 25):
            assert now[point] in (before[point], before[point] - 1)
            assert now[point] == before[point] or before[point] == 1, "only blots are hit"
            lost += before[point] - now[point]
        assert now[BAR] - before[BAR] == lost
        assert lost <= 4


@SETTINGS
@given(positions)
def test_position_id_round_trips(position: Position) -> None:
    pid = position.position_id()
    assert len(pid) == 14
    assert decode_position_id(pid, position.turn) == position
    # The ID only knows "on roll" and "not on roll": read with the other
    # player named as on roll, the two sides trade places.
    other = Position.from_position_id(pid, position.turn.opponent)
    assert other.layout(other.turn) == position.layout(position.turn)
    assert other.layout(position.turn) == position.layout(position.turn.opponent)


@settings(derandomize=True, max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(positions, dice, dice)
def test_move_notation_round_trips(position: Position, d1: int, d2: int) -> None:
    """Every play survives ``str`` then ``parse_play`` (at most 30 per roll, evenly spaced:
    parsing searches all plays, so a 1,000-play double would take seconds)."""
    plays = position.legal_plays(d1, d2)
    for play in plays[:: max(1, len(plays) // 30)]:
        parsed = parse_play(position, str(play), d1, d2)
        assert position.result_of(parsed) == position.result_of(play)
        if play.moves:
            assert position.is_legal(parsed)


def test_the_dance_legal_plays_offers_is_legal() -> None:
    """On the bar against a closed board the one play is the dance: it must be accepted."""
    closed = [0] * 26
    for point in range(1, 7):
        closed[point] = 2
    closed[13] = 3
    mover = [0] * 26
    mover[BAR] = 1
    mover[6] = 14
    position = Position.from_relative(mover, closed, Player.ZERO)
    (dance,) = position.legal_plays(6, 5)
    assert dance.is_dance
    assert position.is_legal(dance)
    assert position.play(dance) == position.swap_turn()


# -- the corpus generators make what their names say ---------------------------


def _entries(kind: str, n: int = 150) -> list[Entry]:
    rng = random.Random(1234)
    return [KINDS[kind](rng) for _ in range(n)]


def _mover(position: Position) -> tuple[int, ...]:
    return position.layout(position.turn)


def _theirs(position: Position) -> tuple[int, ...]:
    return position.layout(position.turn.opponent)


def test_every_generated_position_is_valid() -> None:
    for _, (position, d1, d2) in labelled_corpus(99, 3000):
        assert 1 <= d1 <= 6 and 1 <= d2 <= 6
        for player in Player:
            row = position.layout(player)
            assert sum(row) == 15
            assert row[0] < 15, "nobody has already won"
        for point in range(1, 25):
            assert not (_mover(position)[point] and _theirs(position)[25 - point])


def test_the_mix_holds_every_kind_and_both_players_on_roll() -> None:
    labelled = labelled_corpus(5, 2000)
    assert {kind for kind, _ in labelled} == set(KINDS)
    assert {entry[0].turn for _, entry in labelled} == set(Player)
    assert any(d1 == d2 for _, (_, d1, d2) in labelled)


def test_generators_are_repeatable() -> None:
    assert labelled_corpus(8, 300) == labelled_corpus(8, 300)
    assert labelled_corpus(8, 300) != labelled_corpus(9, 300)


def test_bar_generators_put_checkers_on_the_bar() -> None:
    mover_bars = [_mover(p)[BAR] for p, _, _ in _entries("bar_mover")]
    assert min(mover_bars) >= 1 and max(mover_bars) >= 3
    assert any(_theirs(p)[BAR] for p, _, _ in _entries("bar_mover"))
    for p, _, _ in _entries("bar_opponent"):
        assert _theirs(p)[BAR] >= 1 and _mover(p)[BAR] == 0


def test_closed_and_nearly_closed_boards_block_entry() -> None:
    for p, _, _ in _entries("closed_board"):
        assert _mover(p)[BAR] >= 1
        assert all(_theirs(p)[q] >= 2 for q in range(1, 7))
    gap_rolled = 0
    for p, d1, d2 in _entries("nearly_closed"):
        held = [q for q in range(1, 7) if _theirs(p)[q] >= 2]
        assert _mover(p)[BAR] >= 1 and len(held) == 5
        gap = ({1, 2, 3, 4, 5, 6} - set(held)).pop()
        gap_rolled += gap in (d1, d2)
    assert gap_rolled > 50


def test_prime_generator_builds_a_prime_with_checkers_behind_it() -> None:
    for p, _, _ in _entries("prime"):
        held = [_theirs(p)[25 - point] >= 2 for point in range(1, 25)]
        run = best = 0
        for h in held:
            run = run + 1 if h else 0
            best = max(best, run)
        assert best >= 5
        mover = _mover(p)
        lowest_prime = min(
            point for point in range(1, 20)
            if all(_theirs(p)[25 - q] >= 2 for q in range(point, point + 5))
        )
        assert any(mover[q] for q in range(lowest_prime + 5, 26))


def test_bearoff_generators_have_everything_home() -> None:
    for kind in ("bearoff_race", "bearoff_contact", "bearoff_overshoot"):
        for p, _, _ in _entries(kind):
            assert not any(_mover(p)[7:26]), kind
    for p, _, _ in _entries("bearoff_race"):
        assert not p.is_contact()
    for p, _, _ in _entries("bearoff_contact"):
        assert p.is_contact()
    for p, d1, d2 in _entries("bearoff_overshoot"):
        top = max(q for q in range(1, 7) if _mover(p)[q])
        assert max(d1, d2) > top


def test_few_checkers_and_spread_generators() -> None:
    for p, _, _ in _entries("few_checkers"):
        assert sum(_mover(p)[1:]) <= 3 and sum(_theirs(p)[1:]) <= 3
    spread = _entries("spread")
    for p, _, _ in spread:
        assert sum(1 for q in range(1, 25) if _mover(p)[q]) >= 10
    assert sum(d1 == d2 for _, d1, d2 in spread) > len(spread) // 2


def test_midgame_generator_has_everyone_on_the_points() -> None:
    for p, _, _ in _entries("midgame"):
        for row in (_mover(p), _theirs(p)):
            assert row[0] == 0 and row[BAR] == 0
