"""Games, matches, money sessions and chouettes: the rules above the board.

Pure Python, no I/O.  A :class:`~controller.game.game.Game` is an
immutable state built by applying events (rolls, plays, cube actions,
resignations); its event list is the complete, replayable record.
"""
