"""``bgref install``: put the units, the udev rule, the accounts and the
config on a Pi, and enable the services.

Everything is planned first, as a list of steps, and then either printed
(``--dry-run``) or done, so what the dry run shows is exactly what a real
run does.  ``--root DIR`` does it all into a staging directory instead of
``/``: files land under DIR, ``systemd-sysusers --root`` and ``systemctl
--root`` write their accounts and enablement links there, and nothing that
needs the running system (daemon-reload, udev reload) is run.  The tests
install for real that way.

The units and the udev rule are ours and are replaced on every install; the
settings (``/etc/bgref/bgref.env``) and the pin map (``/etc/bgref/pins.toml``)
are the builder's and are never overwritten.

The files come from the clone bgref runs from (``scripts/setup-env``
installs it editable), and the service runs the ``bgref`` of that clone's
venv: clone into ``/opt/bgref``, not a home directory, which the service's
user cannot enter (``ProtectHome=yes``, and home directories are private).
"""

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import click

import controller
from controller.gpio.pinmap import PinMapError, load_pin_map, packaged_pin_map

SOURCE = Path(controller.__file__).resolve().parents[1] / "systemd"

UNITS = ("bgref.service", "bgref-kiosk.service")
KIOSK_PROGRAMS = ("/usr/bin/cage", "/usr/bin/chromium")


class InstallError(click.ClickException):
    """Cannot install as asked; nothing has been changed when this is raised."""


@dataclass(frozen=True, slots=True)
class Step:
    """One thing the install does, said the way the dry run prints it."""

    says: str
    do: Callable[[], None]


def _write(target: Path, text: str, mode: int = 0o644) -> Callable[[], None]:
    def write() -> None:
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(target.name + ".bgref-new")
        temporary.write_text(text, encoding="utf-8")
        temporary.chmod(mode)
        temporary.replace(target)
    return write


def _run(command: list[str]) -> Callable[[], None]:
    def run() -> None:
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise InstallError(f"{' '.join(command)} failed (exit {done.returncode}): "
                               f"{(done.stderr or done.stdout).strip()}")
    return run


def _under(root: Path, path: str) -> Path:
    return root / path.lstrip("/")


def _source(name: str) -> str:
    path = SOURCE / name
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InstallError(f"cannot read {path}: {exc.strerror or exc}; run bgref install "
                           "from a clone of the bgref repository (scripts/setup-env)") from exc


def default_bgref() -> Path:
    """The ``bgref`` command of the environment this one runs in."""
    beside = Path(sys.executable).parent / "bgref"
    if beside.exists():
        return beside
    found = shutil.which("bgref")
    if found is None:
        raise InstallError("cannot find the bgref command; give it with --bgref PATH")
    return Path(found)


def plan(root: Path, bgref: Path, kiosk: bool = True) -> list[Step]:
    """Every step of an install into ``root`` ("/" on the Pi itself)."""
    live = root == Path("/")
    bgref = bgref.absolute()
    if bgref.is_relative_to("/home") or bgref.is_relative_to("/root"):
        raise InstallError(f"{bgref} is inside a home directory, which the service's user "
                           "cannot reach (ProtectHome=yes); clone bgref into /opt/bgref and "
                           "run scripts/setup-env there")
    if not bgref.is_file() or not os.access(bgref, os.X_OK):
        raise InstallError(f"{bgref} is not an executable bgref command")
    if "\n" in str(bgref) or " " in str(bgref):
        raise InstallError(f"the path {bgref!r} has spaces or line breaks; systemd's "
                           "ExecStart= would split it")
    try:
        load_pin_map(packaged_pin_map())
    except PinMapError as exc:
        raise InstallError(f"the packaged pin map is unusable: {exc}") from exc

    steps: list[Step] = []
    units = _under(root, "/etc/systemd/system")
    for unit in UNITS if kiosk else UNITS[:1]:
        text = _source(unit).replace("@BGREF@", str(bgref))
        steps.append(Step(f"write {units / unit}", _write(units / unit, text)))
    rule = "60-bgref-scoreboard.rules"
    rules = _under(root, "/etc/udev/rules.d") / rule
    steps.append(Step(f"write {rules}", _write(rules, _source(rule))))
    sysusers = _under(root, "/etc/sysusers.d/bgref.conf")
    steps.append(Step(f"write {sysusers}", _write(sysusers, _source("bgref.sysusers"))))

    config = _under(root, "/etc/bgref")
    for name, text in (("bgref.env", _source("bgref.env")),
                       ("pins.toml", packaged_pin_map().read_text(encoding="utf-8"))):
        target = config / name
        if target.exists():
            steps.append(Step(f"keep {target} (yours; not overwritten)", lambda: None))
        else:
            steps.append(Step(f"write {target}", _write(target, text)))

    root_flag = [] if live else [f"--root={root}"]
    commands = [["systemd-sysusers", *root_flag, str(sysusers)]]
    if live:
        commands += [["systemctl", "daemon-reload"],
                     ["udevadm", "control", "--reload"],
                     ["udevadm", "trigger", "--subsystem-match=tty", "--action=add"]]
    commands.append(["systemctl", *root_flag, "enable", *(UNITS if kiosk else UNITS[:1])])
    steps += [Step("run " + " ".join(command), _run(command)) for command in commands]
    return steps


def warnings(root: Path, kiosk: bool) -> list[str]:
    """What the install cannot fix itself but the builder must know."""
    found: list[str] = []
    if kiosk:
        missing = [p for p in KIOSK_PROGRAMS if not _under(root, p).exists()]
        if missing:
            found.append(f"the kiosk screen needs {', '.join(missing)}: "
                         "sudo apt install cage chromium")
    return found


def install(root: str, dry_run: bool, kiosk: bool, bgref: str | None,
            echo: Callable[[str], None]) -> None:
    """Plan the install, then print it (dry run) or carry it out step by step."""
    target = Path(root).absolute()
    if target == Path("/") and not dry_run and os.geteuid() != 0:
        raise InstallError("installing into / needs root: sudo bgref install "
                           "(or --dry-run to see what it would do)")
    steps = plan(target, Path(bgref) if bgref else default_bgref(), kiosk)
    for warning in warnings(target, kiosk):
        echo(f"warning: {warning}")
    for step in steps:
        if dry_run:
            echo(f"would {step.says}")
        else:
            echo(step.says)
            step.do()
    if not dry_run and target == Path("/"):
        echo("installed; start now with: sudo systemctl start bgref.service"
             + (" bgref-kiosk.service" if kiosk else ""))
