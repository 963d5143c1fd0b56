"""``bgref wiring``: write (or check) the wiring diagram drawn from the pin map."""

from pathlib import Path

import click

from controller.gpio.pinmap import PinMapError, load_pin_map
from controller.gpio.wiring import render_wiring


def wiring(out: str | None, check: str | None, pins: str | None) -> None:
    """Write the SVG to ``out``, or exit 1 when ``check`` differs from what it would be."""
    try:
        pin_map = load_pin_map(pins)
    except PinMapError as exc:
        raise click.ClickException(str(exc)) from exc
    text = render_wiring(pin_map)
    if check is not None:
        try:
            current = Path(check).read_text(encoding="utf-8")
        except OSError as exc:
            raise click.ClickException(f"cannot read {check}: {exc.strerror or exc}") from exc
        if current != text:
            raise click.ClickException(f"{check} is out of date with the pin map; "
                                       f"regenerate it: bgref wiring --out {check}")
        click.echo(f"{check} matches the pin map")
        return
    assert out is not None
    target = Path(out)
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise click.ClickException(f"cannot write {out}: {exc.strerror or exc}") from exc
    click.echo(f"wrote {out}")
