"""Errors of the vision pipeline, each saying what to do about it."""


class VisionError(Exception):
    """Base class of everything the vision pipeline raises."""


class BoardNotFoundError(VisionError):
    """The playing field could not be located in the frame."""


class CalibrationError(VisionError):
    """A calibration that is missing, corrupt or does not fit the camera."""


class CameraError(VisionError):
    """A camera that cannot be opened or configured."""


class CameraLostError(CameraError):
    """A camera that stopped delivering frames (unplugged, crashed)."""


class ImageError(VisionError, ValueError):
    """An image that cannot be used: missing, empty, unreadable, wrong shape."""


class EndOfStreamError(CameraError):
    """A replay (video file, folder of images) that has no frames left.

    Not a :class:`CameraLostError`: reopening would start the recording
    again, so the camera supervisor lets it through to end the run.
    """


class ObservationError(VisionError, ValueError):
    """An observation (JSON) that does not follow the schema."""


class ConfigError(VisionError, ValueError):
    """A vision configuration file that cannot be used."""
