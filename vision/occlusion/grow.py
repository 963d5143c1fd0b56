"""Following an occluder into the parts of the board it happens to match.

A hand is one object of its own colour.  Where it lies over a surface of a
different colour it is unexplained; where it lies over a surface of nearly
its own colour (pale skin over a cream point, tan skin over tan leather) the
surface test explains it away, and the hand falls apart into strips over the
contrasting points, each too narrow to be told from a missed checker stack.

The strips themselves say what colour the occluder is.  A pixel next to one
whose colour is much closer to the strip's than to the surface it lies on is
more likely the same object than the board: the region grows into it, through
connected pixels only.  The board's own pixels sit close to their surface's
colour (noise, texture), so they stay out unless the surface is nearly the
occluder's colour *and* the pixel strays toward it; the margin
(``grow_margin``) keeps such strays rare.
"""

import math

import cv2
import numpy as np
import numpy.typing as npt

from vision.occlusion.appearance import FieldAppearance, Floats, Mask

Labels = npt.NDArray[np.uint8]


def grow_occluders(lab: Floats, allowed: Labels, usable: Mask, unexplained: Mask,
                   appearance: FieldAppearance, checker_area: float, *, seed_area: float,
                   tolerance: float, margin: float, reach: float, seeds: int) -> Mask:
    """The pixels next to the larger unexplained regions that have those regions' colour.

    ``lab``: the field in weighted Lab; ``allowed``: H x W x 4, the surfaces that may
    explain each pixel (:class:`~vision.occlusion.appearance.SurfaceGeometry`);
    ``usable``: pixels that may join (analysed, not a checker).  A region is a seed when
    it covers ``seed_area`` checker areas (the ``seeds`` largest at most); its colour is
    its median.  A pixel joins when it is within ``tolerance`` of the seed's colour and
    ``margin`` times closer to it than to any surface's colour allowed there, and is
    connected to
    the seed through such pixels within ``reach`` checker diameters of the seed's box.
    """
    grown = np.zeros(unexplained.shape, dtype=np.bool_)
    count, components, stats, _ = cv2.connectedComponentsWithStats(
        unexplained.view(np.uint8), connectivity=8, ltype=cv2.CV_32S)
    if count <= 1:
        return grown
    areas = stats[1:, cv2.CC_STAT_AREA]
    order = np.argsort(-areas)[:seeds] + 1
    order = order[stats[order, cv2.CC_STAT_AREA] >= seed_area * checker_area]
    if len(order) == 0:
        return grown
    colours = np.array(appearance.colours, dtype=np.float32)
    # Squared distances as |x|^2 - 2 x.c + |c|^2, the last two terms one matrix product.
    surfaces = np.hstack([-2.0 * colours, (colours**2).sum(axis=1, keepdims=True)])
    height, width = unexplained.shape
    pad = math.ceil(reach * 2.0 * math.sqrt(checker_area / math.pi))
    limit = np.float32(tolerance**2)
    for index in order:
        x, y, w, h = (int(v) for v in stats[index, :4])
        x0, y0 = max(0, x - pad), max(0, y - pad)
        x1, y1 = min(width, x + w + pad), min(height, y + h + pad)
        crop = np.s_[y0:y1, x0:x1]
        seed = components[crop] == index
        pixels = np.ascontiguousarray(lab[crop])
        colour = np.median(pixels[seed], axis=0).astype(np.float32)
        norm = np.asarray(cv2.transform(pixels * pixels, np.ones((1, 3), np.float32)))
        row = np.hstack([-2.0 * colour, [float(colour @ colour)]]).astype(np.float32)[None, :]
        to_seed = norm + np.asarray(cv2.transform(pixels, row))
        candidates = usable[crop] & ~unexplained[crop] & (to_seed <= limit)
        if not candidates.any():
            continue
        cross = np.asarray(cv2.transform(pixels, surfaces.astype(np.float32)))
        cross[allowed[crop] == 0] = np.inf
        to_own = norm + cross.min(axis=2)
        joins = candidates & (to_seed * np.float32(margin * margin) <= to_own)
        if not joins.any():
            continue
        n, parts = cv2.connectedComponents((joins | seed).view(np.uint8), connectivity=8,
                                           ltype=cv2.CV_32S)
        touching = np.zeros(n, dtype=np.bool_)
        touching[np.unique(parts[seed])] = True
        touching[0] = False
        grown[crop] |= touching[parts] & joins
    return grown
