"""``bgref referee``: the live referee, its replays, its journal and the operator's corrections.

Standard output carries one JSON line per referee event
(:meth:`RefereeEvent.to_json`), flushed as it happens, and nothing else;
problems with single replay lines, camera status and the operator's notes go
to standard error.  A problem that stops the command (a journal that is not
one, settings that differ from the journal's, a missing file) exits with
status 2 and a message saying what to do; a correction the referee refuses
(nothing to undo, a bad XGID) exits with status 1 after printing its warning.

Which journal: ``--journal FILE`` when given.  Otherwise a replay keeps its
journal in memory (the replay file is the record), and everything else (the
camera, ``--history``, ``--export``, the corrections) uses the kiosk's journal,
``$STATE_DIRECTORY/journal.sqlite`` under systemd or
``~/.local/state/bgref/journal.sqlite``.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from controller.referee.journal import MEMORY, Journal, JournalError, move_aside
from controller.referee.lock import FeedLock
from controller.referee.session import SessionError

if TYPE_CHECKING:
    from controller.outputs import OutputOptions
    from controller.referee.events import RefereeEvent
    from controller.referee.session import Session
    from controller.referee.settings import RefereeSettings


class RefereeCommandError(click.ClickException):
    """The command cannot run as asked: exit status 2, like a usage error."""

    exit_code = 2


@dataclass(frozen=True, slots=True)
class RefereeOptions:
    """Everything ``bgref referee`` was given."""

    replay: str | None = None
    camera: str | None = None
    config: str | None = None
    journal: str | None = None
    move_aside: bool = False
    history: bool = False
    export: str | None = None
    undo: bool = False
    set_position: str | None = None
    set_score: tuple[int, int] | None = None
    corners: str | None = None
    calibration: str | None = None
    vision_config: str | None = None
    max_frames: int | None = None
    gpio: str = "none"
    """Camera: the lights and buttons (``lgpio``, ``mock`` or ``none``): controller/outputs.py."""
    pins: str | None = None
    scoreboard: str | None = None
    """Camera: the scoreboard's serial port, or ``none``."""
    kiosk: str | None = None
    """Camera: the kiosk page's ``PORT`` or ``HOST:PORT``, or ``none``."""


def default_journal() -> Path:
    """The kiosk's journal: systemd's state directory, else the XDG state home."""
    state = os.environ.get("STATE_DIRECTORY")
    if state:
        return Path(state.split(":")[0]) / "journal.sqlite"
    home = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(home) / "bgref" / "journal.sqlite"


def run(options: RefereeOptions, echo: Callable[[str], None] | None = None) -> None:
    """Do what the options ask; see the module docstring for the streams and exit codes."""
    out = echo or _print_line
    corrections = sum((options.undo, options.set_position is not None,
                       options.set_score is not None))
    feeds = sum((options.replay is not None, options.camera is not None))
    if feeds > 1:
        raise click.UsageError("give --replay or --camera, not both")
    if corrections > 1:
        raise click.UsageError("give one correction at a time (--undo, --set-position "
                               "or --set-score)")
    if (feeds or corrections) and options.history:
        raise click.UsageError("--history only reads the journal; give it alone")
    if feeds and corrections:
        raise click.UsageError("a correction is made on its own, against the journal "
                               "(the live referee picks it up)")
    if not (feeds or corrections or options.history or options.export):
        raise click.UsageError("give --replay FILE, --camera SPEC, --history, --export "
                               "FILE or a correction (see --help)")
    if options.replay not in (None, "-") and not Path(options.replay).is_file():
        raise RefereeCommandError(f"{options.replay}: no such replay file")
    settings = _settings(options.config)
    path = options.journal or (MEMORY if options.replay is not None else str(default_journal()))
    with contextlib.ExitStack() as stack:
        if feeds and path != MEMORY:
            # One referee following games into a journal at a time (corrections may join).
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            try:
                stack.enter_context(FeedLock(path))
            except (JournalError, OSError) as exc:
                raise RefereeCommandError(str(exc)) from exc
        _run_on(_open_journal(path, options, create=bool(feeds)), settings, options, out,
                corrections=bool(corrections))


def _run_on(journal: Journal, settings: RefereeSettings | None, options: RefereeOptions,
            out: Callable[[str], None], *, corrections: bool) -> None:
    try:
        if options.history:
            for event in journal.history():
                out(json.dumps(event))
        elif options.replay is not None:
            _replay(journal, settings, options, out)
        elif options.camera is not None:
            _live(journal, settings, options, out)
        elif corrections:
            _correct(journal, settings, options, out)
        if options.export is not None:
            _export(journal, settings, options.export)
    except (JournalError, SessionError) as exc:
        raise RefereeCommandError(str(exc)) from exc
    finally:
        journal.close()


def _print_line(text: str) -> None:
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (``| head``): what was journalled stays journalled.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)


def _settings(path: str | None) -> RefereeSettings | None:
    if path is None:
        return None
    from controller.referee.settings import RefereeSettingsError, load_settings

    try:
        return load_settings(path)
    except RefereeSettingsError as exc:
        raise RefereeCommandError(f"settings: {exc}") from exc


def _open_journal(path: str, options: RefereeOptions, *, create: bool) -> Journal:
    from controller.referee.journal import JournalCorruptError

    if path != MEMORY and create:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    try:
        return Journal.open(path, create=create)
    except JournalCorruptError as exc:
        if not options.move_aside:
            raise RefereeCommandError(str(exc)) from exc
        moved = move_aside(path)
        click.echo(f"bgref referee: {path} was not a usable journal; moved to {moved}; "
                   "starting a new journal", err=True)
    except JournalError as exc:
        raise RefereeCommandError(str(exc)) from exc
    try:
        return Journal.open(path, create=create)
    except JournalError as exc:
        raise RefereeCommandError(str(exc)) from exc


def _session(journal: Journal, settings: RefereeSettings | None, source: str,
             out: Callable[[str], None] | None, *, skip_journalled: bool = False,
             announce: bool = True) -> Session:
    """The journal's session (resumed when it holds a match); events printed by ``out``."""
    from controller.referee.session import Session, SessionError

    def emit(event: RefereeEvent) -> None:
        if out is not None:
            out(json.dumps(event.to_json()))

    try:
        return Session(journal, settings, source=source, emit=emit,
                       skip_journalled=skip_journalled, announce=announce)
    except SessionError as exc:
        raise RefereeCommandError(str(exc)) from exc


def _replay(journal: Journal, settings: RefereeSettings | None, options: RefereeOptions,
            out: Callable[[str], None]) -> None:
    from controller.referee.replay import ReplayFeeder
    from controller.referee.session import REPLAY

    assert options.replay is not None
    session = _session(journal, settings, REPLAY, out, skip_journalled=True)

    def report(number: int, problem: str) -> None:
        click.echo(f"{options.replay}: line {number}: {problem}", err=True)

    feeder = ReplayFeeder(session, report)
    if options.replay == "-":
        feeder.feed_lines(sys.stdin)
        return
    try:
        stream = open(options.replay, encoding="utf-8", errors="replace")  # noqa: SIM115
    except OSError as exc:
        raise RefereeCommandError(f"cannot read {options.replay}: {exc.strerror or exc}"
                                  ) from exc
    with stream:
        feeder.feed_lines(stream)


def _live(journal: Journal, settings: RefereeSettings | None, options: RefereeOptions,
          out: Callable[[str], None]) -> None:
    from controller.commands.vision_cmds import VisionInputError, _config
    from controller.outputs import build_outputs
    from controller.referee.live import LiveOptions, run_live
    from controller.referee.session import CAMERA
    from vision.calibration import load_calibration
    from vision.camera.factory import build_camera
    from vision.errors import VisionError

    assert options.camera is not None
    config = _config(options.vision_config)
    try:
        camera = build_camera(options.camera, config.camera)
        calibration = (load_calibration(options.calibration)
                       if options.calibration is not None else None)
    except VisionError as exc:
        raise VisionInputError(str(exc)) from exc
    wanted = _output_options(options)
    session = _session(journal, settings, CAMERA, out)
    signal.signal(signal.SIGTERM, _stop)  # systemd's stop: close the camera on the way out
    click.echo(f"bgref referee: journal {journal.path}; {session.referee.expecting()}",
               err=True)
    outputs = build_outputs(wanted, report=lambda text: click.echo(f"bgref referee: {text}",
                                                                   err=True))
    try:
        outputs.attach(session)
        run_live(session, camera, config, calibration,
                 LiveOptions(corners=options.corners, max_frames=options.max_frames),
                 status=lambda text: click.echo(f"bgref referee: {text}", err=True),
                 inbox=outputs.inbox)
    except VisionError as exc:
        raise VisionInputError(str(exc)) from exc
    finally:
        outputs.close()


def _output_options(options: RefereeOptions) -> OutputOptions:
    """The lights, scoreboard and kiosk the options ask for (a bad value is a usage error)."""
    from controller.outputs import (
        OutputOptionError,
        OutputOptions,
        parse_gpio,
        parse_kiosk,
        parse_scoreboard,
    )

    try:
        return OutputOptions(gpio=parse_gpio(options.gpio), pins=options.pins,
                             scoreboard=parse_scoreboard(options.scoreboard),
                             kiosk=parse_kiosk(options.kiosk))
    except OutputOptionError as exc:
        raise click.UsageError(f"--{exc}") from exc


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _correct(journal: Journal, settings: RefereeSettings | None, options: RefereeOptions,
             out: Callable[[str], None]) -> None:
    from controller.referee.inputs import OperatorInput
    from controller.referee.session import OPERATOR

    session = _session(journal, settings, OPERATOR, out, announce=False)
    if options.undo:
        inp = OperatorInput(session.last_t, "undo", {})
    elif options.set_position is not None:
        inp = OperatorInput(session.last_t, "set_position", {"xgid": options.set_position})
    else:
        assert options.set_score is not None
        light, dark = options.set_score
        inp = OperatorInput(session.last_t, "adjust_score", {"light": light, "dark": dark})
    events = session.step(inp)
    click.echo(f"bgref referee: now {session.referee.expecting()}", err=True)
    if not any(event.event == "correction" for event in events):
        reasons = "; ".join(str(e.data.get("detail", e.event)) for e in events) or "no change"
        click.echo(f"bgref referee: the correction was not made: {reasons}", err=True)
        sys.exit(1)


def _export(journal: Journal, settings: RefereeSettings | None, target: str) -> None:
    """The match so far as a .mat file, written whole or not at all."""
    from controller.game.errors import RecordError
    from controller.records.matfile import format_mat

    session = _session(journal, settings, "export", None, announce=False)
    try:
        text = format_mat(session.referee.match_record())
    except RecordError as exc:
        raise RefereeCommandError(f"the match cannot be exported: {exc}") from exc
    file = Path(target)
    partial = file.with_name(f".{file.name}.partial")
    try:
        partial.write_text(text, encoding="utf-8")
        partial.replace(file)
    except OSError as exc:
        raise RefereeCommandError(f"cannot write {target}: {exc.strerror or exc}") from exc
    click.echo(f"bgref referee: match written to {target}", err=True)
