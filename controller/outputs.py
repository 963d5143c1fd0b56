"""The live referee's outputs, built from options: lights and buttons, scoreboard, kiosk page.

One function, :func:`build_outputs`, so that ``bgref referee --camera`` and
anything else that runs a live session (a demo on mock pins and a simulated
scoreboard) wire the same things the same way::

    outputs = build_outputs(OutputOptions(gpio="mock", scoreboard=port, kiosk="8080"))
    try:
        outputs.attach(session)
        run_live(session, camera, config, calibration, live_options, inbox=outputs.inbox)
    finally:
        outputs.close()

Each output is optional and each may fail on its own: no GPIO chip, a pin
map with a typo, a scoreboard unplugged, the kiosk's port in use.  A failure
is reported (``report``, and on the kiosk page) and that output is left
out; the referee always runs, because the journal and the players' own eyes
still referee the game.  The scoreboard link keeps trying a missing port by
itself, so a scoreboard plugged in later just appears.

Buttons arrive on gpiozero's thread by seat (bottom or top); who sits where
is known only once the set-up has been seen (``PanelState.bottom``), so the
seat becomes a colour here, as the press is put into the inbox the live
loop drains between frames.  A press before the set-up is reported and
dropped: no referee could say whose it was.
"""

from __future__ import annotations

import contextlib
import queue
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Literal

from controller.panel import Colour, PanelState
from controller.referee.inputs import ButtonInput, OperatorInput, RefereeInput

if TYPE_CHECKING:
    from controller.gpio.buttons import Buttons
    from controller.gpio.gestures import ButtonEvent
    from controller.gpio.lights import Lights
    from controller.gpio.loop import LightsLoop
    from controller.kiosk.feed import KioskFeed
    from controller.kiosk.server import KioskServer
    from controller.referee.session import Session
    from controller.scoreboard.link import LinkStatus, ScoreboardLink

GpioBackend = Literal["lgpio", "mock", "none"]
GPIO_BACKENDS: Final[tuple[str, ...]] = ("lgpio", "mock", "none")
BUTTON_POLL_S: Final = 0.02
"""How often held-still button levels are settled (a press ends 20 ms after release at worst)."""


class OutputOptionError(ValueError):
    """An output option that cannot mean anything (a port number out of range)."""


@dataclass(frozen=True, slots=True)
class KioskAddress:
    host: str
    port: int


def parse_kiosk(text: str | None) -> KioskAddress | None:
    """``PORT``, ``HOST:PORT`` or ``none`` (also empty) as the kiosk's address."""
    from controller.kiosk.server import DEFAULT_HOST

    if text is None or text.strip().lower() in ("", "none", "off"):
        return None
    host, _, port_text = text.strip().rpartition(":")
    host = host.strip("[]") or DEFAULT_HOST
    try:
        port = int(port_text)
    except ValueError:
        raise OutputOptionError(f"kiosk: a port number, HOST:PORT or none, not {text!r}") from None
    if not 0 <= port <= 65535:
        raise OutputOptionError(f"kiosk: port {port} is not between 0 and 65535")
    return KioskAddress(host, port)


def parse_gpio(text: str | None) -> GpioBackend:
    """``lgpio``, ``mock`` or ``none`` (also empty)."""
    value = (text or "none").strip().lower() or "none"
    if value == "lgpio":
        return "lgpio"
    if value == "mock":
        return "mock"
    if value in ("none", "off"):
        return "none"
    raise OutputOptionError(f"gpio: one of {', '.join(GPIO_BACKENDS)}, not {text!r}")


def parse_scoreboard(text: str | None) -> str | None:
    """A serial port (or pyserial URL), or None for ``none`` (also empty)."""
    if text is None or text.strip().lower() in ("", "none", "off"):
        return None
    return text.strip()


@dataclass(frozen=True, slots=True)
class OutputOptions:
    """Which outputs to drive, and where."""

    gpio: GpioBackend = "none"
    """Lights and buttons: the Pi's pins (lgpio), gpiozero's mock pins, or none."""
    pins: str | None = None
    """The pin map; None for ``BGREF_PINS`` or the packaged ``hardware/pins.toml``."""
    scoreboard: str | None = None
    """The scoreboard's serial port (``/dev/scoreboard``) or pyserial URL; None for none."""
    kiosk: KioskAddress | None = None
    """Where the kiosk page is served; None for no page."""
    pin_factory: Any = field(default=None, compare=False)
    """A gpiozero pin factory to use instead of making one (tests, a demo driving mock pins)."""


def _stderr(text: str) -> None:
    print(f"bgref referee: {text}", file=sys.stderr, flush=True)


class Outputs:
    """The outputs that could be built; :meth:`attach` to a session, :meth:`close` at the end."""

    def __init__(self, report: Callable[[str], None]) -> None:
        self.report = report
        self.inbox: queue.SimpleQueue[RefereeInput] = queue.SimpleQueue()
        """Button presses and operator actions for ``run_live``'s ``inbox``."""
        self.pin_factory: Any = None
        self.lights: Lights | None = None
        self.lights_loop: LightsLoop | None = None
        self.buttons: Buttons | None = None
        self.scoreboard: ScoreboardLink | None = None
        self.feed: KioskFeed | None = None
        self.kiosk: KioskServer | None = None
        self.problems: list[str] = []
        """Every output that could not be built, in words (also reported)."""
        self._lock = threading.Lock()
        self._bottom: Colour | None = None
        self._stop = threading.Event()
        self._poller: threading.Thread | None = None

    # -- wiring -----------------------------------------------------------------

    def attach(self, session: Session) -> None:
        """Show ``session``'s panel (and, on the page, its referee) on every output built."""
        session.add_output(self._track_seats)
        if self.feed is not None:
            self.feed.attach(session)
        if self.lights_loop is not None:
            session.add_output(self.lights_loop.set)
        if self.scoreboard is not None:
            session.add_output(self.scoreboard)

    def _track_seats(self, panel: PanelState) -> None:
        with self._lock:
            self._bottom = panel.bottom

    def on_button(self, event: ButtonEvent) -> None:
        """A finished gesture (gpiozero's or the poller's thread) into the inbox."""
        from controller.gpio.gestures import ButtonPress, player_of

        if not isinstance(event, ButtonPress):
            self.inbox.put(OperatorInput(event.t, "undo"))
            return
        with self._lock:
            bottom = self._bottom
        player = player_of(event, bottom)
        if player is None:
            self.report(f"the {event.seat} seat's {event.button} button was pressed before the "
                        "set-up showed who sits there; ignored")
            return
        self.inbox.put(ButtonInput(event.t, event.button, player, event.level))

    def _fail(self, what: str, exc: BaseException) -> None:
        text = f"{what} off: {exc}"
        self.problems.append(text)
        self.report(text)

    # -- the button poller --------------------------------------------------------

    def _poll_buttons(self) -> None:
        while not self._stop.wait(BUTTON_POLL_S):
            buttons = self.buttons
            if buttons is None:
                return
            try:
                buttons.poll()
            except Exception as exc:  # never let a pin read end the poller silently
                self.report(f"reading the buttons failed: {exc}")

    # -- the end ----------------------------------------------------------------

    @property
    def closing(self) -> bool:
        return self._stop.is_set()

    def close(self) -> None:
        """Switch the lights off, release the pins and the port, stop the page."""
        self._stop.set()
        if self._poller is not None:
            self._poller.join(timeout=2)
            self._poller = None
        if self.lights_loop is not None:
            with contextlib.suppress(Exception):
                self.lights_loop.stop()
        for device in (self.lights, self.buttons, self.scoreboard, self.kiosk):
            if device is not None:
                with contextlib.suppress(Exception):
                    device.close()
        self.lights = self.buttons = self.lights_loop = None
        self.scoreboard = None
        self.kiosk = None

    def __enter__(self) -> Outputs:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def build_outputs(options: OutputOptions,
                  report: Callable[[str], None] = _stderr) -> Outputs:
    """Every output the options ask for that can be built; the rest reported and left out."""
    outputs = Outputs(report)
    if options.kiosk is not None:
        _build_kiosk(outputs, options.kiosk)
    if options.gpio != "none":
        _build_gpio(outputs, options)
    if options.scoreboard is not None:
        _build_scoreboard(outputs, options.scoreboard)
    return outputs


def _build_kiosk(outputs: Outputs, address: KioskAddress) -> None:
    from controller.kiosk.feed import KioskFeed
    from controller.kiosk.server import KioskServer

    feed = KioskFeed()
    server = KioskServer(feed, address.host, address.port)
    try:
        server.start()
    except Exception as exc:
        outputs._fail("the kiosk page", exc)
        return
    outputs.feed, outputs.kiosk = feed, server
    outputs.report(f"kiosk page on {server.url}")


def _build_gpio(outputs: Outputs, options: OutputOptions) -> None:
    from controller.gpio.buttons import Buttons
    from controller.gpio.factory import lgpio_pin_factory, mock_pin_factory
    from controller.gpio.lights import Lights
    from controller.gpio.loop import LightsLoop
    from controller.gpio.pinmap import load_pin_map

    try:
        pins = load_pin_map(options.pins)
        factory = options.pin_factory
        if factory is None:
            factory = mock_pin_factory() if options.gpio == "mock" else lgpio_pin_factory()
    except Exception as exc:
        outputs._fail("the lights and buttons", exc)
        _note(outputs, "gpio", f"off: {exc}")
        return
    outputs.pin_factory = factory
    try:
        outputs.lights = Lights(pins, pin_factory=factory)
        outputs.lights_loop = LightsLoop(outputs.lights)
        outputs.lights_loop.start()
    except Exception as exc:
        outputs._fail("the lights", exc)
        outputs.lights = outputs.lights_loop = None
    try:
        outputs.buttons = Buttons(pins, pin_factory=factory, on_event=outputs.on_button)
    except Exception as exc:
        outputs._fail("the buttons", exc)
        outputs.buttons = None
    else:
        outputs._poller = threading.Thread(target=outputs._poll_buttons, name="bgref-buttons",
                                           daemon=True)
        outputs._poller.start()
    working = [name for name, part in (("lights", outputs.lights), ("buttons", outputs.buttons))
               if part is not None]
    _note(outputs, "gpio", "up" if len(working) == 2 else
          f"only the {working[0]}" if working else "off")


def _build_scoreboard(outputs: Outputs, port: str) -> None:
    from controller.scoreboard.link import LinkStatus, ScoreboardLink

    def on_status(status: LinkStatus, problem: str | None) -> None:
        if outputs.closing:
            return  # "closed by the referee" is no news
        if status is LinkStatus.UP:
            outputs.report(f"scoreboard on {port} is up")
            _note(outputs, "scoreboard", "up")
        else:
            text = problem or status.value
            outputs.report(f"scoreboard: {text}")
            _note(outputs, "scoreboard", text)

    try:
        link = ScoreboardLink(port, on_status=on_status)
        link.start()
    except Exception as exc:
        outputs._fail("the scoreboard", exc)
        return
    outputs.scoreboard = link


def _note(outputs: Outputs, name: str, status: str) -> None:
    if outputs.feed is not None:
        outputs.feed.note_output(name, status)
