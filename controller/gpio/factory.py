"""Which pins the devices get: the Pi's (lgpio) or gpiozero's mock pins.

On the Pi, gpiozero's lgpio backend is used (Raspberry Pi OS's
``python3-lgpio``; it works on the Pi 5's RP1 as well as on a Pi 4).  lgpio
creates notification pipes (``.lgd-nfy*``) in its working directory: that
is ``LG_WD`` when set, else the process's current directory, which for a
service may be ``/`` and read-only under ``ProtectSystem=strict``.  So the
factory is made only after pointing both at a writable state directory;
the unit sets ``WorkingDirectory=`` and ``LG_WD`` to ``/var/lib/bgref`` too,
belt and braces.  lgpio is imported here, lazily, so everything else
imports on a machine without it.
"""

import os
from pathlib import Path
from typing import Any


def state_directory() -> Path:
    """systemd's ``STATE_DIRECTORY`` for the service, else a per-user one."""
    given = os.environ.get("STATE_DIRECTORY")
    if given:
        return Path(given.split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "bgref"


def lgpio_pin_factory(workdir: Path | None = None) -> Any:
    """gpiozero's lgpio factory, with lgpio's files kept in ``workdir``."""
    where = (workdir or state_directory()).resolve()
    where.mkdir(parents=True, exist_ok=True)
    if not os.access(where, os.W_OK):
        raise PermissionError(f"lgpio needs a writable working directory; {where} is not")
    os.environ["LG_WD"] = str(where)
    from gpiozero.pins.lgpio import LGPIOFactory  # reads LG_WD as lgpio loads

    os.chdir(where)
    return LGPIOFactory()


def mock_pin_factory() -> Any:
    """gpiozero's own mock pins, PWM-capable so the buzzer works on them."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    return MockFactory(pin_class=MockPWMPin)
