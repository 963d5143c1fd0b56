"""Children that a test stops with Ctrl-C (SIGINT) must be able to receive it.

A shell starts background jobs with SIGINT ignored, and an ignored signal stays
ignored across fork and exec: a suite launched as ``nohup scripts/test &`` hands
that to every program it starts, Python then never raises KeyboardInterrupt, and
the tests that press Ctrl-C wait for a process that cannot hear it.  Such a child
is started through a tiny Python that puts SIGINT back to its default and then
execs the command (same pid); a ``preexec_fn`` would do it too, but is unsafe
while the test process runs threads.
"""

import signal
import subprocess
import sys

_RESET_AND_EXEC = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
                   "os.execvp(sys.argv[1], sys.argv[1:])")


def hearing_ctrl_c(command: list[str]) -> list[str]:
    """``command`` run with SIGINT at its default disposition, whatever the suite's."""
    return [sys.executable, "-c", _RESET_AND_EXEC, *command]


def stop_with_ctrl_c(process: "subprocess.Popen[str]", timeout: float = 30) -> tuple[str, str]:
    """Press Ctrl-C and collect the output; a child that does not stop in ``timeout``
    seconds is killed (not left running after the suite) and the timeout raised."""
    process.send_signal(signal.SIGINT)
    try:
        return process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise
