"""Raw frame streams with flicker, hands over the board and lifted checkers, settled by the
real stabiliser: whole self-played games are followed with no call and no void throw."""

import pytest

from controller.game.selfplay import selfplay_match
from controller.referee.inputs import StatusInput
from controller.referee.machine import Referee, Stage
from controller.referee.settings import RefereeSettings
from tests.referee_streams import SEATINGS, frames, run, script_match, stabilised

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
