"""hardware/wiring.svg is drawn from hardware/pins.toml, and says what it should."""

import xml.etree.ElementTree as ET
from pathlib import Path

from click.testing import CliRunner

from controller.cli import main
from controller.gpio.pinmap import load_pin_map
from controller.gpio.wiring import render_wiring

REPO = Path(__file__).resolve().parents[1]
SVG = REPO / "hardware" / "wiring.svg"
PINS = REPO / "hardware" / "pins.toml"
NS = "{http://www.w3.org/2000/svg}"


def test_the_committed_diagram_is_the_generated_one() -> None:
    assert SVG.read_text(encoding="utf-8") == render_wiring(load_pin_map(PINS))
    result = CliRunner().invoke(main, ["wiring", "--check", str(SVG), "--pins", str(PINS)])
    assert result.exit_code == 0, result.output


def test_every_gpio_label_sits_beside_its_header_pin() -> None:
    root = ET.parse(SVG).getroot()
    texts = [(t.text or "", float(t.get("x", 0)), float(t.get("y", 0)))
             for t in root.iter(f"{NS}text")]
    pin_at = {int(text): (x, y) for text, x, y in texts if text.isdigit()}
    assert sorted(pin_at) == list(range(1, 41))
    # Pin 1 top left, pin 2 top right, pin 40 bottom right (the Pi's layout).
    assert pin_at[1][1] == pin_at[2][1] < pin_at[3][1]
    assert pin_at[1][0] < pin_at[2][0] and pin_at[40][0] == pin_at[2][0]
    pins = load_pin_map(PINS)
    # From the Raspberry Pi pinout: BCM GPIO -> physical pin.
    for gpio, physical in {17: 11, 18: 12, 14: 8, 21: 40, 4: 7, 26: 37}.items():
        label = next((x, y) for text, x, y in texts if text.startswith(f"GPIO{gpio}  "))
        assert label[1] == pin_at[physical][1]
        right_column = physical % 2 == 0
        assert (label[0] > pin_at[physical][0]) == right_column
    lines = [text for text, _, _ in texts]
    assert "GPIO18  buzzer: piezo + 100 Ω to GND (PWM 4000 Hz)" in lines
    assert "GPIO17  cube_2: yellow LED + 330 Ω to GND" in lines
    assert "GPIO4  operator: button to GND" in lines
    assert "GPIO2  free (I2C1 SDA)" in lines
    assert "GPIO0  do not use: ID_SD (HAT EEPROM)" in lines
    assert sum(text.endswith("to GND") or "to GND (" in text for text in lines) == len(
        pins.all_pins())
    assert [t for t in lines if t in {"GND", "5V", "3V3"}].count("GND") == 8


def test_a_changed_pin_map_makes_the_diagram_stale(tmp_path: Path) -> None:
    own = tmp_path / "pins.toml"
    own.write_text(PINS.read_text().replace("operator = 4", "operator = 2"))
    result = CliRunner().invoke(main, ["wiring", "--check", str(SVG), "--pins", str(own)])
    assert result.exit_code == 1
    assert "out of date with the pin map; regenerate it: bgref wiring --out" in result.output
    out = tmp_path / "wiring.svg"
    result = CliRunner().invoke(main, ["wiring", "--out", str(out), "--pins", str(own)])
    assert result.exit_code == 0, result.output
    assert "GPIO2  operator: button to GND" in out.read_text()
    assert "GPIO4  free" in out.read_text()


def test_out_or_check_not_both() -> None:
    result = CliRunner().invoke(main, ["wiring"])
    assert result.exit_code == 2
    assert "give either --out FILE or --check FILE" in result.output
