"""The display driver's real output: the bytes on the SPI bus, checked against
segment shapes written out here by hand, and the page layout."""

import pytest

from controller.scoreboard.segments import MachineShim, Max7219Chain
from firmware import bgproto, layout, max7219
from firmware.bgproto import Board
from firmware.main import make_display

# Segment bits in the MAX7219's no-decode mode (datasheet, table 6).
BIT = {"dp": 0x80, "a": 0x40, "b": 0x20, "c": 0x10, "d": 0x08, "e": 0x04, "f": 0x02, "g": 0x01}
SHAPES = {
    " ": "", "0": "abcdef", "1": "bc", "2": "abdeg", "3": "abcdg", "4": "bcfg", "5": "acdfg",
    "6": "acdefg", "7": "abc", "8": "abcdefg", "9": "abcdfg", "L": "def", "d": "bcdeg",
    "P": "abefg", "-": "g", "C": "adef", "r": "eg", "A": "abcefg", "F": "aefg",
}


def shape(char: str, point: bool = False) -> int:
    code = sum(BIT[segment] for segment in SHAPES[char])
    return code | (BIT["dp"] if point else 0)


class Recorder:
    """SPI bus and chip-select pin in one: the exact sequence of events."""

    def __init__(self) -> None:
        self.events: list[tuple[str, object]] = []

    def write(self, data: bytes) -> None:
        self.events.append(("spi", bytes(data)))

    def value(self, level: int) -> None:
        self.events.append(("cs", level))

    def latched(self) -> list[bytes]:
        """Each chip-select cycle's bytes; fails on any write outside a cycle."""
        words: list[bytes] = []
        low = False
        for kind, value in self.events:
            if kind == "cs":
                low = value == 0
            else:
                assert low, "SPI written while chip select was high"
                assert isinstance(value, bytes)
                words.append(value)
        return words


def test_init_sends_the_datasheet_sequence_to_both_chips() -> None:
    bus = Recorder()
    display = max7219.Max7219(bus, bus, modules=2, intensity=5)
    bus.events.clear()
    display.init()
    blank = [bytes([row, 0, row, 0]) for row in range(1, 9)]
    assert bus.latched() == [
        b"\x0f\x00\x0f\x00",  # display test off
        b"\x0b\x07\x0b\x07",  # scan all eight digits
        b"\x09\x00\x09\x00",  # no BCD decode: raw segments
        b"\x0a\x05\x0a\x05",  # intensity 5
        *blank,
        b"\x0c\x01\x0c\x01",  # out of shutdown
    ]
    assert bus.events[-1] == ("cs", 1)


def test_score_page_segment_bytes() -> None:
    bus = Recorder()
    display = max7219.Max7219(bus, bus, modules=2)
    bus.events.clear()
    display.show("L.  3d  5P 7 d  2")
    left = [shape("L", point=True), 0, 0, shape("3"), shape("d"), 0, 0, shape("5")]
    right = [shape("P"), 0, shape("7"), 0, shape("d"), 0, 0, shape("2")]
    # Register 1 is the rightmost digit; the far (right) chip's word goes first.
    expected = [bytes([row, right[8 - row], row, left[8 - row]]) for row in range(1, 9)]
    assert bus.latched() == expected


def test_text_longer_than_the_display_is_refused_not_cut() -> None:
    with pytest.raises(ValueError, match="17 digits"):
        max7219.segments("12345678901234567", 16)
    assert len(max7219.segments("1.2.3.4.5.6.7.8.9.0.1.2.3.4.5.6.", 16)) == 16


def test_points_join_the_digit_before() -> None:
    assert list(max7219.segments("8..1", 4)) == [shape("8", True), BIT["dp"], shape("1"), 0]


def test_machine_shim_latches_like_the_chips_and_draws_them() -> None:
    chain = Max7219Chain(modules=2)
    display = make_display(MachineShim(chain))
    display.show("8.")
    codes = chain.digit_bytes()
    assert codes == [shape("8", True)] + [0] * 15
    assert chain.art() == [" _", "|_|", "|_|."]
    display.show("        0000000-")
    assert chain.digit_bytes()[8:] == [shape("0")] * 7 + [shape("-")]


def test_shim_shows_nothing_while_the_chips_are_shut_down() -> None:
    chain = Max7219Chain(modules=2)
    chain.latch(bytes([1, shape("8"), 1, shape("8")]))
    assert chain.digit_bytes() == [0] * 16  # power-on: shutdown mode
    chain.latch(b"\x0c\x01\x0c\x01")
    assert chain.digit_bytes()[7] == shape("8") and chain.digit_bytes()[15] == shape("8")


@pytest.mark.parametrize(("board", "page"), [
    (Board(), "L  0d  0    -  1"),
    (Board(match_length=7, score_light=3, score_dark=5, cube_value=2, cube_owner=bgproto.DARK,
           turn=bgproto.LIGHT), "L.  3d  5P 7 d  2"),
    (Board(match_length=11, score_light=10, score_dark=9, crawford=True, cube_in_play=False,
           turn=bgproto.DARK), "L 10d.  9P11 CrAF"),
    (Board(match_length=5, cube_in_play=False), "L  0d  0P 5 ----"),
    (Board(score_light=1234, score_dark=999, cube_value=64, cube_owner=bgproto.LIGHT),
     "L---d999    L 64"),
    (Board(match_length=100), "L  0d  0P-- -  1"),
])
def test_score_page(board: Board, page: str) -> None:
    assert layout.score_page(board) == page
    assert len(max7219.segments(page, 16)) == 16


def test_messages_take_turns_with_the_score() -> None:
    board = Board(match_length=7, score_light=1, message="ILLEGAL", camera_ok=False)
    pages = layout.pages(board, ["NO LINK"])
    assert pages == ["L  1d  0P 7 -  1", "    NO LINK", "    ILLEGAL", "   NO CAMERA"]
    shown = [layout.page_at(pages, t) for t in range(0, 4 * layout.PAGE_MS, layout.PAGE_MS)]
    assert shown == pages
    assert layout.page_at(pages, 4 * layout.PAGE_MS) == pages[0]
    assert layout.pages(None, []) == []
    assert layout.page_at([], 1234) == ""
