"""``bgref scoreboard``: the firmware simulated on a pty, or a real board checked.

``--simulate`` runs the Pico's own firmware on the host behind a pty and
draws its seven-segment display in the terminal, so the demo (and anyone
without the hardware) can see exactly what a club's scoreboard would show.
``--port`` connects to a real board, sends a test state and reports how
the link went.
"""

import dataclasses
import sys
import time
from collections.abc import Callable

import click

from controller.panel import PanelError, PanelState

DEMO_STEP_S = 2.5
DEMO_STATES = (
    PanelState(match_length=7, turn=None, message="ROLL"),
    PanelState(match_length=7, turn="light"),
    PanelState(match_length=7, turn="dark", message="ILLEGAL"),
    PanelState(match_length=7, turn="dark", cube_value=2, cube_owner="dark"),
    PanelState(match_length=7, score_light=2, turn=None, message="ROLL AGAIN"),
    PanelState(match_length=7, score_light=2, turn="light", camera_ok=False),
    PanelState(match_length=7, score_light=6, score_dark=4, crawford=True, cube_in_play=False,
               turn="dark"),
    PanelState(match_length=7, score_light=7, score_dark=4, message="LIGHT WINS"),
)
"""What ``--simulate --demo`` feeds the simulated board, one every DEMO_STEP_S."""


class LinkFailed(click.ClickException):
    """The board did not answer as it should: exit status 1."""

    exit_code = 1


class BadScoreboardInput(click.ClickException):
    exit_code = 2


def _draw(lines: list[str], echo: Callable[[str], None], redraw: bool, drawn: int) -> int:
    if redraw and drawn:
        sys.stdout.write(f"\x1b[{drawn}F\x1b[J")
    for line in lines:
        echo(line)
    if not redraw:
        echo("")
    return len(lines)


def simulate(link: str | None, duration: float | None, demo: bool,
             echo: Callable[[str], None] = click.echo) -> None:
    """Run the simulated board until Ctrl-C (or ``duration`` seconds)."""
    from controller.scoreboard.link import ScoreboardLink
    from controller.scoreboard.simulator import SimulatedBoard

    board = SimulatedBoard(link=link)
    path = board.plug()
    where = f"{link} -> {path}" if link else path
    echo(f"scoreboard simulator on {where}  (connect with: --port {link or path})")
    board.start()
    host: ScoreboardLink | None = None
    if demo:
        host = ScoreboardLink(path)
        host.start()
    redraw = sys.stdout.isatty()
    drawn = 0
    shown: list[str] | None = None
    start = time.monotonic()
    try:
        while duration is None or time.monotonic() - start < duration:
            elapsed = time.monotonic() - start
            if host is not None:
                host.show(DEMO_STATES[int(elapsed / DEMO_STEP_S) % len(DEMO_STATES)])
            art, text = board.snapshot()
            lines = [*art, f"[{text:<16}]"]
            if lines != shown:
                drawn = _draw(lines, echo, redraw, drawn)
                shown = lines
            time.sleep(0.02)
    except KeyboardInterrupt:
        pass
    finally:
        if host is not None:
            host.close()
        board.stop()


TEST_PANEL = PanelState(match_length=7, score_light=3, score_dark=5, cube_value=2,
                        cube_owner="dark", turn="light")


def check_port(port: str, message: str, timeout: float, hold: float,
               echo: Callable[[str], None] = click.echo) -> None:
    """Connect, show a test state, report; LinkFailed if it was not acknowledged."""
    from controller.scoreboard.link import LinkStatus, ScoreboardLink

    try:
        panel = dataclasses.replace(TEST_PANEL, message=message)
    except PanelError as exc:
        raise BadScoreboardInput(str(exc)) from exc
    link = ScoreboardLink(port)
    start = time.monotonic()
    try:
        link.show(panel)
        while not link.acknowledged and time.monotonic() - start < timeout:
            if link.status is LinkStatus.VERSION_MISMATCH:
                break
            link.poll()
            time.sleep(0.005)
        took = (time.monotonic() - start) * 1000
        if not link.acknowledged:
            raise LinkFailed(f"scoreboard on {port}: {link.status.value}: "
                             f"{link.problem or 'no acknowledgement'} (after {took:.0f} ms)")
        echo(f"scoreboard on {port}: link up, firmware protocol version "
             f"{link.firmware_version}, test state acknowledged after {took:.0f} ms "
             f"({link.retransmits} retransmissions)")
        end = time.monotonic() + hold
        while time.monotonic() < end:
            link.poll()
            time.sleep(0.005)
    finally:
        link.close()
