"""Match records and the files they are written to.

A :class:`~controller.records.record.MatchRecord` holds everything needed to
replay a match or money session: the players, the rules and every event of
every game.  :mod:`controller.records.matfile` writes and reads it as the
plain-text ``.mat`` file that GNU Backgammon and XG import.
"""

from controller.records.matfile import format_mat, parse_mat
from controller.records.record import GameRecord, MatchRecord

__all__ = ["GameRecord", "MatchRecord", "format_mat", "parse_mat"]
