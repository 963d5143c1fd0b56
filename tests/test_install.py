"""`bgref install`, run for real into a staging root (and as a dry run)."""

import os
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from controller.cli import main
from controller.commands.install import InstallError, _run, plan
from tests.shared_data import missing

REPO = Path(__file__).resolve().parents[1]
BGREF = Path(sys.executable).parent / "bgref"


def need(program: str) -> None:
    if shutil.which(program) is None:
        message = f"{program} is not installed (Debian package systemd)"
        missing(message)


def run_install(root: Path, *args: str) -> str:
    result = CliRunner().invoke(main, ["install", "--root", str(root), *args])
    assert result.exit_code == 0, result.output
    return result.output


def files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if not p.is_dir())


def test_a_dry_run_says_everything_and_does_nothing(tmp_path: Path) -> None:
    root = tmp_path / "root"
    out = run_install(root, "--dry-run")
    assert not root.exists()
    lines = [line for line in out.splitlines() if line.startswith("would ")]
    assert lines == [
        f"would write {root}/etc/systemd/system/bgref.service",
        f"would write {root}/etc/systemd/system/bgref-kiosk.service",
        f"would write {root}/etc/udev/rules.d/60-bgref-scoreboard.rules",
        f"would write {root}/etc/sysusers.d/bgref.conf",
        f"would write {root}/etc/bgref/bgref.env",
        f"would write {root}/etc/bgref/pins.toml",
        f"would run systemd-sysusers --root={root} {root}/etc/sysusers.d/bgref.conf",
        f"would run systemctl --root={root} enable bgref.service bgref-kiosk.service",
    ]
    assert f"warning: the kiosk screen needs {root}" not in out
    assert "/usr/bin/cage, /usr/bin/chromium: sudo apt install cage chromium" in out


def test_a_dry_run_on_the_pi_itself_reloads_systemd_and_udev() -> None:
    says = [step.says for step in plan(Path("/"), BGREF)]
    assert says[-4:] == [
        "run systemctl daemon-reload",
        "run udevadm control --reload",
        "run udevadm trigger --subsystem-match=tty --action=add",
        "run systemctl enable bgref.service bgref-kiosk.service",
    ]


def test_a_staged_install_for_real(tmp_path: Path) -> None:
    need("systemd-sysusers")
    need("systemctl")
    root = tmp_path / "root"
    run_install(root)
    unit = (root / "etc/systemd/system/bgref.service").read_text()
    assert "@BGREF@" not in unit
    # The path goes into ExecStart= and nowhere else (not into the comments).
    assert [line for line in unit.splitlines() if str(BGREF) in line] == [
        f"ExecStart={BGREF} referee --camera ${{BGREF_CAMERA}} $BGREF_REFEREE_ARGS"]
    assert (root / "etc/udev/rules.d/60-bgref-scoreboard.rules").read_bytes() == (
        REPO / "systemd/60-bgref-scoreboard.rules").read_bytes()
    assert (root / "etc/bgref/pins.toml").read_bytes() == (
        REPO / "hardware/pins.toml").read_bytes()
    assert (root / "etc/bgref/bgref.env").read_bytes() == (REPO / "systemd/bgref.env").read_bytes()
    passwd = (root / "etc/passwd").read_text().splitlines()
    assert any(line.startswith("bgref:") and line.endswith(":/var/lib/bgref:/usr/sbin/nologin")
               for line in passwd)
    groups = {line.split(":")[0]: line.split(":")[3].split(",")
              for line in (root / "etc/group").read_text().splitlines()}
    for group in ("gpio", "video", "dialout"):
        assert "bgref" in groups[group]
    wants = root / "etc/systemd/system/multi-user.target.wants/bgref.service"
    assert os.readlink(wants) == "/etc/systemd/system/bgref.service"
    kiosk = root / "etc/systemd/system/graphical.target.wants/bgref-kiosk.service"
    assert os.readlink(kiosk) == "/etc/systemd/system/bgref-kiosk.service"


def test_a_second_install_keeps_the_builders_settings(tmp_path: Path) -> None:
    need("systemd-sysusers")
    need("systemctl")
    root = tmp_path / "root"
    run_install(root)
    env = root / "etc/bgref/bgref.env"
    env.write_text("BGREF_CAMERA=/dev/video0\n")
    pins = root / "etc/bgref/pins.toml"
    pins.write_text(pins.read_text().replace("status = 26", "status = 3"))
    unit = root / "etc/systemd/system/bgref.service"
    unit.write_text("stale\n")
    out = run_install(root)
    assert f"keep {env} (yours; not overwritten)" in out
    assert env.read_text() == "BGREF_CAMERA=/dev/video0\n"
    assert "status = 3" in pins.read_text()
    assert unit.read_text().startswith("# The referee")


def test_without_the_kiosk(tmp_path: Path) -> None:
    need("systemd-sysusers")
    need("systemctl")
    root = tmp_path / "root"
    out = run_install(root, "--no-kiosk")
    assert "warning" not in out
    assert not (root / "etc/systemd/system/bgref-kiosk.service").exists()
    assert (root / "etc/systemd/system/multi-user.target.wants/bgref.service").is_symlink()
    assert not (root / "etc/systemd/system/graphical.target.wants").exists()


def test_a_bgref_the_service_cannot_run_is_refused(tmp_path: Path) -> None:
    script = tmp_path / "bgref"
    script.write_text("#!/bin/sh\n")
    with pytest.raises(InstallError, match="not an executable bgref command"):
        plan(tmp_path / "root", script)
    with pytest.raises(InstallError, match="inside a home directory"):
        plan(tmp_path / "root", Path("/home/pi/bgref/.venv/bin/bgref"))
    assert files(tmp_path) == ["bgref"]


def test_installing_into_the_live_system_needs_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    result = CliRunner().invoke(main, ["install"])
    assert result.exit_code == 1
    assert "installing into / needs root: sudo bgref install" in result.output


def test_a_failing_command_stops_the_install_with_its_message() -> None:
    with pytest.raises(InstallError, match=r"false failed \(exit 1\)"):
        _run(["false"])()
