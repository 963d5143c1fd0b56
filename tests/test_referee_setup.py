"""Set-up recognition: either seating, either home-board side, and what a wrong set-up says."""

import pytest

from controller.referee.machine import Referee, Stage
from controller.referee.settings import RefereeSettings
from controller.rules.notation import parse_play
from controller.rules.physical import (
    Seating,
    SetUpError,
    Side,
    physical_index,
    recognise_start,
    to_physical,
)
from controller.rules.player import Player
from controller.rules.position import Position
from tests.referee_streams import LIGHT, SEATINGS, Script, colour, names, observe, run, shifted
from vision.observation import Counts


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_the_start_is_recognised_in_every_seating(seating: Seating) -> None:
    script = Script(seating).setup()
    referee, events = run(Referee.new(), script.inputs)
    assert names(events) == ["game_start"]
    assert events[0].data["bottom"] == colour(seating.bottom)
    assert events[0].data["home"] == seating.home.value
    assert referee.stage is Stage.OPENING and referee.seating == seating
    assert referee.panel().bottom == colour(seating.bottom)
    assert "opening roll" in referee.expecting()


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_wrong_set_up_lists_its_differences(seating: Seating) -> None:
    observation = observe(Position.initial(), seating)
    # One checker short on light's 13-point, where the camera sees it.
    index = next(i for i, c in enumerate(observation.points) if c.light == 5 and i in
                 _thirteen(seating))
    points = list(observation.points)
    points[index] = Counts(4, 0)
    short = observation.__class__(board_found=True, points=tuple(points), bar=observation.bar,
                                  off=Counts(1, 0))
    script = Script(seating).observation(short)
    referee, events = run(Referee.new(), script.inputs)
    assert names(events) == ["warning:setup"]
    board = to_physical(Position.initial(), seating, LIGHT)
    assert board.points[index].light == 5
    differences = events[0].data["differences"]
    assert f"light point 13 (physical {index}): 4 checkers, expected 5" in differences
    assert "light borne off: 1 checker, expected 0" in differences
    assert referee.stage is Stage.SETUP
    assert "point 13" in referee.expecting()


def _thirteen(seating: Seating) -> set[int]:
    return {physical_index(seating, LIGHT, 13)}


def test_the_same_wrong_set_up_is_not_announced_twice_and_a_fix_starts_the_game() -> None:
    seating = Seating(Player.ONE, Side.LEFT)
    wrong = shifted(Position.initial(), "6/5")  # no opening play: a set-up gone wrong
    script = Script(seating).stable(wrong).stable(wrong).setup()
    _, events = run(Referee.new(), script.inputs)
    assert names(events) == ["warning:setup", "game_start"]
    with pytest.raises(SetUpError) as caught:
        recognise_start(to_physical(wrong, seating, LIGHT), LIGHT)
    assert tuple(events[0].data["differences"]) == caught.value.differences


def test_no_tray_in_view_still_recognises_the_start() -> None:
    script = Script(SEATINGS[0], tray=False).setup()
    _, events = run(Referee.new(), script.inputs)
    assert names(events) == ["game_start"]


def test_too_many_checkers_is_a_set_up_warning_not_a_crash() -> None:
    observation = observe(Position.initial(), SEATINGS[0], tray=False)
    points = list(observation.points)
    points[3] = Counts(3, 0)
    script = Script(SEATINGS[0]).observation(
        observation.__class__(board_found=True, points=tuple(points), off=None))
    referee, events = run(Referee.new(RefereeSettings()), script.inputs)
    assert names(events) == ["warning:setup"]
    assert "18 light checkers" in events[0].data["detail"]
    assert referee.stage is Stage.SETUP


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_set_up_the_camera_missed_is_inferred_from_the_opening_play(seating: Seating) -> None:
    start = Position.initial().with_turn(Player.ONE)
    play = parse_play(start, "13/7 8/7", 6, 1)
    after = start.result_of(play)
    script = Script(seating).stable(after)  # first seen after dark's opening 6-1
    referee, events = run(Referee.new(), script.inputs)
    assert names(events) == ["game_start", "opening_roll", "play"]
    assert events[0].data["bottom"] == colour(seating.bottom)
    assert events[1].data == {"dice": {"light": 1, "dark": 6}, "tie": False, "inferred": True}
    assert events[2].player == "dark" and events[2].data["move"] == str(play)
    assert referee.seating == seating and referee.game.position == after


def test_a_board_several_openings_fit_is_still_a_set_up_warning() -> None:
    start = Position.initial()
    after = shifted(start, "13/8")  # 4-1 (13/9/8) or 3-2 (13/10/8)
    assert start.legal_play_to(after, 4, 1) and start.legal_play_to(after, 3, 2)
    script = Script(SEATINGS[0]).stable(after)
    referee, events = run(Referee.new(), script.inputs)
    assert names(events) == ["warning:setup"]
    assert referee.stage is Stage.SETUP
