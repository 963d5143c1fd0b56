"""The session around the referee: what it journals, when, the panel hook, and sharing
a journal with an operator's command in another process."""

import itertools
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from controller.game.selfplay import selfplay_match
from controller.panel import PanelState
from controller.referee.events import RefereeEvent
from controller.referee.inputs import ButtonInput, StableInput, input_to_json
from controller.referee.journal import MEMORY, Journal
from controller.referee.machine import Referee
from controller.referee.replay import ReplayFeeder
from controller.referee.session import ReplayMismatchError, Session, settings_to_json
from controller.referee.settings import RefereeSettings, settings_from_json
from controller.rules.position import Position
from tests.referee_streams import LIGHT, SEATINGS, Script, script_match


def opened_game() -> tuple[Script, Position]:
    """Set up, opening roll 3-1 won by light, played 8/5 6/5, dice picked up."""
    script = Script(SEATINGS[0])
    script.setup()
    dice = script.opening(3, 1)
    start = Position.initial(LIGHT)
    play = next(p for p in start.legal_plays(3, 1) if str(p) == "8/5 6/5")
    after = script.play(start, play, dice)
    return script, after


def test_settings_survive_their_json_form() -> None:
    settings = RefereeSettings(mode="strict", match_length=7, crawford=False, dice_hold=0.5)
    assert settings_from_json(json.loads(json.dumps(settings_to_json(settings)))) == settings


def test_only_inputs_that_matter_are_journalled_each_with_its_events() -> None:
    script, _ = opened_game()
    shown: list[RefereeEvent] = []
    with Journal.open(MEMORY) as journal:
        session = Session(journal, RefereeSettings(), emit=shown.append)
        for inp in script.inputs:
            session.step(inp)
        # A repeat of the last state changes nothing: it is not journalled.
        last = script.inputs[-1]
        assert isinstance(last, StableInput)
        assert session.step(StableInput(last.t + 1, last.observation)) == ()
        entries = list(journal.entries())
        referee, mattered = Referee.new(RefereeSettings()), []
        for inp in script.inputs:
            stepped, events = referee.step(inp)
            if stepped != referee or events:
                mattered.append(input_to_json(inp))
            referee = stepped
        assert 3 <= len(mattered) < len(script.inputs)
        assert [e.input for e in entries] == mattered
        assert [ev for e in entries for ev in e.events] == [e.to_json() for e in shown]
        assert [e.event for e in shown] == ["game_start", "opening_roll", "play"]
        assert journal.settings() == settings_to_json(RefereeSettings())


def test_events_are_shown_only_after_they_are_journalled(tmp_path: Path) -> None:
    script, _ = opened_game()
    path = tmp_path / "j.sqlite"
    seen_in_journal: list[int] = []
    with Journal.open(path) as journal:
        def emit(event: RefereeEvent) -> None:
            # Another connection sees the event already committed when it is shown.
            with Journal.open(path) as reader:
                seen_in_journal.append(list(reader.history()).count(event.to_json()))

        session = Session(journal, emit=emit)
        for inp in script.inputs:
            session.step(inp)
    assert seen_in_journal == [1, 1, 1]


def test_the_panel_goes_to_every_output_and_a_broken_one_stops_nothing(
        capsys: pytest.CaptureFixture[str]) -> None:
    script, _ = opened_game()
    panels: list[PanelState] = []

    def unplugged(panel: PanelState) -> None:
        raise OSError("scoreboard unplugged")

    with Journal.open(MEMORY) as journal:
        session = Session(journal, outputs=[unplugged, panels.append])
        assert panels == [session.referee.panel()]  # the state at once
        for inp in script.inputs:
            session.step(inp)
        assert panels[-1] == session.referee.panel()
        assert panels[-1].bottom == "light" and panels[-1].turn == "dark"
        assert all(a != b for a, b in itertools.pairwise(panels))  # changes only
        session.camera_lost(script.t + 1, "picamera2:0: unplugged")
        assert panels[-1].camera_ok is False
        session.camera_back()
        assert panels[-1].camera_ok is False  # not until a frame shows the board
        last = script.inputs[-1]
        assert isinstance(last, StableInput)
        shown = panels[-1]
        for k in range(5):
            t = round(script.t + 2 + k / 10, 3)
            session.observe(replace(last.observation, t=t))
        assert panels[-1].camera_ok is True
        assert replace(panels[-1], camera_ok=False) == shown  # nothing else changed
        late: list[PanelState] = []
        session.add_output(late.append)
        assert late == [panels[-1]]
    assert "scoreboard unplugged" in capsys.readouterr().err


def test_resume_rebuilds_the_referee_and_says_what_it_expects(tmp_path: Path) -> None:
    script, _ = opened_game()
    path = tmp_path / "j.sqlite"
    with Journal.open(path) as journal:
        session = Session(journal, RefereeSettings(mode="strict"))
        for inp in script.inputs:
            session.step(inp)
        before = session.referee
    shown: list[RefereeEvent] = []
    with Journal.open(path) as journal:
        resumed = Session(journal, emit=shown.append)
        assert resumed.referee == before
        assert resumed.settings.mode == "strict"
        assert resumed.replayed == journal.last_seq() >= 3
        assert [e.event for e in shown] == ["resumed"]
        assert shown[0].data["expecting"] == before.expecting()
        assert shown[0].t == script.inputs[-1].t
        assert list(journal.history())[-1] == shown[0].to_json()


def test_a_journal_from_another_referee_is_not_believed(tmp_path: Path) -> None:
    script, _ = opened_game()
    path = tmp_path / "j.sqlite"
    with Journal.open(path) as journal:
        session = Session(journal)
        for inp in script.inputs:
            session.step(inp)
        # Journal a press the referee never saw produce these events.
        planted = journal.append(
            "replay", 99.0, {"t": 99.0, "button": "double", "player": "light"},
            [{"t": 99.0, "event": "double", "player": "light", "cube": 2}],
            after=journal.last_seq())
    with Journal.open(path) as journal, pytest.raises(ReplayMismatchError) as caught:
        Session(journal)
    message = str(caught.value)
    assert f"input {planted} (t=99.0, replay)" in message
    assert "cube_refused" in message and "left unchanged" in message


def test_an_operators_correction_from_another_process_reaches_the_live_session(
        tmp_path: Path) -> None:
    script, _ = opened_game()
    path = tmp_path / "j.sqlite"
    shown: list[RefereeEvent] = []
    with Journal.open(path) as journal:
        live = Session(journal, emit=shown.append, source="camera")
        for inp in script.inputs:
            live.step(inp)
        undo = subprocess.run([sys.executable, "-m", "controller", "referee", "--journal",
                               str(path), "--undo"], capture_output=True, text=True,
                              check=False, timeout=120)
        assert undo.returncode == 0, undo.stderr
        (printed,) = [json.loads(line) for line in undo.stdout.splitlines()]
        assert printed["event"] == "correction" and printed["action"] == "undo"
        assert "now" in undo.stderr
        # The live session has not looked yet; its next step finds the journal moved on,
        # catches up (showing the correction) and then takes its own input.
        press = ButtonInput(script.t + 5, "double", "dark")
        live.step(press)
        assert shown[3].to_json() == printed
        entries = list(journal.entries())
        assert [e.source for e in entries[-2:]] == ["operator", "camera"]
        assert entries[-1].input == input_to_json(press)
        assert live.referee.expecting() != ""
        # The undo asked for the checkers to be put back: the position before the play.
        assert "undone" in printed["detail"]
        assert printed["position_id"] == Position.initial(LIGHT).position_id()


def test_catch_up_shows_what_others_journalled() -> None:
    script, _ = opened_game()
    with Journal.open(MEMORY) as journal:
        first_shown: list[RefereeEvent] = []
        first = Session(journal, emit=first_shown.append)
        for inp in script.inputs[:3]:
            first.step(inp)
        second_shown: list[RefereeEvent] = []
        second = Session(journal, emit=second_shown.append, announce=False)
        for inp in script.inputs[3:]:
            second.step(inp)
        assert first.catch_up() == tuple(second_shown)
        assert first.referee == second.referee
        assert first_shown[-len(second_shown):] == second_shown


def sparse_lines() -> list[str]:
    match = selfplay_match(3, 1)
    return [json.dumps(input_to_json(i)) for i in script_match(match, SEATINGS[3]).inputs]


def test_a_sparse_state_is_judged_when_it_has_held_for_the_hold_time() -> None:
    lines = sparse_lines()[:12]
    settings = RefereeSettings(hold=0.3)
    with Journal.open(MEMORY) as journal:
        shown: list[RefereeEvent] = []
        session = Session(journal, settings, emit=shown.append)
        feeder = ReplayFeeder(session, lambda number, problem: pytest.fail(problem))
        for number, line in enumerate(lines, 1):
            feeder.feed_line(number, line)
        times = [json.loads(line)["t"] for line in lines]
        confirmed = session.stabiliser.last_stable
        assert confirmed is not None and confirmed.t == pytest.approx(times[-2] + 0.3)
        feeder.finish()  # the end of input: the last line holds and is judged too
        confirmed = session.stabiliser.last_stable
        assert confirmed is not None and confirmed.t == pytest.approx(times[-1] + 0.3)
        starts = {round(t + 0.3, 6) for t in times}
        assert shown and all(round(e.t, 6) in starts for e in shown)
        stable_times = [e.input["t"] for e in journal.entries() if "schema" in e.input]
        assert stable_times and all(round(t, 6) in starts for t in stable_times)
        assert feeder.finish() == ()  # a second flush has nothing left to do


def test_a_long_sparse_gap_does_not_look_like_a_dropped_camera() -> None:
    # Two states ten seconds apart: the stabiliser (max_gap 1 s) must still see the
    # first one watched throughout, so the second settles in its own hold time.
    script = Script(SEATINGS[1], step=10.0)
    script.setup()
    script.opening(5, 2)
    lines = [json.dumps(input_to_json(i)) for i in script.inputs]
    with Journal.open(MEMORY) as journal:
        shown: list[RefereeEvent] = []
        session = Session(journal, emit=shown.append)
        ReplayFeeder(session, lambda n, p: pytest.fail(p)).feed_lines(lines)
    assert [(e.event, e.t) for e in shown] == [("game_start", 10.3), ("opening_roll", 20.3)]


def test_the_live_loop_takes_frames_and_button_presses_from_other_threads(
        tmp_path: Path) -> None:
    import queue
    import threading

    import cv2
    import numpy as np

    from controller.referee.inputs import RefereeInput
    from controller.referee.live import LiveOptions, run_live
    from vision.camera.base import Camera, Frame
    from vision.camera.factory import build_camera
    from vision.config import VisionConfig
    from vision.synth import random_scene, render

    frame, truth = render(random_scene(np.random.default_rng(0), hands=0, dice=0, moves=0))
    image = tmp_path / "start.png"
    cv2.imwrite(str(image), frame)
    assert truth.observation.corners is not None
    corners = " ".join(f"{x:.1f},{y:.1f}" for x, y in truth.observation.corners.as_list())
    inbox: queue.SimpleQueue[RefereeInput] = queue.SimpleQueue()
    shown: list[RefereeEvent] = []

    set_up = threading.Event()
    pressed = threading.Event()

    def press_later() -> None:
        set_up.wait(timeout=30)  # once the set-up has been seen, a player resigns
        inbox.put(ButtonInput(0.0, "resign", "dark"))
        pressed.set()

    def emit(event: RefereeEvent) -> None:
        shown.append(event)
        set_up.set()

    class HeldCamera(Camera):
        """The image camera, holding its frames after the set-up until the press is in.

        Without the hold the loop could read all its frames before a slow
        (loaded) machine ran the presser thread at all.
        """

        def __init__(self, inner: Camera) -> None:
            self.inner = inner

        @property
        def name(self) -> str:
            return self.inner.name

        @property
        def is_open(self) -> bool:
            return self.inner.is_open

        def open(self) -> None:
            self.inner.open()

        def read(self) -> Frame:
            if set_up.is_set():
                pressed.wait(timeout=30)
            return self.inner.read()

        def close(self) -> None:
            self.inner.close()

    presser = threading.Thread(target=press_later, daemon=True)
    presser.start()
    config = VisionConfig()
    with Journal.open(tmp_path / "j.sqlite") as journal:
        session = Session(journal, emit=emit, source="camera")
        run_live(session, HeldCamera(build_camera(f"image:{image}", config.camera)), config,
                 None, LiveOptions(corners=corners, max_frames=12), status=lambda text: None,
                 inbox=inbox)
        presser.join(timeout=5)
        assert pressed.is_set()
        assert shown[0].event == "game_start"
        pressed = [e for e in journal.entries() if "button" in e.input]
    assert len(pressed) == 1 and pressed[0].source == "camera"
    # The press is timed by the referee's clock when it was taken: after the set-up.
    assert pressed[0].t >= shown[0].t
    produced = list(pressed[0].events)
    assert produced and [e.to_json() for e in shown[-len(produced):]] == produced
    assert all(e["t"] == pressed[0].t for e in produced)
