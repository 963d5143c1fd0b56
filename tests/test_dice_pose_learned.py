"""The learned flat-or-cocked cue (vision/dice/pose_model.py, PoseConfig.learned): a small
classifier over the die's own rectified pixels, fitted by bench/train_pose_model.py."""

import math
from dataclasses import replace
from typing import Any

import cv2
import numpy as np
import pytest

from bench.dice_pose_accuracy import ANY_SUPPORT
from tests.still_scenes import live_cocked_scene
from vision.dice import pose_model
from vision.dice.board import BoardDiceConfig, BoardDie
from vision.dice.faces import Face
from vision.dice.pips import find_pips
from vision.dice.pose import PoseConfig, assess

SUPER = 8
STEP = 9.0  # the pip step in pixels (a 34 px die, as the 2x still's are read at 40)
DIE = STEP * 3.8
CENTRE = (60.0, 60.0)
NADIR = (60.0, 900.0)
FIELD = 1300.0
LEAN = (1.0, 0.0)  # the support on the right: a tipped-up face shows on the left


def drawn(band: float) -> tuple[np.ndarray, Face]:
    """A light four (top face 230) on a board of grey 90 with a band of grey 150 ``band``
    die edges wide past its top face on the left (-x), and its face."""
    big = np.full((120 * SUPER, 120 * SUPER), 90, np.uint8)
    half = DIE / 2.0
    cx, cy = CENTRE
    if band > 0.0:
        cv2.rectangle(big, (round((cx - half - band * DIE) * SUPER), round((cy - half) * SUPER)),
                      (round((cx - half) * SUPER), round((cy + half) * SUPER)), 150, -1)
    cv2.rectangle(big, (round((cx - half) * SUPER), round((cy - half) * SUPER)),
                  (round((cx + half) * SUPER), round((cy + half) * SUPER)), 230, -1)
    for dx in (-STEP, STEP):
        for dy in (-STEP, STEP):
            cv2.circle(big, (round((cx + dx) * SUPER), round((cy + dy) * SUPER)),
                       round(2.7 * SUPER), 30, -1)
    gray = cv2.resize(big, (120, 120), interpolation=cv2.INTER_AREA)
    pips = find_pips(gray, "dark")
    assert len(pips) == 4
    x = sum(p.x for p in pips) / 4.0
    y = sum(p.y for p in pips) / 4.0
    return gray, Face(tuple(pips), "dark", (x, y), STEP, DIE, 0.0)


def test_the_crop_turns_the_tipped_side_to_plus_x_and_normalises() -> None:
    gray, face = drawn(0.35)
    window = pose_model.crop(gray, face, LEAN, DIE)
    assert window.shape == pose_model.crop_shape()
    rows = window.shape[0]
    per = pose_model.PIXELS_PER_EDGE
    centre_col = round(-pose_model.CROP_X[0] * per)
    mid = rows // 2
    # the face is 0, its pips about -1 (pip contrast units)
    assert abs(float(np.median(window[mid - 2:mid + 2, centre_col - 2:centre_col + 2]))) < 0.2
    # the band (grey 150 between the face's 230 and the board's 90) lies at +x, past the
    # face's edge (0.5 die edges); the board at -x beyond the face
    band = float(window[mid, centre_col + round(0.7 * per)])
    board = float(window[mid, centre_col - round(0.8 * per)])
    assert board < band < -0.1
    # a dark die with light pips (the grey levels inverted) is read in the inverted
    # image, as the pip search reads it: its crop is the light die's
    dark = find_pips(255 - gray, "light")
    assert sorted(p.face for p in dark) == pytest.approx(sorted(p.face for p in face.pips))
    flipped = pose_model.crop(255 - gray, replace(face, polarity="light"), LEAN, DIE)
    assert np.allclose(flipped, window, atol=1e-3)


def test_features_are_the_same_length_for_any_crop() -> None:
    gray, face = drawn(0.0)
    straight, mirrored = pose_model.die_features(gray, face, LEAN, DIE, NADIR, 0.1)
    assert straight.shape == mirrored.shape
    assert pose_model.model().mean.shape == straight.shape


def test_never_asked_when_off_or_without_support(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    calls: list[float] = []

    def fake(*args: object, **kw: object) -> float:
        calls.append(1.0)
        return 5.0

    monkeypatch.setattr(pose_model, "score", fake)
    gray, face = drawn(0.0)
    kw = {"source_die": DIE, "nadir": NADIR, "field_pixels": FIELD}
    assert assess(gray, face, DIE, replace(PoseConfig(), learned=None), supported=True,
                  lean=LEAN, **kw).flat  # type: ignore[arg-type]
    assert not calls
    assert assess(gray, face, DIE, replace(PoseConfig(), learned=0.0), supported=False,
                  **kw).flat  # type: ignore[arg-type]
    assert not calls
    pose = assess(gray, face, DIE, replace(PoseConfig(), learned=0.0), supported=True,
                  lean=LEAN, **kw)  # type: ignore[arg-type]
    assert calls and not pose.flat and "learned" in pose.reasons[0]
    calls.clear()
    assert assess(gray, face, DIE, replace(PoseConfig(), learned=6.0), supported=True,
                  lean=LEAN, **kw).flat  # type: ignore[arg-type]
    assert calls


def test_the_shipped_model_loads_and_is_on_by_default() -> None:
    fitted = pose_model.read_model(pose_model.MODEL_PATH)
    assert fitted.hidden and fitted.mean.shape == fitted.scale.shape
    assert fitted.hidden[0][0].shape[0] == fitted.mean.shape[0]
    assert PoseConfig().learned == pose_model.THRESHOLD
    assert PoseConfig().learned_veto is not None


def _read(seed: int, index: int, learned: float | None, any_support: bool = False
          ) -> tuple[list[tuple[bool, BoardDie | None]], list[float]]:
    """Each truth die of a cocked-die scene (read as the pipeline reads it) as (truth
    flat, the die read within 15 pixels), and the learned cue's log-odds computed."""
    shot = live_cocked_scene(seed, index)
    config = BoardDiceConfig()
    pose = replace(config.pose, learned=learned)
    if any_support:
        pose = replace(pose, support=ANY_SUPPORT)
    scored: list[float] = []
    original = pose_model.score

    def recording(*args: Any, **kw: Any) -> float:
        value = original(*args, **kw)
        scored.append(value)
        return value

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pose_model, "score", recording)
        read = shot.read(replace(config, pose=pose))
    dice = [(d.flat, next((x for x in read if math.dist(x.die.center, d.center) <= 15.0),
                          None)) for d in shot.truth.observation.dice]
    return dice, scored


def test_a_rendered_cocked_die_every_bound_reads_flat_is_found() -> None:
    # validation seed 208 (never fitted on), scene 101: a white three tipped 17 degrees
    # against a checker, its squash 0.93 inside the bounds; the other die a flat two
    off, _ = _read(208, 101, None)
    on, scored = _read(208, 101, pose_model.THRESHOLD)
    assert [flat for flat, _ in off] == [False, True]
    assert all(die is not None and die.die.flat for _, die in off)
    cocked, flat = on[0][1], on[1][1]
    assert cocked is not None and not cocked.die.flat
    assert "learned" in cocked.reasons[0]
    assert flat is not None and flat.die.flat
    assert len(scored) == 1 and scored[0] > pose_model.THRESHOLD


def test_a_rendered_flat_die_read_as_if_supported_scores_under_the_threshold() -> None:
    dice, scored = _read(208, 101, pose_model.THRESHOLD, any_support=True)
    flat = dice[1][1]
    assert dice[1][0] and flat is not None and flat.die.flat
    # both dice were scored (every die has support within five die edges)
    assert len(scored) == 2
    assert min(scored) < pose_model.THRESHOLD


def test_the_veto_clears_a_bound_only_under_its_log_odds(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    given: list[float] = []

    asked: list[float] = []

    def fake(*args: object, **kw: object) -> float:
        asked.append(given[-1])
        return given[-1]

    monkeypatch.setattr(pose_model, "score", fake)
    gray, face = drawn(0.0)
    # every squash bound at 1: the flat drawn die is called cocked by its top face
    strict = replace(PoseConfig(), fine_squash=(1.0,) * 6, supported_squash=(1.0,) * 6,
                     learned_veto=None)
    kw = {"source_die": DIE, "nadir": NADIR, "field_pixels": FIELD, "supported": True,
          "lean": LEAN}
    given.append(-10.0)
    assert not assess(gray, face, DIE, strict, **kw).flat  # type: ignore[arg-type]
    vetoing = replace(strict, learned_veto=-5.0)
    assert assess(gray, face, DIE, vetoing, **kw).flat  # type: ignore[arg-type]
    given.append(-4.0)
    pose = assess(gray, face, DIE, vetoing, **kw)  # type: ignore[arg-type]
    assert not pose.flat and "squashed" in pose.reasons[0]
    assert asked == [-10.0, -4.0]
    # without support the veto is not asked
    given.append(-10.0)
    pose = assess(gray, face, DIE, replace(vetoing, open_squash=1.0), source_die=DIE,
                  nadir=NADIR, field_pixels=FIELD)
    assert not pose.flat and len(asked) == 2
