"""Raw frame streams with flicker, hands over the board and lifted checkers, settled by the
real stabiliser: whole self-played games are followed with no call and no void throw."""

import pytest

from controller.game.selfplay import selfplay_match
from controller.referee.inputs import StatusInput
from controller.referee.machine import Referee, Stage
from controller.referee.settings import RefereeSettings
from tests.referee_streams import SEATINGS, Plant, frames, names, run, script_match, stabilised

CALLS = {"illegal_play", "reroll", "call_upheld", "cube_refused"}


@pytest.mark.parametrize("seed", [1, 2])
def test_noisy_streams_of_whole_matches_raise_no_calls(seed: int) -> None:
    match = selfplay_match(seed, 3)
    seating = SEATINGS[seed % 4]
    script = script_match(match, seating, seed=seed, lifted=True)
    inputs = list(stabilised(frames(script, seed=seed)))
    assert any(isinstance(i, StatusInput) and i.condition == "occluded" for i in inputs)
    referee, events = run(Referee.new(RefereeSettings(match_length=3)), inputs)
    assert not [e.to_json() for e in events if e.event in CALLS]
    plays = [e for e in events if e.event == "play"]
    assert all(e.data["legal"] for e in plays)
    assert len(plays) == sum(1 for g in match.games for ev in g.events
                             if ev.__class__.__name__ == "Move")
    assert referee.stage is Stage.OVER and referee.session.score == match.score


@pytest.mark.parametrize("mode", ["strict", "players"])
@pytest.mark.parametrize("seed", [3, 4])
def test_planted_faults_in_noisy_streams_are_all_caught(mode: str, seed: int) -> None:
    match = selfplay_match(seed, 3)
    plant = Plant(mode, illegal=0.15, void=0.15, early=0.15, seed=seed)  # type: ignore[arg-type]
    script = script_match(match, SEATINGS[(seed + 1) % 4], seed=seed, lifted=True, plant=plant)
    assert plant.planted.get("illegal") and plant.planted.get("early")
    assert sum(n for k, n in plant.planted.items() if k.startswith("void:")) >= 2
    inputs = list(stabilised(frames(script, seed=seed)))
    settings = RefereeSettings(mode=mode, match_length=3)  # type: ignore[arg-type]
    referee, events = run(Referee.new(settings), inputs)
    rerolls = [e.data["reason"] for e in events if e.event == "reroll"]
    caught = {f"void:{r}" if r != "early" else "early": rerolls.count(r) for r in set(rerolls)}
    assert caught == {k: n for k, n in plant.planted.items() if k != "illegal"}
    illegal = [e for e in events if e.event == "play" and not e.data["legal"]]
    assert len(illegal) == plant.planted["illegal"]
    if mode == "strict":
        assert names(events).count("illegal_play") == plant.planted["illegal"]
        assert "call_upheld" not in names(events)
    else:
        assert names(events).count("call_upheld") == plant.planted["illegal"]
        assert "illegal_play" not in names(events)
    assert "play_stands" not in names(events) and "cube_refused" not in names(events)
    assert referee.stage is Stage.OVER and referee.session.score == match.score
