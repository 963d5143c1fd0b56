"""PanelState -> the scoreboard's Board: every field the scoreboard shows."""

import pytest

from controller.panel import Colour, PanelState
from controller.scoreboard import board_from_panel
from firmware import bgproto
from firmware.bgproto import Board


def test_every_shown_field_is_carried() -> None:
    panel = PanelState(match_length=11, score_light=9, score_dark=10, crawford=True,
                       cube_value=1, cube_owner=None, cube_in_play=False, bottom="dark",
                       turn="dark", call_steady=frozenset({"light"}), beeps=3,
                       message="ILLEGAL", camera_ok=False)
    assert board_from_panel(panel) == Board(
        match_length=11, score_light=9, score_dark=10, crawford=True, cube_value=1,
        cube_owner=bgproto.NOBODY, cube_in_play=False, turn=bgproto.DARK, camera_ok=False,
        message="ILLEGAL")


@pytest.mark.parametrize(("owner", "turn", "expected"), [
    ("light", "dark", (bgproto.LIGHT, bgproto.DARK)),
    ("dark", None, (bgproto.DARK, bgproto.NOBODY)),
    (None, "light", (bgproto.NOBODY, bgproto.LIGHT)),
])
def test_colours(owner: Colour | None, turn: Colour | None, expected: tuple[int, int]) -> None:
    panel = PanelState(cube_value=4 if owner else 1, cube_owner=owner, turn=turn)
    board = board_from_panel(panel)
    assert (board.cube_owner, board.turn) == expected


def test_lights_only_fields_do_not_change_the_scoreboard() -> None:
    plain = board_from_panel(PanelState(score_light=2))
    busy = board_from_panel(PanelState(score_light=2, beeps=9, bottom="light",
                                       call_blink=frozenset({"dark"})))
    assert plain == busy


def test_control_characters_become_spaces() -> None:
    assert board_from_panel(PanelState(message="NO\tCAMERA\n")).message == "NO CAMERA "


def test_a_score_the_link_cannot_carry_is_refused_not_cut() -> None:
    with pytest.raises(bgproto.ProtocolError, match="light score 70000 is too large"):
        board_from_panel(PanelState(score_light=70_000))
