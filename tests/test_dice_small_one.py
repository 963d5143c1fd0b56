"""A small cocked one: found only when its window is read again as a smaller die.

A window where no die of the configured size is found is read again as if dice were
``small_die`` (0.87) of it, and that reading took no ones (``small_die_least``): lone
round marks on marbled checkers and the board read as ones there.  A die cannot lie
tilted on a checker's pattern, so a one read there is taken when the pose test calls it
cocked and its pip is as big as a one's (``small_die_ones``).
"""

import math
from dataclasses import replace

import pytest

from tests.still_scenes import cocked_scene
from vision.dice.board import BoardDiceConfig

BOARD = BoardDiceConfig()


def test_small_ones_need_a_ones_pip() -> None:
    # the renderer's one is 0.24 of its face, other values' pips 0.17
    assert BOARD.small_die_ones is not None and 0.2 < BOARD.small_die_ones <= 0.25
    assert BOARD.small_die_least > 1


@pytest.mark.parametrize("index", [36, 65])
def test_a_small_cocked_one_is_found_at_the_smaller_size(index: int) -> None:
    # tune seed 22's cocked-die scenes (as bench/dice_pose_accuracy.py draws them), a
    # 2x still, the truth's checker mask, the configured die size: 12.3 and 12.4 mm
    # ones cocked 26 and 21 degrees, read only at the smaller size
    shot = cocked_scene(22, index)
    cocked = [d for d in shot.cocked() if d.value == 1]
    assert len(cocked) == 1

    def near(config: BoardDiceConfig) -> list[tuple[int | None, bool]]:
        return [(b.die.value, b.die.flat) for b in shot.read(config)
                if math.dist(b.die.center, cocked[0].center) < 15]

    assert near(BOARD) == [(1, False)]
    alone = replace(BOARD, body_pips=None)  # its body of pips alone makes a die too
    assert near(replace(alone, small_die_ones=None)) == []
    assert near(replace(alone, small_die_ones=0.4)) == []  # its pip is no bigger
