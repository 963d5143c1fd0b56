"""The rendered styles the benches hold out: never looked at while tuning.

Accuracy goals are for boards never tuned on, so each bench reports the
renders of some styles apart.  The split is kept here, in one place:

- :data:`HELD_OUT` (the board style olive-felt and the checker style
  cream-brown) is held out by every bench of the whole pipeline
  (``vision_accuracy.py``, and the dice benches that import it from there).
- The checker stage (``checker_accuracy.py``, and the checker columns of
  ``vision_accuracy.py``'s row "checker stage's held-out") holds out the
  board style burgundy-leather too: it was the checker stage's own held-out
  style from its first round, while the dice engineers tuned on it as one of
  ``vision_accuracy.py``'s tuned styles.  So burgundy-leather is held out for
  the checker counts only; moving it into the tuned styles of the checker
  stage would report renders as never seen that were not.

``occlusion_accuracy.py`` imports :data:`HELD_OUT`; ``calibration_accuracy.py``
imports :data:`HELD_OUT_BOARDS` (it finds the field, which the checkers do not
change).
"""

from typing import Final

HELD_OUT_BOARDS: Final = ("olive-felt",)
"""Board styles no bench tunes on."""
HELD_OUT_CHECKERS: Final = ("cream-brown",)
"""Checker styles no bench tunes on."""
HELD_OUT: Final = HELD_OUT_BOARDS + HELD_OUT_CHECKERS
"""Every style no bench tunes on (board and checker style names differ)."""
CHECKER_HELD_OUT_BOARDS: Final = (*HELD_OUT_BOARDS, "burgundy-leather")
"""Board styles the checker stage never tunes on."""


def held_out(board: str, checkers: str, *, checker_stage: bool = False) -> bool:
    """Whether a render of board style ``board`` and checker style ``checkers`` is held
    out (for the checker stage's counts, with ``checker_stage``)."""
    boards = CHECKER_HELD_OUT_BOARDS if checker_stage else HELD_OUT_BOARDS
    return board in boards or checkers in HELD_OUT_CHECKERS
