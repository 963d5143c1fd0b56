"""A ``machine`` module for running the firmware off the Pico: under the
MicroPython WebAssembly port in the tests, and under CPython for comparison.

It records what the firmware does to the pins and the SPI bus, in order, so
the test can check the exact bytes the MAX7219 chips would receive.
"""

EVENTS: "list[list[object]]" = []
"""["pin", id, level] for every level set, ["spi", hex] for every write."""


class Pin:
    OUT = 1
    IN = 0

    def __init__(self, pin_id: int, mode: int = -1, value: "int | None" = None) -> None:
        self.id = pin_id
        self.mode = mode
        self.level = 0 if value is None else value
        EVENTS.append(["pin-init", pin_id, mode, self.level])

    def value(self, level: "int | None" = None) -> int:
        if level is not None:
            self.level = 1 if level else 0
            EVENTS.append(["pin", self.id, self.level])
        return self.level


class SPI:
    def __init__(self, bus: int, baudrate: int = 1000000, polarity: int = 0, phase: int = 0,
                 sck: "Pin | None" = None, mosi: "Pin | None" = None) -> None:
        EVENTS.append(["spi-init", bus, baudrate, polarity, phase,
                       sck.id if sck else None, mosi.id if mosi else None])

    def write(self, data: bytes) -> None:
        EVENTS.append(["spi", bytes(data).hex()])
