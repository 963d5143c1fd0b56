"""The top face's squash along the lean (vision/dice/pipshape.py) and its place in the
pose test: pips drawn squashed along one direction, read along it, across it and in
open space."""

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.dice.faces import Face
from vision.dice.pips import Pip, find_pips
from vision.dice.pipshape import PipShapeConfig, lean_squash, pip_moments
from vision.dice.pose import PoseConfig, assess, squash
from vision.errors import ConfigError

SUPER = 8  # drawn this many times larger, then shrunk: anti-aliased edges


def drawn(centres: list[tuple[float, float]], ratio: float, light: bool = False,
          diameter: float = 9.0) -> tuple[np.ndarray, Face]:
    """A face of pips ``diameter`` px long squashed to ``ratio`` along x (the lean),
    on a 200 px grey window, and the face the pip finder reads from it."""
    face_grey, pip_grey = (40, 220) if light else (210, 40)
    big = np.full((200 * SUPER, 200 * SUPER), face_grey, np.uint8)
    for x, y in centres:
        cv2.ellipse(big, ((x * SUPER, y * SUPER), (diameter * ratio * SUPER, diameter * SUPER),
                          0.0), pip_grey, -1)
    gray = cv2.resize(big, (200, 200), interpolation=cv2.INTER_AREA)
    polarity = "light" if light else "dark"
    pips = find_pips(gray, polarity)
    assert len(pips) == len(centres)
    cx = sum(p.x for p in pips) / len(pips)
    cy = sum(p.y for p in pips) / len(pips)
    return gray, Face(tuple(pips), polarity, (cx, cy), 10.5, 40.0, 0.0)


TWO = [(89.5, 89.5), (110.5, 110.5)]
FOUR = [(89.5, 89.5), (110.5, 89.5), (89.5, 110.5), (110.5, 110.5)]


@pytest.mark.parametrize("light", [False, True])
def test_round_pips_are_round_along_any_direction(light: bool) -> None:
    gray, face = drawn(FOUR, 1.0, light)
    for angle in (0.0, 30.0, 90.0, 135.0):
        a = math.radians(angle)
        along = lean_squash(gray, face, (math.cos(a), math.sin(a)))
        assert along is not None and along == pytest.approx(1.0, abs=0.02)


@pytest.mark.parametrize("light", [False, True])
def test_pips_squashed_along_the_lean_read_squashed_there_and_stretched_across(
        light: bool) -> None:
    gray, face = drawn(FOUR, 0.85, light)
    along = lean_squash(gray, face, (1.0, 0.0))
    across = lean_squash(gray, face, (0.0, -2.0))  # any length, either sign
    diagonal = lean_squash(gray, face, (1.0, 1.0))
    assert along is not None and across is not None and diagonal is not None
    assert 0.8 < along < 0.9
    assert across == pytest.approx(1.0 / along, rel=1e-6)
    assert diagonal == pytest.approx(1.0, abs=0.01)


def test_a_pip_by_the_window_edge_or_with_no_weight_is_not_measured() -> None:
    gray = np.full((40, 40), 200, np.uint8)
    edge = Pip(2.0, 20.0, 8.0, 8.0, 8.0, 0.0, 120.0, 230.0)
    assert pip_moments(gray, edge, "dark") is None
    lighter = Pip(20.0, 20.0, 8.0, 8.0, 8.0, 0.0, 120.0, 150.0)  # the face darker than all
    assert pip_moments(gray, lighter, "dark") is None
    face = Face((edge,), "dark", (2.0, 20.0), 0.0, 40.0, 0.0)
    assert lean_squash(gray, face, (1.0, 0.0)) is None
    assert lean_squash(gray, face, (0.0, 0.0)) is None


def test_a_slight_squash_along_the_lean_calls_a_supported_die_cocked() -> None:
    # a two whose pips are squashed 0.93 along x: within the supported bound of the
    # squash in any direction, under lean_squash along the lean
    gray, face = drawn(TWO, 0.93)
    config = PoseConfig()
    assert config.lean_squash is not None
    assert squash(face) > config.supported_squash[1]
    along = lean_squash(gray, face, (1.0, 0.0), config.pip_shape)
    assert along is not None and along < config.lean_squash

    def reasons(lean: tuple[float, float] | None, supported: bool = True,
                cfg: PoseConfig = config) -> tuple[str, ...]:
        return assess(gray, face, 40.0, cfg, source_die=40.0, supported=supported,
                      lean=lean).reasons

    assert any("along its lean" in r for r in reasons((-1.0, 0.0)))
    # across the squash: stretched, not squashed
    assert not any("along its lean" in r for r in reasons((0.0, 1.0)))
    # a second support along the squash counts too
    assert any("along its lean" in r for r in assess(
        gray, face, 40.0, config, source_die=40.0, supported=True, lean=(0.0, 1.0),
        leans=[(1.0, 0.0)]).reasons)
    # no support found, or the cue off, or a die too small in the still: flat by it
    assert reasons(None, supported=False) == ()
    assert not any("along its lean" in r for r in reasons((1.0, 0.0), cfg=replace(
        config, lean_squash=None)))
    assert not any("along its lean" in r for r in assess(
        gray, face, 40.0, config, source_die=config.fine_die_pixels - 1.0, supported=True,
        lean=(1.0, 0.0)).reasons)


def test_round_pips_with_support_are_flat_along_any_lean() -> None:
    gray, face = drawn(TWO, 1.0)
    for lean in ((1.0, 0.0), (0.0, 1.0), (0.7071, 0.7071)):
        assert assess(gray, face, 40.0, PoseConfig(), source_die=40.0, supported=True,
                      lean=lean).flat


def test_bad_pip_shape_and_lean_squash_configs_are_refused() -> None:
    with pytest.raises(ConfigError, match="pip shape"):
        PipShapeConfig(reach=0.0)
    with pytest.raises(ConfigError, match="pip shape"):
        PipShapeConfig(pad=-1.0)
    with pytest.raises(ConfigError, match="lean_squash"):
        PoseConfig(lean_squash=1.5)
