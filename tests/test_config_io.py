"""Configuration files: every setting type-checked, unknown ones refused."""

import enum
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import pytest

from vision.checkers.reader import CheckerConfig
from vision.config_io import from_json, load, save, to_json
from vision.errors import ConfigError
from vision.profile import BoardProfile, TrayProfile


class Mode(enum.Enum):
    FAST = "fast"
    CAREFUL = "careful"


@dataclass(frozen=True)
class Inner:
    threshold: float = 0.5
    size: tuple[int, int] = (1280, 720)


@dataclass(frozen=True)
class Outer:
    name: str = "x"
    mode: Mode = Mode.FAST
    side: Literal["left", "right"] = "left"
    enabled: bool = True
    limit: int | None = None
    inner: Inner = field(default_factory=Inner)


def test_round_trip_and_defaults_for_missing_settings() -> None:
    value = Outer(name="club", mode=Mode.CAREFUL, side="right", limit=3,
                  inner=Inner(0.25, (640, 480)))
    assert from_json(Outer, json.loads(json.dumps(to_json(value)))) == value
    assert from_json(Outer, {"inner": {"threshold": 1}}) == Outer(inner=Inner(threshold=1.0))


@pytest.mark.parametrize(("data", "message"), [
    ({"colour": 1}, "unknown setting"),
    ({"enabled": "yes"}, r"config.enabled: true or false"),
    ({"mode": "slow"}, "config.mode: one of"),
    ({"side": "middle"}, "config.side"),
    ({"inner": {"size": [1, 2, 3]}}, "config.inner.size: 2 values"),
    ({"inner": {"threshold": "high"}}, "config.inner.threshold: a number"),
    ({"limit": 2.5}, "config.limit"),
])
def test_bad_settings_name_the_field(data: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        from_json(Outer, data)


def test_real_stage_configs_round_trip() -> None:
    config = CheckerConfig()
    assert from_json(CheckerConfig, to_json(config)) == config
    profile = BoardProfile(tray=TrayProfile("left"))
    assert from_json(BoardProfile, to_json(profile)) == profile


def test_files_are_written_atomically_and_errors_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "vision.json"
    save(Outer(name="saved"), path)
    assert load(Outer, path).name == "saved"
    assert not list(tmp_path.glob("*.tmp"))
    path.write_text("{not json")
    with pytest.raises(ConfigError, match=r"vision\.json: not valid JSON"):
        load(Outer, path)
    with pytest.raises(ConfigError, match="no such config file"):
        load(Outer, tmp_path / "missing.json")
