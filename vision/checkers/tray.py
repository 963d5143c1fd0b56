"""Borne-off checkers: how many stand on edge in the tray.

Players stand borne-off checkers on edge in the tray beside the field, one
against the next from an end of the tray, one colour from each end.  From
above such a row is a block of thin slabs (the checkers' rounded edges)
reaching from the tray's end, its length the number of checkers times
their thickness.  So the tray is warped upright like the field (it lies in
the board's plane, beside it, where the profile says), each end is walked
towards the middle while the rows look like checkers rather than the
tray's floor (another colour, or the slabs' fine stripes), and the block's
length is divided by the stripes' period, measured by autocorrelation
(the thickness of a checker, which no profile gives) or, when the stripes
are too faint, by a typical thickness.

The floor's look is taken from the tray's middle, which a row of fifteen
never reaches.  Each block's colour is told by a :class:`ColourModel` when
there is one, else by comparing the two blocks (the lighter is light), or
for a block alone by its lightness.

This reading is rougher than the field's: see ``bench/checker_accuracy.py``.
"""

from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from vision.checkers.colours import ColourModel, Lab
from vision.observation import Counts
from vision.profile import BoardProfile
from vision.rectify import FieldMap

Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class TrayConfig:
    """Thresholds of the tray reading."""

    width: int = 640
    """Width (pixels) of the rectified field the tray is read at the scale of."""
    band: float = 0.5
    """Middle share of the tray's width sampled (clear of its walls)."""
    floor: tuple[float, float] = (0.42, 0.58)
    """Rows (field v) where only the floor shows: fifteen checkers fill less than half."""
    colour: float = 25.0
    """Lab distance (lightness halved) from the floor that makes a row a checker row."""
    texture: float = 4.0
    """... or stripes: robust deviations of the row's vertical gradient above the floor's."""
    texture_floor: float = 2.0
    """... and at least this many grey levels a pixel above it."""
    gap: int = 4
    """Floor rows that end a block."""
    thickness: float = 0.2
    """A checker's thickness as a share of its diameter, when the stripes are too faint to
    measure it."""
    pitch: tuple[float, float] = (0.25, 0.6)
    """Range of stripe periods looked for, in checker radii."""
    periodicity: float = 0.1
    """Least autocorrelation of the stripes for their period to be used (``spectrum``
    off)."""
    spectrum: bool = True
    """Find the stripes' period first as the strongest of the block's periodogram over the
    periods of ``pitch`` (a Hann-windowed Fourier sum at each), and only when no period
    stands out there (``power``) as the highest autocorrelation.  The autocorrelation of
    the stripes after the high-pass that takes out the block's shading is weak (0.1-0.2),
    and the high-pass turns plain noise into a side lobe about as high at 11-13 pixels,
    whatever the checkers' thickness; for thin checkers its highest peak can be twice
    their period.  On bear-off positions (checker bench ``--family bear-off``, tune seed
    101: 175 trays, blocks of up to thirteen) the counts by the tray alone were right for
    50 (within one for 109) by the autocorrelation, 54 (112) by the periodogram alone (200
    periods) and 59 (116) by both in turn; checker bench tune seed 71's trays 181 of 196
    all three ways; fresh vision_accuracy tune seeds 27-28 and 31-34 (tuned styles, 1,360 clear
    frames) one wrong board fewer (34/54) and none lost, the 1,622 cached tune fields of
    rounds five to eight unchanged (boards and off).  The periodogram alone read a real
    block's thickness as guessed where the autocorrelation had it (a render with fifteen
    and eleven borne off, read 13 and 9: tests/test_referee_off_read.py), so the
    autocorrelation stays second.  Off: the autocorrelation alone."""
    power: float = 0.3
    """Least share of the block's detail energy at the periodogram's peak for its period
    to be taken (``spectrum``).  0.2 took periods from blocks with none (the cached tune
    fields lost a board: checker bench tune seed 51, scene 258, a block of four counted
    three by a measured period and so taken as exact); 0.4 leaves most to the
    autocorrelation."""
    fft_size: int = 4096
    """Length the block's rows are zero-padded to for the periodogram (a power of two)."""
    min_block: int = 30
    """Rows a block needs for its stripes' period to be measured."""
    perspective: float = 1.07
    """Stripes' period in the warped tray over the checkers' thickness: their edges stand
    above the board and so look spread apart."""
    min_first: float = 0.75
    """A block shorter than this many periods is the tray's wall or shadow."""
    lightness: float = 128.0
    """A block alone is light when its Lab lightness is at least this."""
    step: float = 10.0
    """Least change of colour (Lab, lightness halved) at a block's far edge, for a block the
    colour and stripe tests missed (white checkers on a beige floor differ from it by less
    than ``colour``, but end in a sharp edge; a lamp's gradient along the floor changes
    less than 3 over a checker's thickness).  On the tune renders 10-18 all read the same;
    0 turns the edge search off."""
    step_window: float = 1.0
    """Rows compared either side of a block's edge, in checker thicknesses (a block's own
    stripes average out over one)."""
    sharp_stripes: float = 0.2
    """... unless this share of its rows shows the slabs' stripes (``texture``): a lamp's
    gradient has none, while a block whose colour is near the floor's may end softly."""
    sharp_end: bool = True
    """A block the colour or stripe test found (two thicknesses long or more) ends in a
    sharp edge somewhere between a thickness from the tray's end and a thickness past the
    block's end, a change of colour of at least ``step``; without one it is the floor
    itself (an empty tray whose ends a lamp leaves darker than its lit middle, where the
    floor's colour is taken, or a hand's soft shadow), unless the other end holds a block
    that does end sharply: black checkers on a dark floor end softly too, and then the
    light ones at the other end show the floor is not lit the lamp's way.  On the tune
    renders' trays (pipeline seeds 21-24, checker bench 51 and 61; 921 trays) the raw
    counts right 804 -> 826; settled with the board (:func:`.totals.consistent_off`) as
    before.  Without the other end's test also 826 raw, but a real block of five black
    checkers on a dark grey floor was dropped (pipeline tune seed 24, scene 264).
    Cutting a block at its sharpest edge instead (a block's shadow beyond it, pipeline
    tune seed 22 scene 223) read right only with the thickness guessed, and lost that
    board when the shorter block's stripes then gave a period: left out.  Off: blocks as
    the colour and stripe tests end them."""
    soft_extend: bool = True
    """A block the colour test found that ends softly (``sharp_end``) may only have been cut
    short: rows whose colour lies about ``colour`` from the floor's all along the block
    fall under it now and then, and the block's run ends at the first few (checker bench
    tune seed 62, scene 104: fifteen dark checkers on a blue floor, 25.0-25.5 from it,
    the run cut at 51 of 172 rows, then dropped as soft, the board's one colour turned by
    the empty tray).  Such a block is taken on to the sharpest edge past it that
    :func:`_step_block` finds (a change of ``step`` or more, the rows before it unlike
    those after), and is soft only if it still ends softly there.  Off: a soft block is
    dropped as it was cut."""
    board_tolerance: int = 2
    """A block within this many of what the board leaves off a side is that many (see
    :func:`.totals.consistent_off`: the board is read more surely)."""


def read_off(frame: Image, field_map: FieldMap, profile: BoardProfile, *,
             model: ColourModel | None = None,
             config: TrayConfig | None = None) -> Counts | None:
    """The borne-off checkers in the profile's tray (None when the profile has no tray)."""
    config = config or TrayConfig()
    tray = tray_image(frame, field_map, profile, config.width)
    if tray is None:
        return None
    return read_tray(tray, profile, model=model, config=config)


@dataclass(frozen=True, slots=True)
class TrayReading:
    """The tray's counts, and the checkers' thickness they were counted with."""

    counts: Counts
    measured: bool
    """Whether a block's stripes gave the checkers' thickness (else it was guessed:
    ``TrayConfig.thickness``, and a long block may be a checker or more off)."""
    thickness: float | None = None
    """The thickness, a share of the checkers' diameter, each block's length was divided
    by: the stripes' period when ``measured``, else the guess (``TrayConfig.thickness``),
    from which the checker stage reckons what a block may hold (see
    :func:`.totals.tray_range`).  None only for counts known otherwise (``measured``:
    taken as exact)."""

    colours: tuple[Lab | None, Lab | None] = field(default=(None, None), compare=False)
    """The median Lab colour of the rows of the block counted light and of the one counted
    dark (None: no block), as the tray shows them (mostly the slabs' edges): a board of
    one colour compares its faces with them (see ``CountConfig.tray_face``).  Not part of
    a reading's equality: the counts and how they were measured are."""

    def __post_init__(self) -> None:
        if not self.measured and self.thickness is None:
            raise ValueError("a tray count by a guessed thickness says which thickness")
        if self.thickness is not None and not self.thickness > 0.0:
            raise ValueError(f"a checker's thickness is positive, not {self.thickness}")


def read_off_reading(frame: Image, field_map: FieldMap, profile: BoardProfile, *,
                     model: ColourModel | None = None,
                     config: TrayConfig | None = None) -> TrayReading | None:
    """As :func:`read_off`, with how the counts were measured."""
    config = config or TrayConfig()
    tray = tray_image(frame, field_map, profile, config.width)
    if tray is None:
        return None
    return read_tray_reading(tray, profile, model=model, config=config)


def read_tray(tray: Image, profile: BoardProfile, *, model: ColourModel | None = None,
              config: TrayConfig | None = None) -> Counts:
    """The borne-off checkers in a tray image warped upright (see :func:`tray_image`)."""
    return read_tray_reading(tray, profile, model=model, config=config).counts


def read_tray_reading(tray: Image, profile: BoardProfile, *,
                      model: ColourModel | None = None,
                      config: TrayConfig | None = None) -> TrayReading:
    """As :func:`read_tray`, with how the counts were measured."""
    config = config or TrayConfig()
    height = tray.shape[0]
    radius = 0.5 * profile.point_width * profile.checker_diameter * config.width
    rows_lab, stripes, floor = _rows(tray, config)
    marked, striped = _checker_rows(rows_lab, stripes, floor, height, config)
    bottom = _run(marked[::-1], config.gap)
    top = _run(marked, config.gap)
    window = max(round(2.0 * radius * config.thickness * config.step_window), 3)
    bottom = _step_block(rows_lab[::-1], height, window, bottom, config)
    top = _step_block(rows_lab, height, window, top, config)
    if config.sharp_end:
        soft_bottom = _soft(rows_lab[::-1], striped[::-1], height, window, bottom, config)
        soft_top = _soft(rows_lab, striped, height, window, top, config)
        if config.soft_extend:
            if soft_bottom:
                bottom, soft_bottom = _extended(rows_lab[::-1], striped[::-1], height,
                                                window, bottom, config)
            if soft_top:
                top, soft_top = _extended(rows_lab, striped, height, window, top, config)
        firm_bottom = bottom >= 2 * window and not soft_bottom
        firm_top = top >= 2 * window and not soft_top
        bottom = 0 if soft_bottom and not firm_top else bottom
        top = 0 if soft_top and not firm_bottom else top
    gray = cv2.cvtColor(tray, cv2.COLOR_BGR2GRAY).astype(np.float64)
    middle = gray[:, int(tray.shape[1] * (0.5 - config.band / 2)):
                  int(tray.shape[1] * (0.5 + config.band / 2)) + 1].mean(axis=1)
    periods = [p for p in (_period(middle[height - bottom:], radius, config),
                           _period(middle[:top], radius, config)) if p is not None]
    pitch = (max(periods, key=lambda p: p[1])[0] / config.perspective if periods
             else 2.0 * radius * config.thickness)
    n_bottom = _checkers(bottom, pitch, config)
    n_top = _checkers(top, pitch, config)
    light_bottom = _bottom_is_light(rows_lab, bottom, top, height, model, config)
    counts = Counts(n_bottom, n_top) if light_bottom else Counts(n_top, n_bottom)
    thickness = pitch / (2.0 * radius) if periods else config.thickness
    lower = _median_colour(rows_lab[height - bottom:]) if n_bottom else None
    upper = _median_colour(rows_lab[:top]) if n_top else None
    colours = (lower, upper) if light_bottom else (upper, lower)
    return TrayReading(counts, bool(periods), thickness, colours)


def _median_colour(rows: Floats) -> Lab:
    """The median Lab colour of a block's rows."""
    med = np.median(rows, axis=0)
    return float(med[0]), float(med[1]), float(med[2])


def _step_block(rows: Floats, height: int, window: int, run: int, config: TrayConfig) -> int:
    """The length of the block at the start of ``rows`` (Lab per row, from the tray's end)
    when the colour test found none (``run`` shorter than ``window``): the row with the
    sharpest change of colour between the ``window`` rows before and after it, when the
    change is at least ``config.step`` and the rows before differ from those after as
    much.  A lamp's gradient along the tray changes the floor only slowly; a block's far
    edge is sharp, however near the checkers' colour is to the floor's."""
    if run >= window or config.step <= 0.0:
        return run
    weights = np.array([0.5, 1.0, 1.0])
    limit = int(config.floor[0] * height)
    if limit <= 2 * window:
        return run
    cum = np.vstack([np.zeros((1, 3)), np.cumsum(rows * weights, axis=0)])
    ends = np.arange(window, limit)
    before = (cum[ends] - cum[ends - window]) / window
    after = (cum[ends + window] - cum[ends]) / window
    steps = np.linalg.norm(before - after, axis=1)
    best = int(np.argmax(steps))
    if steps[best] < config.step:
        return run
    length = int(ends[best])
    block = np.median(rows[:length] * weights, axis=0)
    beyond = np.median(rows[length:limit] * weights, axis=0)
    if float(np.linalg.norm(block - beyond)) < config.step:
        return run
    return length


def _soft(rows: Floats, striped: npt.NDArray[np.bool_], height: int, window: int,
          run: int, config: TrayConfig) -> bool:
    """Whether the block of ``run`` rows at the start of ``rows`` (Lab per row, from the
    tray's end; two windows long or more) ends softly: it shows the slabs' stripes in
    fewer than ``config.sharp_stripes`` of its rows (``striped``) and nowhere from
    ``window`` rows to a window past its end does the colour change by ``config.step``
    between the ``window`` rows before and after a row (see ``TrayConfig.sharp_end``)."""
    if config.step <= 0.0 or run < 2 * window:
        return False
    if float(np.mean(striped[:run])) >= config.sharp_stripes:
        return False
    limit = min(run + window, int(config.floor[0] * height), len(rows) - window)
    if limit <= window:
        return False
    weights = np.array([0.5, 1.0, 1.0])
    cum = np.vstack([np.zeros((1, 3)), np.cumsum(rows * weights, axis=0)])
    ends = np.arange(window, limit)
    before = (cum[ends] - cum[ends - window]) / window
    after = (cum[ends + window] - cum[ends]) / window
    steps = np.linalg.norm(before - after, axis=1)
    return float(steps.max()) < config.step


def _extended(rows: Floats, striped: npt.NDArray[np.bool_], height: int, window: int,
              run: int, config: TrayConfig) -> tuple[int, bool]:
    """A block that ends softly (``run`` rows at the start of ``rows``) taken on to the
    sharpest edge past it, when :func:`_step_block` finds one there (see
    ``TrayConfig.soft_extend``): its length, and whether it still ends softly."""
    longer = _step_block(rows, height, window, 0, config)
    if longer <= run:
        return run, True
    return longer, _soft(rows, striped, height, window, longer, config)


def _checkers(length: int, pitch: float, config: TrayConfig) -> int:
    """Checkers in a block ``length`` rows long (a few rows at the tray's end are its wall's
    shadow, not a checker)."""
    if length < config.min_first * pitch:
        return 0
    return min(max(round(length / pitch), 1), 15)


def tray_image(frame: Image, field_map: FieldMap, profile: BoardProfile,
               width: int) -> Image | None:
    """The profile's tray warped upright at the scale of a field ``width`` pixels wide
    (None without a tray)."""
    tray = profile.tray
    if tray is None:
        return None
    w, h = profile.rectified_size(width)
    u0 = 1.0 + tray.gap if tray.side == "right" else -tray.gap - tray.width
    tray_width = max(round(tray.width * w), 8)
    to_field = np.array([[1.0 / w, 0.0, u0], [0.0, 1.0 / h, 0.0], [0.0, 0.0, 1.0]])
    to_image = field_map.to_image @ to_field
    warped = cv2.warpPerspective(frame, np.linalg.inv(to_image), (tray_width, h),
                                 flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(warped, dtype=np.uint8)


def _rows(tray: Image, config: TrayConfig) -> tuple[Floats, Floats, Floats]:
    """Per row of the tray's middle band: its median Lab colour and its stripe strength
    (median vertical gradient), and the floor's colour."""
    height, width = tray.shape[:2]
    band = tray[:, int(width * (0.5 - config.band / 2)):int(width * (0.5 + config.band / 2)) + 1]
    lab = cv2.cvtColor(band, cv2.COLOR_BGR2LAB).astype(np.float64)
    rows = np.median(lab, axis=1)
    gray = cv2.GaussianBlur(cv2.cvtColor(band, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0),
                            1.0)
    stripes = np.median(np.abs(np.diff(gray, axis=0, prepend=gray[:1])), axis=1)
    stripes = cv2.GaussianBlur(stripes.reshape(-1, 1).astype(np.float32), (1, 7), 0).ravel()
    lo, hi = (int(f * height) for f in config.floor)
    floor = np.median(rows[lo:hi], axis=0)
    return rows, stripes.astype(np.float64), floor


def _checker_rows(rows: Floats, stripes: Floats, floor: Floats, height: int,
                  config: TrayConfig) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Rows that look like checkers rather than the floor, and those of them that show
    the slabs' stripes."""
    weights = np.array([0.5, 1.0, 1.0])
    distance = np.linalg.norm((rows - floor) * weights, axis=1)
    distance = cv2.GaussianBlur(distance.reshape(-1, 1).astype(np.float32), (1, 5), 0).ravel()
    lo, hi = (int(f * height) for f in config.floor)
    typical = float(np.median(stripes[lo:hi]))
    spread = 1.4826 * float(np.median(np.abs(stripes[lo:hi] - typical))) + 0.2
    textured = stripes > typical + config.texture * spread + config.texture_floor
    return (np.asarray((distance > config.colour) | textured, dtype=bool),
            np.asarray(textured, dtype=bool))


def _run(marked: npt.NDArray[np.bool_], gap: int) -> int:
    """Length of the block from the start of ``marked``: up to its last marked row before
    ``gap`` unmarked ones."""
    last, misses = 0, 0
    for i, on in enumerate(marked):
        if on:
            last, misses = i + 1, 0
        else:
            misses += 1
            if misses >= gap:
                break
    return last


def _period(profile_rows: Floats, radius: float,
            config: TrayConfig) -> tuple[float, float] | None:
    """The stripes' period (pixels) and how strongly it shows (its share of the detail's
    energy, or its autocorrelation), if a block is long enough and striped enough: the
    periodogram's when it stands out (``config.spectrum``), else the autocorrelation's."""
    if len(profile_rows) < config.min_block:
        return None
    smooth = cv2.GaussianBlur(profile_rows.reshape(-1, 1).astype(np.float32), (1, 21), 0)
    detail = profile_rows - smooth.ravel()
    energy = float(detail @ detail) / len(detail)
    if energy <= 1e-6:
        return None
    if config.spectrum:
        found = _spectral_period(detail, radius, config)
        if found is not None:
            return found
    lags = np.arange(max(int(config.pitch[0] * radius), 2), int(config.pitch[1] * radius) + 1)
    lags = lags[lags < len(detail) - 2]
    if len(lags) < 3:
        return None
    corr = np.array([float(detail[:-lag] @ detail[lag:]) / (len(detail) - lag)
                     for lag in lags]) / energy
    best = int(np.argmax(corr))
    if corr[best] < config.periodicity:
        return None
    offset = 0.0
    if 0 < best < len(lags) - 1:
        a, b, c = corr[best - 1], corr[best], corr[best + 1]
        if a - 2.0 * b + c < 0.0:
            offset = 0.5 * (a - c) / (a - 2.0 * b + c)
    return float(lags[best] + offset), float(corr[best])


def _spectral_period(detail: Floats, radius: float,
                     config: TrayConfig) -> tuple[float, float] | None:
    """The period (pixels) among ``config.pitch`` at which the Hann-windowed detail has the
    most power, and that power's share of the detail's energy, if at least
    ``config.power`` (see ``TrayConfig.spectrum``).  The periodogram is read off one
    Fourier transform zero-padded to ``config.fft_size`` (frequencies 1/4096 apart: at a
    period of 10 pixels, 0.025 pixels)."""
    n = len(detail)
    windowed = (detail - detail.mean()) * np.hanning(n)
    total = float(windowed @ windowed)
    if total <= 1e-9 or n > config.fft_size:
        return None
    power = np.abs(np.fft.rfft(windowed, config.fft_size)) ** 2
    low = int(np.ceil(config.fft_size / (config.pitch[1] * radius)))
    high = int(np.floor(config.fft_size / (config.pitch[0] * radius)))
    if high <= low:
        return None
    best = low + int(np.argmax(power[low:high + 1]))
    share = float(power[best]) / (total * n / 2.0)
    if share < config.power:
        return None
    return config.fft_size / best, share


def _bottom_is_light(rows: Floats, bottom: int, top: int, height: int,
                     model: ColourModel | None, config: TrayConfig) -> bool:
    """Whether the block at the tray's bottom end is the light colour."""
    lower = _median_colour(rows[height - bottom:]) if bottom else None
    upper = _median_colour(rows[:top]) if top else None
    if model is not None:
        if lower is not None:
            return model.classify(lower)
        return upper is None or not model.classify(upper)
    if lower is not None and upper is not None:
        return lower[0] >= upper[0]
    if lower is not None:
        return lower[0] >= config.lightness
    return upper is None or upper[0] < config.lightness
