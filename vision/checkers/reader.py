"""The checker stage as one call: rectified field in, counts out."""

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.checkers.colours import ColourConfig, ColourModel, circle_colours, split_colours
from vision.checkers.count import CheckerCount, CountConfig, count_checkers
from vision.checkers.detect import DetectConfig, Gradients, Image, expected_radius, find_circles
from vision.checkers.slots import SlotConfig, walk_slots
from vision.profile import BoardProfile


@dataclass(frozen=True, slots=True)
class CheckerConfig:
    """Every threshold of the checker stage."""

    detect: DetectConfig = field(default_factory=DetectConfig)
    slots: SlotConfig = field(default_factory=SlotConfig)
    colours: ColourConfig = field(default_factory=ColourConfig)
    count: CountConfig = field(default_factory=CountConfig)


def read_checkers(field_image: Image, profile: BoardProfile, *,
                  model: ColourModel | None = None,
                  config: CheckerConfig | None = None) -> CheckerCount:
    """Count the checkers of a rectified field image (see :mod:`vision.rectify`)."""
    config = config or CheckerConfig()
    gray = np.asarray(cv2.cvtColor(field_image, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
    grad = Gradients.of(gray, 1.0)
    circles = find_circles(field_image, profile, config.detect, grad)
    radius = expected_radius(profile, field_image.shape[1])
    circles += walk_slots(grad, circles, profile, radius, config.slots, config.detect)
    colours = circle_colours(field_image, circles, config.colours)
    light = split_colours(colours, model, config.colours)
    height, width = field_image.shape[:2]
    return count_checkers(circles, light, profile, (width, height), config.count)
