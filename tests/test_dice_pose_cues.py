"""The pose test's cues weighed together (vision/dice/pose.py: cue_vector, cue_score,
PoseConfig.cue_score): a sharp die with support whose every cue sits just inside its
own bound is cocked when their weighted sum says so."""

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from bench.dice_pose_accuracy import live_mask
from tests.still_scenes import StillScene, cocked_scene
from vision.dice.board import BoardDiceConfig
from vision.dice.faces import Face
from vision.dice.pips import find_pips
from vision.dice.pose import CUES, CueScoreConfig, PoseConfig, assess, cue_score, squash
from vision.errors import ConfigError

SUPER = 8  # drawn this many times larger, then shrunk: anti-aliased edges
FOUR = [(89.5, 89.5), (110.5, 89.5), (89.5, 110.5), (110.5, 110.5)]
NADIR = (100.0, 900.0)  # below the die in the window's pixels: its side toward it may show
DIE = 21.0 * 3.8  # the die's edge in pixels for that pip step (PoseConfig.die_per_spacing)
FIELD = 2000.0  # the field's width in the window's pixels: a die 0.04 of it


def drawn(ratio: float) -> tuple[np.ndarray, Face]:
    """A four of dark pips 12 px long squashed to ``ratio`` along x (the lean), on a
    200 px light window, and the face the pip finder reads from it."""
    big = np.full((200 * SUPER, 200 * SUPER), 210, np.uint8)
    for x, y in FOUR:
        cv2.ellipse(big, ((x * SUPER, y * SUPER), (12.0 * ratio * SUPER, 12.0 * SUPER), 0.0),
                    40, -1)
    gray = cv2.resize(big, (200, 200), interpolation=cv2.INTER_AREA)
    pips = find_pips(gray, "dark")
    assert len(pips) == 4
    cx = sum(p.x for p in pips) / 4.0
    cy = sum(p.y for p in pips) / 4.0
    return gray, Face(tuple(pips), "dark", (cx, cy), 21.0, DIE, 0.0)


# weighs the top face's squash and its squash along the lean alike (fitted weights come
# from bench/pose_cue_fit.py; these are the test's own)
SCORE = CueScoreConfig(weights=(40.0, 40.0, 0.0, 0.0, 0.0, 0.0), bias=0.0, threshold=-1.8)


def judge(ratio: float, config: PoseConfig, supported: bool = True
          ) -> tuple[bool, tuple[str, ...], tuple[float, ...] | None]:
    gray, face = drawn(ratio)
    pose = assess(gray, face, DIE, config, source_die=DIE, nadir=NADIR, field_pixels=FIELD,
                  supported=supported, lean=(1.0, 0.0) if supported else None)
    return pose.flat, pose.reasons, pose.cues


def test_a_slight_squash_inside_every_bound_is_cocked_by_the_cues_together() -> None:
    # (the learned cue and its veto off: this is the cue score's test)
    config = replace(PoseConfig(), cue_score=None, learned=None, learned_veto=None)
    # each bound alone reads the slightly squashed four flat ...
    flat, reasons, cues = judge(0.975, config)
    assert flat and reasons == () and cues is None
    _, face = drawn(0.975)
    assert config.supported_squash[3] < squash(face) < 1.0
    # ... its cues, measured, sit inside every bound, the two squashes near theirs
    _, _, cues = judge(0.975, replace(config, measure_cues=True))
    assert cues is not None and len(cues) == len(CUES)
    assert all(c <= 0.0 for c in cues)
    assert -0.05 < cues[0] < 0.0 and -0.05 < cues[1] < 0.0
    # weighed together they call it cocked
    with_score = replace(config, cue_score=SCORE)
    flat, reasons, cues = judge(0.975, with_score)
    assert not flat and len(reasons) == 1 and reasons[0].startswith("its cues together")
    assert cues is not None and cue_score(cues, SCORE) > SCORE.threshold


def test_round_pips_stay_flat_with_the_score() -> None:
    config = replace(PoseConfig(), cue_score=SCORE)
    flat, reasons, cues = judge(1.0, config)
    assert flat and reasons == ()
    assert cues is not None and cue_score(cues, SCORE) < SCORE.threshold


def test_the_score_needs_support_and_a_sharp_die() -> None:
    config = replace(PoseConfig(), cue_score=SCORE)
    flat, _, cues = judge(0.975, config, supported=False)
    assert flat and cues is None
    gray, face = drawn(0.975)
    small = assess(gray, face, DIE, config, source_die=config.fine_die_pixels - 1.0,
                   nadir=NADIR, field_pixels=FIELD, supported=True, lean=(1.0, 0.0))
    assert small.flat and small.cues is None


def test_the_default_score() -> None:
    default = PoseConfig().cue_score
    if default is not None:
        assert len(default.weights) == len(CUES)
        # more squashed, more cocked: the squash cues weigh for a tilt
        assert default.weights[0] > 0.0 and default.weights[1] > 0.0


def test_a_score_of_the_wrong_length_is_refused() -> None:
    with pytest.raises(ConfigError, match="weights"):
        CueScoreConfig(weights=(1.0, 2.0), bias=0.0, threshold=0.0)


def _live(seed: int, index: int) -> StillScene:
    """Tune seed ``seed``'s ``index``-th cocked-die scene (as bench/dice_pose_accuracy.py
    draws them) read with the checker mask the pipeline draws from the checkers it finds
    (``--live-mask``), as bench/pose_cue_fit.py read it."""
    shot = cocked_scene(seed, index)
    corners = shot.truth.observation.corners
    assert corners is not None
    return replace(shot, checker_mask=live_mask(shot.frame, corners, shot.scene))


@pytest.mark.parametrize("seed,index,value", [(52, 11, 1), (51, 94, 2)])
def test_cocked_dice_of_the_tune_seeds_inside_every_bound(seed: int, index: int,
                                                          value: int) -> None:
    # a match-dark one cocked 17 degrees and a white two cocked 19, leaning on a checker:
    # each squash cue a hundredth or less inside its bound
    shot = _live(seed, index)
    cocked = [d for d in shot.cocked() if d.value == value]  # (52/11: a cocked six too)
    assert len(cocked) == 1
    board = BoardDiceConfig()
    assert board.pose.cue_score is not None
    # the learned cue off (it calls both cocked without the cue score too)
    board = replace(board, pose=replace(board.pose, learned=None, learned_veto=None))

    def reading(config: BoardDiceConfig) -> tuple[bool, tuple[str, ...]]:
        near = [b for b in shot.read(config) if math.dist(b.die.center, cocked[0].center) < 15]
        assert len(near) == 1 and near[0].die.value == value
        return near[0].die.flat, near[0].reasons

    flat, reasons = reading(board)
    assert not flat and len(reasons) == 1 and reasons[0].startswith("its cues together")
    assert reading(replace(board, pose=replace(board.pose, cue_score=None))) == (True, ())
