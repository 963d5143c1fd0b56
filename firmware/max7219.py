"""Two (or more) daisy-chained MAX7219 eight-digit seven-segment modules on SPI.

Why the bytes look as they do: every write is one 16-bit word per chip,
register then data, shifted out while chip-select is low and latched when it
rises.  Words shifted first travel furthest, so the chip at the far end of
the chain gets the first word.  The first module in the chain (its DIN wired
to the Pico) is the left half of the display.  On the common modules the
chip's digit 0 (register 0x01) is the rightmost digit.

Segments are driven raw (no BCD decode) so letters can be shown; bit 7 is
the decimal point, bits 6..0 are segments A..G.
"""

TYPE_CHECKING = False
if TYPE_CHECKING:
    from firmware.seams import OutputPin, SpiBus

NOOP = 0x00
DIGIT0 = 0x01
DECODE_MODE = 0x09
INTENSITY = 0x0A
SCAN_LIMIT = 0x0B
SHUTDOWN = 0x0C
DISPLAY_TEST = 0x0F

DIGITS = 8
DP = 0x80

# Segments: A=0x40 (top), B=0x20, C=0x10, D=0x08 (bottom), E=0x04, F=0x02, G=0x01 (middle).
# Seven segments have one shape per letter; some (K, M, V, W, X) are only
# approximations, and the messages the referee uses avoid the worst of them.
_FONT = {
    " ": 0x00, "0": 0x7E, "1": 0x30, "2": 0x6D, "3": 0x79, "4": 0x33, "5": 0x5B,
    "6": 0x5F, "7": 0x70, "8": 0x7F, "9": 0x7B,
    "A": 0x77, "B": 0x1F, "C": 0x4E, "D": 0x3D, "E": 0x4F, "F": 0x47, "G": 0x5E,
    "H": 0x37, "I": 0x06, "J": 0x3C, "K": 0x57, "L": 0x0E, "M": 0x76, "N": 0x15,
    "O": 0x7E, "P": 0x67, "Q": 0x73, "R": 0x05, "S": 0x5B, "T": 0x0F, "U": 0x3E,
    "V": 0x1C, "W": 0x3F, "X": 0x37, "Y": 0x3B, "Z": 0x6D,
    "-": 0x01, "_": 0x08, "=": 0x09, "?": 0x65, "!": 0xA0, "'": 0x02, '"': 0x22,
    "/": 0x25, "(": 0x4E, ")": 0x78, "[": 0x4E, "]": 0x78, ":": 0x09,
}
UNKNOWN = 0x49
"""Three bars (A, D, G): printable characters with no shape of their own."""


def glyph(char: str) -> int:
    """The segment byte of one character (letters ignore case)."""
    code = _FONT.get(char.upper())
    return UNKNOWN if code is None else code


def segments(text: str, width: int) -> bytearray:
    """``width`` segment bytes, left-aligned; a '.' joins the digit before it.

    Raises ValueError when the text needs more digits than there are, rather
    than cutting a number short.
    """
    codes = bytearray()
    for char in text:
        if char == "." and codes and not codes[-1] & DP:
            codes[-1] |= DP
            continue
        codes.append(DP if char == "." else glyph(char))
    if len(codes) > width:
        raise ValueError(f"text needs {len(codes)} digits, the display has {width}")
    while len(codes) < width:
        codes.append(0)
    return codes


class Max7219:
    """The display: ``show(text)`` writes every digit of every module."""

    def __init__(self, spi: "SpiBus", cs: "OutputPin", modules: int = 2,
                 intensity: int = 8) -> None:
        self._spi = spi
        self._cs = cs
        self.modules = modules
        self.width = modules * DIGITS
        self.intensity = intensity
        self._cs.value(1)

    def _write(self, words: "list[tuple[int, int]]") -> None:
        """One latched write; ``words[m]`` goes to module m (0 = nearest the Pico)."""
        data = bytearray()
        for module in range(self.modules - 1, -1, -1):
            register, value = words[module]
            data.append(register)
            data.append(value)
        self._cs.value(0)
        self._spi.write(bytes(data))
        self._cs.value(1)

    def _all(self, register: int, value: int) -> None:
        self._write([(register, value)] * self.modules)

    def init(self) -> None:
        """Puts every chip in a known state: also run now and then, since a
        chip upset by a spark on a long ribbon keeps its wrong mode otherwise."""
        self._all(DISPLAY_TEST, 0)
        self._all(SCAN_LIMIT, DIGITS - 1)
        self._all(DECODE_MODE, 0)
        self._all(INTENSITY, self.intensity & 0x0F)
        self.show("")
        self._all(SHUTDOWN, 1)

    def show(self, text: str) -> None:
        codes = segments(text, self.width)
        for row in range(DIGITS):
            column = DIGITS - 1 - row
            self._write([(DIGIT0 + row, codes[module * DIGITS + column])
                         for module in range(self.modules)])
