"""The board stage does not read windows for blobs on the bar's middle, where a folding
board's hinge screws are (BoardDiceConfig.bar_blobs): a rendered board's hinges open no
window with the rule and do without it, the dice beside the bar are read the same, and a
die lying on the bar itself is the price (not found).  Tune style maple-walnut, seed 13."""

from dataclasses import replace

import numpy as np
import pytest

from vision.dice import board
from vision.dice.board import BoardDiceConfig, read_board_dice
from vision.dice.propose import Blob, Window
from vision.profile import TOURNAMENT
from vision.rectify import FieldMap
from vision.synth.generate import random_scene, style_of
from vision.synth.render import render
from vision.synth.scene import DiePlacement, Scene
from vision.synth.styles import by_name


def _scene(seed: int, dice: tuple[DiePlacement, ...]) -> Scene:
    rng = np.random.default_rng(seed)
    style = style_of(by_name("maple-walnut"), by_name("white-black"),  # type: ignore[arg-type]
                     by_name("white"))  # type: ignore[arg-type]
    scene = random_scene(rng, style=style, dice=0, hands=0, cube=False, moves=0)
    return replace(scene, dice=dice)


def _read(scene: Scene, config: BoardDiceConfig, monkeypatch: pytest.MonkeyPatch
          ) -> tuple[list[tuple[int | None, bool]], list[Window]]:
    frame, truth = render(scene)
    assert truth.observation.corners is not None
    field_map = FieldMap.from_corners(truth.observation.corners)
    read: list[Window] = []
    original = board.read_window

    def recording(*args: object, **kwargs: object) -> board.WindowRead:
        read.append(args[2])  # type: ignore[arg-type]
        return original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(board, "read_window", recording)
    sized = replace(config, die_size=scene.dimensions.die_mm / scene.dimensions.field_width_mm)
    dice = read_board_dice(frame, field_map, scene.profile, config=sized)
    return sorted((d.value, d.side is None) for d in dice), read


def _on_the_hinges(window: Window) -> bool:
    """A window whose core takes in the bar's centre line at a rendered hinge (v 0.2, 0.8)."""
    return (window.core_low[0] <= 0.5 <= window.core_high[0]
            and any(window.core_low[1] <= v <= window.core_high[1] for v in (0.2, 0.8)))


def test_off_the_bar_keeps_blobs_off_the_bar_middle_and_past_the_field() -> None:
    half = TOURNAMENT.bar_width / 2.0
    found = [Blob(0.5, 0.2, "dark"), Blob(0.5 + 0.74 * half, 0.8, "dark"),
             Blob(0.5 - 0.76 * half, 0.8, "dark"), Blob(0.5, -0.01, "light"),
             Blob(0.5, 1.01, "light"), Blob(0.3, 0.5, "dark")]
    kept = board._off_the_bar(found, TOURNAMENT, BoardDiceConfig())
    assert kept == found[2:]
    assert board._off_the_bar(found, TOURNAMENT, BoardDiceConfig(bar_blobs=None)) == found


def test_hinge_screws_open_no_window(monkeypatch: pytest.MonkeyPatch) -> None:
    scene = _scene(13, ())
    dice, read = _read(scene, BoardDiceConfig(), monkeypatch)
    assert dice == [] and not any(_on_the_hinges(w) for w in read)
    dice, read = _read(scene, BoardDiceConfig(bar_blobs=None), monkeypatch)
    assert dice == [] and any(_on_the_hinges(w) for w in read)


def test_dice_beside_the_hinges_are_read_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    # a five and a three a die and a little from the bar's edges, level with its hinges
    scene = _scene(13, ())
    die = scene.dimensions.die_mm / scene.dimensions.field_width_mm
    left, right = scene.profile.bar_span
    scene = replace(scene, dice=(DiePlacement(5, right + 0.8 * die, 0.2, 20.0),
                                 DiePlacement(3, left - 0.8 * die, 0.8, 65.0)))
    with_rule, _ = _read(scene, BoardDiceConfig(), monkeypatch)
    without, _ = _read(scene, BoardDiceConfig(bar_blobs=None), monkeypatch)
    assert with_rule == [(3, False), (5, False)]
    # without the rule the hinge's screws joined the five's window, and it was lost there
    assert set(without) <= set(with_rule)


def test_a_die_on_the_bar_is_the_price(monkeypatch: pytest.MonkeyPatch) -> None:
    # a four lying on the bar between its hinges: read (side None) only without the rule
    scene = _scene(13, (DiePlacement(4, 0.5, 0.5, 10.0),))
    with_rule, _ = _read(scene, BoardDiceConfig(), monkeypatch)
    without, _ = _read(scene, BoardDiceConfig(bar_blobs=None), monkeypatch)
    assert with_rule == [] and without == [(4, True)]
