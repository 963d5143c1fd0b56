"""GNU Backgammon Match IDs: bit layout by hand, then against the real gnubg.

The hand-written tests pack bits from the field table of gnubg's manual
(plus bit 66, see :mod:`controller.rules.match_id`) with their own little
packer, independent of the module under test.  The gnubg tests set up
match situations through gnubg's own commands and check that decoding
gnubg's Match ID gives what was set, and that encoding what was set gives
gnubg's string.
"""

from __future__ import annotations

import base64
import random
from collections.abc import Iterator

import pytest

from controller.rules import InvalidMatchIdError, InvalidPositionIdError, Player, Position
from controller.rules.errors import InvalidMatchStateError
from controller.rules.match_id import (
    decode_match_id,
    encode_match_id,
    format_gnubg_id,
    parse_gnubg_id,
)
from controller.rules.match_state import (
    GameState,
    MatchState,
    Resignation,
)
from tests.gnubg_cli import Gnubg, running_gnubg

ZERO, ONE = Player.ZERO, Player.ONE
P = GameState.PLAYING

# -- an independent packer, straight from the manual's table -----------------

_BITS = {  # field: (first bit, width)
    "cube": (0, 4),
    "owner": (4, 2),
    "move": (6, 1),
    "crawford": (7, 1),
    "state": (8, 3),
    "turn": (11, 1),
    "double": (12, 1),
    "resign": (13, 2),
    "die1": (15, 3),
    "die2": (18, 3),
    "length": (21, 15),
    "score0": (36, 15),
    "score1": (51, 15),
    "nojacoby": (66, 1),
    "spare": (67, 5),
}


def pack(**fields: int) -> str:
    """A Match ID from raw field values; unset fields are 0 except the cube
    owner (3 = centred) and the game state (1 = playing)."""
    values = {"owner": 3, "state": 1, **fields}
    bits = [0] * 72
    for name, value in values.items():
        first, width = _BITS[name]
        assert 0 <= value < 1 << width, name
        for i in range(width):
            bits[first + i] = (value >> i) & 1
    data = bytes(sum(bits[8 * b + i] << i for i in range(8)) for b in range(9))
    return base64.b64encode(data).decode()


# -- by hand -------------------------------------------------------------------


def test_a_money_session_start_worked_out_by_hand() -> None:
    # Bits 4-5 (centred cube) and 8 (playing) set: bytes 30 01 00 ..., all
    # else zero with the Jacoby rule on -> "MAEA" then eight 'A's.
    state = MatchState(jacoby=True)
    assert encode_match_id(state) == "MAEAAAAAAAAA"
    assert decode_match_id("MAEAAAAAAAAA") == state


@pytest.mark.parametrize(
    ("state", "fields"),
    [
        (MatchState(cube_value=8), {"cube": 3, "nojacoby": 1}),
        (MatchState(cube_value=32768), {"cube": 15, "nojacoby": 1}),
        (MatchState(cube_value=2, cube_owner=ZERO), {"cube": 1, "owner": 0, "nojacoby": 1}),
        (MatchState(cube_value=2, cube_owner=ONE), {"cube": 1, "owner": 1, "nojacoby": 1}),
        (MatchState(on_roll=ONE, turn=ONE), {"move": 1, "turn": 1, "nojacoby": 1}),
        (
            MatchState(match_length=5, score=(4, 1), crawford=True),
            {"length": 5, "score0": 4, "score1": 1, "crawford": 1, "nojacoby": 1},
        ),
        (MatchState(game_state=GameState.NONE), {"state": 0, "nojacoby": 1}),
        (
            MatchState(match_length=3, score=(3, 0), game_state=GameState.OVER),
            {"state": 2, "length": 3, "score0": 3, "nojacoby": 1},
        ),
        (
            MatchState(match_length=3, score=(0, 3), game_state=GameState.DROPPED),
            {"state": 4, "length": 3, "score1": 3, "nojacoby": 1},
        ),
        (MatchState(turn=ONE, double_offered=True), {"turn": 1, "double": 1, "nojacoby": 1}),
        (
            MatchState(turn=ONE, resignation=Resignation.BACKGAMMON),
            {"turn": 1, "resign": 3, "nojacoby": 1},
        ),
        (MatchState(dice=(5, 3)), {"die1": 5, "die2": 3, "nojacoby": 1}),
        (MatchState(dice=(3, 5)), {"die1": 5, "die2": 3, "nojacoby": 1}),
        (
            MatchState(match_length=32767, score=(32766, 1)),
            {"length": 32767, "score0": 32766, "score1": 1, "nojacoby": 1},
        ),
        (MatchState(score=(1000, 20000), jacoby=True), {"score0": 1000, "score1": 20000}),
    ],
)
def test_each_field_sits_where_the_manual_says(state: MatchState, fields: dict[str, int]) -> None:
    assert encode_match_id(state) == pack(**fields)
    assert decode_match_id(pack(**fields)) == state


def test_bit_66_is_ignored_in_match_play() -> None:
    # Match IDs written by the manual's 66-bit layout leave bit 66 clear.
    old = pack(length=7, score0=2)
    new = pack(length=7, score0=2, nojacoby=1)
    assert decode_match_id(old) == decode_match_id(new) == MatchState(match_length=7, score=(2, 0))
    assert encode_match_id(decode_match_id(old)) == new


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "12 characters"),
        ("MAEAAAAAAAA", "12 characters"),
        ("MAEAAAAAAAAAA", "12 characters"),
        ("MAEAAAAAAA*A", "12 characters"),
        ("MAEAAAAAAA=A", "12 characters"),
        ("MAEA AAAAAAA", "12 characters"),
        (pack(spare=1), "past the 67-bit key"),
        (pack(spare=16), "past the 67-bit key"),
        (pack(owner=2), "cube owner code 2"),
        (pack(state=5), "game state code 5"),
        (pack(state=7), "game state code 7"),
        (pack(die1=7, die2=1), "a die shows 7"),
        (pack(die1=3, die2=7), "a die shows 7"),
        (pack(die1=3), "both dice"),
        (pack(die2=4), "both dice"),
        (pack(length=7, score0=7), "ends a 7-point match"),
        (pack(length=7, score1=9), "ends a 7-point match"),
        (pack(length=7, score0=7, score1=8, state=2), "both players"),
        (pack(crawford=1), "money play has no Crawford"),
        (pack(length=7, score0=5, crawford=1), "Crawford game needs a player at 6"),
        (pack(double=1, turn=1, die1=3, die2=1), "before rolling"),
        (pack(double=1, turn=1, resign=1), "cannot both be pending"),
        (pack(length=5, score0=4, crawford=1, double=1, turn=1), "no doubling in the Crawford"),
        (pack(double=1, turn=1, state=0), "double can only be pending while playing"),
        (pack(resign=2, turn=1, state=4), "resignation belongs"),
    ],
)
def test_malformed_or_impossible_ids_are_rejected(text: str, message: str) -> None:
    with pytest.raises(InvalidMatchIdError, match=message):
        decode_match_id(text)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"cube_value": 3}, "power of two"),
        ({"cube_value": 0}, "power of two"),
        ({"cube_value": 65536}, "power of two"),
        ({"dice": (7, 1)}, "dice show 1 to 6"),
        ({"dice": (0, 2)}, "both dice"),
        ({"score": (-1, 0)}, "scores are two numbers"),
        ({"match_length": -3}, "match length"),
        ({"match_length": 40000}, "match length"),
        ({"jacoby": True, "match_length": 5}, "Jacoby rule applies to money play only"),
    ],
)
def test_impossible_states_cannot_be_built(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidMatchStateError, match=message):
        MatchState(**kwargs)  # type: ignore[arg-type]


def test_states_compare_by_value_however_built() -> None:
    assert MatchState(dice=(2, 6), on_roll=1, turn=1) == MatchState(  # type: ignore[arg-type]
        dice=(6, 2), on_roll=ONE, turn=ONE
    )
    assert MatchState(dice=(2, 6)).dice == (6, 2)
    assert hash(MatchState(score=(1, 2))) == hash(MatchState(score=(1, 2)))


def test_swapping_players_exchanges_every_per_player_field() -> None:
    state = MatchState(
        match_length=9,
        score=(4, 7),
        cube_value=4,
        cube_owner=ZERO,
        on_roll=ONE,
        turn=ZERO,
        double_offered=True,
    )
    swapped = state.with_players_swapped()
    assert swapped == MatchState(
        match_length=9,
        score=(7, 4),
        cube_value=4,
        cube_owner=ONE,
        on_roll=ZERO,
        turn=ONE,
        double_offered=True,
    )
    assert swapped.with_players_swapped() == state


def test_match_over_helpers() -> None:
    over = MatchState(match_length=7, score=(9, 5), game_state=GameState.RESIGNED)
    assert over.winner == ZERO
    assert MatchState(match_length=7, score=(3, 5)).winner is None
    assert MatchState().is_money and not MatchState(match_length=1).is_money


def test_gnubg_id_pairs_position_and_match() -> None:
    position, state = parse_gnubg_id(" 4HPwATDgc/ABMA:cAngAAAAAAAE ")
    assert position == Position.initial(ONE)
    assert state == MatchState(match_length=7, on_roll=ONE, turn=ONE)
    assert format_gnubg_id(position, state) == "4HPwATDgc/ABMA:cAngAAAAAAAE"


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("4HPwATDgc/ABMA cAngAAAAAAAE", InvalidMatchIdError),
        ("4HPwATDgc/ABMA:cAngAAAAAAA", InvalidMatchIdError),
        ("4HPwATDgc/ABM:cAngAAAAAAAE", InvalidPositionIdError),
        ("//////////////:cAngAAAAAAAE", InvalidPositionIdError),
    ],
)
def test_bad_gnubg_ids_name_the_faulty_half(text: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        parse_gnubg_id(text)


def test_a_gnubg_id_needs_the_position_of_the_player_on_roll() -> None:
    with pytest.raises(InvalidMatchIdError, match="on roll"):
        format_gnubg_id(Position.initial(ZERO), MatchState(on_roll=ONE, turn=ONE))


# -- against gnubg ----------------------------------------------------------------


@pytest.fixture(scope="module")
def gnubg() -> Iterator[Gnubg]:
    with running_gnubg() as session:
        # Games must not restart by themselves once one ends, or the states
        # "game over", "resigned" and "dropped" would never be seen.
        session.run("set automatic game off", "set jacoby on", "set beavers 3")
        yield session


# Each "new match" rolls the opening at random; "set turn" puts the dice
# away again, so every scenario below is deterministic.
SCENARIOS: list[tuple[str, tuple[str, ...], MatchState]] = [
    ("match start", ("new match 7", "set turn 0"), MatchState(match_length=7)),
    (
        "score, cube, dice",
        (
            "new match 7",
            "set score 3 5",
            "set turn 1",
            "set cube value 4",
            "set cube owner 1",
            "set dice 6 2",
        ),
        MatchState(
            match_length=7,
            score=(3, 5),
            cube_value=4,
            cube_owner=ONE,
            on_roll=ONE,
            turn=ONE,
            dice=(6, 2),
        ),
    ),
    (
        "dice given low first",
        ("new match 7", "set turn 0", "set dice 2 6"),
        MatchState(match_length=7, dice=(2, 6)),
    ),
    (
        "cube owned by player 0",
        ("new match 9", "set turn 0", "set cube value 64", "set cube owner 0"),
        MatchState(match_length=9, cube_value=64, cube_owner=ZERO),
    ),
    (
        "largest cube gnubg sets",
        ("new match 9", "set turn 1", "set cube value 4096", "set cube owner 1"),
        MatchState(match_length=9, cube_value=4096, cube_owner=ONE, on_roll=ONE, turn=ONE),
    ),
    (
        "Crawford game",
        ("new match 7", "set score 6 3", "set crawford on", "set turn 1"),
        MatchState(match_length=7, score=(6, 3), crawford=True, on_roll=ONE, turn=ONE),
    ),
    (
        "post-Crawford",
        ("new match 7", "set score 2 6", "set crawford off", "set turn 0"),
        MatchState(match_length=7, score=(2, 6)),
    ),
    (
        "double offered",
        ("new match 7", "set turn 0", "double"),
        MatchState(match_length=7, turn=ONE, double_offered=True),
    ),
    (
        "resignation offered before rolling",
        ("new match 7", "set turn 1", "resign g"),
        MatchState(match_length=7, on_roll=ONE, turn=ZERO, resignation=Resignation.GAMMON),
    ),
    (
        "resignation offered after rolling",
        ("new match 5", "set turn 0", "set dice 3 1", "resign s"),
        MatchState(match_length=5, turn=ONE, dice=(3, 1), resignation=Resignation.SINGLE),
    ),
    (
        "resignation accepted",
        ("new match 7", "set turn 1", "resign g", "accept"),
        MatchState(
            match_length=7,
            score=(2, 0),
            on_roll=ONE,
            turn=ZERO,
            game_state=GameState.RESIGNED,
            resignation=Resignation.GAMMON,
        ),
    ),
    (
        "match won past the match length",
        ("new match 7", "set score 6 5", "set turn 1", "resign b", "accept"),
        MatchState(
            match_length=7,
            score=(9, 5),
            on_roll=ONE,
            turn=ZERO,
            game_state=GameState.RESIGNED,
            resignation=Resignation.BACKGAMMON,
        ),
    ),
    (
        "double dropped",
        ("new match 7", "set turn 0", "double", "drop"),
        MatchState(match_length=7, score=(1, 0), turn=ONE, game_state=GameState.DROPPED),
    ),
    (
        "game over by bearing off",
        # Player 1 has one checker left on the 1-point and bears it off.
        ("new match 7", "set turn 1", "set board AQAABAAAAAAAAA", "set dice 6 5", "move 1/off"),
        MatchState(match_length=7, score=(0, 1), game_state=GameState.OVER),
    ),
    (
        "one-point match",
        ("new match 1", "set turn 1"),
        MatchState(match_length=1, on_roll=ONE, turn=ONE),
    ),
    (
        "longest match gnubg plays",
        ("new match 64", "set score 40 63", "set crawford off", "set turn 0"),
        MatchState(match_length=64, score=(40, 63)),
    ),
    (
        "money, Jacoby on",
        ("new session", "set turn 1", "set cube value 8", "set cube owner 0"),
        MatchState(cube_value=8, cube_owner=ZERO, on_roll=ONE, turn=ONE, jacoby=True),
    ),
    (
        "money, Jacoby off",
        ("set jacoby off", "new session", "set turn 0", "set jacoby on"),
        MatchState(),
    ),
    (
        "money, session score",
        ("new session", "set score 12 3", "set turn 0"),
        MatchState(score=(12, 3), jacoby=True),
    ),
    (
        "money, beaver",
        # Player 1 beavers: the cube goes to 2 on their side and player 0
        # must answer the redouble, still as the player on roll.
        ("new session", "set turn 0", "double", "beaver"),
        MatchState(cube_value=2, cube_owner=ONE, double_offered=True, jacoby=True),
    ),
]


@pytest.mark.oracle
@pytest.mark.parametrize(("name", "commands", "expected"), SCENARIOS, ids=[s[0] for s in SCENARIOS])
def test_gnubg_match_ids(
    gnubg: Gnubg, name: str, commands: tuple[str, ...], expected: MatchState
) -> None:
    _, match_id = gnubg.ids(*commands)
    assert decode_match_id(match_id) == expected, name
    assert encode_match_id(expected) == match_id, name


def _random_state(rng: random.Random) -> MatchState:
    """A random state of the kind gnubg's ``set matchid`` keeps as it is.

    gnubg's reader drops pending resignations, cannot set a pending double,
    puts the cube back to 1 in a Crawford game and never has a Crawford game
    in a one-point match; everything else is drawn freely.
    """
    length = rng.choice([0, 0, 1, 3, 5, 7, 11, 25, 64])
    score = tuple(rng.randrange(length) if length else rng.randrange(300) for _ in range(2))
    crawford = length > 1 and length - 1 in score and rng.random() < 0.5
    on_roll = Player(rng.randint(0, 1))
    return MatchState(
        match_length=length,
        score=(score[0], score[1]),
        cube_value=1 if crawford else 1 << rng.randint(0, 12),
        cube_owner=rng.choice([None, ZERO, ONE]),
        on_roll=on_roll,
        turn=on_roll,
        crawford=crawford,
        dice=(rng.randint(1, 6), rng.randint(1, 6)) if rng.random() < 0.6 else (0, 0),
        jacoby=not length and rng.random() < 0.5,
    )


@pytest.mark.oracle
def test_gnubg_reads_our_match_ids_back(gnubg: Gnubg) -> None:
    rng = random.Random(5)
    gnubg.run("new match 7")
    wrong = []
    for _ in range(80):
        ours = encode_match_id(_random_state(rng))
        _, theirs = gnubg.ids(f"set matchid {ours}")
        if theirs != ours:
            wrong.append(f"{ours} -> {theirs}")
    assert not wrong


@pytest.mark.oracle
def test_gnubg_ids_from_gnubg(gnubg: Gnubg) -> None:
    """``set gnubgid`` with our pair shows the same pair, and it parses back."""
    rng = random.Random(11)
    position = Position.initial(ZERO)
    for _ in range(40):
        while position.winner() is None and rng.random() < 0.9:
            position = position.result_of(
                rng.choice(position.legal_plays(rng.randint(1, 6), rng.randint(1, 6)))
            )
        if position.winner() is not None:
            position = Position.initial(ONE)
        state = _random_state(rng)
        state = MatchState(
            match_length=state.match_length,
            score=state.score,
            cube_value=state.cube_value,
            cube_owner=state.cube_owner,
            on_roll=position.turn,
            turn=position.turn,
            crawford=state.crawford,
            dice=state.dice,
            jacoby=state.jacoby,
        )
        text = format_gnubg_id(position, state)
        shown = gnubg.ids(f"set gnubgid {text}")
        assert ":".join(shown) == text
        assert parse_gnubg_id(":".join(shown)) == (position, state)


@pytest.mark.oracle
def test_the_position_id_stays_with_the_doubler(gnubg: Gnubg) -> None:
    # Player 0: one checker on their 1-point; player 1 (on roll): 15 on their
    # 6-point.  While player 0 decides on the double, gnubg still writes the
    # board from player 1's side, so the pair parses with player 1 on roll.
    empty = [0] * 26
    layout0 = [14, 1, *empty[2:]]
    layout1 = [0, 0, 0, 0, 0, 0, 15, *empty[7:]]
    position = Position(layout0, layout1, ONE)
    shown = gnubg.ids("new match 7", "set turn 1", f"set board {position.position_id()}", "double")
    parsed_position, state = parse_gnubg_id(":".join(shown))
    assert parsed_position == position
    assert state == MatchState(match_length=7, on_roll=ONE, turn=ZERO, double_offered=True)
