"""``bench/dice_pose_accuracy.py --causes``: why a cocked die read from the still was
missed (:func:`bench.dice_pose_accuracy.miss_causes`)."""

from bench.dice_pose_accuracy import CAUSES, miss_causes
from vision.dice.board import BoardDie
from vision.observation import Die

TRUTH = Die(4, (100.0, 100.0), flat=False)
UV = (0.5, 0.5)
DIE = 0.03
ASPECT = 0.9


def _read(value: int, flat: bool, cues: tuple[float, ...] | None = None) -> BoardDie:
    return BoardDie(Die(value, (101.0, 100.0), flat=flat), UV, (), cues)


def test_a_die_not_found_is_told_by_the_quick_looks_blobs_within_half_a_die_edge() -> None:
    near = (UV[0] + 0.4 * DIE, UV[1])
    far = (UV[0], UV[1] + 0.6 * DIE * ASPECT)
    assert miss_causes(TRUTH, [], UV, True, [near], DIE, ASPECT) == [CAUSES[1]]
    assert miss_causes(TRUTH, [], UV, True, [far], DIE, ASPECT) == [CAUSES[0]]
    assert miss_causes(TRUTH, [], UV, True, [], DIE, ASPECT) == [CAUSES[0]]


def test_a_die_read_flat_is_told_by_its_support_and_whether_every_cue_was_measured() -> None:
    cues = (-0.1, -0.1, -0.5, -0.5, -0.5, -1.0)
    assert miss_causes(TRUTH, [_read(4, True)], UV, False, [], DIE, ASPECT) == [CAUSES[2]]
    assert miss_causes(TRUTH, [_read(4, True)], UV, True, [], DIE, ASPECT) == [CAUSES[3]]
    assert miss_causes(TRUTH, [_read(4, True, cues)], UV, True, [], DIE, ASPECT) == [CAUSES[4]]


def test_a_wrong_value_is_counted_apart_whether_called_cocked_or_not() -> None:
    assert miss_causes(TRUTH, [_read(4, False)], UV, True, [], DIE, ASPECT) == []
    assert miss_causes(TRUTH, [_read(2, False)], UV, True, [], DIE, ASPECT) == [CAUSES[5]]
    assert miss_causes(TRUTH, [_read(2, True)], UV, False, [], DIE, ASPECT) == [CAUSES[2],
                                                                                CAUSES[6]]
