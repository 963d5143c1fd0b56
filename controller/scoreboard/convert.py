"""PanelState -> the firmware's Board: the only place the two vocabularies meet."""

from controller.panel import Colour, PanelState
from firmware import bgproto

_COLOUR = {None: bgproto.NOBODY, "light": bgproto.LIGHT, "dark": bgproto.DARK}


def _colour(colour: Colour | None) -> int:
    return _COLOUR[colour]


def board_from_panel(panel: PanelState) -> bgproto.Board:
    """What the scoreboard shows of a panel state.

    The lights' own business (call lights, beeps, who sits where) is left
    out; a number the wire cannot carry is refused rather than cut, so the
    scoreboard never shows a wrong score.  Control characters in the message
    (PanelState allows any ASCII) become spaces: seven segments cannot draw them.
    """
    for name, value in (("match length", panel.match_length),
                        ("light score", panel.score_light), ("dark score", panel.score_dark)):
        if value > 0xFFFF:
            raise bgproto.ProtocolError(f"{name} {value} is too large for the scoreboard")
    return bgproto.Board(
        match_length=panel.match_length,
        score_light=panel.score_light,
        score_dark=panel.score_dark,
        crawford=panel.crawford,
        cube_value=panel.cube_value,
        cube_owner=_colour(panel.cube_owner),
        cube_in_play=panel.cube_in_play,
        turn=_colour(panel.turn),
        camera_ok=panel.camera_ok,
        message="".join(char if " " <= char <= "~" else " " for char in panel.message),
    )
