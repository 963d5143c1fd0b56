"""The flat test for dice smaller than configured with support, and for the steepest
dice with nothing found to lean on (PoseConfig.supported_min_size, open_squash)."""

from dataclasses import replace

import numpy as np
import pytest

from tests.test_dice_pose import face_of
from vision.dice.faces import Face
from vision.dice.pose import PoseConfig, assess, squash
from vision.errors import ConfigError


def squeezed(face: Face, factor: float) -> Face:
    """``face`` with its pips' places and shapes squashed along x by ``factor``, as a
    tilt about the y axis squashes them."""
    pips = tuple(replace(p, x=face.center[0] + factor * (p.x - face.center[0]),
                         minor=p.major * factor) for p in face.pips)
    return replace(face, pips=pips)


def test_a_small_die_with_support_is_judged_by_the_fine_bounds() -> None:
    gray = np.full((200, 200), 200, np.uint8)
    config = PoseConfig()
    # a four 0.7 of the configured 40 px (a 12 mm die read at 3 % of a 540 mm field),
    # its pips 0.9 round: squashed past the supported bound, not the frame's lenient one
    face = replace(face_of(4, 0.0, ratio=0.9), die_size=0.7 * 40.0)
    assert config.supported_min_size is not None
    assert config.supported_min_size * 40.0 <= face.die_size < config.fine_min_size * 40.0
    assert squash(face) < config.supported_squash[3] and face.frontality > config.min_pip_ratio
    leaning = assess(gray, face, 40.0, config, source_die=40.0, supported=True)
    assert not leaning.flat and any("squashed" in r for r in leaning.reasons)
    # without the looser size bound it is read as a blurred die: flat
    assert assess(gray, face, 40.0, replace(config, supported_min_size=None), source_die=40.0,
                  supported=True).flat
    # in open space a small die keeps fine_min_size (its pips are few pixels), even with
    # the support rule off
    assert assess(gray, face, 40.0, replace(config, cocked_needs_support=False),
                  source_die=40.0).flat
    # and one smaller still is lenient with support too
    tiny = replace(face, die_size=0.6 * 40.0)
    assert assess(gray, tiny, 40.0, config, source_die=40.0, supported=True).flat


def test_a_steep_die_with_nothing_found_to_lean_on_is_cocked() -> None:
    gray = np.full((200, 200), 200, np.uint8)
    config = PoseConfig()
    assert config.open_squash is not None and config.cocked_needs_support
    steep = squeezed(face_of(4, 0.0), 0.72)  # about 44 degrees
    slight = squeezed(face_of(4, 0.0), 0.86)  # under every fine bound, over open_squash
    assert squash(steep) < config.open_squash < squash(slight) < config.fine_squash[3]
    alone = assess(gray, steep, 40.0, config, source_die=40.0)
    assert not alone.flat and any("nothing found to lean on" in r for r in alone.reasons)
    assert assess(gray, slight, 40.0, config, source_die=40.0).flat
    # the rule off, or the die too blurred for the fine cues: flat
    assert assess(gray, steep, 40.0, replace(config, open_squash=None), source_die=40.0).flat
    assert assess(gray, steep, 40.0, config,
                  source_die=config.fine_die_pixels - 1.0).flat
    # with support the fine cues call both
    assert not assess(gray, slight, 40.0, config, source_die=40.0, supported=True).flat


def test_bad_small_and_steep_bounds_are_refused() -> None:
    with pytest.raises(ConfigError, match="supported_min_size"):
        PoseConfig(supported_min_size=-0.5)
    with pytest.raises(ConfigError, match="open_squash"):
        PoseConfig(open_squash=1.5)
    assert PoseConfig(supported_min_size=None, open_squash=None).open_squash is None
