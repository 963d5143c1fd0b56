"""Dice in a grey image: pips of either polarity, grouped into top faces,
each face checked to sit on a clean die face.

The check matters for photos of anything: text, a keyboard, wood knots or a
wicker basket all have round dark blobs, some even in a row, but none sits
on an even patch of face with nothing else on it.  Every die style is
handled by running the pip finder for dark pips (white, cream, red and
light-checker-coloured dice) and for light pips (black, dark and red dice).
"""

import functools
import itertools
import math
import statistics
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.dice.faces import Face, FaceConfig, find_faces, layout_face
from vision.dice.pips import Gray, Pip, PipConfig, PipSearch, Polarity

Pixel = tuple[float, float]
Box = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class DetectConfig:
    """Thresholds of the dice finder."""

    pips: PipConfig = field(default_factory=PipConfig)
    faces: FaceConfig = field(default_factory=FaceConfig)
    polarities: tuple[Polarity, ...] = ("dark", "light")
    """Which pip styles to look for: dark pips on a light die, light on dark."""
    max_stray: float = 0.04
    """Largest fraction of the face (around the pips) that may be as dark as
    a pip (as light, for light pips): text and texture have much more."""
    clean_reach: float = 0.42
    """Half-size of the face square checked for stray marks, in die edges
    (less than a half, so the die's own edges stay out)."""
    rim_strays_from: int | None = None
    """Faces of at least this many pips do not count stray marks that reach into the
    checked disc from its rim (see :func:`clean_face`), None for all faces counting
    them: what comes in from outside is the board past the die's edge, the die's own
    edge or its side face, not a mark on the face.  Off for photos (a keyboard's or a
    book's marks run past any disc); on the board, where the disc (a fixed share of the
    configured die, or just past the pips) overlaps the edge of a die smaller, cocked or
    seen through (red translucent bodies show the board under them), see :mod:`.board`.
    A layout of four pips or more is the evidence; ones, twos and threes still count
    every mark.  Renders, tune seeds 21-24 (858 dice, 2x still, live checker mask), with
    the board's retry keeping bigger pips: 828 -> 835 found, 828 -> 834 right, false dice
    1 -> 1 (a cocked four newly found is read as a six, two of its side's pips taken in);
    from 3, a six's column was read as a three, and from 1, 8 false ones and twos more
    (seeds 23 and 24).  A mark that comes nearer the centre than the farthest pip is on
    the face whatever it touches (a six's middle pips blurred into its edges, read as
    a four): with that, 834 found and 834 right, the cocked four no longer read as a
    six but missed."""
    lone_min_roundness: float = 0.65
    """A one is a single blob: it must be rounder than pips in a layout
    (keyboard symbols, letters and side-face slivers are not)."""
    lone_min_ratio: float = 0.5
    """Least minor/major axis ratio of the pip of a one."""
    one_surround: float | None = None
    """With the die size known (``die_pixels``): a one's face is looked at this many die
    edges around its pip, None for not at all.  A one's pip is the middle of its face,
    which reaches half a die edge every way; the pip of a two or three lies a quarter die
    edge from two of its die's edges and a third from its corner, so a disc this wide
    around it takes in the board past them.  When more than ``one_surround_share`` of the
    disc (the pip left out) is off the face's grey level by more than half the pip's
    contrast, either way, the one is read as unsure and its die reported unread: the
    referee then waits for a reading rather than judging a roll with a two read as a
    one.  Renders (2x still, tune seeds 21-25): of the ones found, about 120, 12-17 mm,
    all but one had none of a 0.4 die-edge disc off their face, a one cocked 19 degrees
    1.1 % (the board past its foreshortened top); the twos read as ones of seed 25 had
    19 % (one pip lost) and 1.2 % (its top face taken to be a faint blob past its corner:
    see :class:`FaceConfig` ``side_contrast``)."""
    one_surround_share: float = 0.03
    """See ``one_surround``: three times the most a one was seen with, a sixth of the
    two read as a one."""
    unlike_two_size: float | None = None
    """A two whose pips differ this much in size (ratio of their long axes) and at least
    ``unlike_two_slant`` in slant (axis ratios) is reported unread (``Face.unsure``), None
    for never: a two has no layout beyond its two pips to vouch for them, and a cocked
    one's big pip linked with a smaller, slanter pip of its side face makes one.
    Renders (2x still, tune seeds 21-27 and seed 25 with its dice showing other values):
    of 437 twos read right none had both (sizes up to 1.53 apart, slants up to 0.24, not
    together); the one read as a two had 1.52 and 0.23.  One case: kept an unread value,
    not a dropped die, so a true two caught costs a wait, not a wrong roll."""
    unlike_two_slant: float = 0.15
    """See ``unlike_two_size``."""
    lone_clear: float = 0.6
    """A one has no round pip contrasting half as much within this many die edges:
    a die's own other pips lie within 0.55, a neighbour's 0.73 or more (renders: a
    four whose blurred corner pip was too slanted to join read as a one)."""
    rim_three_least: float = 0.8
    """With ``rim_strays_from`` 3 and the die size known (``die_pixels``): a three drops
    the marks reaching in from the rim only when its layout makes a die at least this
    many ``die_pixels`` (as :class:`~vision.dice.board.BoardDiceConfig` ``tight_face``:
    pips closer than a three's diagonal are a row of a bigger face).  A cocked six's
    column read as a three, its other column not found as pips but dark enough to mark
    the disc from the rim, made a die 0.77 (renders, tune seed 21: a six cocked 29
    degrees read as a three, which a counted rim had failed, the smaller-die reading then
    finding the six); the cocked threes gained made 0.82-1.07 at the configured size (one
    of 0.79 was found by the smaller-die reading, :class:`~vision.dice.board.BoardDiceConfig`
    ``small_die``)."""
    link_die: float | None = 1.0
    """With the die size known (``die_pixels``), pips farther apart than this many die
    edges are not linked into one face, however big they are (a six's corner pips lie
    0.71 die edges apart, 0.8 on dice an eighth bigger than the configured size).  Six
    diameters of a big die's one reached 1.8 die edges: the one, linked with a pip of the
    die beside it, made a two of both, which then took the one for its side face
    (renders: a one next to a cocked die, lost)."""
    overlap: float = 0.5
    """Faces of opposite polarity closer than this many die edges are one
    die: the one with more pips is kept."""
    parts: bool = True
    """When a face of two or more pips fails a check, try the largest part of it
    that passes (renders: a four taken with two pips of its side face fit a six
    loosely, which then failed the stray-mark check, and the die was lost; a one
    linked with a faint blob past its die's edge).  Parts of a true face fail the
    stray-mark check on the pips left out."""
    part_gap: float = 0.55
    """A part's pips left out lie at least this many die edges from its centre, off
    its face (a one taken out of a cocked three is no die)."""
    row_tolerance: float = 0.2
    """A two or three whose line goes on, an alike pip one pitch past either end
    (within this fraction of the pitch), is a row of marks, not a die: the three
    screws of a bar hinge read as a two (renders: 96 of 102 false dice).  A die's
    next pip in line would lie 0.4 die edges past its corner, where only a die
    touching it corner to corner could put one."""
    row_size_ratio: float = 1.5
    """The pip going on a row is at most this much bigger or smaller than the
    face's (screws of one hinge are alike)."""
    row_contrast: float = 0.5
    """... and contrasts at least this fraction as much as the face's pips (a faint
    pip of a cocked two's side face can lie in line with the two)."""


def find_dice(gray: Gray, config: DetectConfig = DetectConfig(),
              nadir: Pixel | None = None, die_pixels: float | None = None,
              search: PipSearch | None = None) -> list[Face]:
    """The top face of every die in the image, most pips first.

    ``die_pixels``: the die edge when the caller knows it (the board stage reads
    dice at a known scale); the face is then checked for stray marks at that
    size rather than the one its pips suggest (a one's pip, blurred, makes its
    die look a third bigger, and the check then reached past the die's edge).
    ``search``: the pip search of ``gray`` to use (one that has searched it already
    does not repeat its work), None for a new one.
    """
    faces: list[Face] = []
    if die_pixels is not None and config.link_die is not None:
        config = _linked(config, die_pixels)
    if search is None:
        search = PipSearch(gray)
    elif search.gray is not gray:
        raise ValueError("find_dice: the pip search given is of another image")
    found = {polarity: search.find(polarity, config.pips) for polarity in config.polarities}
    for polarity, candidates in found.items():
        others = [p for other, ps in found.items() if other != polarity for p in ps]
        pips = [p for p in candidates if not _holds(p, others)]
        for face in find_faces(pips, polarity, config.faces, nadir):
            if _kept(face, pips, gray, config, die_pixels):
                unsure = ((face.value == 1 and _off_centre(gray, face, config, die_pixels))
                          or _unlike_two(face, config))
                faces.append(replace(face, unsure=True) if unsure else face)
            elif config.parts and face.value >= 2:
                part = _part(face, pips, gray, config, die_pixels)
                if part is not None:
                    faces.append(part)
    return _one_per_die(faces, config)


def same_candidates(search: PipSearch, first: DetectConfig, second: DetectConfig) -> bool:
    """True when ``search`` finds the same pip candidates of each polarity with ``first``
    as with ``second`` (the same polarities).  For two settings that differ in their
    pips' settings alone, :func:`find_dice` then finds the same faces with both: it reads
    its settings' pips only through the search, and all else it does is a function of
    the candidates, the image and the other settings.  A window with no die read again
    with bigger pips and the split offset (the board's retry) mostly finds no candidate
    more (real frames: 31 of 38 such windows), and its faces need not be sought again.
    The caller vouches that the settings differ in their pips alone (checking it here,
    a ``replace`` and a deep comparison, costs about what it saves)."""
    return first.polarities == second.polarities and all(
        search.find(p, first.pips) == search.find(p, second.pips) for p in first.polarities)


@functools.lru_cache(maxsize=64)
def _linked(config: DetectConfig, die_pixels: float) -> DetectConfig:
    """``config`` with pips linked into faces up to ``link_die`` die edges apart (made once
    for each config and die size, not for every window)."""
    assert config.link_die is not None
    return replace(config, faces=replace(config.faces, max_link=config.link_die * die_pixels))


def _kept(face: Face, pips: list[Pip], gray: Gray, config: DetectConfig,
          die_pixels: float | None) -> bool:
    return (_plausible(face, config) and not in_row(face, pips, config)
            and not _crowded_one(face, pips, config, die_pixels)
            and clean_face(gray, face, config, die_pixels))


def _unlike_two(face: Face, config: DetectConfig) -> bool:
    """True for a two whose pips differ in size and slant as no two's do
    (``unlike_two_size``, ``unlike_two_slant``)."""
    if face.value != 2 or config.unlike_two_size is None:
        return False
    a, b = face.pips
    return (max(a.major, b.major) >= config.unlike_two_size * min(a.major, b.major)
            and abs(a.ratio - b.ratio) >= config.unlike_two_slant)


def _off_centre(gray: Gray, face: Face, config: DetectConfig,
                die_pixels: float | None) -> bool:
    """True for a one whose pip is not amid an even face (``one_surround``): more than
    ``one_surround_share`` of the disc around it, the pip left out, is off the face's
    grey level by more than half the pip's contrast, lighter or darker."""
    if config.one_surround is None or die_pixels is None:
        return False
    pip = face.pips[0]
    around = _disc_around(gray, face, config.one_surround * die_pixels)
    if around is None:
        return False
    patch, inside, _ = around
    if face.polarity == "light":  # pip values were measured on the inverted image
        patch = 255.0 - patch
    area = int(np.count_nonzero(inside))
    if area == 0:
        return False
    off = int(np.count_nonzero(inside & (np.abs(patch - pip.face) > pip.contrast / 2.0)))
    return off > config.one_surround_share * area


def _crowded_one(face: Face, pips: list[Pip], config: DetectConfig,
                 die_pixels: float | None) -> bool:
    """True for a one with a round pip contrasting as much near it: the pips of a
    bigger face that was not put together (a blurred pip too slanted to join it)."""
    if face.value != 1:
        return False
    own = face.pips[0]
    reach = config.lone_clear * (face.die_size if die_pixels is None else die_pixels)
    return any(p is not own and math.dist(p.x_y, own.x_y) <= reach
               and p.ratio >= config.lone_min_ratio
               and p.contrast >= config.row_contrast * own.contrast for p in pips)


def _part(face: Face, pips: list[Pip], gray: Gray, config: DetectConfig,
          die_pixels: float | None) -> Face | None:
    """The largest layout of part of a refused face's pips that passes every check,
    the best fitting of that size, with the pips left out off its face: a die's top
    face grouped with pips of its side face fits a bigger layout loosely and then has
    those on its face."""
    for n in range(face.value - 1, 0, -1):
        fits = [f for f in (layout_face(list(c), face.polarity, config.faces)
                            for c in itertools.combinations(face.pips, n)) if f is not None]
        for fit in sorted(fits, key=lambda f: f.misfit):
            edge = fit.die_size if die_pixels is None else die_pixels
            left = [p for p in face.pips if p not in fit.pips]
            if any(math.dist(p.x_y, fit.center) < config.part_gap * edge for p in left):
                continue  # a pip left out lies on the part's own face
            if _kept(fit, pips, gray, config, die_pixels):
                return fit
    return None


def face_box(face: Face) -> Box:
    """The die's box (x, y, w, h): a square of the estimated die edge around
    the top face's centre."""
    half = face.die_size / 2.0
    return (face.center[0] - half, face.center[1] - half, face.die_size, face.die_size)


def clean_face(gray: Gray, face: Face, config: DetectConfig = DetectConfig(),
               die_pixels: float | None = None) -> bool:
    """True when the face around the pips is even: no pip-dark marks left in
    a disc around the face's centre once the pips themselves are masked out.

    The disc reaches just past the outermost pips (and ``clean_reach`` die
    edges at least, of ``die_pixels`` when given, else of the face's estimate):
    a disc, since the die may be turned any way.  A face of two or more pips whose
    layout makes its die smaller than ``die_pixels`` is checked at its own size:
    dice vary by a quarter around the configured size, and the disc of a small die
    checked at the configured one reached past its edges (renders: 12 mm dice, a
    third of the misses left of 300 frames, lost to the board beside them; a one's
    size, told by its blurred pip alone, is not trusted this way).
    """
    spread = max(math.dist(face.center, (p.x, p.y)) + 0.5 * p.major + 1.0 for p in face.pips)
    size = face.die_size if die_pixels is None else die_pixels
    if die_pixels is not None and face.value >= 2:
        size = min(die_pixels, face.die_size)
    reach = max(config.clean_reach * size, spread)
    around = _disc_around(gray, face, reach)
    if around is None:
        return False
    patch, inside, centre = around
    level = statistics.median([p.face for p in face.pips])
    contrast = statistics.median([p.contrast for p in face.pips])
    if face.polarity == "dark":
        marked = patch < level - contrast / 2.0
    else:  # pip values were measured on the inverted image
        marked = patch > (255.0 - level) + contrast / 2.0
    area = int(np.count_nonzero(inside))
    if area == 0:
        return True
    strays = (marked & inside).astype(np.uint8)
    if config.rim_strays_from is not None and face.value >= config.rim_strays_from and (
            face.value >= 4 or die_pixels is None
            or face.die_size >= config.rim_three_least * die_pixels):
        pips = max(math.dist(face.center, p.x_y) for p in face.pips)
        _drop_from_rim(strays, centre, round(reach), pips)
    stray = int(np.count_nonzero(strays))
    return stray <= config.max_stray * area


def _disc_around(gray: Gray, face: Face, reach: float
                 ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], Pixel] | None:
    """The grey levels around ``face`` within ``reach`` of its centre, the disc of that
    radius with the face's pips (and a ring of blur around each) left out, and the
    centre in the patch; None where the image leaves too little of it.  Both tests of
    a face's surround (a clean face, a one amid an even face) look at this disc."""
    h, w = gray.shape
    cx, cy = face.center
    x0, y0 = max(0, int(cx - reach)), max(0, int(cy - reach))
    x1, y1 = min(w, math.ceil(cx + reach) + 1), min(h, math.ceil(cy + reach) + 1)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return None
    patch = gray[y0:y1, x0:x1].astype(np.float32)
    disc = np.zeros(patch.shape, np.uint8)
    cv2.circle(disc, (round(cx - x0), round(cy - y0)), round(reach), 255, -1)
    for pip in face.pips:
        # the first axis lies along the pip's angle, its short axis
        axes = (pip.minor * 1.5 + 2.0, pip.major * 1.5 + 2.0)
        cv2.ellipse(disc, ((pip.x - x0, pip.y - y0), axes, pip.angle), 0, -1)
    return patch, disc > 0, (cx - x0, cy - y0)


def _drop_from_rim(strays: npt.NDArray[np.uint8], centre: Pixel, radius: int,
                   inner: float) -> None:
    """Clears the marks of ``strays`` (non-zero pixels, 8-connected) that reach the
    rim of the disc of ``radius`` around ``centre`` and come no nearer to it than
    ``inner`` (the farthest pip's centre: a mark reaching in among the pips, a six's
    middle pips blurred into its edge, is on the face)."""
    count, found = cv2.connectedComponents(strays, connectivity=8)
    if count <= 1:
        return
    labels = np.asarray(found, dtype=np.intp)
    ys, xs = np.nonzero(strays)
    distance = np.hypot(xs - centre[0], ys - centre[1])
    reaching = np.unique(labels[ys[distance >= radius - 1.5], xs[distance >= radius - 1.5]])
    reaching = reaching[reaching > 0]
    nearest = np.full(count, np.inf)
    np.minimum.at(nearest, labels[ys, xs], distance)
    outside = reaching[nearest[reaching] >= inner]
    strays[np.isin(labels, outside)] = 0


def _plausible(face: Face, config: DetectConfig) -> bool:
    if face.value > 1:
        return True
    pip = face.pips[0]
    return pip.roundness >= config.lone_min_roundness and pip.ratio >= config.lone_min_ratio


def row_ends(face: Face) -> list[Pixel]:
    """Where a row of marks read as this two or three would go on: one pitch past
    either end pip (none for other faces)."""
    if face.value not in (2, 3):
        return []
    xs = np.array([(p.x, p.y) for p in face.pips], dtype=np.float64)
    centre = xs.mean(axis=0)
    offsets = xs - centre
    far = int(np.argmax(np.hypot(offsets[:, 0], offsets[:, 1])))
    axis = offsets[far]
    along = offsets @ axis
    first, last = xs[int(np.argmin(along))], xs[int(np.argmax(along))]
    step = (last - first) / (face.value - 1)
    return [(float(x), float(y)) for x, y in (last + step, first - step)]


def in_row(face: Face, pips: list[Pip], config: DetectConfig = DetectConfig(),
           shift: Pixel = (0.0, 0.0)) -> bool:
    """True when the line of a two or three goes on: an alike pip (not the face's)
    one pitch past either end pip.  ``shift``: where the face's pixel (0, 0) lies in
    the pixels of ``pips``."""
    ends = row_ends(face)
    if not ends:
        return False
    pitch = math.dist(ends[0], ends[1]) / (face.value + 1)  # the ends are a pitch past
    reach = config.row_tolerance * pitch
    size = face.pip_size
    contrast = statistics.median([p.contrast for p in face.pips])
    members = {(p.x + shift[0], p.y + shift[1]) for p in face.pips}
    for x, y in ends:
        target = (x + shift[0], y + shift[1])
        for pip in pips:
            if any(math.dist(pip.x_y, m) < 0.5 * pip.diameter for m in members):
                continue
            if max(pip.major, size) > config.row_size_ratio * min(pip.major, size):
                continue
            if pip.contrast < config.row_contrast * contrast:
                continue
            if math.dist(pip.x_y, target) <= reach:
                return True
    return False


def _holds(pip: Pip, others: list[Pip]) -> bool:
    """True when an opposite-polarity pip lies inside this blob: then the blob
    is a small die (its pips inside it), not a pip."""
    return any(o.diameter < pip.diameter / 2.0
               and math.dist((o.x, o.y), (pip.x, pip.y)) < pip.diameter / 2.0 for o in others)


def _one_per_die(faces: list[Face], config: DetectConfig) -> list[Face]:
    ordered = sorted(faces, key=lambda f: (-f.value, f.misfit))
    kept: list[Face] = []
    for face in ordered:
        if all(other.polarity == face.polarity
               or math.dist(face.center, other.center)
               > config.overlap * max(face.die_size, other.die_size) for other in kept):
            kept.append(face)
    return kept


def as_gray(image: npt.NDArray[np.uint8]) -> Gray:
    """A grey copy of a BGR, BGRA or grey image."""
    if image.ndim == 2:
        return image
    if image.ndim == 3 and image.shape[2] == 3:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
    if image.ndim == 3 and image.shape[2] == 4:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGRA2GRAY), dtype=np.uint8)
    raise ValueError(f"an image is H x W grey or H x W x 3 BGR, not shape {image.shape}")
