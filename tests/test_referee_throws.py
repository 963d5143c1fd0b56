"""The opening roll, ties, and void throws (etiquette 1 and 2 of the rule digest)."""

import dataclasses

import pytest

from controller.game.events import OpeningRoll
from controller.game.game import Game
from controller.game.settings import AutoDoubles, GameRules
from controller.referee.inputs import StableInput
from controller.referee.machine import Referee, Stage
from controller.referee.settings import RefereeSettings
from controller.rules.notation import parse_play
from controller.rules.physical import Seating
from controller.rules.position import Position
from tests.referee_streams import (
    DARK,
    LIGHT,
    SEATINGS,
    Script,
    colour,
    die,
    half_of,
    names,
    run,
    shifted,
)
from vision.observation import Die


def _opened(seating: Seating, light: int = 5, dark: int = 2) -> tuple[Script, Position]:
    script = Script(seating).setup()
    script.opening(light, dark)
    return script, Position.initial().with_turn(LIGHT if light > dark else DARK)


def _opening_dice(script: Script) -> tuple[Die, ...]:
    last = script.inputs[-1]
    assert isinstance(last, StableInput)
    return last.observation.dice


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
@pytest.mark.parametrize(("light", "dark"), [(5, 2), (1, 6)])
def test_the_opening_roll_names_the_starter(seating: Seating, light: int, dark: int) -> None:
    script, _ = _opened(seating, light, dark)
    referee, events = run(Referee.new(), script.inputs)
    assert names(events) == ["game_start", "opening_roll"]
    opening = events[1]
    assert opening.data["dice"] == {"light": light, "dark": dark}
    starter = Game.new().apply(OpeningRoll((light, dark))).turn
    assert opening.player == colour(starter)
    assert referee.stage is Stage.PLAY
    assert referee.expecting().startswith(f"{colour(starter)} to play")


@pytest.mark.parametrize(("auto", "cubes"), [(AutoDoubles.OFF, [1, 1]),
                                             (AutoDoubles.ONCE, [2, 2]),
                                             (AutoDoubles.UNLIMITED, [2, 4])])
def test_ties_are_thrown_again_with_automatic_doubles(auto: AutoDoubles,
                                                      cubes: list[int]) -> None:
    script = Script(SEATINGS[2]).setup()
    script.opening(3, 3)
    script.setup()  # dice picked up
    script.opening(4, 4)
    script.setup()
    script.opening(2, 6)
    referee, events = run(Referee.new(RefereeSettings(automatic_doubles=auto)), script.inputs)
    assert names(events) == ["game_start", "opening_roll", "opening_roll", "opening_roll"]
    assert [e.data["tie"] for e in events[1:]] == [True, True, False]
    assert [e.data["cube"] for e in events[1:3]] == cubes
    game = Game.new(GameRules(automatic_doubles=auto))
    for dice in ((3, 3), (4, 4), (2, 6)):
        game = game.apply(OpeningRoll(dice))
    assert referee.game.cube_value == game.cube_value
    assert events[3].player == "dark"


def test_a_tied_opening_left_on_the_board_is_not_thrown_again() -> None:
    script = Script(SEATINGS[0]).setup()
    script.opening(3, 3)
    script.opening(3, 3)  # the same dice, still lying there
    _, events = run(Referee.new(), script.inputs)
    assert names(events) == ["game_start", "opening_roll"]


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_an_opening_die_in_the_wrong_half_is_void(seating: Seating) -> None:
    script = Script(seating).setup()
    script.stable(Position.initial(), (die(5, "right", 0), die(2, "right", 1)))
    script.setup()
    script.opening(5, 2)
    referee, events = run(Referee.new(), script.inputs)
    assert names(events) == ["game_start", "reroll", "opening_roll"]
    assert events[1].data["reason"] == "wrong_half"
    assert referee.stage is Stage.PLAY


def test_a_cocked_opening_die_is_void_and_names_its_thrower() -> None:
    seating = SEATINGS[1]
    script = Script(seating).setup()
    script.stable(Position.initial(), (die(5, "right", 0), die(2, "left", 1, flat=False)))
    # A look first (the vision reads flat dice as cocked now and then); picked up
    # from the starting position, the opening throw was void.
    script.stable(Position.initial())
    _, events = run(Referee.new(), script.inputs)
    assert names(events) == ["game_start", "warning:dice", "reroll"]
    del events[1]
    assert events[1].data["reason"] == "cocked"
    assert events[1].player == colour(seating.top)
    assert events[1].data["die"]["value"] == 2


def _to_roll(seating: Seating) -> tuple[Script, Position]:
    """Light opens 5-2 with 13/8 13/11; dark is to roll."""
    script, position = _opened(seating)
    play = parse_play(position, "13/8 13/11", 5, 2)
    after = script.play(position, play, _opening_dice(script))
    return script, after


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
@pytest.mark.parametrize(("reason", "dice"), [
    ("cocked", lambda h: (die(4, h, 0), die(3, h, 1, flat=False))),
    ("on_checker", lambda h: (die(4, h, 0, on_checker=True), die(3, h, 1))),
    ("off_field", lambda h: (die(4, None, 0), die(3, h, 1))),
    ("wrong_half", lambda h: (die(4, h, 0), die(3, "left" if h == "right" else "right", 1))),
    ("wrong_half", lambda h: (die(4, "left" if h == "right" else "right", 0),
                              die(3, "left" if h == "right" else "right", 1))),
])
def test_a_void_throw_names_the_die_and_waits_for_the_rethrow(seating: Seating, reason: str,
                                                              dice: object) -> None:
    script, position = _to_roll(seating)
    half = half_of(seating, DARK)
    void = dice(half)  # type: ignore[operator]
    script.stable(position, void)
    voided, so_far = run(Referee.new(), script.inputs)
    if reason == "cocked":
        # A die read as cocked is a look first (the vision reads flat dice as cocked
        # now and then); the dice picked up with nothing moved confirm the void.
        assert names(so_far)[-1] == "warning:dice" and not voided.panel().call_blink
    else:
        assert voided.panel().call_blink == {"dark"} and voided.panel().message == "ROLL AGAIN"
    script.stable(position, void[:1])  # picking them up
    script.stable(position)
    script.throw(position, DARK, (4, 3), spot=2)
    referee, events = run(Referee.new(), script.inputs)
    tail = events[-2:]
    assert names(tail) == ["reroll", "roll"]
    assert tail[0].data["reason"] == reason and tail[0].player == "dark"
    faulty = next(d for d in void if (d.side != half or not d.flat or d.on_checker))
    assert tail[0].data["die"]["value"] == faulty.value
    assert tail[1].data["dice"] == [4, 3]
    assert referee.stage is Stage.PLAY and not referee.panel().call_blink


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_die_flat_between_checkers_is_valid(seating: Seating) -> None:
    script, position = _to_roll(seating)
    script.throw(position, DARK, (6, 6), spot=1)
    _, events = run(Referee.new(), script.inputs)
    assert names(events)[-1] == "roll"


def test_an_unreadable_die_is_a_warning_not_a_reroll() -> None:
    seating = SEATINGS[0]
    script, position = _to_roll(seating)
    script.stable(position, (die(None, half_of(seating, DARK), 0),
                             die(3, half_of(seating, DARK), 1)))
    _, events = run(Referee.new(), script.inputs)
    assert names(events)[-1] == "warning:dice"


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_die_the_camera_missed_is_inferred_from_the_play(seating: Seating) -> None:
    script, position = _to_roll(seating)
    dark = position.with_turn(DARK)
    half = half_of(seating, DARK)
    script.stable(dark, (die(6, half, 0),))  # the 1 is not seen
    play = parse_play(dark, "13/7 8/7", 6, 1)
    fits = [(6, v) for v in range(1, 7) if dark.legal_play_to(dark.result_of(play), 6, v)]
    assert fits == [(6, 1)]
    after = script.play(dark, play, (die(6, half, 0),))
    referee, events = run(Referee.new(), script.inputs)
    assert names(events)[-3:] == ["warning:dice", "roll", "play"]
    assert events[-2].data == {"dice": [6, 1], "inferred": True}
    assert events[-1].data["legal"] is True and events[-1].data["move"] == str(play)
    assert referee.game.position == after and referee.stage is Stage.ROLL


def test_a_missed_die_that_several_rolls_fit_is_only_a_warning() -> None:
    seating = SEATINGS[1]
    script, position = _to_roll(seating)
    dark = position.with_turn(DARK)
    half = half_of(seating, DARK)
    script.stable(dark, (die(1, half, 0),))
    after = dark.result_of(parse_play(dark, "8/5 6/5", 1, 3))  # 1-3, or 1-1 (8/7/6/5 6/5)
    fits = [(1, v) for v in range(1, 7) if dark.legal_play_to(after, 1, v)]
    assert fits == [(1, 1), (1, 3)]
    script.stable(after, (die(1, half, 0),))
    referee, events = run(Referee.new(), script.inputs)
    assert "roll" not in names(events)[-2:] and referee.game.position == dark
    # The 1 picked up: the play is over and both rolls leave this board, so it is
    # recorded with the likeliest, the roll in doubt (a look warning, never a call).
    script.stable(after)
    referee, events = run(Referee.new(), script.inputs)
    assert names(events)[-3:] == ["warning:look", "roll", "play"]
    assert "1-1, 1-3" in events[-3].data["detail"]
    assert events[-2].data == {"dice": [1, 3], "inferred": True}
    assert not [e for e in events if e.event in ("illegal_play", "reroll")]
    assert referee.stage is Stage.ROLL and referee.game.position == after.with_turn(LIGHT)


def test_a_single_cocked_die_is_only_a_warning() -> None:
    # One die seen is not seen clearly (etiquette 5): the other may be hidden.
    seating = SEATINGS[2]
    script, position = _to_roll(seating)
    script.stable(position, (die(4, half_of(seating, DARK), 0, flat=False),))
    _, events = run(Referee.new(), script.inputs)
    assert names(events)[-1] == "warning:dice"


def test_a_single_die_is_a_warning_not_a_reroll() -> None:
    seating = SEATINGS[3]
    script, position = _to_roll(seating)
    script.stable(position, (die(5, half_of(seating, DARK), 0),))
    referee, events = run(Referee.new(), script.inputs)
    assert names(events)[-1] == "warning:dice"
    assert referee.stage is Stage.ROLL


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_idle_dice_beside_the_board_are_never_a_throw(seating: Seating) -> None:
    from controller.game.selfplay import selfplay_match
    from tests.referee_streams import script_match

    match = selfplay_match(5, 1)
    plain = script_match(match, seating, seed=5).inputs
    _, want = run(Referee.new(RefereeSettings(match_length=1)), plain)
    # The idle pair lies beside the board all along; its pips are read differently at times.
    with_idle = []
    for number, inp in enumerate(plain):
        if isinstance(inp, StableInput):
            idle = (Die(2 + number % 3, (980.0, 690.0), True, False, None),
                    Die(5, (985.0, 640.0), True, False, None))
            obs = inp.observation
            with_idle.append(StableInput(inp.t, dataclasses.replace(obs,
                                                                   dice=(*obs.dice, *idle))))
        else:
            with_idle.append(inp)
    _, got = run(Referee.new(RefereeSettings(match_length=1)), with_idle)
    assert [e.to_json() for e in got] == [e.to_json() for e in want]


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_an_opening_roll_the_camera_missed_is_inferred_from_the_play(seating: Seating) -> None:
    script = Script(seating).setup()
    start = Position.initial().with_turn(DARK)
    play = parse_play(start, "13/7 8/7", 6, 1)
    fits = [(p, (h, lo)) for p in (LIGHT, DARK) for h in range(2, 7) for lo in range(1, h)
            if Position.initial().with_turn(p).legal_play_to(start.result_of(play), h, lo)]
    assert fits == [(DARK, (6, 1))]
    script.play(start, play, (), steps=False)  # no dice seen at all
    script.throw(start.result_of(play), LIGHT, (5, 2), spot=2)
    referee, events = run(Referee.new(), script.inputs)
    assert names(events) == ["game_start", "opening_roll", "play", "roll"]
    assert events[1].player == "dark"
    assert events[1].data == {"dice": {"light": 1, "dark": 6}, "tie": False, "inferred": True}
    assert events[2].data["move"] == str(play) and events[2].data["legal"] is True
    assert referee.stage is Stage.PLAY and referee.game.turn == LIGHT


def test_a_misread_opening_then_played_on_is_recovered_with_the_dice_seen() -> None:
    seating = SEATINGS[0]
    script = Script(seating).setup()
    # The top die (dark's 6) is read as cocked: a look (never a call), and the
    # players went on.
    misread = (die(1, "right", 0), die(6, "left", 1, flat=False))
    script.stable(Position.initial(), misread)
    start = Position.initial().with_turn(DARK)
    play = parse_play(start, "24/18 6/5", 6, 1)
    for board in (start.result_of(play.__class__(play.moves[:1], (6, 1))),
                  start.result_of(play)):
        script.stable(board, misread)
    script.stable(start.result_of(play))
    referee, events = run(Referee.new(), script.inputs)
    assert names(events) == ["game_start", "warning:dice", "opening_roll", "play"]
    assert events[2].data["inferred"] is True and events[3].data["legal"] is True
    assert referee.game.turn == LIGHT and referee.stage is Stage.ROLL


def test_checkers_moved_before_any_opening_fit_no_play_is_a_warning() -> None:
    script = Script(SEATINGS[1]).setup()
    script.stable(shifted(Position.initial(), "8/7 6/5"))  # two 1s: no opening roll
    referee, events = run(Referee.new(), script.inputs)
    assert names(events) == ["game_start", "warning:moved"]
    assert referee.stage is Stage.OPENING


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_roll_never_seen_is_inferred_when_the_opponent_throws(seating: Seating) -> None:
    script, position = _to_roll(seating)
    dark = position.with_turn(DARK)
    play = parse_play(dark, "24/13", 6, 5)
    after = dark.result_of(play)
    fits = [(h, lo) for h in range(1, 7) for lo in range(1, h + 1)
            if dark.legal_play_to(after, h, lo)]
    assert fits == [(6, 5)]
    half_way = dark.result_of(play.__class__(play.moves[:1], (6, 5)))
    script.stable(half_way)  # no dice seen at all
    script.stable(after)
    script.throw(after, LIGHT, (3, 1), spot=2)
    referee, events = run(Referee.new(), script.inputs)
    assert names(events)[-4:] == ["warning:moved", "roll", "play", "roll"]
    assert events[-3].player == "dark" and events[-3].data == {"dice": [6, 5], "inferred": True}
    assert events[-2].data["move"] == str(play)
    assert events[-1].player == "light" and events[-1].data["dice"] == [3, 1]
    assert referee.stage is Stage.PLAY and referee.game.turn == LIGHT


def test_a_roll_never_seen_that_several_rolls_fit_is_recorded_with_the_roll_in_doubt() -> None:
    seating = SEATINGS[3]
    script, position = _to_roll(seating)
    dark = position.with_turn(DARK)
    after = dark.result_of(parse_play(dark, "8/5 6/5", 3, 1))  # 3-1, or 1-1 (8/7/6/5 6/5)
    fits = [(h, lo) for h in range(1, 7) for lo in range(1, h + 1)
            if dark.legal_play_to(after, h, lo)]
    assert len(fits) > 1
    script.stable(after)
    script.throw(after, LIGHT, (3, 1), spot=2)
    referee, events = run(Referee.new(), script.inputs)
    # Light's throw ends dark's play: every roll that fits leaves this board, so the
    # position is beyond doubt and only the roll is not.  The play is recorded (taken
    # as, with the likelier roll: a double is half as likely), never a call, and
    # light's throw is judged as light's.
    assert names(events)[-5:] == ["warning:moved", "warning:look", "roll", "play", "roll"]
    assert "fits 1-1, 3-1 with the dice seen: taken as 8/5 6/5 with 3-1" in \
        events[-4].data["detail"]
    assert events[-3].player == "dark" and events[-3].data == {"dice": [3, 1], "inferred": True}
    assert events[-2].player == "dark" and events[-2].data["move"] == "8/5 6/5"
    assert events[-1].player == "light" and events[-1].data == {"dice": [3, 1]}
    assert referee.game.turn == LIGHT and referee.stage is Stage.PLAY
    assert referee.game.position == after.with_turn(LIGHT) and not referee.divergences
