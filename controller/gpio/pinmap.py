"""The pin map: which GPIO drives which light and reads which button.

One file says it, ``hardware/pins.toml``; the code, the wiring diagram and
the documents all read that file, so they cannot disagree.  The package
carries it as ``controller/gpio/pins.toml`` (a link to the hardware file, so
there is still only one), and ``BGREF_PINS`` or an explicit path points at a
builder's own copy on the Pi (``/etc/bgref/pins.toml`` after ``bgref install``).

A pin map is checked whole before any pin is touched: a typo must not leave
half the lights wired to the wrong pins.
"""

import os
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Literal

Seat = Literal["bottom", "top"]
SEATS: tuple[Seat, ...] = ("bottom", "top")

CUBE_LIGHTS = (2, 4, 8, 16, 32, 64)
"""One LED per cube value above 1; none of them lit means the cube shows 1."""

LIGHT_NAMES = (
    *(f"cube_{value}" for value in CUBE_LIGHTS),
    "owner_bottom", "owner_centre", "owner_top",
    "turn_bottom", "turn_top",
    "call_bottom", "call_top",
    "status",
)
SEAT_BUTTONS = ("double", "take", "pass", "call")
"""The four buttons at each seat (long presses give resign, accept, reject)."""
BUTTON_NAMES = (*(f"{seat}_{b}" for seat in SEATS for b in SEAT_BUTTONS), "operator")

HEADER: dict[int, int] = {
    2: 3, 3: 5, 4: 7, 14: 8, 15: 10, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16,
    24: 18, 10: 19, 9: 21, 25: 22, 11: 23, 8: 24, 7: 26, 0: 27, 1: 28, 5: 29,
    6: 31, 12: 32, 13: 33, 19: 35, 16: 36, 26: 37, 20: 38, 21: 40,
}
"""BCM GPIO number -> physical pin on the 40-pin header (every Pi since the B+)."""

RESERVED = {0: "ID_SD (HAT EEPROM)", 1: "ID_SC (HAT EEPROM)"}
"""GPIOs no pin map may use."""

ALTERNATE = {
    2: "I2C1 SDA", 3: "I2C1 SCL", 7: "SPI0 CE1", 8: "SPI0 CE0", 9: "SPI0 MISO",
    10: "SPI0 MOSI", 11: "SPI0 SCLK", 14: "UART0 TX", 15: "UART0 RX",
    12: "PWM0", 13: "PWM1", 18: "PWM0", 19: "PWM1",
}
"""The bus a GPIO also serves, shown on the diagram so a conflict is visible."""

DEFAULT_BUZZER_FREQUENCY = 4000


class PinMapError(ValueError):
    """A pin map that cannot be used as it stands; the message names the fix."""


@dataclass(frozen=True, slots=True)
class PinMap:
    """Every GPIO the referee uses, by role (BCM numbers)."""

    lights: dict[str, int]
    buttons: dict[str, int]
    buzzer: int
    buzzer_frequency: int
    source: str
    """Where the map was read from, for messages and the diagram."""

    def all_pins(self) -> dict[int, str]:
        """GPIO -> role name, for every GPIO in use."""
        used = {gpio: f"light {name}" for name, gpio in self.lights.items()}
        used.update({gpio: f"button {name}" for name, gpio in self.buttons.items()})
        used[self.buzzer] = "buzzer"
        return used

    def free_pins(self) -> list[int]:
        """Header GPIOs nothing uses (reserved ones excluded), in BCM order."""
        used = self.all_pins()
        return sorted(g for g in HEADER if g not in used and g not in RESERVED)


def packaged_pin_map() -> Path:
    """The pin map that ships with the package (the repository's hardware file)."""
    with resources.as_file(resources.files("controller.gpio") / "pins.toml") as path:
        return Path(path)


def default_pin_map_path() -> Path:
    """``BGREF_PINS`` when set (a builder's own wiring), else the packaged map."""
    override = os.environ.get("BGREF_PINS")
    return Path(override) if override else packaged_pin_map()


def load_pin_map(path: str | Path | None = None) -> PinMap:
    """Read and check a pin map file (the default one when ``path`` is None)."""
    where = Path(path) if path is not None else default_pin_map_path()
    try:
        text = where.read_text(encoding="utf-8")
    except OSError as exc:
        raise PinMapError(f"cannot read the pin map {where}: {exc.strerror or exc}") from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PinMapError(f"{where} is not valid TOML: {exc}") from exc
    return parse_pin_map(data, str(where))


def _section(data: dict[str, object], name: str, source: str) -> dict[str, object]:
    section = data.get(name)
    if not isinstance(section, dict):
        raise PinMapError(f"{source}: the [{name}] table is missing")
    return section


def _gpio(value: object, what: str, source: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PinMapError(f"{source}: {what} must be a BCM GPIO number, got {value!r}")
    if value in RESERVED:
        raise PinMapError(f"{source}: {what} uses GPIO{value}, reserved for {RESERVED[value]}")
    if value not in HEADER:
        raise PinMapError(f"{source}: {what} = {value} is not a GPIO on the 40-pin header (2-27)")
    return value


def _named_pins(section: dict[str, object], names: tuple[str, ...], table: str,
                source: str) -> dict[str, int]:
    unknown = sorted(set(section) - set(names))
    if unknown:
        raise PinMapError(f"{source}: unknown names in [{table}]: {', '.join(unknown)} "
                          f"(known: {', '.join(names)})")
    missing = [name for name in names if name not in section]
    if missing:
        raise PinMapError(f"{source}: [{table}] lacks {', '.join(missing)}")
    return {name: _gpio(section[name], f"{table}.{name}", source) for name in names}


def parse_pin_map(data: dict[str, object], source: str = "pin map") -> PinMap:
    """Check a decoded pin map: every role present once, every GPIO real and used once."""
    unknown_tables = sorted(set(data) - {"lights", "buttons", "buzzer"})
    if unknown_tables:
        raise PinMapError(f"{source}: unknown tables {', '.join(unknown_tables)}")
    lights = _named_pins(_section(data, "lights", source), LIGHT_NAMES, "lights", source)
    buttons = _named_pins(_section(data, "buttons", source), BUTTON_NAMES, "buttons", source)
    buzzer_table = _section(data, "buzzer", source)
    unknown = sorted(set(buzzer_table) - {"gpio", "frequency"})
    if unknown:
        raise PinMapError(f"{source}: unknown names in [buzzer]: {', '.join(unknown)}")
    if "gpio" not in buzzer_table:
        raise PinMapError(f"{source}: [buzzer] lacks gpio")
    buzzer = _gpio(buzzer_table["gpio"], "buzzer.gpio", source)
    frequency = buzzer_table.get("frequency", DEFAULT_BUZZER_FREQUENCY)
    if (isinstance(frequency, bool) or not isinstance(frequency, int)
            or not 100 <= frequency <= 20000):
        raise PinMapError(f"{source}: buzzer.frequency must be a whole number of Hz "
                          f"from 100 to 20000, got {frequency!r}")
    seen: dict[int, str] = {}
    roles = [*(("lights." + n, g) for n, g in lights.items()),
             *(("buttons." + n, g) for n, g in buttons.items()), ("buzzer.gpio", buzzer)]
    for role, gpio in roles:
        if gpio in seen:
            raise PinMapError(f"{source}: GPIO{gpio} is given twice ({seen[gpio]} and {role})")
        seen[gpio] = role
    return PinMap(lights=lights, buttons=buttons, buzzer=buzzer,
                  buzzer_frequency=frequency, source=source)
