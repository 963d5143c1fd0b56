"""Occlusion: hands and arms over the playing field.

A frame with a hand over the field must never be read as a board state.
:func:`detect_occlusion` judges one frame on its own (for ``read-image``);
:class:`OcclusionTracker` judges a stream, adding a background learned from
recent clear, still frames and the difference to the previous frame.
:mod:`.appearance` models the board's surfaces (their colours, and glare and
shading over them), :mod:`.grow` follows an occluder over the parts of the
board it matches.
"""

from vision.occlusion.appearance import AppearanceConfig, FieldAppearance
from vision.occlusion.single import OcclusionConfig, OcclusionResult, Region, detect_occlusion

__all__ = ["AppearanceConfig", "FieldAppearance", "OcclusionConfig", "OcclusionResult",
           "Region", "detect_occlusion"]
