"""The wiring diagram, drawn from the pin map and nothing else.

``hardware/wiring.svg`` is this module's output for ``hardware/pins.toml``
(``bgref wiring --out hardware/wiring.svg``; a test keeps the committed copy
equal), so the picture a builder solders from cannot drift from the pins
the code drives.  The drawing is the 40-pin header seen from above, USB
ports at the bottom, each used pin joined to a line that says what to
connect and how.  Plain text output, no dates, so it is byte-for-byte
repeatable.
"""

from pathlib import Path
from xml.sax.saxutils import escape

from controller.gpio.pinmap import ALTERNATE, HEADER, RESERVED, PinMap

POWER = {1: "3V3", 2: "5V", 4: "5V", 6: "GND", 9: "GND", 14: "GND", 17: "3V3", 20: "GND",
         25: "GND", 30: "GND", 34: "GND", 39: "GND"}
"""Header pins that are not GPIOs."""

LED_COLOUR = {"cube": "yellow", "owner": "yellow", "turn": "green", "call": "red",
              "status": "green"}
"""Which LED goes where (by the first word of its name); the BOM lists these."""
LED_RESISTOR = "330 Ω"
BUZZER_RESISTOR = "100 Ω"

ROLE_FILL = {"light": "#fde68a", "button": "#bfdbfe", "buzzer": "#ddd6fe",
             "power": "#fecaca", "ground": "#d1d5db", "free": "#ffffff", "reserved": "#e5e7eb"}

ROW = 30
TOP = 110
HEADER_X = 470
PIN_GAP = 60
WIDTH = 1000


def _what(pins: PinMap, gpio: int) -> tuple[str, str]:
    """(role, the line of text saying what to wire to this GPIO)."""
    for name, number in pins.lights.items():
        if number == gpio:
            colour = LED_COLOUR[name.split("_")[0]]
            return "light", f"{name}: {colour} LED + {LED_RESISTOR} to GND"
    for name, number in pins.buttons.items():
        if number == gpio:
            return "button", f"{name}: button to GND"
    if gpio == pins.buzzer:
        return "buzzer", (f"buzzer: piezo + {BUZZER_RESISTOR} to GND "
                          f"(PWM {pins.buzzer_frequency} Hz)")
    if gpio in RESERVED:
        return "reserved", f"do not use: {RESERVED[gpio]}"
    return "free", f"free ({ALTERNATE[gpio]})" if gpio in ALTERNATE else "free"


def render_wiring(pins: PinMap) -> str:
    """The SVG text of the wiring diagram for ``pins``."""
    source_name = Path(pins.source).name
    by_pin = {physical: gpio for gpio, physical in HEADER.items()}
    height = TOP + 20 * ROW + 170
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="DejaVu Sans, Arial, sans-serif" '
        'font-size="12">',
        f'<title>bgref wiring: Raspberry Pi 40-pin header ({escape(source_name)})</title>',
        f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#ffffff"/>',
        '<text x="20" y="30" font-size="18" font-weight="bold">bgref wiring: the Raspberry Pi'
        "'s 40-pin header from above (pin 1 top left)</text>",
        f'<text x="20" y="52">Drawn from the pin map {escape(source_name)} '
        "(hardware/pins.toml) by `bgref wiring --out hardware/wiring.svg`; do not edit. "
        "GPIO numbers are BCM.</text>",
        '<text x="20" y="72">Every GND pin is the same ground: run one ground wire to each '
        "seat's buttons and one to the light panel.</text>",
        f'<rect x="{HEADER_X - 20}" y="{TOP - 20}" width="{PIN_GAP + 40}" '
        f'height="{20 * ROW + 10}" rx="6" fill="#1f2937"/>',
    ]
    for physical in range(1, 41):
        row = (physical - 1) // 2
        left = physical % 2 == 1
        y = TOP + row * ROW
        x = HEADER_X + (0 if left else PIN_GAP)
        if physical in POWER:
            label = POWER[physical]
            role = "ground" if label == "GND" else "power"
            text = label
        else:
            gpio = by_pin[physical]
            role, what = _what(pins, gpio)
            text = f"GPIO{gpio}  {what}"
        out.append(f'<circle cx="{x}" cy="{y}" r="9" fill="{ROLE_FILL[role]}" '
                   'stroke="#111827" stroke-width="1.5"/>')
        out.append(f'<text x="{x}" y="{y + 4}" text-anchor="middle" font-size="9">'
                   f"{physical}</text>")
        if left:
            line_end = x - 30
            anchor = "end"
        else:
            line_end = x + 30
            anchor = "start"
        if role not in {"free", "reserved"}:
            out.append(f'<line x1="{x + (-9 if left else 9)}" y1="{y}" x2="{line_end}" '
                       f'y2="{y}" stroke="#111827" stroke-width="1.5"/>')
        text_x = line_end + (-6 if left else 6)
        colour = "#6b7280" if role in {"free", "reserved"} else "#111827"
        out.append(f'<text x="{text_x}" y="{y + 4}" text-anchor="{anchor}" fill="{colour}">'
                   f"{escape(text)}</text>")
    legend_y = TOP + 20 * ROW + 30
    x = 20
    for role, label in (("light", "LED"), ("button", "button"), ("buzzer", "buzzer"),
                        ("power", "power"), ("ground", "ground"), ("free", "free"),
                        ("reserved", "reserved")):
        out.append(f'<circle cx="{x + 9}" cy="{legend_y}" r="9" fill="{ROLE_FILL[role]}" '
                   'stroke="#111827" stroke-width="1.5"/>')
        out.append(f'<text x="{x + 24}" y="{legend_y + 4}">{label}</text>')
        x += 110
    notes = [
        f"LEDs: GPIO -> {LED_RESISTOR} -> LED anode (long leg); cathode (short leg, flat side)"
        " -> GND.",
        "Buttons: one leg to the GPIO, the other to GND; no resistor (the Pi's own pull-up).",
        f"Buzzer: a passive piezo sounder with {BUZZER_RESISTOR} in series, other lead to GND.",
        "Free: " + ", ".join(f"GPIO{g}" for g in pins.free_pins())
        + ".  SPI and the serial console must stay off: their pins are used here.",
    ]
    for index, note in enumerate(notes):
        out.append(f'<text x="20" y="{legend_y + 34 + 20 * index}">{escape(note)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
