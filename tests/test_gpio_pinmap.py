"""The pin map: the one file, its checks, and its fit to the Pi's header."""

import tomllib
from pathlib import Path

import pytest

from controller.gpio.pinmap import (
    BUTTON_NAMES,
    HEADER,
    LIGHT_NAMES,
    PinMapError,
    load_pin_map,
    packaged_pin_map,
    parse_pin_map,
)

REPO = Path(__file__).resolve().parents[1]
HARDWARE_MAP = REPO / "hardware" / "pins.toml"


def _data() -> dict[str, object]:
    return tomllib.loads(HARDWARE_MAP.read_text())


def test_the_package_reads_the_hardware_file_itself() -> None:
    assert packaged_pin_map().read_bytes() == HARDWARE_MAP.read_bytes()
    assert load_pin_map().source == str(packaged_pin_map())


def test_every_role_has_a_distinct_gpio() -> None:
    pins = load_pin_map(HARDWARE_MAP)
    assert set(pins.lights) == set(LIGHT_NAMES)
    assert set(pins.buttons) == set(BUTTON_NAMES)
    used = [*pins.lights.values(), *pins.buttons.values(), pins.buzzer]
    assert len(used) == len(set(used)) == 24
    assert pins.buzzer_frequency == 4000


def test_i2c_and_the_id_eeprom_pins_stay_free() -> None:
    pins = load_pin_map(HARDWARE_MAP)
    assert pins.free_pins() == [2, 3]
    assert not {0, 1, 2, 3} & set(pins.all_pins())


def test_lights_sit_on_pins_pulled_down_at_boot() -> None:
    # BCM2711/RP1 reset state: GPIO0-8 pulled up, GPIO9-27 pulled down, so an
    # LED on GPIO9+ stays dark until the referee drives it.
    pins = load_pin_map(HARDWARE_MAP)
    assert all(gpio >= 9 for gpio in [*pins.lights.values(), pins.buzzer])


def test_header_positions_match_the_pi_pinout() -> None:
    # From the Raspberry Pi documentation's 40-pin header drawing.
    assert (HEADER[2], HEADER[14], HEADER[18], HEADER[21], HEADER[26], HEADER[4]) == (
        3, 8, 12, 40, 37, 7)
    power_and_ground = {1, 2, 4, 6, 9, 14, 17, 20, 25, 30, 34, 39}
    assert len(set(HEADER.values())) == 28
    assert not power_and_ground & set(HEADER.values())
    assert set(HEADER) == set(range(28))


def test_bgref_pins_points_at_a_builders_own_map(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    own = tmp_path / "pins.toml"
    own.write_text(HARDWARE_MAP.read_text().replace("status = 26", "status = 3"))
    monkeypatch.setenv("BGREF_PINS", str(own))
    pins = load_pin_map()
    assert pins.lights["status"] == 3
    assert pins.source == str(own)


@pytest.mark.parametrize(("edit", "message"), [
    (lambda d: d["lights"].update(status=17),
     "GPIO17 is given twice (lights.cube_2 and lights.status)"),
    (lambda d: d["lights"].update(status=0), "lights.status uses GPIO0, reserved for ID_SD"),
    (lambda d: d["lights"].update(status=28),
     "lights.status = 28 is not a GPIO on the 40-pin header"),
    (lambda d: d["lights"].update(status="26"),
     "lights.status must be a BCM GPIO number, got '26'"),
    (lambda d: d["lights"].update(status=True),
     "lights.status must be a BCM GPIO number, got True"),
    (lambda d: d["lights"].pop("cube_64"), "[lights] lacks cube_64"),
    (lambda d: d["lights"].update(cube_128=3), "unknown names in [lights]: cube_128"),
    (lambda d: d.pop("buttons"), "the [buttons] table is missing"),
    (lambda d: d.update(leds={}), "unknown tables leds"),
    (lambda d: d["buzzer"].pop("gpio"), "[buzzer] lacks gpio"),
    (lambda d: d["buzzer"].update(frequency=50), "buzzer.frequency must be a whole number of Hz"),
    (lambda d: d["buzzer"].update(volume=3), "unknown names in [buzzer]: volume"),
])
def test_a_wrong_map_is_refused_whole_with_the_reason(edit: object, message: str) -> None:
    data = _data()
    edit(data)  # type: ignore[operator]
    with pytest.raises(PinMapError) as caught:
        parse_pin_map(data, "my.toml")
    assert message in str(caught.value)
    assert str(caught.value).startswith("my.toml: ")


def test_unreadable_and_corrupt_files_say_so(tmp_path: Path) -> None:
    with pytest.raises(PinMapError, match=r"cannot read the pin map .*missing\.toml"):
        load_pin_map(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[lights\ncube_2 = 17\n")
    with pytest.raises(PinMapError, match=r"bad\.toml is not valid TOML"):
        load_pin_map(bad)
    assert bad.read_text() == "[lights\ncube_2 = 17\n"
