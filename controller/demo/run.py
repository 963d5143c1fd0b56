"""``bgref demo``: the whole referee at a table that exists only in the computer.

A director stages a self-played match (:mod:`controller.simulation.director`): the
set-up, opening throws, dice tumbling and settling, hands moving checkers,
dice picked up, the cube, a resignation now and then, and the odd void
throw or illegal play, as players make them.  The film is rendered frame by
frame (:mod:`controller.demo.film`) behind a
:class:`~vision.camera.synthetic.SyntheticCamera`, and from there on
everything is the referee a club runs, unchanged: ``run_live`` reads every
frame with the vision pipeline in stream mode, the session stabilises,
referees, journals (SQLite, in a temporary directory unless ``--journal``)
and tells the outputs, which :func:`controller.outputs.build_outputs` builds
as for ``bgref referee --camera``: the lights and buttons on gpiozero's mock
pins, the scoreboard's own firmware on a pty (:class:`SimulatedBoard`) at
the other end of the real serial link, and the kiosk page on localhost.
The players' button presses are made on the mock pins
(:mod:`controller.demo.players`).

The demo ends when the film does, a moment after the match is over (or
at Ctrl-C), and every output, the camera and the journal are closed on the
way out.  It says whether the referee followed the match to its end, and
compares the referee's result with what the director staged.
"""

from __future__ import annotations

import contextlib
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal

from controller.demo.film import FilmProducer
from controller.demo.lights import WINDOW
from controller.demo.players import ButtonPlayer
from controller.demo.terminal import OutputWatch, Terminal

if TYPE_CHECKING:
    from controller.demo.lights import Mode
    from controller.referee.journal import Journal
    from controller.referee.session import Session
    from controller.simulation.director import Direction, Director
    from controller.simulation.timeline import Moment, Press, Truth

DEMO_STYLE: Final = ("printed-blue", "white-black", "white")
"""Board, checkers and dice of the demo's table: a clear, ordinary set."""
SETTLE_AT_END: Final = WINDOW + 0.3
"""Seconds the outputs are watched after the film, so the lights' last modes are judged
on a whole window and the scoreboard has its last state acknowledged."""
DIE_CHANGED_SHARE: Final = 0.0001
"""The motion gate's threshold for the demo's camera.  The pipeline's default wants 0.2 %
of its thumbnail changed before it reads a frame again, and two dice coming to rest on a
still board change less than that: the throw would be read only at the gate's forced
re-read, seconds later.  A real camera's noise does the gate's work for it; the renderer's
does not, so the demo sets the threshold where a die counts (two thumbnail pixels)."""


class DemoError(Exception):
    """The demo cannot start as asked; the message says why."""


@dataclass(frozen=True, slots=True)
class DemoOptions:
    """What ``bgref demo`` was given."""

    seed: int = 0
    fast: bool = False
    """Frames as fast as they can be made (tests, CI), not at the film's own pace."""
    match_length: int = 3
    """Points to win; 0 plays one money game."""
    max_turns: int | None = None
    """Short games: after this many turns the player on roll resigns (and it is accepted)."""
    mode: Literal["players", "strict"] = "players"
    kiosk: bool = True
    host: str = "127.0.0.1"
    port: int = 8080
    json_lines: bool = False
    journal: str | None = None
    """A new journal file to keep; None journals in a temporary directory."""
    fps: float = 10.0


@dataclass
class DemoResult:
    """How the demo went."""

    seed: int
    ended: bool
    """The referee saw the match (or the money game) end."""
    winner: str | None
    """The referee's winner of the match (of the game, in money play)."""
    staged_winner: str | None
    """The director's."""
    events: list[dict[str, Any]] = field(default_factory=list)
    interrupted: bool = False
    expecting: str = ""
    """What the referee waited for when the film ended."""

    @property
    def agrees(self) -> bool:
        return self.ended and self.winner == self.staged_winner


def direction_for(options: DemoOptions) -> Direction:
    """How the director stages the demo's match: the options' match and mode, the
    director's own rates for faults, cube and resignations, a clear set filmed from
    straight above (the mount ``hardware/`` recommends)."""
    from controller.simulation.director import Direction

    return Direction(fps=options.fps, mode=options.mode, match_length=options.match_length,
                     max_turns=options.max_turns, style=DEMO_STYLE, overhead=True)


def run_demo(options: DemoOptions, terminal: Terminal | None = None,
             sleep: Callable[[float], None] = time.sleep) -> DemoResult:
    """Stage, film and referee one match; see the module docstring."""
    from controller.referee.journal import Journal
    from controller.simulation.director import Director

    term = terminal or Terminal(options.json_lines)
    director = Director(options.seed, direction_for(options))
    moments, presses, truth = director.run()
    bottom = truth.seating["bottom"]
    what = (f"a {options.match_length}-point match" if options.match_length
            else "one money game")
    term.note("start", f"bgref demo, seed {options.seed}: {what}, {options.mode} mode; "
              f"{bottom} sits at the bottom, home boards on the {truth.seating['home']}; "
              f"{truth.duration:.0f} s of film at {options.fps:g} frames a second"
              f"{' (as fast as it renders)' if options.fast else ''}",
              seed=options.seed, match_length=options.match_length, mode=options.mode,
              bottom=bottom, home=truth.seating["home"], film_seconds=truth.duration,
              staged=[{"game": g.game, "winner": g.winner, "result": g.result,
                       "points": g.points} for g in truth.games])
    with contextlib.ExitStack() as stack:
        if options.journal is None:
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="bgref-demo-"))
            path = str(Path(folder) / "journal.sqlite")
        else:
            path = _new_journal_path(options.journal, stack)
        journal = Journal.open(path, create=True)
        stack.callback(journal.close)
        return _referee(options, term, director, moments, presses, truth, journal, stack,
                        sleep)
    raise AssertionError("unreachable")  # pragma: no cover - the with block returns


def _new_journal_path(given: str, stack: contextlib.ExitStack) -> str:
    from controller.referee.journal import JournalError
    from controller.referee.lock import FeedLock

    file = Path(given)
    if file.exists() and file.stat().st_size > 0:
        raise DemoError(f"{given} already exists; the demo starts a new match, so give it a "
                        "new file (bgref referee --history --journal FILE reads an old one)")
    file.parent.mkdir(parents=True, exist_ok=True)
    try:
        stack.enter_context(FeedLock(file))
    except (JournalError, OSError) as exc:
        raise DemoError(str(exc)) from exc
    return str(file)


def _referee(options: DemoOptions, term: Terminal, director: Director,
             moments: list[Moment], presses: list[Press], truth: Truth, journal: Journal,
             stack: contextlib.ExitStack, sleep: Callable[[float], None]) -> DemoResult:
    from controller.gpio.factory import mock_pin_factory
    from controller.gpio.pinmap import load_pin_map
    from controller.outputs import KioskAddress, OutputOptions, build_outputs
    from controller.referee.live import LiveOptions, run_live
    from controller.referee.session import CAMERA, Session
    from controller.referee.settings import RefereeSettings
    from controller.scoreboard.simulator import SimulatedBoard
    from vision.camera.synthetic import SyntheticCamera
    from vision.config import VisionConfig
    from vision.motion import MotionConfig

    board = SimulatedBoard()
    port = board.plug()
    board.start()
    stack.callback(board.stop)
    term.note("simulator", f"scoreboard firmware simulated on {port}", port=port)

    factory = mock_pin_factory()
    pins = load_pin_map(None)
    kiosk = KioskAddress(options.host, options.port) if options.kiosk else None

    def report(text: str) -> None:
        term.note("output", f"outputs: {text}", text=text)

    outputs = build_outputs(OutputOptions(gpio="mock", scoreboard=port, kiosk=kiosk,
                                          pin_factory=factory), report=report)
    stack.callback(outputs.close)
    if outputs.kiosk is not None:
        url = outputs.kiosk.url
        term.note("kiosk", f"kiosk page: {url}  (open it in a browser)", url=url)
    elif options.kiosk:
        term.note("kiosk", "kiosk page: not served; the demo carries on without it", url=None)

    settings = RefereeSettings(mode=options.mode, match_length=options.match_length)
    session = Session(journal, settings, source=CAMERA, emit=term.event)
    outputs.attach(session)

    watch = OutputWatch(term, board, factory, pins)
    watch.start()
    stack.callback(watch.stop)

    def tell(text: str) -> None:
        term.note("press", text, text=text)

    player = ButtonPlayer(director.table.bottom, outputs.inbox,
                          pin_factory=factory if outputs.buttons is not None else None,
                          pins=pins, tell=tell)
    film = FilmProducer(director.table, moments, presses, options.fps, options.seed,
                        on_press=player)
    camera = SyntheticCamera(film, fps=options.fps, pace="fast" if options.fast else "realtime",
                             name="the demo's table")
    stack.callback(camera.close)
    vision = VisionConfig(motion=MotionConfig(changed_share=DIE_CHANGED_SHARE))
    interrupted = False
    try:
        run_live(session, camera, vision, film.calibration(), LiveOptions(),
                 status=lambda text: term.note("camera", f"camera: {text}", text=text),
                 inbox=outputs.inbox)
        # run_live takes Ctrl-C as the end of the session; the film tells which it was.
        interrupted = film.frames_shown < film.frames
        if not interrupted:
            sleep(SETTLE_AT_END)
            watch.look()
    except KeyboardInterrupt:
        interrupted = True
    result = _result(options, term, truth, session, interrupted)
    if watch.modes is not None:
        term.note("lights_end", f"lights at the end: {_lights_line(watch.modes)}",
                  lights=watch.modes)
    term.note("end", _summary(result), ended=result.ended, winner=result.winner,
              staged_winner=result.staged_winner, agrees=result.agrees,
              interrupted=result.interrupted, expecting=result.expecting,
              scoreboard=watch.digits, scoreboard_text=watch.text,
              journal=options.journal, frames=film.frames_shown, renders=film.renders)
    return result


def _lights_line(modes: dict[str, Mode]) -> str:
    from controller.demo.lights import describe

    return describe(modes)


def _result(options: DemoOptions, term: Terminal, truth: Truth, session: Session,
            interrupted: bool) -> DemoResult:
    final = "match_over" if options.match_length else "game_over"
    ends = [e for e in term.events if e.get("event") == final]
    # A match ends with the game that brings its winner to the length: the last one.
    staged = truth.games[-1].winner if truth.games else None
    return DemoResult(options.seed, bool(ends), ends[-1].get("winner") if ends else None,
                      staged, list(term.events), interrupted,
                      session.referee.expecting())


def _summary(result: DemoResult) -> str:
    if result.interrupted and not result.ended:
        return f"demo stopped before the end; the referee was {result.expecting}"
    if not result.ended:
        return (f"the film ended but the referee did not see the match end: it was "
                f"{result.expecting}")
    verdict = "as staged" if result.agrees else f"but the director staged {result.staged_winner}"
    return f"demo over: the referee saw {result.winner} win, {verdict}"
