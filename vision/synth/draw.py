"""Drawing primitives shared by the 3D objects: polygons, sprites and labels.

The frame is a float32 BGR image while it is being built; a parallel
uint16 *label* image records which object owns each pixel (the last one
drawn there), from which the truth's visibility fractions are counted.
Sprites are premultiplied-alpha float32 BGRA squares warped into a small
region of interest through a homography, so an object costs only its own
few hundred pixels.
"""

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

Frame = npt.NDArray[np.float32]
Labels = npt.NDArray[np.uint16]
Sprite = npt.NDArray[np.float32]
Matrix = npt.NDArray[np.float64]
Points = npt.NDArray[np.float64]
SHIFT = 4
"""Sub-pixel bits for OpenCV's polygon drawing."""
BACKGROUND, SIDE, HAND, FIRST_OBJECT = 0, 1, 2, 10
"""Label values: nothing, a checker's wall, a hand, then one per object."""


@dataclass
class Canvas:
    """The frame being drawn and its label image."""

    image: Frame
    labels: Labels

    @property
    def size(self) -> tuple[int, int]:
        return self.image.shape[1], self.image.shape[0]


def fixed(points: Points) -> npt.NDArray[np.int32]:
    """Pixel coordinates in OpenCV's fixed-point polygon format."""
    return np.round(np.asarray(points) * (1 << SHIFT)).astype(np.int32).reshape(-1, 1, 2)


def fill(canvas: Canvas, points: Points, colour: tuple[float, float, float],
         label: int | None) -> None:
    """A filled, anti-aliased convex polygon (and its label).

    OpenCV anti-aliases only 8-bit images, so the polygon's coverage is
    rasterised as an 8-bit mask over its small bounding box and blended in.
    """
    roi = bounding_roi(points, canvas.size)
    if roi is None:
        return
    x0, y0, x1, y1 = roi
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, fixed(points - np.array([x0, y0])), 255, cv2.LINE_AA, SHIFT)
    alpha = mask.astype(np.float32)[:, :, None] * np.float32(1.0 / 255.0)
    region = canvas.image[y0:y1, x0:x1]
    region *= 1.0 - alpha
    region += alpha * np.array(colour, np.float32)
    if label is not None:
        cv2.fillConvexPoly(canvas.labels, fixed(points), label, cv2.LINE_8, SHIFT)


def label_only(canvas: Canvas, points: Points, label: int) -> None:
    """Claim a convex polygon's pixels for an object in the label image."""
    cv2.fillConvexPoly(canvas.labels, fixed(points), label, cv2.LINE_8, SHIFT)


def hull(points: Points) -> Points:
    """The convex hull of image points, as an N x 2 array."""
    h = cv2.convexHull(np.asarray(points, dtype=np.float32))
    return np.asarray(h, dtype=np.float64).reshape(-1, 2)


def bounding_roi(points: Points, size: tuple[int, int],
                 pad: int = 2) -> tuple[int, int, int, int] | None:
    """x0, y0, x1, y1 of the points' box inside the frame, None when outside it."""
    x0 = max(int(np.floor(points[:, 0].min())) - pad, 0)
    y0 = max(int(np.floor(points[:, 1].min())) - pad, 0)
    x1 = min(int(np.ceil(points[:, 0].max())) + pad + 1, size[0])
    y1 = min(int(np.ceil(points[:, 1].max())) + pad + 1, size[1])
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, y0, x1, y1


def warp_sprite(canvas: Canvas, sprite: Sprite, to_image: Matrix, outline: Points,
                shade: float = 1.0, opacity: float = 1.0) -> None:
    """Composite a premultiplied BGRA sprite through ``to_image`` (sprite px -> image px).

    ``outline`` (the sprite's image outline) bounds the work to a small region.
    """
    roi = bounding_roi(outline, canvas.size)
    if roi is None:
        return
    x0, y0, x1, y1 = roi
    shift = np.array([[1.0, 0.0, -x0], [0.0, 1.0, -y0], [0.0, 0.0, 1.0]])
    warped = cv2.warpPerspective(sprite, shift @ to_image, (x1 - x0, y1 - y0),
                                 flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                 borderValue=(0.0, 0.0, 0.0, 0.0))
    alpha = warped[:, :, 3:4] * opacity
    region = canvas.image[y0:y1, x0:x1]
    region *= 1.0 - alpha
    region += warped[:, :, :3] * (shade * opacity)


def premultiplied(bgr: Frame, alpha: npt.NDArray[np.float32]) -> Sprite:
    """A BGRA sprite from colour and alpha (0..1), colour premultiplied; read-only, as the
    sprite caches share it."""
    sprite = np.ascontiguousarray(np.dstack([bgr * alpha[:, :, None], alpha]), dtype=np.float32)
    sprite.setflags(write=False)
    return sprite


def disc_alpha(size: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Normalised radius (0 centre, 1 rim) and an anti-aliased disc alpha for a sprite."""
    c = (size - 1) / 2.0
    radius = size / 2.0 - 0.5
    ys, xs = np.mgrid[0:size, 0:size].astype(np.float32)
    r = np.hypot(xs - c, ys - c)
    alpha = np.clip(radius - r + 0.5, 0.0, 1.0).astype(np.float32)
    return (r / radius).astype(np.float32), alpha
