"""Which pins the devices get: the Pi's (lgpio) or gpiozero's mock pins.

On the Pi, gpiozero's lgpio backend is used (Raspberry Pi OS's
``python3-lgpio``; it works on the Pi 5's RP1 as well as on a Pi 4).  lgpio
makes a notification pipe (``.lgd-nfy*``) as it is imported: its C library
creates it in ``LG_WD`` (else the current directory), and its Python module
opens it by a name relative to the *current directory*.  A service's current
directory may be ``/``, read-only under ``ProtectSystem=strict``.  So lgpio
is imported with ``LG_WD`` and the current directory both pointing at a
writable state directory, and the current directory is given back
afterwards, so that paths the user gave relative to it (a video file, a
journal) still mean what they meant.  The unit sets ``WorkingDirectory=``
and ``LG_WD`` to ``/var/lib/bgref`` too, belt and braces.  lgpio is imported
here, lazily, so everything else imports on a machine without it.
"""

import os
from pathlib import Path
from typing import Any


class NoGpioError(RuntimeError):
    """The Pi's pins cannot be used here; the message says why."""


def state_directory() -> Path:
    """systemd's ``STATE_DIRECTORY`` for the service, else a per-user one."""
    given = os.environ.get("STATE_DIRECTORY")
    if given:
        return Path(given.split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "bgref"


def lgpio_pin_factory(workdir: Path | None = None) -> Any:
    """gpiozero's lgpio factory, with lgpio's files kept in ``workdir``.

    Raises :class:`NoGpioError` when the factory cannot be made (no lgpio,
    not a Pi, no access to the GPIO chip, no writable working directory).
    """
    where = (workdir or state_directory()).resolve()
    try:
        where.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise NoGpioError(f"lgpio needs a writable working directory; cannot make {where}: "
                          f"{exc.strerror or exc}") from exc
    if not os.access(where, os.W_OK):
        raise NoGpioError(f"lgpio needs a writable working directory; {where} is not")
    os.environ["LG_WD"] = str(where)
    before = os.getcwd()
    os.chdir(where)
    try:
        from gpiozero.pins.lgpio import LGPIOFactory  # imports lgpio: its pipe lands here

        return LGPIOFactory()
    except ImportError as exc:
        raise NoGpioError(f"lgpio is not installed ({exc}); on Raspberry Pi OS: "
                          "sudo apt install python3-lgpio") from exc
    except Exception as exc:  # lgpio.error, gpiozero's PinUnknownPi, ...
        raise NoGpioError(f"the Pi's GPIO cannot be used: {type(exc).__name__}: {exc}") from exc
    finally:
        os.chdir(before)


def mock_pin_factory() -> Any:
    """gpiozero's own mock pins, PWM-capable so the buzzer works on them."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    return MockFactory(pin_class=MockPWMPin)
