"""What the kiosk page is given: the board as the players have it, the score, the calls in words."""

import json
from typing import Any, Literal

import pytest

from controller.kiosk.feed import KioskFeed
from controller.kiosk.wording import describe
from controller.referee.journal import MEMORY, Journal
from controller.referee.session import Session
from controller.referee.settings import RefereeSettings
from controller.rules.physical import Seating, Side
from controller.rules.position import Position
from tests.referee_streams import DARK, LIGHT, SEATINGS, Script, die, half_of, shifted

START = Position.initial()


def _followed(settings: RefereeSettings | None = None) -> tuple[Session, KioskFeed]:
    session = Session(Journal.open(MEMORY, create=True), settings)
    feed = KioskFeed()
    feed.attach(session)
    return session, feed


def _state(feed: KioskFeed) -> dict[str, Any]:
    state: dict[str, Any] = json.loads(feed.current()[1])
    return state


def _feed(session: Session, script: Script, start: int = 0) -> None:
    for inp in script.inputs[start:]:
        session.step(inp)


def test_before_the_set_up_there_is_no_board_to_draw() -> None:
    _, feed = _followed()
    state = _state(feed)
    assert state["schema"] == 1 and state["stage"] == "setup"
    assert state["board"] is None and state["seating"] is None
    assert state["expecting"] == "set up the board for the next game"
    assert state["log"] == [] and state["alert"] is None


@pytest.mark.parametrize(("seating", "light_six", "light_back", "dark_six"), [
    # Light's six point is in front of light (bottom row) on the home side;
    # its two back checkers sit on the far row at the home side's end.
    (Seating(LIGHT, Side.RIGHT), 5, 23, 18),
    (Seating(LIGHT, Side.LEFT), 6, 12, 17),
    (Seating(DARK, Side.RIGHT), 18, 0, 5),
    (Seating(DARK, Side.LEFT), 17, 11, 6),
], ids=str)
def test_the_board_is_drawn_where_the_players_have_their_checkers(
        seating: Seating, light_six: int, light_back: int, dark_six: int) -> None:
    session, feed = _followed()
    _feed(session, Script(seating).setup())
    state = _state(feed)
    points = state["board"]["points"]
    assert points[light_six] == {"light": 5, "dark": 0}
    assert points[light_back] == {"light": 2, "dark": 0}
    assert points[dark_six] == {"light": 0, "dark": 5}
    assert sum(p["light"] for p in points) == 15 and sum(p["dark"] for p in points) == 15
    assert state["board"]["bar"] == {"light": 0, "dark": 0}
    assert state["seating"] == {"bottom": "light" if seating.bottom == LIGHT else "dark",
                                "home": seating.home.value}
    assert state["stage"] == "opening" and state["log"][0]["event"] == "game_start"


def test_dice_score_turn_and_the_log_follow_the_game() -> None:
    session, feed = _followed(RefereeSettings(match_length=5))
    script = Script(SEATINGS[0]).setup()
    script.opening(5, 3)
    _feed(session, script)
    state = _state(feed)
    assert state["stage"] == "play" and state["turn"] == "light"
    assert state["dice"]["values"] == [5, 3] and state["dice"]["player"] == "light"
    assert sorted(d["side"] for d in state["dice"]["lying"]) == ["left", "right"]
    assert state["match"] == {"length": 5, "score": {"light": 0, "dark": 0},
                              "crawford": False, "game": 1}
    assert state["expecting"] == "light to play 5-3 and pick up the dice"
    assert [e["text"] for e in state["log"]] == [
        "Game 1: light sits at the bottom, home boards on the right",
        "Opening roll: light 5, dark 3; Light starts"]
    assert [e["seq"] for e in state["log"]] == [1, 2]


def _light_opened(seating: Seating) -> tuple[Session, KioskFeed, Script, Position]:
    """Light opens 3-1 with 8/5 6/5 and picks the dice up: Dark to throw."""
    session, feed = _followed()
    script = Script(seating).setup()
    dice = script.opening(3, 1)
    after = START.result_of(next(p for p in START.legal_plays(3, 1) if str(p) == "8/5 6/5"))
    script.stable(after, dice)
    script.stable(after)
    return session, feed, script, after


def _light_opened_illegally(mode: Literal["strict", "players"],
                            seating: Seating) -> tuple[Session, KioskFeed, Script]:
    """Light opens 3-1 and plays 13/7, no legal play, then picks the dice up."""
    session, feed = _followed(RefereeSettings(mode=mode))
    script = Script(seating).setup()
    dice = script.opening(3, 1)
    wrong = shifted(START, "13/7")
    script.stable(wrong, dice)
    script.stable(wrong)
    return session, feed, script


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_void_throw_is_the_alert_naming_the_die_and_why(seating: Seating) -> None:
    session, feed, script, after = _light_opened(seating)
    theirs = half_of(seating, LIGHT)
    script.stable(after.with_turn(DARK), (die(4, theirs, 0), die(2, theirs, 1)))
    _feed(session, script)
    state = _state(feed)
    alert = state["alert"]
    assert alert["event"] == "reroll" and alert["reason"] == "wrong_half"
    assert alert["text"].startswith("Roll again, Dark: the 4 is in the wrong half")
    assert state["calls"]["blink"] == ["dark"]
    assert [d["value"] for d in state["dice"]["void"]] == [4, 2]
    # The rethrow moves the game on: the alert is over, the log keeps it.
    script.stable(after.with_turn(DARK))
    script.throw(after, DARK, (6, 2), spot=2)
    _feed(session, script, len(script.inputs) - 2)
    state = _state(feed)
    assert state["alert"] is None
    assert [e["event"] for e in state["log"]][-2:] == ["reroll", "roll"]


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_die_read_cocked_is_a_look_then_a_void_once_picked_up(seating: Seating) -> None:
    """The camera's cocked reading is doubtful (rule 5): the page says look, and the
    void is called when the players pick the dice up with nothing moved."""
    session, feed, script, after = _light_opened(seating)
    mine = half_of(seating, DARK)
    script.stable(after.with_turn(DARK), (die(4, mine, 0), die(2, mine, 1, flat=False)))
    _feed(session, script)
    state = _state(feed)
    alert = state["alert"]
    assert alert["event"] == "warning"
    assert alert["text"].startswith("Look: the 2") and "cocked" in alert["text"]
    assert state["calls"]["blink"] == []
    shown = len(script.inputs)
    script.stable(after.with_turn(DARK))
    _feed(session, script, shown)
    state = _state(feed)
    alert = state["alert"]
    assert alert["event"] == "reroll" and alert["reason"] == "cocked"
    assert alert["text"].startswith("Roll again, Dark: the 2 is cocked")
    assert state["calls"]["message"] == "ROLL AGAIN"
    shown = len(script.inputs)
    script.throw(after, DARK, (6, 2), spot=2)
    _feed(session, script, shown)
    state = _state(feed)
    assert state["alert"] is None
    assert [e["event"] for e in state["log"]][-3:] == ["warning", "reroll", "roll"]


def test_strict_an_illegal_play_stays_on_screen_until_the_position_is_restored() -> None:
    session, feed, script = _light_opened_illegally("strict", SEATINGS[1])
    _feed(session, script)
    state = _state(feed)
    alert = state["alert"]
    assert alert["event"] == "illegal_play" and alert["player"] == "light"
    assert alert["text"].startswith(f"Illegal play by Light: {alert['reason']}. Legal: ")
    assert alert["legal_plays"][0] in alert["text"]
    assert state["stage"] == "restore" and state["calls"]["blink"] == ["light"]
    assert state["calls"]["message"] == "ILLEGAL"
    # Once the checkers are back the call is over (the log keeps it).
    script.stable(START)
    _feed(session, script, len(script.inputs) - 1)
    state = _state(feed)
    assert state["alert"] is None and state["log"][-1]["event"] == "position_restored"
    assert state["log"][-1]["text"] == "The position is restored: play again"


def test_players_mode_shows_who_may_call_which_play() -> None:
    session, feed, script = _light_opened_illegally("players", SEATINGS[2])
    _feed(session, script)
    state = _state(feed)
    window = state["calls"]["window"]
    assert window["caller"] == "dark" and window["mover"] == "light"
    assert window["move"] == "13/7" and window["reasons"]
    assert state["calls"]["steady"] == ["dark"]
    assert state["log"][-1]["text"] == "Light plays 13/7: not a legal play"
    script.press("call", DARK)
    _feed(session, script, len(script.inputs) - 1)
    state = _state(feed)
    assert state["alert"]["event"] == "call_upheld"
    assert state["alert"]["text"].startswith("Call upheld: light's play 13/7 was illegal")
    assert state["calls"]["window"] is None


def test_the_cube_is_drawn_on_the_takers_side_after_a_take() -> None:
    session, feed = _followed(RefereeSettings(match_length=7))
    seating = SEATINGS[0]  # light at the bottom
    script = Script(seating).setup()
    dice = script.opening(3, 1)
    after = START.result_of(next(p for p in START.legal_plays(3, 1) if str(p) == "8/5 6/5"))
    script.stable(after, dice)
    script.stable(after)
    script.press("double", DARK)
    script.press("take", LIGHT)
    _feed(session, script)
    state = _state(feed)
    assert state["cube"] == {"value": 2, "owner": "light", "in_play": True, "place": "bottom"}
    assert [e["text"] for e in state["log"]][-2:] == ["Dark doubles to 2",
                                                     "Light takes; the cube is at 2"]


def test_the_camera_and_the_other_outputs_reach_the_page() -> None:
    session, feed = _followed()
    before = feed.current()[0]
    session.camera_lost(1.0, "video0: unplugged")
    feed.note_output("scoreboard", "cannot open /dev/scoreboard")
    state = _state(feed)
    assert state["seq"] > before
    assert state["camera_ok"] is False
    assert state["alert"]["text"] == "Look: video0: unplugged"
    assert state["outputs"] == {"scoreboard": "cannot open /dev/scoreboard"}


def test_a_resumed_session_shows_the_journals_recent_events(tmp_path: Any) -> None:
    path = str(tmp_path / "j.sqlite")
    first = Session(Journal.open(path, create=True))
    script = Script(SEATINGS[0]).setup()
    script.opening(6, 1)
    _feed(first, script)
    first.journal.close()
    again = Session(Journal.open(path, create=False))
    feed = KioskFeed()
    feed.attach(again)
    state = _state(feed)
    assert [e["event"] for e in state["log"]] == ["game_start", "opening_roll", "resumed"]
    assert state["stage"] == "play" and state["dice"]["values"] == [6, 1]


def test_the_log_keeps_the_latest_events_only() -> None:
    feed = KioskFeed(log_size=3)
    session = Session(Journal.open(MEMORY, create=True))
    feed.attach(session)
    for t in range(1, 6):
        session.camera_lost(float(t), f"gone {t}")
    state = _state(feed)
    assert [e["detail"] for e in state["log"]] == ["gone 3", "gone 4", "gone 5"]
    assert [e["seq"] for e in state["log"]] == [3, 4, 5]


@pytest.mark.parametrize(("event", "text"), [
    ({"event": "reroll", "player": "light", "reason": "wrong_half",
      "die": {"value": 5, "center": [1, 2]}, "detail": "d"},
     "Roll again, Light: the 5 is in the wrong half: d"),
    ({"event": "reroll", "reason": "off_field", "die": {"value": None, "center": [1, 2]}},
     "Roll again: a die is off the field"),
    ({"event": "reroll", "player": "dark", "reason": "on_checker",
      "die": {"value": 3, "center": [640.5, 300]},
      "detail": "the 3 at (640.5, 300) lies on a checker"},
     "Roll again, Dark: the 3 is on a checker: the 3 lies on a checker"),
    ({"event": "warning", "reason": "dice",
      "detail": "the 2 at (240, 400) is cocked? If so the throw is void"},
     "Look: the 2 is cocked? If so the throw is void"),
    ({"event": "illegal_play", "player": "dark", "reason": "r",
      "legal_plays": ["a", "b", "c", "d", "e"]},
     "Illegal play by Dark: r. Legal: a; b; c; d (and 1 more)"),
    ({"event": "game_over", "player": "dark", "winner": "dark", "points": 1, "result": "single"},
     "Dark wins 1 point (single)"),
    ({"event": "game_over", "winner": "light", "points": 4, "result": "gammon"},
     "Light wins 4 points (gammon)"),
    ({"event": "cube_refused", "player": "light", "button": "double", "reason": "Crawford"},
     "Light: double refused: Crawford"),
    ({"event": "roll", "player": "dark", "dice": [1, 2], "inferred": True},
     "Dark rolls 1-2 (inferred from the play)"),
])
def test_events_in_words(event: dict[str, Any], text: str) -> None:
    assert describe(event) == text


def test_a_waiting_reader_is_given_the_newest_snapshot_not_a_queue_of_them() -> None:
    session, feed = _followed()
    seen, _ = feed.current()
    for t in range(1, 41):
        session.camera_lost(float(t), f"gone {t}")
    got = feed.wait(seen, timeout=1.0)
    assert got is not None
    seq, text = got
    assert seq == feed.current()[0] and json.loads(text)["log"][-1]["detail"] == "gone 40"
    assert feed.wait(seq, timeout=0.05) is None  # nothing newer: the wait times out
    assert feed.wait(seq, timeout=5.0, stop=lambda: True) is None  # a stopping server
