"""A stand-in for the Pico's ``machine`` module whose SPI bus is a pair of
MAX7219 chips: it keeps what each chip's digit registers hold, exactly as
the real chips would latch it, so what it draws is what the firmware really
sent, not what it meant to send.

Used by ``bgref scoreboard --simulate`` (drawn in the terminal) and the tests.
"""

import threading
from typing import ClassVar

DIGITS = 8
_DP = 0x80
_A, _B, _C, _D, _E, _F, _G = 0x40, 0x20, 0x10, 0x08, 0x04, 0x02, 0x01


class Max7219Chain:
    """The chips' registers, updated by SPI writes as the hardware would."""

    def __init__(self, modules: int = 2) -> None:
        self.modules = modules
        self.registers = [[0] * 16 for _ in range(modules)]
        self.writes = 0
        self._lock = threading.Lock()
        self.changed = threading.Event()

    def latch(self, data: bytes) -> None:
        """One chip-select cycle.  The last word shifted in stays in the
        first chip, the one before it moves on to the second, and so on."""
        if len(data) % 2:
            raise ValueError(f"a MAX7219 write is whole 16-bit words, got {len(data)} bytes")
        words = [(data[i] & 0x0F, data[i + 1]) for i in range(0, len(data), 2)]
        with self._lock:
            for module, (register, value) in enumerate(reversed(words[-self.modules:])):
                self.registers[module][register] = value
            self.writes += 1
        self.changed.set()

    def digit_bytes(self) -> list[int]:
        """Segment bytes left to right; blank while a chip is shut down or in test mode."""
        out: list[int] = []
        with self._lock:
            for regs in self.registers:
                lit = regs[0x0C] & 1 and not regs[0x0F] & 1
                # digit register 1 is the rightmost digit
                out += [regs[DIGITS - column] if lit else 0 for column in range(DIGITS)]
        return out

    def art(self) -> list[str]:
        """Three text rows drawing the digits as seven-segment shapes."""
        rows = ["", "", ""]
        for index, code in enumerate(self.digit_bytes()):
            if index and index % DIGITS == 0:
                rows = [row + "  " for row in rows]  # the gap between the modules
            rows[0] += " " + ("_" if code & _A else " ") + "  "
            rows[1] += (("|" if code & _F else " ") + ("_" if code & _G else " ")
                        + ("|" if code & _B else " ") + " ")
            rows[2] += (("|" if code & _E else " ") + ("_" if code & _D else " ")
                        + ("|" if code & _C else " ") + ("." if code & _DP else " "))
        return [row.rstrip() for row in rows]


class MachineShim:
    """Enough of ``machine`` for :func:`firmware.main.make_display`."""

    def __init__(self, chain: Max7219Chain) -> None:
        shim = self

        class Pin:
            OUT: ClassVar[int] = 1
            IN: ClassVar[int] = 0

            def __init__(self, pin_id: int, mode: int = -1, value: int | None = None) -> None:
                self.id = pin_id
                self.mode = mode
                self.level = 0 if value is None else value

            def value(self, level: int | None = None) -> int:
                if level is not None:
                    self.level = 1 if level else 0
                    if self.level:
                        shim._latch()
                return self.level

        class SPI:
            def __init__(self, bus: int, **settings: object) -> None:
                self.bus = bus
                self.settings = settings

            def write(self, data: bytes) -> None:
                shim._shifted += bytes(data)

        self.Pin = Pin
        self.SPI = SPI
        self.chain = chain
        self._shifted = b""

    def _latch(self) -> None:
        if self._shifted:
            data, self._shifted = self._shifted, b""
            self.chain.latch(data)
