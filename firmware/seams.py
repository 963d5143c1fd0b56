"""What the firmware needs from the outside world, as the type checker sees it.

Imported only under ``TYPE_CHECKING`` (MicroPython has no ``typing``), so
the Pico never loads it.  The Pico passes ``machine.SPI``/``machine.Pin`` and
its USB serial; the tests and ``bgref scoreboard --simulate`` pass shims.
"""

from typing import Protocol


class SpiBus(Protocol):
    """``machine.SPI``: only writing is used (the MAX7219 has no data out)."""

    def write(self, data: bytes, /) -> object: ...


class OutputPin(Protocol):
    """``machine.Pin`` set up as an output (the chip-select line)."""

    def value(self, level: int, /) -> object: ...


class Port(Protocol):
    """The serial link to the host, never blocking."""

    def read(self) -> bytes:
        """Whatever bytes have arrived, possibly none."""
        ...

    def write(self, data: bytes) -> None: ...


class Clock(Protocol):
    """Milliseconds that only go forwards and never wrap."""

    def now(self) -> int: ...


class Display(Protocol):
    """Shows up to 16 characters (a '.' lights the previous digit's point)."""

    def init(self) -> None:
        """Sets the hardware up again from scratch (and blanks it)."""
        ...

    def show(self, text: str) -> None: ...
