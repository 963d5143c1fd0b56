"""The referee's input lines, event lines and settings file: exact round trips, precise errors."""

import json
from pathlib import Path

import pytest

from controller.game.settings import AutoDoubles
from controller.referee.events import RefereeEvent, RefereeEventError
from controller.referee.inputs import (
    ButtonInput,
    OperatorInput,
    RefereeInputError,
    StableInput,
    StatusInput,
    input_from_json,
    input_to_json,
)
from controller.referee.settings import (
    RefereeSettings,
    RefereeSettingsError,
    load_settings,
    settings_from_json,
)
from controller.rules.position import Position
from tests.referee_streams import SEATINGS, die, observe

LINES = [
    {"t": 12.5, "button": "double", "player": "light"},
    {"t": 3, "button": "resign", "player": "dark", "level": "gammon"},
    {"t": 4.25, "status": "occluded"},
    {"t": 9.0, "operator": "adjust_score", "args": {"light": 2, "dark": 1}},
    {"t": 9.5, "operator": "undo", "args": {}},
]


@pytest.mark.parametrize("line", LINES, ids=lambda d: next(k for k in d if k != "t"))
def test_lines_round_trip_exactly(line: dict[str, object]) -> None:
    text = json.dumps(line)
    inp = input_from_json(json.loads(text))
    assert input_to_json(inp) == json.loads(text)
    assert input_from_json(input_to_json(inp)) == inp


def test_an_observation_line_is_a_stable_input() -> None:
    observation = observe(Position.initial(), SEATINGS[1], (die(3, "left"), die(5, "right")),
                          t=2.5)
    line = json.loads(json.dumps(observation.to_json()))
    inp = input_from_json(line)
    assert isinstance(inp, StableInput) and inp.t == 2.5
    assert inp.observation == observation
    assert input_from_json(input_to_json(inp)) == inp


def test_kinds_of_input() -> None:
    assert isinstance(input_from_json(LINES[0]), ButtonInput)
    assert input_from_json(LINES[1]) == ButtonInput(3.0, "resign", "dark", "gammon")
    assert isinstance(input_from_json(LINES[2]), StatusInput)
    assert isinstance(input_from_json(LINES[3]), OperatorInput)


@pytest.mark.parametrize(("line", "field"), [
    ({"button": "double", "player": "light"}, "t"),
    ({"t": "soon", "button": "double", "player": "light"}, "t"),
    ({"t": 1, "button": "redouble", "player": "light"}, "button"),
    ({"t": 1, "button": "double", "player": "white"}, "player"),
    ({"t": 1, "button": "double", "player": "light", "level": "gammon"}, "level"),
    ({"t": 1, "button": "resign", "player": "light", "level": "triple"}, "level"),
    ({"t": 1, "operator": "redo"}, "operator"),
    ({"t": 1, "operator": "undo", "args": [1]}, "args"),
    ({"t": 1, "status": "dark"}, "status"),
    ({"t": 1, "schema": 1, "board_found": True, "points": []}, "observation"),
    ({"t": 1}, "'schema'"),
    ([1, 2], "JSON object"),
])
def test_malformed_lines_name_the_field(line: object, field: str) -> None:
    with pytest.raises(RefereeInputError, match=field):
        input_from_json(line)


def test_events_round_trip_and_omit_a_missing_player() -> None:
    event = RefereeEvent(3.5, "roll", "dark", {"dice": [6, 1]})
    assert event.to_json() == {"t": 3.5, "event": "roll", "player": "dark", "dice": [6, 1]}
    assert RefereeEvent.from_json(event.to_json()) == event
    warning = RefereeEvent(1.0, "warning", None, {"reason": "look", "detail": "?"})
    assert "player" not in warning.to_json()
    assert RefereeEvent.from_json(json.loads(json.dumps(warning.to_json()))) == warning


@pytest.mark.parametrize(("obj", "field"), [
    ({"t": 1, "event": "explode"}, "event"),
    ({"t": 1, "event": "roll", "player": "blue"}, "player"),
    ({"event": "roll"}, "t"),
])
def test_malformed_events_name_the_field(obj: object, field: str) -> None:
    with pytest.raises(RefereeEventError, match=field):
        RefereeEvent.from_json(obj)


def test_settings_file(tmp_path: Path) -> None:
    path = tmp_path / "club.json"
    path.write_text(json.dumps({"mode": "strict", "match_length": 7,
                                "automatic_doubles": "once", "crawford": False}))
    settings = load_settings(path)
    assert settings == RefereeSettings(mode="strict", match_length=7,
                                       automatic_doubles=AutoDoubles.ONCE, crawford=False)
    assert settings.game_rules().automatic_doubles is AutoDoubles.ONCE


@pytest.mark.parametrize(("obj", "key"), [
    ({"mood": "strict"}, "mood"),
    ({"mode": "lenient"}, "mode"),
    ({"match_length": -1}, "match_length"),
    ({"match_length": "7"}, "match_length"),
    ({"crawford": "yes"}, "crawford"),
    ({"automatic_doubles": "always"}, "automatic_doubles"),
    ({"backgammon_multiplier": 4}, "backgammon_multiplier"),
    ({"variant": "dutch"}, "variant"),
    ({"hold": -0.1}, "hold"),
    ([], "JSON object"),
])
def test_bad_settings_name_the_key(obj: object, key: str) -> None:
    with pytest.raises(RefereeSettingsError, match=key):
        settings_from_json(obj)


def test_unreadable_settings_files(tmp_path: Path) -> None:
    with pytest.raises(RefereeSettingsError, match="cannot read"):
        load_settings(tmp_path / "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text("{mode: strict")
    with pytest.raises(RefereeSettingsError, match="not JSON"):
        load_settings(broken)
