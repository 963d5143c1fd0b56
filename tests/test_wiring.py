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


def test_the_assembly_guides_pin_table_is_the_pin_map() -> None:
    from controller.gpio.pinmap import HEADER

    text = (REPO / "hardware" / "README.md").read_text()
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[1][:1].isdigit() and cells[1].endswith(")"):
            gpio, physical = cells[1].rstrip(")").split(" (")
            rows[cells[0].replace(" ", "_")] = (int(gpio), int(physical), cells[2])
    pins = load_pin_map(PINS)
    expected = {**pins.lights, **pins.buttons, "buzzer": pins.buzzer}
    assert {name: row[0] for name, row in rows.items()} == expected
    assert all(HEADER[gpio] == physical for gpio, physical, _ in rows.values())
    assert rows["call_top"][2] == "red LED + 330 Ω"
    assert rows["top_call"][2] == "button to GND"


def _bom_rows() -> list[list[str]]:
    rows = []
    for line in (REPO / "hardware" / "bom.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 7 and cells[0].isdigit():
            rows.append(cells)
    return rows


def test_the_bill_of_materials_adds_up_and_matches_the_pin_map() -> None:
    rows = _bom_rows()
    assert [int(r[0]) for r in rows] == list(range(1, len(rows) + 1))
    for row in rows:
        assert round(int(row[3]) * float(row[4]), 2) == float(row[5]), row
    total = {int(r[0]): float(r[5]) for r in rows}
    text = (REPO / "hardware" / "bom.md").read_text()

    def stated(label: str) -> float:
        line = next(line for line in text.splitlines() if line.startswith(f"| {label}"))
        return float(line.strip().strip("|").split("|")[1].strip(" *"))

    parts = {"Computer and camera (1-7)": range(1, 8), "Camera stand (8-10)": range(8, 11),
             "Lights, buzzer, buttons (11-25)": range(11, 26),
             "Scoreboard (26-32)": range(26, 33), "Kiosk screen (33-34)": range(33, 35)}
    for label, numbers in parts.items():
        assert stated(label) == round(sum(total[n] for n in numbers), 2), label
    assert stated("**Referee without screen**") == round(sum(total[n] for n in range(1, 33)), 2)
    pins = load_pin_map(PINS)
    qty = {int(r[0]): int(r[3]) for r in rows}
    leds = [n for n in (11, 12, 13) if "LED 5 mm" in rows[n - 1][1]]
    assert sum(qty[n] for n in leds) == len(pins.lights) == qty[15]
    assert qty[18] + qty[19] == len(pins.buttons)
    colours = {"yellow": qty[11], "green": qty[12], "red": qty[13]}
    from controller.gpio.wiring import LED_COLOUR

    drawn = [LED_COLOUR[name.split("_")[0]] for name in pins.lights]
    assert colours == {c: drawn.count(c) for c in colours}
    # The scoreboard's parts are the ones the firmware's README wires up.
    firmware = (REPO / "firmware" / "README.md").read_text()
    for number, part in ((26, "SC0915"), (27, "MAX7219"), (28, "SN74AHCT125N")):
        assert part in rows[number - 1][2] and part in firmware, part
    assert qty[27] == 2


def test_the_camera_heights_follow_from_the_field_of_view() -> None:
    import math

    covered = 0.53  # metres across the 720 rows, as camera.md chooses
    assert 720 / (covered * 100) * 1.5 >= 20  # a 15 mm die gets 20 px or more
    assert 720 / 54 * 1.5 >= 20 > 720 / 55 * 1.5  # 54 cm is the most it may cover
    text = (REPO / "hardware" / "camera.md").read_text()
    hq_vertical = math.degrees(2 * math.atan(6.287 * 9 / 16 / 2 / 6.0))  # 6 mm lens, 16:9
    for vertical, height in ((41, 71), (67, 40), (hq_vertical, 90)):
        h = covered / (2 * math.tan(math.radians(vertical / 2)))
        assert round(h * 100) == height
        assert f"| {height} cm |" in text or f"| **{height} cm** |" in text
