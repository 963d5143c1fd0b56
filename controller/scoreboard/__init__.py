"""The serial scoreboard, seen from the referee: a link that keeps itself up.

The referee hands :class:`controller.panel.PanelState` values to
:class:`ScoreboardLink` (it is a panel output: call it with a state); the
link turns them into the firmware's ``STATE`` message (:func:`board_from_panel`)
and keeps the Pico showing the latest one through unplugging, replugging and
firmware restarts.  The wire format lives in :mod:`firmware.bgproto`, shared
word for word with the firmware.
"""

from controller.scoreboard.convert import board_from_panel
from controller.scoreboard.link import LinkStatus, ScoreboardLink

__all__ = ["LinkStatus", "ScoreboardLink", "board_from_panel"]
