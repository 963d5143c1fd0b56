"""``bgref demo`` from the command line: options checked, the demo run, the exit status.

Exit status 0 when the referee followed the match to its end as staged (or
the demo was stopped with Ctrl-C); 1 when the film ended and the referee had
not seen the match end, or named another winner than the director staged
(the demo found a referee or vision problem: the lines above say where);
2 when the demo cannot start as asked.
"""

from __future__ import annotations

import os
import signal
import sys

import click

from controller.demo.run import DemoError, DemoOptions, run_demo


class DemoFailed(click.ClickException):
    exit_code = 1


class DemoUsageError(click.ClickException):
    exit_code = 2


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def run(options: DemoOptions) -> None:
    """Run the demo; raise the click exception its outcome calls for."""
    signal.signal(signal.SIGTERM, _stop)  # a service manager's stop: close everything too
    try:
        result = run_demo(options)
    except DemoError as exc:
        raise DemoUsageError(str(exc)) from exc
    except KeyboardInterrupt:
        return  # stopped while starting or closing: everything opened was closed on the way out
    except BrokenPipeError:
        # The reader went away (``| head``): nothing is lost, the journal is closed.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return
    if result.interrupted and not result.ended:
        return
    if not result.agrees:
        raise DemoFailed("the referee did not follow the staged match to its end "
                         f"(seed {result.seed}): see the lines above")


def random_seed() -> int:
    """A seed for a demo nobody asked to repeat (printed, so it can be)."""
    return int.from_bytes(os.urandom(3), "big")
