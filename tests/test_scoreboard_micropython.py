"""The firmware under real MicroPython: the WebAssembly port from npm
(@micropython/micropython-webassembly-pyscript) run by Node.js, with a
``machine`` shim.  The protocol's known answers, and a firmware scenario that
must do byte for byte what it does under CPython.

``scripts/test`` installs Node.js and the npm package.  Without them this
skips on a developer's machine and fails under CI.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from firmware import PICO_FILES, bgproto
from firmware.bgproto import Board, encode_frame, encode_hello, encode_state, scoped
from tests.shared_data import missing
from tests.test_scoreboard_display import shape

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE = ROOT / "firmware"
NODE_DIR = FIRMWARE / "tests" / "node"
MP_SCRIPTS = FIRMWARE / "tests" / "micropython"
PACKAGE = (NODE_DIR / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
           / "micropython.mjs")


def node() -> str:
    """Node.js with the MicroPython package, or skip (locally) / fail (CI)."""
    found = shutil.which("node")
    problem = None
    if found is None:
        problem = "node is not installed (Debian: apt-get install nodejs npm)"
    elif not PACKAGE.exists():
        problem = (f"{PACKAGE.relative_to(ROOT)} is missing: "
                   "run npm ci --prefix firmware/tests/node")
    if problem is not None:
        missing(problem)
    assert found is not None
    return found


def firmware_copies() -> list[str]:
    """The firmware files, where the Pico keeps them, plus the machine shim."""
    copies = [f"/firmware/{name}={FIRMWARE / name}" for name in PICO_FILES]
    copies.append(f"/firmware/main.py={FIRMWARE / 'main.py'}")
    copies.append(f"/machine.py={MP_SCRIPTS / 'machine.py'}")
    return copies


def run_micropython(script: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [node(), str(NODE_DIR / "run.mjs"), str(MP_SCRIPTS / script), *firmware_copies(), *extra],
        capture_output=True, text=True, timeout=120, check=False)


def run_cpython(script: str, scenario: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(MP_SCRIPTS), str(ROOT)]))
    if scenario is not None:
        env["SCENARIO"] = str(scenario)
    return subprocess.run([sys.executable, str(MP_SCRIPTS / script)], capture_output=True,
                          text=True, timeout=120, env=env, check=False, cwd=MP_SCRIPTS)


def test_micropython_is_what_runs() -> None:
    result = subprocess.run(
        [node(), str(NODE_DIR / "run.mjs"), "/dev/stdin"],
        input="import sys\nprint(sys.implementation.name)\n", capture_output=True, text=True,
        timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "micropython"


def test_a_failing_script_fails_the_runner() -> None:
    result = subprocess.run([node(), str(NODE_DIR / "run.mjs"), "/dev/stdin"],
                            input="raise ValueError('boom')\n", capture_output=True, text=True,
                            timeout=60, check=False)
    assert result.returncode == 1 and "ValueError: boom" in result.stderr


def test_protocol_known_answers_under_micropython() -> None:
    result = run_micropython("protocol_checks.py")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "OK 62 checks"


EPOCH = 0x0100
SCORE_3_5 = Board(match_length=7, score_light=3, score_dark=5, turn=bgproto.LIGHT)
SCORE_4_5 = Board(match_length=7, score_light=4, score_dark=5, cube_value=4,
                  cube_owner=bgproto.LIGHT, turn=bgproto.DARK)


def scenario() -> dict[str, object]:
    state_3_5 = encode_frame(bgproto.STATE, 2, scoped(EPOCH + 1, encode_state(SCORE_3_5)))
    flipped = bytearray(encode_frame(bgproto.STATE, 3, scoped(EPOCH + 1,
                                                               encode_state(SCORE_4_5))))
    flipped[5] ^= 0x04
    steps: list[tuple[int, bytes]] = [
        (0, b""),
        (10, encode_frame(bgproto.HELLO, 1, encode_hello(bgproto.VERSION, 0x0A0A))),
        (20, state_3_5),
        (30, b"\x01\x02garbage\x00" + bytes(flipped)),
        (40, encode_frame(bgproto.STATE, 3, scoped(EPOCH + 1, encode_state(SCORE_4_5)))),
        (50, state_3_5),  # a replay
        (3049, b""),
        (4600, b""),  # 3 s without the host, on a NO LINK page of the cycle
        (10100, b""),  # the display is set up again
    ]
    return {"epoch": EPOCH, "steps": [[t, data.hex()] for t, data in steps]}


def test_firmware_scenario_is_byte_for_byte_the_same_under_micropython(
        tmp_path: Path) -> None:
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(scenario()))
    micro = run_micropython("scenario.py", f"/scenario.json={path}")
    assert micro.returncode == 0, micro.stderr
    cpython = run_cpython("scenario.py", path)
    assert cpython.returncode == 0, cpython.stderr

    def result(stdout: str) -> dict[str, object]:
        lines = [line for line in stdout.splitlines() if line.startswith("RESULT ")]
        assert len(lines) == 1, stdout
        parsed: dict[str, object] = json.loads(lines[0][len("RESULT "):])
        return parsed

    on_micropython, on_cpython = result(micro.stdout), result(cpython.stdout)
    assert on_micropython == on_cpython

    page_3_5, page_4_5 = "L.  3d  5P 7 -  1", "L  4d.  5P 7 L  4"
    assert on_micropython["shown"] == ["     HELLO", "     HELLO", page_3_5, page_3_5, page_4_5,
                                       page_4_5, page_4_5, "    NO LINK", page_4_5]
    assert on_micropython["board"] == [7, 4, 5, ""]

    sent = bytes.fromhex(str(on_micropython["sent"]))
    frames = [(f.kind, f.seq, f.payload) for f in bgproto.Decoder().feed(sent)]
    assert frames[:4] == [
        (bgproto.HELLO, 1, encode_hello(bgproto.VERSION, 0x0A0A, EPOCH + 1)),
        (bgproto.ACK, 2, b""),
        (bgproto.ACK, 3, b""),
        (bgproto.ACK, 2, b""),  # the replay: acknowledged, not shown
    ]
    assert [kind for kind, _, _ in frames[4:]] == [bgproto.HEARTBEAT] * 3

    events = on_micropython["events"]
    assert isinstance(events, list)
    assert ["spi-init", 0, 1000000, 0, 0, 18, 19] in events
    # the eight latched writes that put 4-5 on the digits, checked bit by bit
    left = [shape("L"), 0, 0, shape("4"), shape("d", True), 0, 0, shape("5")]
    right = [shape("P"), 0, shape("7"), 0, shape("L"), 0, 0, shape("4")]
    expected = [bytes([row, right[8 - row], row, left[8 - row]]).hex() for row in range(1, 9)]
    writes = [event[1] for event in events if event[0] == "spi"]
    at = writes.index(expected[0])
    assert writes[at:at + 8] == expected
