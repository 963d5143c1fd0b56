"""Small cocked dice the smaller-die reading used to leave unfound.

A window where no die of the configured size is found is read again as if dice were
``small_die`` (0.87) of it.  That reading was skipped when a one was found in the window
at the configured size, though a window can hold both dice
(``BoardDiceConfig.small_die_after``), and it took no twos (``small_die_least``), though a
small cocked two, its side face's pips blurred beside it, was found nowhere else: such a
two is taken when the pose test calls it cocked (``small_die_twos``), as a one is.
"""

import math
from dataclasses import replace

import pytest

from tests.still_scenes import cocked_scene
from vision.dice.board import BoardDiceConfig
from vision.errors import ConfigError

BOARD = BoardDiceConfig()


def test_the_settings() -> None:
    assert BOARD.small_die_after == 1 and BOARD.small_die_twos
    assert BOARD.small_die_least > 2  # a two read smaller is taken only when cocked
    assert 0.0 < BOARD.small_die_apart < 1.0
    with pytest.raises(ConfigError):
        BoardDiceConfig(small_die_after=7)
    with pytest.raises(ConfigError):
        BoardDiceConfig(small_die_apart=-0.1)


def _read(seed: int, index: int, config: BoardDiceConfig
          ) -> tuple[list[tuple[int | None, bool, bool]], list[tuple[int, bool]]]:
    """Every die read in tune seed ``seed``'s ``index``-th cocked-die scene (as
    bench/dice_pose_accuracy.py draws them; a 2x still, the truth's checker mask, the
    configured die size) as (value, flat, near the cocked die), and the truth's dice as
    (value, flat)."""
    shot = cocked_scene(seed, index)
    cocked = shot.cocked()
    assert len(cocked) == 1
    read = sorted((b.die.value, b.die.flat, math.dist(b.die.center, cocked[0].center) < 15)
                  for b in shot.read(config))
    return read, sorted((d.value, d.flat) for d in shot.truth.observation.dice)


def test_a_small_cocked_six_beside_a_one_is_found() -> None:
    # a 13.3 mm six cocked 27 degrees against a checker, a flat one in the same window
    read, truth = _read(41, 30, BOARD)
    assert truth == [(1, True), (6, False)]
    assert read == [(1, True, False), (6, False, True)]
    # without: the one alone (read once)
    assert _read(41, 30, replace(BOARD, small_die_after=0))[0] == [(1, True, False)]


@pytest.mark.parametrize("seed,index", [(41, 80), (42, 37)])
def test_a_small_cocked_two_is_found(seed: int, index: int) -> None:
    # red translucent twos, 13.9 and 15.2 mm, cocked 35 and 24 degrees; a flat three
    read, truth = _read(seed, index, BOARD)
    assert truth == [(2, False), (3, True)]
    assert read == [(2, False, True), (3, True, False)]
    assert _read(seed, index, replace(BOARD, small_die_twos=False))[0] == [(3, True, False)]
