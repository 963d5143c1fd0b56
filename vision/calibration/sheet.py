"""The printable marker sheet, as SVG or PDF, written by our own code.

One A4 page: the four marker tiles at their true size, laid around a
schematic playing field exactly as they go on the board (each tile's inner
corner touching a field corner), dashed cut lines, a 100 mm scale bar to
check the print, and the instructions.  Both formats are drawn from one
list of shapes in millimetres (origin top-left, y down), so they cannot
disagree.  The marker cells come from OpenCV's own pattern
(:meth:`ArucoApi.marker_cells`): a black square with the white cells on
top, so no hairline seams can appear between black cells.

The PDF is the smallest valid PDF 1.4 that does the job: one page, one
uncompressed content stream of vector rectangles, lines and text in the
base-14 Helvetica fonts (no embedding needed), and a byte-exact xref table.
"""

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final
from xml.sax.saxutils import escape, quoteattr

import numpy as np
import numpy.typing as npt

from vision.calibration.aruco_compat import ArucoApi
from vision.calibration.markers import (
    CORNER_NAMES,
    DEFAULT_LAYOUT,
    MarkerLayout,
    layout_dictionary,
)
from vision.calibration.store import write_atomic
from vision.errors import CalibrationError

PAGE_MM: Final = (210.0, 297.0)
"""A4 portrait."""
MM_TO_PT: Final = 72.0 / 25.4


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    grey: float
    """0 black .. 1 white."""
    role: str = ""
    """``marker`` (the black square), ``cell`` (a white cell), or empty."""
    marker_id: int | None = None


@dataclass(frozen=True, slots=True)
class Stroke:
    """An outline rectangle (``w``, ``h`` > 0) or a line (to ``x + w``, ``y + h``)."""

    x: float
    y: float
    w: float
    h: float
    grey: float
    width: float
    dash: float = 0.0
    box: bool = False
    role: str = ""


@dataclass(frozen=True, slots=True)
class Text:
    x: float
    y: float
    """Baseline."""
    size: float
    """Letter height in mm (3.5 mm is about 10 pt)."""
    text: str
    bold: bool = False


Shape = Rect | Stroke | Text


def write_marker_sheet(path: str | Path, layout: MarkerLayout = DEFAULT_LAYOUT,
                       api: ArucoApi | None = None) -> Path:
    """Write the sheet to ``path`` as PDF or SVG (by its suffix), atomically.

    Raises :class:`CalibrationError` for another suffix or a layout whose tiles do
    not fit on the page.
    """
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in (".pdf", ".svg"):
        raise CalibrationError(f"marker sheet: {target.name!r} must end in .pdf or .svg")
    shapes = sheet_shapes(layout, api)
    data = to_pdf(shapes) if suffix == ".pdf" else to_svg(shapes).encode("utf-8")
    write_atomic(target, data)
    return target


def sheet_shapes(layout: MarkerLayout = DEFAULT_LAYOUT,
                 api: ArucoApi | None = None) -> list[Shape]:
    """Everything on the page, in millimetres."""
    api = api or ArucoApi()
    tile = layout.tile_mm
    if tile > 60.0:
        raise CalibrationError(f"marker sheet: {tile:.1f} mm tiles do not fit an A4 page")
    page_w, _ = PAGE_MM
    shapes: list[Shape] = [
        Text(15, 16, 5.0, "bgref calibration markers", bold=True),
        Text(15, 22, 3.2, f"ArUco {layout.dictionary}, IDs "
                          f"{', '.join(map(str, layout.ids))}; black squares "
                          f"{layout.marker_mm:.1f} mm, tiles {tile:.1f} mm with the margin"),
    ]
    shapes += _scale_bar(15.0, 32.0)
    field_w = 110.0
    field_h = field_w / 1.07
    fx, fy = (page_w - field_w) / 2.0, 62.0 + tile
    shapes.append(Stroke(fx, fy, field_w, field_h, 0.6, 0.3, dash=2.0, box=True))
    # The rails, as wide as a tile, around the field: where the tiles go.
    shapes.append(Stroke(fx - tile, fy - tile, field_w + 2 * tile, field_h + 2 * tile, 0.75,
                         0.3, box=True))
    shapes.append(Text(fx + field_w / 2 - 4, fy - tile / 2 + 1, 3.0, "rail"))
    shapes += [Text(fx + 30, fy + field_h / 2 - 3, 4.0, "playing field", bold=True),
               Text(fx + 12, fy + field_h / 2 + 3, 3.0, "(inside the rails; not to scale)"),
               Text(fx + 8, fy + field_h / 2 + 9, 3.0, "each tile touches a field corner")]
    dictionary = layout_dictionary(api, layout)
    origins = [(fx - tile, fy - tile), (fx + field_w, fy - tile),
               (fx + field_w, fy + field_h), (fx - tile, fy + field_h)]
    for marker_id, name, (ox, oy) in zip(layout.ids, CORNER_NAMES, origins, strict=True):
        shapes += _tile(api.marker_cells(dictionary, marker_id), marker_id, ox, oy, layout)
        above = oy < fy
        label_y = oy - 2.5 if above else oy + tile + 5.0
        shapes.append(Text(ox, label_y, 3.2, f"ID {marker_id}: {name}", bold=True))
    shapes += _instructions(layout, fy + field_h + tile + 14.0)
    return shapes


def _tile(cells: npt.NDArray[np.bool_], marker_id: int, ox: float, oy: float,
          layout: MarkerLayout) -> Iterator[Shape]:
    """One tile: white margin, black square, white cells, dashed cut line."""
    grid = np.asarray(cells, dtype=bool)
    cell, margin, tile = layout.cell_mm, layout.margin_mm, layout.tile_mm
    yield Rect(ox, oy, tile, tile, 1.0)
    mx, my = ox + margin, oy + margin
    yield Rect(mx, my, layout.marker_mm, layout.marker_mm, 0.0, "marker", marker_id)
    for row, col in zip(*np.nonzero(grid), strict=True):
        yield Rect(mx + col * cell, my + row * cell, cell, cell, 1.0, "cell", marker_id)
    yield Stroke(ox, oy, tile, tile, 0.55, 0.2, dash=1.0, box=True, role="cut")


def _scale_bar(x: float, y: float) -> Iterator[Shape]:
    """A 100 mm bar with a tick every centimetre."""
    yield Stroke(x, y, 100.0, 0.0, 0.0, 0.3)
    for i in range(11):
        tall = 3.0 if i % 5 == 0 else 1.8
        yield Stroke(x + 10.0 * i, y - tall, 0.0, tall, 0.0, 0.3)
    yield Text(x, y + 5.5, 3.0, "This bar must measure 100 mm; if it does not, reprint at "
                                "100 % (actual size).")


def _instructions(layout: MarkerLayout, top: float) -> Iterator[Shape]:
    tile = layout.tile_mm
    lines = [
        ("How to place the markers", True),
        ("1. Print at 100 % (actual size, no 'fit to page'). Check the scale bar above.", False),
        (f"2. Cut out the four tiles on the dashed lines: {tile:.1f} mm squares, white "
         "margin included.", False),
        ("3. Stick each tile on the rail diagonally outside its corner of the playing field",
         False),
        ("   (the field holds the 24 points and the bar and ends at the inner edges of the",
         False),
        ("   rails). Two cut edges of the tile continue the field's two edges at that corner,",
         False),
        ("   so the tile's inner corner touches the field's corner.", False),
        ("4. IDs 0-3 go top-left, top-right, bottom-right, bottom-left as the camera sees",
         False),
        ("   the board; a tile turned any way round still works.", False),
        (f"5. The rails must be at least {tile:.1f} mm wide. Keep the tiles flat, clean and",
         False),
        ("   uncovered; matt paper avoids glare. Then run the calibration.", False),
    ]
    for i, (text, bold) in enumerate(lines):
        yield Text(15.0, top + 5.0 * i, 3.4 if bold else 3.1, text, bold=bold)


# -- SVG ------------------------------------------------------------------------------


def to_svg(shapes: list[Shape]) -> str:
    """The page as an SVG document sized in millimetres."""
    w, h = PAGE_MM
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(w)}mm" height="{_n(h)}mm" '
           f'viewBox="0 0 {_n(w)} {_n(h)}">',
           f'<rect x="0" y="0" width="{_n(w)}" height="{_n(h)}" fill="#ffffff"/>']
    for shape in shapes:
        out.append(_svg_shape(shape))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _svg_shape(shape: Shape) -> str:
    if isinstance(shape, Rect):
        extra = ""
        if shape.role:
            extra = f' class="{shape.role}" data-id="{shape.marker_id}"'
        return (f'<rect x="{_n(shape.x)}" y="{_n(shape.y)}" width="{_n(shape.w)}" '
                f'height="{_n(shape.h)}" fill="{_grey_hex(shape.grey)}"{extra}/>')
    if isinstance(shape, Stroke):
        style = (f'fill="none" stroke="{_grey_hex(shape.grey)}" '
                 f'stroke-width="{_n(shape.width)}"')
        if shape.dash:
            style += f' stroke-dasharray="{_n(shape.dash)} {_n(shape.dash)}"'
        if shape.role:
            style += f' class="{shape.role}"'
        if shape.box:
            return (f'<rect x="{_n(shape.x)}" y="{_n(shape.y)}" width="{_n(shape.w)}" '
                    f'height="{_n(shape.h)}" {style}/>')
        return (f'<line x1="{_n(shape.x)}" y1="{_n(shape.y)}" x2="{_n(shape.x + shape.w)}" '
                f'y2="{_n(shape.y + shape.h)}" {style}/>')
    weight = ' font-weight="bold"' if shape.bold else ""
    return (f'<text x="{_n(shape.x)}" y="{_n(shape.y)}" font-family="Helvetica, Arial, '
            f'sans-serif" font-size={quoteattr(_n(shape.size / 0.72))}{weight} '
            'xml:space="preserve">'
            f"{escape(shape.text)}</text>")


# -- PDF ------------------------------------------------------------------------------


def to_pdf(shapes: list[Shape]) -> bytes:
    """The page as a one-page PDF 1.4 file."""
    w_pt, h_pt = PAGE_MM[0] * MM_TO_PT, PAGE_MM[1] * MM_TO_PT
    content = _pdf_content(shapes, h_pt).encode("latin-1")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {_n(w_pt)} {_n(h_pt)}] "
         "/Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> /Contents 4 0 R >>").encode(),
        b"<< /Length " + str(len(content)).encode() + b" >>\nstream\n" + content
        + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold "
        b"/Encoding /WinAnsiEncoding >>",
        b"<< /Title (bgref calibration markers) /Producer (bgref) >>",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n".encode()
    out += b"0000000000 65535 f \n"
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += (f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info {len(objects)} 0 R >>\n"
            f"startxref\n{xref}\n%%EOF\n").encode()
    return bytes(out)


def _pdf_content(shapes: list[Shape], page_h_pt: float) -> str:
    """Drawing operators in millimetres: the first ``cm`` scales mm to points and flips
    y so that, as in the SVG, y runs down from the top of the page."""
    ops = [f"{_n(MM_TO_PT)} 0 0 {_n(-MM_TO_PT)} 0 {_n(page_h_pt)} cm"]
    for shape in shapes:
        if isinstance(shape, Rect):
            ops.append(f"{_n(shape.grey)} g {_n(shape.x)} {_n(shape.y)} {_n(shape.w)} "
                       f"{_n(shape.h)} re f")
        elif isinstance(shape, Stroke):
            dash = f"[{_n(shape.dash)} {_n(shape.dash)}] 0 d" if shape.dash else "[] 0 d"
            if shape.box:
                path = f"{_n(shape.x)} {_n(shape.y)} {_n(shape.w)} {_n(shape.h)} re S"
            else:
                path = (f"{_n(shape.x)} {_n(shape.y)} m {_n(shape.x + shape.w)} "
                        f"{_n(shape.y + shape.h)} l S")
            ops.append(f"{_n(shape.grey)} G {_n(shape.width)} w {dash} {path}")
        else:
            font = "/F2" if shape.bold else "/F1"
            # The text matrix flips y back, or the letters would stand on their heads.
            ops.append(f"0 g BT {font} {_n(shape.size / 0.72)} Tf 1 0 0 -1 {_n(shape.x)} "
                       f"{_n(shape.y)} Tm ({_pdf_string(shape.text)}) Tj ET")
    return "\n".join(ops)


def _pdf_string(text: str) -> str:
    """A PDF literal string body: Latin-1, with the three special characters escaped."""
    safe = text.encode("latin-1", errors="replace").decode("latin-1")
    return safe.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


# -- helpers --------------------------------------------------------------------------


def _n(value: float) -> str:
    """A number as short as exact enough (micrometres)."""
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _grey_hex(grey: float) -> str:
    level = max(0, min(255, round(grey * 255)))
    return f"#{level:02x}{level:02x}{level:02x}"

