"""Run a stream through the referee exactly as a club would: ``bgref referee --replay -``.

The benchmark goes through the command line contract rather than the
Python classes behind it, so what it measures is what the kiosk runs: the
replay reader, the session with its stabiliser and (in-memory) journal, and
the pure machine.  The stream's settings (illegal-play mode, match length)
go in a ``--config`` file.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench.streams.store import ROOT, StreamFiles
from controller.simulation.timeline import Truth


class RefereeRunError(RuntimeError):
    """The referee command failed; the message holds its standard error."""


def settings_for(truth: Truth, hold: float | None = None) -> dict[str, Any]:
    """The ``--config`` object for a stream."""
    out: dict[str, Any] = {"mode": truth.mode, "match_length": truth.match_length}
    if hold is not None:
        out["hold"] = hold
    return out


def referee_events(files: StreamFiles, truth: Truth | None = None,
                   hold: float | None = None, timeout: float = 900.0) -> list[dict[str, Any]]:
    """Every event the referee prints for the stream, parsed."""
    truth = truth or files.load_truth()
    with tempfile.TemporaryDirectory(prefix="bgref-streams-") as tmp:
        config = Path(tmp) / "referee.json"
        config.write_text(json.dumps(settings_for(truth, hold)))
        lines = "".join(json.dumps(line, separators=(",", ":")) + "\n"
                        for line in files.read_lines())
        done = subprocess.run(
            [sys.executable, "-m", "controller", "referee", "--replay", "-",
             "--config", str(config)],
            input=lines, capture_output=True, text=True, cwd=ROOT, timeout=timeout,
            check=False)
    if done.returncode != 0:
        raise RefereeRunError(f"bgref referee exited {done.returncode} on stream "
                              f"{files.seed}: {done.stderr.strip()[-2000:]}")
    events = []
    for number, line in enumerate(done.stdout.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            events.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise RefereeRunError(f"stream {files.seed}: output line {number} is not JSON: "
                                  f"{line[:200]!r}") from exc
    return events
