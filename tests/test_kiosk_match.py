"""Whole matches with planted faults through a session the kiosk follows: every call the
referee makes is on the page in its turn, and every snapshot can be drawn."""

import json
from typing import Any

import pytest

from controller.game.selfplay import selfplay_match
from controller.kiosk.feed import KioskFeed
from controller.referee.journal import MEMORY, Journal
from controller.referee.session import Session
from controller.referee.settings import RefereeSettings
from tests.referee_streams import SEATINGS, Plant, script_match


def _drawable(state: dict[str, Any]) -> None:
    """What the page's drawing relies on, whatever the referee's state."""
    board = state["board"]
    if board is not None:
        assert len(board["points"]) == 24
        for colour in ("light", "dark"):
            total = sum(p[colour] for p in board["points"])
            assert total + board["bar"][colour] + board["off"][colour] == 15, state["stage"]
        assert not any(p["light"] and p["dark"] for p in board["points"])
    assert state["cube"]["value"] in (1, 2, 4, 8, 16, 32, 64)
    assert state["cube"]["place"] in ("centre", "top", "bottom")
    assert isinstance(state["expecting"], str) and state["expecting"]
    for entry in state["log"]:
        assert isinstance(entry["text"], str) and entry["text"]


@pytest.mark.parametrize("mode", ["strict", "players"])
def test_every_call_of_a_match_reaches_the_page(mode: str, capsys: pytest.CaptureFixture[str]
                                                ) -> None:
    seed = 3
    match = selfplay_match(seed, 3)
    plant = Plant(mode, illegal=0.15, void=0.15, early=0.15, seed=seed)  # type: ignore[arg-type]
    script = script_match(match, SEATINGS[(seed + 1) % 4], seed=seed, plant=plant)
    session = Session(Journal.open(MEMORY, create=True),
                      RefereeSettings(mode=mode, match_length=3))  # type: ignore[arg-type]
    feed = KioskFeed()
    feed.attach(session)
    last_seq = feed.current()[0]
    alerts: dict[int, dict[str, Any]] = {}
    for inp in script.inputs:
        session.step(inp)
        seq, text = feed.current()
        assert seq >= last_seq
        last_seq = seq
        state = json.loads(text)
        _drawable(state)
        if state["alert"] is not None:
            alerts[state["alert"]["seq"]] = state["alert"]
    assert "watcher failed" not in capsys.readouterr().err
    rerolls = [a["reason"] for a in alerts.values() if a["event"] == "reroll"]
    planted_voids = {k: n for k, n in plant.planted.items() if k != "illegal"}
    assert {f"void:{r}" if r != "early" else "early": rerolls.count(r)
            for r in set(rerolls)} == planted_voids
    calls = [a for a in alerts.values() if a["event"] in ("illegal_play", "call_upheld")]
    assert len(calls) == plant.planted["illegal"] > 0
    assert all(a["text"] for a in calls)
    final = json.loads(feed.current()[1])
    assert final["stage"] == "over"
    assert (final["match"]["score"]["light"], final["match"]["score"]["dark"]) == match.score
    assert final["log"][-1]["event"] == "match_over"
