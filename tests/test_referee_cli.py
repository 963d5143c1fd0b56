"""``bgref referee``'s command-line contract, its journal, and resuming after ``kill -9``.

The streams are self-played matches (the game layer's random players) shown
to the referee as ``tests/referee_streams.py`` builds them: set up, thrown,
played checker by checker, dice picked up.  What the referee must announce
is read from the game layer's record of the match, never from the referee.
"""

import contextlib
import json
import os
import select
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from controller.game.events import Move
from controller.game.match import Match
from controller.game.selfplay import selfplay_match
from controller.records.matfile import parse_mat
from controller.referee.inputs import input_to_json
from controller.rules.notation import format_play
from tests.interrupts import hearing_ctrl_c, stop_with_ctrl_c
from tests.referee_streams import SEATINGS, colour, script_match

EVENTS = {"game_start", "opening_roll", "roll", "reroll", "play", "illegal_play", "call_upheld",
          "play_stands", "double", "take", "pass", "cube_refused", "resign", "game_over",
          "match_over", "warning", "resign_rejected", "accept", "position_restored",
          "correction", "resumed"}


def bgref(*args: str, stdin: str | None = None,
          env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller", "referee", *args],
                          input=stdin, check=False, capture_output=True, text=True, timeout=300,
                          env=None if env is None else {**os.environ, **env})


def json_lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def match_lines(seed: int = 6, length: int = 2, seating: int = 1) -> tuple[Match, list[str]]:
    """A self-played match and its stream, one JSON line per stable state or button press."""
    match = selfplay_match(seed, length)
    script = script_match(match, SEATINGS[seating])
    return match, [json.dumps(input_to_json(i)) for i in script.inputs]


@pytest.fixture(scope="module")
def two_games(tmp_path_factory: pytest.TempPathFactory) -> tuple[Match, Path, Path]:
    """A 2-point match's replay file and the settings it is played under: two games,
    a double passed, a resignation."""
    folder = tmp_path_factory.mktemp("match")
    match, lines = match_lines()
    assert len(match.games) == 2 and match.is_over
    replay = folder / "match.jsonl"
    replay.write_text("\n".join(lines) + "\n")
    config = folder / "referee.json"
    config.write_text(json.dumps({"match_length": 2}))
    return match, replay, config


@pytest.fixture(scope="module")
def uninterrupted(two_games: tuple[Match, Path, Path]) -> list[dict[str, Any]]:
    """The events of the whole replay in one run, journal in memory."""
    _, replay, config = two_games
    result = bgref("--replay", str(replay), "--config", str(config))
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    return json_lines(result.stdout)


def expected_plays(match: Match) -> list[tuple[str, str]]:
    return [(colour(e.player), format_play(e.play.moves))
            for game in match.games for e in game.events if isinstance(e, Move)]


def test_replay_prints_the_contracts_events_for_a_whole_match(
        two_games: tuple[Match, Path, Path], uninterrupted: list[dict[str, Any]]) -> None:
    match, _, _ = two_games
    events = uninterrupted
    for event in events:
        assert isinstance(event["t"], float) and event["event"] in EVENTS
        assert event.get("player", "light") in ("light", "dark")
    assert [e["t"] for e in events] == sorted(e["t"] for e in events)
    assert [(e["player"], e["move"]) for e in events if e["event"] == "play"] == \
        expected_plays(match)
    assert all(e["legal"] is True for e in events if e["event"] == "play")
    openings = [e for e in events if e["event"] == "opening_roll"]
    assert all(set(e["dice"]) == {"light", "dark"} for e in openings)
    rolls = [e["dice"] for e in events if e["event"] == "roll"]
    assert rolls and all(len(d) == 2 and all(1 <= v <= 6 for v in d) for d in rolls)
    overs = [e for e in events if e["event"] == "game_over"]
    assert [(e["winner"], e["points"]) for e in overs] == [
        (colour(g.result.winner), g.result.points) for g in match.games if g.result]
    assert all(e["result"] in ("single", "gammon", "backgammon", "pass", "resign")
               for e in overs)
    assert events[-1]["event"] == "match_over"
    assert not [e for e in events if e["event"] in ("warning", "reroll", "illegal_play")]


BAD_LINES = [
    ("this is not json", "not JSON"),
    ("[1, 2]", "JSON object"),
    ('{"t": 1}', "needs"),
    ('{"t": 5, "button": "fly", "player": "light"}', "button"),
    ('{"t": 5, "button": "double"}', "player"),
    ('{"t": "soon", "button": "take", "player": "dark"}', "t"),
    ('{"t": 5, "button": "take", "player": "dark", "level": "gammon"}', "level"),
    ('{"schema": 1, "board_found": true, "points": [], "t": 5}', "points"),
    ('{"schema": 1, "board_found": true, "points": []}', "time t"),
    ('{"t": 5, "operator": "explode"}', "operator"),
]


def test_malformed_lines_are_reported_with_their_numbers_and_skipped(
        two_games: tuple[Match, Path, Path], uninterrupted: list[dict[str, Any]],
        tmp_path: Path) -> None:
    _, replay, config = two_games
    lines = replay.read_text().splitlines()
    mixed: list[str] = []
    bad_numbers: list[tuple[int, str]] = []
    placed = 0
    for i, line in enumerate(lines):
        if i % 31 == 10 and placed < len(BAD_LINES):
            text, word = BAD_LINES[placed]
            placed += 1
            # Bad lines carry times inside the stream's so only their badness matters.
            mixed.append(text.replace('"t": 5', f'"t": {json.loads(line)["t"]}'))
            bad_numbers.append((len(mixed), word))
        if i == 200:
            mixed.append('{"t": 0.5, "button": "double", "player": "light"}')  # back in time
            bad_numbers.append((len(mixed), "back in time"))
            mixed.append("")  # blank lines are nothing
        mixed.append(line)
    assert len(bad_numbers) == len(BAD_LINES) + 1
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(mixed) + "\n")
    result = bgref("--replay", str(path), "--config", str(config))
    assert result.returncode == 0
    assert json_lines(result.stdout) == uninterrupted
    problems = result.stderr.splitlines()
    assert len(problems) == len(bad_numbers)
    for problem, (number, word) in zip(problems, bad_numbers, strict=True):
        assert f"line {number}:" in problem and word in problem, problem


def densified(lines: Sequence[str], scale: float, fps: float = 10.0) -> Iterator[str]:
    """The sparse stream as a camera would film it: every state repeated each frame
    until the next line, a hand over the board at each change, a flickering frame now
    and then.  Times are stretched by ``scale`` so a state holds long enough to settle."""
    items = [json.loads(line) for line in lines]
    for index, item in enumerate(items):
        t0 = item["t"] * scale
        if "schema" not in item:
            yield json.dumps({**item, "t": t0})
            continue
        end = items[index + 1]["t"] * scale if index + 1 < len(items) else t0 + 1.0
        hand = index % 3 == 0
        frame = 0
        while round(t0 + frame / fps, 4) < end:
            t = round(t0 + frame / fps, 4)
            shown = {**item, "t": t}
            if hand and frame < 2:
                shown = {**item, "t": t, "occluded": True}
            elif frame == 5 and index % 7 == 0 and item["dice"]:
                shown = {**item, "t": t, "dice": item["dice"][:1]}  # a die missed once
            yield json.dumps(shown)
            frame += 1


def test_dense_and_sparse_replays_give_the_same_decisions(tmp_path: Path) -> None:
    _, lines = match_lines(seed=2, length=1, seating=2)
    stretched = [json.dumps({**json.loads(x), "t": json.loads(x)["t"] * 4}) for x in lines]
    sparse = tmp_path / "sparse.jsonl"
    sparse.write_text("\n".join(stretched) + "\n")
    dense = tmp_path / "dense.jsonl"
    dense.write_text("\n".join(densified(lines, 4.0)) + "\n")
    assert len(dense.read_text().splitlines()) > 10 * len(lines)
    config = tmp_path / "referee.json"
    config.write_text(json.dumps({"match_length": 1}))
    runs = [bgref("--replay", str(path), "--config", str(config)) for path in (sparse, dense)]
    assert all(r.returncode == 0 and r.stderr == "" for r in runs)
    sparse_events, dense_events = (json_lines(r.stdout) for r in runs)

    def decisions(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{k: v for k, v in e.items() if k != "t"} for e in events
                if e["event"] != "warning"]

    assert decisions(dense_events) == decisions(sparse_events)
    assert [e["event"] for e in sparse_events][-2:] == ["game_over", "match_over"]
    # The camera's decisions come later by the hand's two frames, or by a flickered
    # frame that restarts the hold (at most 0.9 s after the state appeared, not 0.3).
    decided = [e for e in dense_events if e["event"] != "warning"]
    for got, want in zip(decided, [e for e in sparse_events if e["event"] != "warning"],
                         strict=True):
        assert 0 <= got["t"] - want["t"] <= 0.6 + 1e-9, (got, want)


def history(journal: Path) -> list[dict[str, Any]]:
    result = bgref("--journal", str(journal), "--history")
    assert result.returncode == 0, result.stderr
    return json_lines(result.stdout)


def test_kill_9_mid_match_then_resume_continues_as_if_never_interrupted(
        two_games: tuple[Match, Path, Path], uninterrupted: list[dict[str, Any]],
        tmp_path: Path) -> None:
    _, replay, config = two_games
    lines = replay.read_text().splitlines()
    journal = tmp_path / "journal.sqlite"
    process = subprocess.Popen(
        [sys.executable, "-m", "controller", "referee", "--replay", "-", "--journal",
         str(journal), "--config", str(config)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        bufsize=1)
    assert process.stdin is not None and process.stdout is not None
    seen: list[dict[str, Any]] = []
    written = 0
    try:
        # Feed line by line until a third of the events have been shown, mid-game.
        while len(seen) < len(uninterrupted) // 3:
            process.stdin.write(lines[written] + "\n")
            process.stdin.flush()
            written += 1
            while select.select([process.stdout], [], [], 0.02)[0]:
                seen.append(json.loads(process.stdout.readline()))
        time.sleep(0.3)  # let it take (and journal) whatever it has read
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
        process.stdin.close()
        process.stdout.close()
        assert process.stderr is not None
        process.stderr.close()
    assert process.returncode == -signal.SIGKILL
    assert 0 < written < len(lines)
    before = history(journal)
    # Every event shown was journalled first; the journal is the uninterrupted run's start.
    assert before[: len(seen)] == seen
    assert before == uninterrupted[: len(before)]
    db = sqlite3.connect(journal)
    (last_t,), = db.execute("SELECT t FROM inputs ORDER BY seq DESC LIMIT 1").fetchall()
    db.close()

    result = bgref("--replay", str(replay), "--journal", str(journal))
    assert result.returncode == 0, result.stderr
    after = json_lines(result.stdout)
    resumed = after[0]
    assert resumed["event"] == "resumed" and resumed["t"] == last_t >= before[-1]["t"]
    assert after[1:] == uninterrupted[len(before):]
    # It says what it waits for, as the uninterrupted referee would have at that point.
    assert resumed["expecting"] == expecting_after(lines[:written], config)
    assert [e for e in history(journal) if e["event"] != "resumed"] == uninterrupted


def expecting_after(lines: Sequence[str], config: Path) -> str:
    """What a referee given these lines in one go (no crash) would say it waits for."""
    from controller.referee.journal import MEMORY, Journal
    from controller.referee.replay import ReplayFeeder
    from controller.referee.session import Session
    from controller.referee.settings import load_settings

    with Journal.open(MEMORY) as journal:
        session = Session(journal, load_settings(config))
        feeder = ReplayFeeder(session, lambda number, problem: None)
        for number, line in enumerate(lines, 1):
            feeder.feed_line(number, line)
        return session.referee.expecting()


def test_resuming_under_other_settings_is_refused_and_the_journal_kept(
        tmp_path: Path) -> None:
    _, lines = match_lines(seed=7, length=1)
    replay = tmp_path / "game.jsonl"
    replay.write_text("\n".join(lines[:40]) + "\n")
    strict = tmp_path / "strict.json"
    strict.write_text(json.dumps({"mode": "strict", "match_length": 1}))
    players = tmp_path / "players.json"
    players.write_text(json.dumps({"mode": "players", "match_length": 1}))
    journal = tmp_path / "j.sqlite"
    first = bgref("--replay", str(replay), "--journal", str(journal), "--config", str(strict))
    assert first.returncode == 0, first.stderr
    kept = history(journal)
    refused = bgref("--replay", str(replay), "--journal", str(journal), "--config", str(players))
    assert refused.returncode == 2 and refused.stdout == ""
    assert "mode 'strict' (journal) vs 'players' (given)" in refused.stderr
    assert str(journal) in refused.stderr
    assert history(journal) == kept
    # Without --config the journalled settings are used.
    again = bgref("--replay", str(replay), "--journal", str(journal))
    assert again.returncode == 0, again.stderr
    assert [e["event"] for e in json_lines(again.stdout)] == ["resumed"]


def test_a_journal_that_no_longer_replays_is_reported_and_left_alone(tmp_path: Path) -> None:
    _, lines = match_lines(seed=7, length=1)
    replay = tmp_path / "game.jsonl"
    replay.write_text("\n".join(lines[:40]) + "\n")
    journal = tmp_path / "j.sqlite"
    assert bgref("--replay", str(replay), "--journal", str(journal)).returncode == 0
    db = sqlite3.connect(journal)
    (ident, seq, body), = db.execute(
        "SELECT id, input_seq, body FROM events WHERE body LIKE '%\"roll\"%' "
        "ORDER BY id LIMIT 1").fetchall()
    edited = json.loads(body)
    edited["dice"] = [edited["dice"][1], edited["dice"][0] % 6 + 1]
    db.execute("UPDATE events SET body = ? WHERE id = ?", (json.dumps(edited), ident))
    db.commit()
    db.close()
    kept = history(journal)
    result = bgref("--replay", str(replay), "--journal", str(journal))
    assert result.returncode == 2 and result.stdout == ""
    assert f"does not replay: input {seq} " in result.stderr
    assert "left unchanged" in result.stderr
    assert history(journal) == kept


def test_a_garbage_journal_is_refused_or_moved_aside_on_request(tmp_path: Path) -> None:
    _, lines = match_lines(seed=7, length=1)
    replay = tmp_path / "game.jsonl"
    replay.write_text("\n".join(lines[:10]) + "\n")
    journal = tmp_path / "j.sqlite"
    journal.write_bytes(b"\x00garbage, not a database" * 50)
    result = bgref("--replay", str(replay), "--journal", str(journal))
    assert result.returncode == 2 and result.stdout == ""
    assert str(journal) in result.stderr and "not a bgref journal" in result.stderr
    assert journal.read_bytes() == b"\x00garbage, not a database" * 50
    moved = bgref("--replay", str(replay), "--journal", str(journal), "--move-aside")
    assert moved.returncode == 0, moved.stderr
    assert "game_start" in moved.stdout and "moved to" in moved.stderr
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("j.sqlite.bad-")]
    assert len(kept) == 1 and kept[0].read_bytes() == b"\x00garbage, not a database" * 50


def test_history_and_export_read_the_journal(
        two_games: tuple[Match, Path, Path], uninterrupted: list[dict[str, Any]],
        tmp_path: Path) -> None:
    match, replay, config = two_games
    journal = tmp_path / "j.sqlite"
    played = bgref("--replay", str(replay), "--config", str(config), "--journal", str(journal),
                   "--export", str(tmp_path / "during.mat"))
    assert played.returncode == 0, played.stderr
    assert json_lines(played.stdout) == uninterrupted
    assert history(journal) == uninterrupted
    exported = bgref("--journal", str(journal), "--export", str(tmp_path / "match.mat"))
    assert exported.returncode == 0, exported.stderr
    text = (tmp_path / "match.mat").read_text()
    assert text == (tmp_path / "during.mat").read_text()
    record = parse_mat(text)
    assert record.length == 2 and len(record.games) == len(match.games) == 2
    moves = [e for g in record.games for e in g.events if isinstance(e, Move)]
    assert len(moves) == len(expected_plays(match))
    missing = bgref("--journal", str(tmp_path / "none.sqlite"), "--history")
    assert missing.returncode == 2 and "no such journal" in missing.stderr
    assert not (tmp_path / "none.sqlite").exists()


def test_operator_corrections_are_journalled_and_survive_a_resume(tmp_path: Path) -> None:
    _, lines = match_lines(seed=4, length=3)  # a 3-point match: the score can be set
    config = tmp_path / "referee.json"
    config.write_text(json.dumps({"match_length": 3}))
    first = tmp_path / "first.jsonl"
    first.write_text("\n".join(lines[:60]) + "\n")
    journal = tmp_path / "j.sqlite"
    assert bgref("--replay", str(first), "--journal", str(journal), "--config",
                 str(config)).returncode == 0
    score = bgref("--journal", str(journal), "--set-score", "2", "1")
    assert score.returncode == 0, score.stderr
    (correction,) = json_lines(score.stdout)
    assert correction["event"] == "correction", correction
    assert correction["action"] == "adjust_score"
    assert history(journal)[-1] == correction
    db = sqlite3.connect(journal)
    (source, body), = db.execute(
        "SELECT source, body FROM inputs ORDER BY seq DESC LIMIT 1").fetchall()
    db.close()
    assert source == "operator"
    assert json.loads(body)["args"] == {"light": 2, "dark": 1}
    start = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:2:1:0:3:10"
    placed = bgref("--journal", str(journal), "--set-position", start)
    assert placed.returncode == 0, placed.stderr
    (correction,) = json_lines(placed.stdout)
    assert correction["event"] == "correction" and correction["action"] == "set_position"
    assert correction["position_id"] == "4HPwATDgc/ABMA"  # the starting position
    refused = bgref("--journal", str(journal), "--set-position", "XGID=garbage")
    assert refused.returncode == 1
    (warning,) = json_lines(refused.stdout)
    assert warning["event"] == "warning" and "XGID" in warning["detail"]
    assert "not made" in refused.stderr
    assert history(journal)[-2:] == [correction, warning]
    # The corrected score is what the match file now says, and a resume keeps it.
    exported = bgref("--journal", str(journal), "--export", str(tmp_path / "m.mat"))
    assert exported.returncode == 0, exported.stderr
    assert "light 2, dark 1" in (tmp_path / "m.mat").read_text()
    resumed = bgref("--replay", str(first), "--journal", str(journal))
    assert resumed.returncode == 0, resumed.stderr
    assert json_lines(resumed.stdout)[0]["event"] == "resumed"


def test_what_cannot_run_exits_2_and_says_why(tmp_path: Path) -> None:
    cases = [
        ((), "give --replay"),
        (("--replay", str(tmp_path / "nothing.jsonl")), "no such replay file"),
        (("--replay", "-", "--camera", "synthetic"), "not both"),
        (("--undo", "--set-score", "1", "2"), "one correction"),
    ]
    for args, words in cases:
        result = bgref(*args)
        assert result.returncode == 2, args
        assert words in result.stderr, (args, result.stderr)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"mode": "lenient"}))
    result = bgref("--replay", "-", "--config", str(bad), stdin="")
    assert result.returncode == 2 and "mode" in result.stderr


def test_a_lost_camera_is_a_warning_and_the_referee_keeps_waiting(tmp_path: Path) -> None:
    journal = tmp_path / "j.sqlite"
    process = subprocess.Popen(
        hearing_ctrl_c([sys.executable, "-m", "controller", "referee", "--camera",
         f"file:{tmp_path / 'unplugged.mp4'}", "--journal", str(journal)]),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    try:
        ready = select.select([process.stdout], [], [], 60)[0]
        assert ready, "no event within a minute"
        warning = json.loads(process.stdout.readline())
        time.sleep(1.0)
        assert process.poll() is None  # still waiting for the camera
        # Meanwhile a second referee may not follow a game into the same journal,
        # but reading it works.
        replay = tmp_path / "game.jsonl"
        replay.write_text("\n".join(match_lines(seed=7, length=1)[1][:5]) + "\n")
        second = bgref("--replay", str(replay), "--journal", str(journal))
        assert second.returncode == 2 and second.stdout == ""
        assert f"another referee (pid {process.pid})" in second.stderr
        assert history(journal) == [warning]
    finally:
        _, err = stop_with_ctrl_c(process)
    assert warning["event"] == "warning" and warning["reason"] == "camera_lost"
    assert "unplugged.mp4" in warning["detail"]
    assert "lost" in err
    assert history(journal) == [warning]
    # Stopped, the journal is free: a kill -9 or a stop leaves no lock behind.
    freed = bgref("--replay", str(replay), "--journal", str(journal))
    assert freed.returncode == 0, freed.stderr
    assert [e["event"] for e in json_lines(freed.stdout)][:2] == ["resumed", "game_start"]


def test_live_from_a_camera_then_resumed_after_a_restart(tmp_path: Path) -> None:
    import cv2
    import numpy as np

    from controller.rules.physical import PhysicalBoard, recognise_start
    from controller.rules.player import Player
    from vision.synth import random_scene, render

    frame, truth = render(random_scene(np.random.default_rng(0), hands=0, dice=0, moves=0))
    image = tmp_path / "start.png"
    cv2.imwrite(str(image), frame)
    assert truth.observation.corners is not None
    corners = " ".join(f"{x:.1f},{y:.1f}" for x, y in truth.observation.corners.as_list())
    (seating,) = recognise_start(PhysicalBoard.from_record(truth.observation.to_json()))
    bottom = "light" if seating.bottom == Player.ZERO else "dark"
    journal = tmp_path / "j.sqlite"
    args = ("--camera", f"image:{image}", "--corners", corners, "--max-frames", "6",
            "--journal", str(journal))
    # As bgref.service runs it: systemd's notification socket and a watchdog.
    systemd = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    systemd.bind(str(tmp_path / "notify"))
    systemd.setblocking(False)
    first = bgref(*args, env={"NOTIFY_SOCKET": str(tmp_path / "notify"),
                              "WATCHDOG_USEC": "20000000"})
    assert first.returncode == 0, first.stderr
    told = []
    with contextlib.suppress(BlockingIOError):
        while True:
            told.append(systemd.recv(4096).decode())
    systemd.close()
    assert told[0].startswith("READY=1\nSTATUS=refereeing: set up")
    assert "WATCHDOG=1" in told and told[-1] == "STOPPING=1"
    (start,) = json_lines(first.stdout)
    assert start["event"] == "game_start" and start["bottom"] == bottom
    assert start["home"] == seating.home.value
    assert str(journal) in first.stderr and "set up" in first.stderr
    # Restarted (the camera's clock starts again at 0): it resumes, and the same board
    # seen again is no new game; the journal's times keep increasing.
    second = bgref(*args)
    assert second.returncode == 0, second.stderr
    (resumed,) = json_lines(second.stdout)
    assert resumed["event"] == "resumed" and "opening roll" in resumed["expecting"]
    db = sqlite3.connect(journal)
    times = [t for (t,) in db.execute("SELECT t FROM inputs ORDER BY seq")]
    db.close()
    assert times == sorted(times) and len(times) > 2
