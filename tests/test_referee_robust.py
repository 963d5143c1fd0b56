"""Any well-formed input at any moment: the referee never raises and always has a word."""

import random

import pytest

from controller.game.selfplay import selfplay_match
from controller.records.matfile import format_mat
from controller.referee.inputs import (
    ButtonInput,
    OperatorInput,
    RefereeInput,
    StableInput,
    StatusInput,
)
from controller.referee.machine import Referee
from controller.referee.settings import RefereeSettings
from controller.rules.position import Position
from tests.referee_streams import SEATINGS, Script, die, names, run, script_match
from vision.observation import Counts, Observation

BUTTONS = ("double", "take", "pass", "call", "resign", "accept", "reject")


def _garbage(rng: random.Random, t: float) -> RefereeInput:
    kind = rng.random()
    if kind < 0.4:
        points = tuple(Counts(rng.choice((0, 0, 1, 2, 5)), 0) if rng.random() < 0.5
                       else Counts(0, rng.choice((0, 0, 1, 3))) for _ in range(24))
        dice = tuple(die(rng.randint(1, 6), rng.choice(("left", "right", None)),
                         rng.randrange(4), flat=rng.random() < 0.8,
                         on_checker=rng.random() < 0.1) for _ in range(rng.randint(0, 4)))
        return StableInput(t, Observation(True, points=points, dice=dice,
                                          off=None if rng.random() < 0.5 else Counts(1, 2)))
    if kind < 0.8:
        return ButtonInput(t, rng.choice(BUTTONS), rng.choice(("light", "dark")),  # type: ignore[arg-type]
                           rng.choice(("single", "gammon", "backgammon")))
    if kind < 0.9:
        return StatusInput(t, rng.choice(("stable", "settling", "occluded", "no_board")))
    action = rng.choice(("undo", "set_position", "adjust_score"))
    args: dict[str, object] = {
        "undo": {},
        "set_position": {"position_id": Position.initial().position_id(), "turn": "dark"},
        "adjust_score": {"light": rng.randint(0, 3)},
    }[action]
    return OperatorInput(t, action, args)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("mode", ["strict", "players"])
def test_random_inputs_mixed_into_a_real_match_never_break_the_referee(seed: int,
                                                                       mode: str) -> None:
    rng = random.Random(seed)
    script = script_match(selfplay_match(seed, 3), SEATINGS[seed % 4], seed=seed)
    settings = RefereeSettings(mode=mode, match_length=3)  # type: ignore[arg-type]
    referee = Referee.new(settings)
    announced = []
    for inp in script.inputs:
        stream = [inp]
        if rng.random() < 0.15:
            stream.insert(0, _garbage(rng, inp.t - 0.1))
        for item in stream:
            referee, events = referee.step(item)
            announced.extend(events)
            assert referee.expecting()
            referee.panel()
    assert announced
    assert not [e.to_json() for e in announced if e.data.get("reason") == "internal"]
    format_mat(referee.match_record())


def test_occluded_and_boardless_observations_are_never_judged() -> None:
    script = Script(SEATINGS[0]).setup()
    dice = script.opening(3, 1)
    script.observation(Observation(board_found=True, occluded=True))
    script.observation(Observation(board_found=False))
    before, _ = run(Referee.new(), script.inputs[:2])
    referee, events = run(Referee.new(), script.inputs)
    assert names(events) == ["game_start", "opening_roll"]
    assert referee == before and dice
