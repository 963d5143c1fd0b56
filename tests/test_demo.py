"""``bgref demo``: a staged match filmed, read by the vision, refereed, and shown on the
mock lights, the simulated scoreboard and the kiosk page.

The end-to-end tests run the command as a user does, in a subprocess, on a
short 1-point match (the players resign after a few turns) and compare what
it printed with what the director staged; the pieces the demo adds of its own
(reading the lights back from the pins, pressing the buttons, the film's
frames) are tested on their own underneath.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from controller.demo.film import FilmProducer
from controller.demo.lights import LightWatch, describe
from controller.demo.players import ButtonPlayer, hold_seconds
from controller.gpio.buttons import Buttons
from controller.gpio.factory import mock_pin_factory
from controller.gpio.gestures import ButtonPress, ButtonTiming, seat_gesture
from controller.gpio.pinmap import LIGHT_NAMES, load_pin_map
from controller.referee.journal import Journal
from tests.interrupts import hearing_ctrl_c
from vision.errors import EndOfStreamError

SEED = 0
"""A seed whose short match the vision follows to the end (the film of seed 5 shows a
set-up the checker stage misreads, which the referee rightly never accepts)."""
SHORT = ["--fast", "--seed", str(SEED), "--match-length", "1", "--max-turns", "4"]

# Segment bits of a MAX7219 digit in no-decode mode (datasheet, table 6), and the
# shapes of the characters a score page uses, written out by hand.
BIT = {"dp": 0x80, "a": 0x40, "b": 0x20, "c": 0x10, "d": 0x08, "e": 0x04, "f": 0x02, "g": 0x01}
SHAPES = {" ": "", "0": "abcdef", "1": "bc", "2": "abdeg", "3": "abcdg", "4": "bcfg",
          "5": "acdfg", "6": "acdefg", "7": "abc", "8": "abcdefg", "9": "abcdfg", "L": "def",
          "d": "bcdeg", "P": "abefg", "-": "g"}
CHAR_OF = {sum(BIT[s] for s in segments): char for char, segments in SHAPES.items()}


def bgref() -> list[str]:
    """The installed console script, as ``scripts/demo`` runs it: it must find everything
    the demo needs in the package (nothing from ``bench``)."""
    return [str(Path(sys.executable).with_name("bgref"))]


def read_digits(codes: list[int]) -> str:
    """The display's sixteen digits as text ('?' for a shape no score page uses)."""
    text = ""
    for code in codes:
        text += CHAR_OF.get(code & 0x7F, "?") + ("." if code & BIT["dp"] else "")
    return text


def score_of(page: str) -> tuple[int, int] | None:
    """(light, dark) from a score page ``L  2d  0P 1 ----``; None for other pages."""
    plain = page.replace(".", "")
    if len(plain) != 16 or plain[0] != "L" or plain[4] != "d":
        return None
    return int(plain[1:4]), int(plain[5:8])


def staged_truth(seed: int, *extra: str) -> Any:
    """What the director stages for the demo's options: its own truth, not the demo's."""
    from controller.demo.run import DemoOptions, direction_for
    from controller.simulation.director import direct

    options = DemoOptions(seed=seed, match_length=1, max_turns=4)
    return direct(seed, direction_for(options))[2]


class Run:
    """A demo in a subprocess, its output lines collected as they come."""

    def __init__(self, args: list[str], tmp: Path) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.started = time.monotonic()
        self.proc = subprocess.Popen(hearing_ctrl_c([*bgref(), "demo", *args]), cwd=tmp,
                                     env=env, text=True, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.lines: list[str] = []
        self.kiosk: queue.SimpleQueue[str] = queue.SimpleQueue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))
            if line.startswith('{"demo": "kiosk"'):
                self.kiosk.put(json.loads(line)["url"] or "")

    def wait(self, timeout: float) -> tuple[int, str, float]:
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            pytest.fail(f"the demo did not end within {timeout} s:\n" + "\n".join(self.lines))
        seconds = time.monotonic() - self.started
        self._reader.join(timeout=5)
        assert self.proc.stderr is not None
        return self.proc.returncode, self.proc.stderr.read(), seconds

    def objects(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.lines if line.startswith("{")]


@pytest.fixture(scope="module")
def short_match(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("demo")
    journal = tmp / "match.sqlite"
    run = Run([*SHORT, "--port", "0", "--json", "--journal", str(journal)], tmp)
    url = run.kiosk.get(timeout=60)
    state: dict[str, Any] | None = None
    if url:
        # Asked while the match is being refereed: the page's state answers.
        with urllib.request.urlopen(url + "api/state", timeout=10) as answer:
            state = json.loads(answer.read())
    code, err, seconds = run.wait(timeout=240)
    return {"code": code, "err": err, "seconds": seconds, "objects": run.objects(),
            "state": state, "url": url, "journal": journal, "lines": run.lines}


def test_the_short_match_is_refereed_to_its_end_as_staged(short_match: dict[str, Any]) -> None:
    assert short_match["code"] == 0, short_match["err"] + "\n".join(short_match["lines"])
    events = [o for o in short_match["objects"] if "event" in o]
    names = [e["event"] for e in events]
    for wanted in ("game_start", "opening_roll", "roll", "play", "game_over", "match_over"):
        assert wanted in names, names
    truth = staged_truth(SEED)
    staged = truth.games[-1]
    over = events[names.index("match_over")]
    assert over["winner"] == staged.winner
    game_over = events[names.index("game_over")]
    assert (game_over["winner"], game_over["result"], game_over["points"]) == \
        (staged.winner, staged.result, staged.points)
    # Times are the film's: the match ends where the director ended it.
    assert abs(over["t"] - staged.t_end) < 1.5
    print(f"demo {' '.join(SHORT)}: {short_match['seconds']:.1f} s wall")


def test_the_scoreboard_showed_the_final_score(short_match: dict[str, Any]) -> None:
    truth = staged_truth(SEED)
    staged = truth.games[-1]
    expected = (staged.points, 0) if staged.winner == "light" else (0, staged.points)
    objects = short_match["objects"]
    over = next(i for i, o in enumerate(objects) if o.get("event") == "match_over")
    boards = [o for o in objects if o.get("demo") == "scoreboard"]
    assert boards, "the scoreboard never showed anything"
    scores_before = [score_of(read_digits(b["digits"])) for b in objects[:over]
                     if b.get("demo") == "scoreboard"]
    scores_after = [score_of(read_digits(b["digits"])) for b in objects[over:]
                    if b.get("demo") == "scoreboard"]
    assert (0, 0) in scores_before
    assert expected in scores_after, [read_digits(b["digits"]) for b in boards]
    assert expected not in scores_before


def test_the_lights_ended_dark_but_for_the_heartbeat(short_match: dict[str, Any]) -> None:
    end = next(o for o in short_match["objects"] if o.get("demo") == "lights_end")
    lights = end["lights"]
    assert set(lights) == set(LIGHT_NAMES)
    # A 1-point match has no cube (all cube and owner lights dark); after the match
    # nobody is on turn and no call stands; the status LED beats while the referee runs.
    assert {name for name, mode in lights.items() if mode != "off"} == {"status"}
    assert lights["status"] == "blinking"
    # During the match the turn lights took turns.
    seen = [o["lights"] for o in short_match["objects"] if o.get("demo") == "lights"]
    assert any(s["turn_bottom"] == "on" for s in seen)
    assert any(s["turn_top"] == "on" for s in seen)


def test_the_kiosk_answered_during_the_match(short_match: dict[str, Any]) -> None:
    assert short_match["url"].startswith("http://127.0.0.1:")
    state = short_match["state"]
    assert state is not None and state["schema"] >= 1
    assert "log" in state


def test_the_journal_holds_the_match_and_was_closed(short_match: dict[str, Any]) -> None:
    path = short_match["journal"]
    journal = Journal.open(path, create=False)
    try:
        names = [event["event"] for event in journal.history()]
    finally:
        journal.close()
    assert names.count("match_over") == 1 and "game_start" in names
    assert not Path(str(path) + "-wal").exists() or Path(str(path) + "-wal").stat().st_size == 0


def test_a_money_game_with_the_kiosk_port_in_use(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = Run(["--fast", "--seed", str(SEED), "--match-length", "0", "--max-turns", "1",
                   "--port", str(port), "--json"], tmp_path)
        code, err, _ = run.wait(timeout=240)
    assert code == 0, err + "\n".join(run.lines)
    objects = run.objects()
    # The port in use is reported and the demo goes on without the page.
    problems = [o["text"] for o in objects if o.get("demo") == "output"]
    assert any(f"127.0.0.1:{port}" in text and "kiosk" in text for text in problems), problems
    assert any(o.get("demo") == "kiosk" and o["url"] is None for o in objects)
    # Money play ends with the one game: no match to be over.
    names = [o["event"] for o in objects if "event" in o]
    assert names.count("game_over") == 1 and "match_over" not in names
    # In money play the cube is in play: centred at 1, so only the centre owner light
    # is lit (no value light), beside the heartbeat.
    lights = next(o for o in objects if o.get("demo") == "lights_end")["lights"]
    assert {name for name, mode in lights.items() if mode != "off"} == {"owner_centre", "status"}
    assert lights["owner_centre"] == "on"


def test_ctrl_c_stops_the_demo_cleanly(tmp_path: Path) -> None:
    journal = tmp_path / "j.sqlite"
    run = Run(["--seed", str(SEED), "--port", "0", "--json", "--journal", str(journal)],
              tmp_path)
    assert run.kiosk.get(timeout=60)
    time.sleep(3.0)  # real time: the set-up is being filmed
    run.proc.send_signal(signal.SIGINT)
    code, err, _ = run.wait(timeout=60)
    assert code == 0, err
    end = next(o for o in run.objects() if o.get("demo") == "end")
    assert end["interrupted"] is True and end["ended"] is False
    # The journal was closed and its lock let go: a referee may take it over at once.
    from controller.referee.lock import FeedLock

    with FeedLock(journal):
        reopened = Journal.open(journal, create=False)
        reopened.close()


def test_an_existing_journal_is_refused(tmp_path: Path) -> None:
    old = tmp_path / "old.sqlite"
    old.write_bytes(b"a match worth keeping")
    done = subprocess.run([*bgref(), "demo", "--fast", "--journal", str(old), "--no-kiosk"],
                          capture_output=True, text=True, timeout=60, check=False,
                          cwd=old.parent)
    assert done.returncode == 2
    assert "already exists" in done.stderr
    assert old.read_bytes() == b"a match worth keeping"


# -- the pieces ----------------------------------------------------------------------------


def _toggle(watch: LightWatch, name: str, start: float, end: float, period: float) -> None:
    t = start
    while t < end:
        on = (t % period) < period / 2
        watch.sample(t, {name: on})
        t += 0.02


def test_light_watch_tells_steady_from_blinking() -> None:
    watch = LightWatch(["turn_top", "call_top", "status"])
    t = 0.0
    while t < 3.0:
        blink = (t % 0.5) < 0.25
        fast = (t % 0.2) < 0.1
        watch.sample(t, {"turn_top": True, "call_top": blink, "status": fast})
        t += 0.02
    assert watch.modes() == {"turn_top": "on", "call_top": "blinking", "status": "fast"}
    # A light that went off once is off, not blinking; a blink that stopped is steady
    # again once a window has passed without a change.
    while t < 5.0:
        watch.sample(t, {"turn_top": False, "call_top": False, "status": False})
        t += 0.02
    assert watch.modes() == {"turn_top": "off", "call_top": "off", "status": "off"}


def test_light_watch_shows_a_summary_only_once_it_has_settled() -> None:
    watch = LightWatch(["turn_bottom", "turn_top"])
    watch.sample(0.0, {"turn_bottom": True})
    assert watch.settled(0.0) is None
    watch.sample(0.05, {"turn_bottom": True, "turn_top": True})  # top on for one frame
    assert watch.settled(0.05) is None
    watch.sample(0.1, {"turn_bottom": True})
    assert watch.settled(0.1) is None
    watch.sample(0.25, {"turn_bottom": True})
    assert watch.settled(0.25) == {"turn_bottom": "on", "turn_top": "off"}
    assert watch.settled(0.3) is None  # the same again is no news


def test_light_watch_counts_beeps_by_their_starts() -> None:
    watch = LightWatch(["status"])
    for t, buzzing in ((0.0, False), (0.1, True), (0.2, True), (0.3, False), (0.4, True)):
        watch.sample(t, {}, buzzing)
    assert watch.beeps == 2


def test_the_lights_line_reads_like_the_board() -> None:
    modes = dict.fromkeys(LIGHT_NAMES, "off")
    modes.update(cube_4="on", owner_top="on", turn_bottom="on", call_top="blinking",
                 status="blinking")
    assert describe(modes) == ("cube 4 owner top | turn bottom | call top blinking | "  # type: ignore[arg-type]
                               "status heartbeat")
    assert describe(dict.fromkeys(LIGHT_NAMES, "off")) == (  # type: ignore[arg-type]
        "cube dark | turn none | call none | status off")


@pytest.mark.parametrize(("button", "level", "meant"), [
    ("double", None, ("double", None)), ("take", None, ("take", None)),
    ("call", None, ("call", None)), ("accept", None, ("accept", None)),
    ("reject", None, ("reject", None)), ("resign", "single", ("resign", "single")),
    ("resign", "gammon", ("resign", "gammon")),
    ("resign", "backgammon", ("resign", "backgammon")),
])
def test_each_press_is_held_as_long_as_its_gesture_needs(
        button: str, level: str | None, meant: tuple[str, str | None]) -> None:
    timing = ButtonTiming()
    hold = hold_seconds(button, level, timing)
    physical = {"resign": "double", "accept": "take", "reject": "pass"}.get(button, button)
    press = seat_gesture(physical, "top", 10.0, 10.0 + hold, timing)
    assert press is not None and (press.button, press.level) == meant


def test_presses_go_through_the_mock_pins_and_the_debouncer() -> None:
    from controller.simulation.timeline import Press

    factory = mock_pin_factory()
    pins = load_pin_map(None)
    inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
    buttons = Buttons(pins, pin_factory=factory, on_event=inbox.put)
    stop = threading.Event()

    def poll() -> None:
        while not stop.wait(0.01):
            buttons.poll()

    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    told: list[str] = []
    try:
        player = ButtonPlayer("dark", inbox, pin_factory=factory, pins=pins, tell=told.append)
        player(Press(3.0, "take", "light"))
        player(Press(4.0, "resign", "dark", "single"))
    finally:
        stop.set()
        poller.join()
        buttons.close()
    got = [inbox.get_nowait() for _ in range(inbox.qsize())]
    assert [(p.button, p.seat, p.level) for p in got if isinstance(p, ButtonPress)] == [
        ("take", "top", None), ("resign", "bottom", "single")]
    assert len(got) == 2 and not player.lost
    assert told[0] == "light (top) holds top_take 0.12 s: take"


def test_without_buttons_a_press_goes_straight_to_the_inbox() -> None:
    from controller.referee.inputs import ButtonInput
    from controller.simulation.timeline import Press

    inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
    ButtonPlayer("light", inbox)(Press(1.0, "pass", "dark"))
    press = inbox.get_nowait()
    assert isinstance(press, ButtonInput)
    assert (press.button, press.player, press.level) == ("pass", "dark", None)


def test_the_film_shows_each_moment_for_its_frames_and_presses_on_time() -> None:
    from controller.simulation.table import Table
    from controller.simulation.timeline import Board, Moment, Press, Shot
    from vision.observation import Counts

    table = Table.draw(np.random.default_rng(3), "light", tray=False,
                       style=("printed-blue", "white-black", "white"), overhead=True)
    empty = Board(tuple(Counts() for _ in range(24)), off=Counts(15, 15))
    one = Board(tuple(Counts(1, 0) if i == 0 else Counts() for i in range(24)),
                off=Counts(14, 15))
    moments = [Moment(Shot(empty), 0.3, "empty"), Moment(Shot(one), 0.2, "one")]
    pressed: list[tuple[str, int]] = []
    frame_no = [0]
    film = FilmProducer(table, moments, [Press(0.25, "double", "light")], fps=10, seed=1,
                        on_press=lambda p: pressed.append((p.button, frame_no[0])))
    assert film.frames == 5 and film.duration == pytest.approx(0.5)
    frames = []
    for seq in range(5):
        frame_no[0] = seq
        frames.append(film(seq, seq / 10))
    # Frames of one moment alternate between two renderings that differ only by noise.
    assert not np.array_equal(frames[0], frames[1])
    assert np.array_equal(frames[0], frames[2])
    def changed(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> int:
        """Pixels far apart: sensor noise (1.5 grey levels) makes none, a checker many."""
        return int(np.count_nonzero(np.abs(a.astype(int) - b.astype(int)).max(axis=2) > 40))

    assert changed(frames[0], frames[1]) == 0
    # The second moment shows something else: a checker where there was none.
    assert changed(frames[2], frames[3]) > 100
    assert film.renders == 2
    # The press at 0.25 s is made before the frame at 0.3 s, not before the one at 0.2 s.
    assert pressed == [("double", 3)]
    with pytest.raises(EndOfStreamError):
        film(5, 0.5)
    assert film.frames_shown == 5
    calibration = film.calibration()
    assert calibration.image_size == (frames[0].shape[1], frames[0].shape[0])
