"""Motion gating for streams: skip the pipeline while nothing moves.

Most frames of a game show a board nobody touches.  A thumbnail of the
field compared with the last frame that was fully read tells, for about a
millisecond, whether anything changed; when nothing did, the last
observation still holds and the expensive stages need not run again.  Any
change (a hand, a die rolling, the light) sends the frame through in full.
"""

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import ConfigError

Image = npt.NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class MotionConfig:
    """Thresholds of the gate."""

    enabled: bool = True
    width: int = 160
    """Thumbnail width in pixels (height keeps the frame's aspect)."""
    pixel_change: float = 12.0
    """A thumbnail pixel changed when it differs by more than this many grey levels."""
    changed_share: float = 0.00015
    """The frame changed when more than this share of thumbnail pixels did.
    Small enough for one die coming to rest on a still board (a 22-pixel die
    covers about 7 pixels of a 160-pixel-wide thumbnail and changes 4-6 of
    them by more than ``pixel_change``): at 0.2 % a throw onto a still board
    went unread until the ``max_skipped`` re-read, 3 s later.  Sensor noise,
    averaged over the 8 x 8 frame pixels behind each thumbnail pixel, stays
    far below ``pixel_change``, so a still board is still skipped."""
    max_skipped: int = 30
    """Read a frame in full at least this often anyway (a slow drift the gate cannot see)."""

    def __post_init__(self) -> None:
        if self.width < 16:
            raise ConfigError(f"motion: thumbnail width at least 16, not {self.width}")


class MotionGate:
    """Says which frames of a stream need a full read."""

    def __init__(self, config: MotionConfig | None = None) -> None:
        self.config = config or MotionConfig()
        self._reference: npt.NDArray[np.int16] | None = None
        self._skipped = 0
        self.moved = True
        """Whether the latest frame :meth:`changed` passed differed from its reference
        (or had none); False for a frame passed only as the periodic full read."""

    def reset(self) -> None:
        """Forget the reference (the next frame is read in full)."""
        self._reference = None
        self._skipped = 0

    def changed(self, frame: Image) -> bool:
        """True when ``frame`` must be read in full (and it becomes the reference)."""
        cfg = self.config
        self.moved = True
        if not cfg.enabled:
            return True
        height, width = frame.shape[:2]
        size = (cfg.width, max(1, round(cfg.width * height / width)))
        thumb = cv2.resize(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), size,
                           interpolation=cv2.INTER_AREA).astype(np.int16)
        reference = self._reference
        if reference is None or reference.shape != thumb.shape:
            self._reference, self._skipped = thumb, 0
            return True
        moved = np.count_nonzero(np.abs(thumb - reference) > cfg.pixel_change)
        self.moved = bool(moved > cfg.changed_share * thumb.size)
        if self.moved or self._skipped >= cfg.max_skipped:
            self._reference, self._skipped = thumb, 0
            return True
        self._skipped += 1
        return False
