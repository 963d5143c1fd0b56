"""Every setting of the vision pipeline in one tree, read from one file.

Each stage keeps its own frozen config dataclass next to its code; this is
just the tree of them, with the defaults of each, so ``bgref read-image
--config vision.json`` and the referee's config share one format (see
:mod:`vision.config_io` for reading and writing).
"""

from dataclasses import dataclass, field
from pathlib import Path

from vision.calibration.pipeline import CalibrationConfig
from vision.camera.base import CameraConfig
from vision.checkers.reader import CheckerConfig
from vision.checkers.tray import TrayConfig
from vision.config_io import load
from vision.cube import CubeConfig
from vision.dice.board import BoardDiceConfig
from vision.dice.off_field import OffFieldConfig
from vision.errors import ConfigError
from vision.heap import HeapConfig
from vision.motion import MotionConfig
from vision.occlusion.single import OcclusionConfig
from vision.occlusion.tracker import TrackerConfig
from vision.stabiliser import StabiliserConfig
from vision.stills import StillConfig


@dataclass(frozen=True, slots=True)
class VisionConfig:
    """The whole pipeline's settings (each stage's defaults are documented there)."""

    field_width: int = 640
    """Width in pixels of the rectified field the checker stage reads."""
    calibration_retry: float = 2.0
    """Streams: seconds between attempts to find the board while none is found
    (an attempt costs a few tenths of a second)."""
    calibration: CalibrationConfig = field(default_factory=CalibrationConfig)
    checkers: CheckerConfig = field(default_factory=CheckerConfig)
    tray: TrayConfig = field(default_factory=TrayConfig)
    """Borne-off checkers in the tray, when the board profile has one in view."""
    dice: BoardDiceConfig = field(default_factory=BoardDiceConfig)
    off_field: OffFieldConfig = field(default_factory=OffFieldConfig)
    """Dice lying off the field, on the rails and in the trays (etiquette rule 1)."""
    cube: CubeConfig = field(default_factory=CubeConfig)
    occlusion: OcclusionConfig = field(default_factory=OcclusionConfig)
    tracker: TrackerConfig = field(default_factory=TrackerConfig)
    stabiliser: StabiliserConfig = field(default_factory=StabiliserConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    motion: MotionConfig = field(default_factory=MotionConfig)
    """Streams only: frames with no change since the last full read reuse its result."""
    stills: StillConfig = field(default_factory=StillConfig)
    """Streams only: the dice of a settled throw read from one high-resolution still."""
    heap: HeapConfig = field(default_factory=HeapConfig)
    """The C allocator's thresholds, set once a process by the first reader made: a
    frame's arrays kept for the next frame instead of handed back and faulted in again
    (see :mod:`vision.heap`)."""

    def __post_init__(self) -> None:
        if not 160 <= self.field_width <= 2048:
            raise ConfigError(f"field_width between 160 and 2048 pixels, not {self.field_width}")


def load_vision_config(path: str | Path | None) -> VisionConfig:
    """The config in ``path``, or the defaults when no file is named."""
    return VisionConfig() if path is None else load(VisionConfig, path)
