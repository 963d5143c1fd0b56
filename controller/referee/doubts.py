"""The doubts about a board read at the throw: where it differed from the record
(``misread``), what the tray's own count witnessed, and the legal plays a misreading
would explain; a play these explain is a look, never a call.

These are methods of :class:`~controller.referee.machine.Referee`, kept here as
functions of it (``self``) and bound to it in its class body.
"""

from dataclasses import replace
from typing import TYPE_CHECKING

from controller.game.events import OpeningRoll, Roll
from controller.game.game import Phase
from controller.referee.board import LIGHT, BoardReadError, BoardReading, colour_name, read_board
from controller.referee.plays import (
    PLAUSIBLE,
    PlayJudgement,
    judge_play,
    nearest_legal,
    stack_read_over,
    stack_read_short,
    tall_stack_misread,
)
from controller.referee.state import _Out, _shifted
from controller.rules.faults import FaultKind
from controller.rules.judge import judge
from controller.rules.physical import to_physical
from vision.observation import Counts, Observation

if TYPE_CHECKING:
    from controller.referee.machine import Referee


def _tray_off_at(self: "Referee", observation: Observation) -> int:
    """The tray's own count of the mover's borne-off checkers less the record's (0
    when the tray's own count was not read): see ``tray_off``."""
    if observation.off_read is None or self.seating is None:
        return 0
    colour = colour_name(self.game.turn)
    record = to_physical(self.game.position, self.seating, LIGHT).off
    return int(getattr(observation.off_read, colour)) - int(getattr(record, colour))


def _misread_at(self: "Referee", observation: Observation) -> tuple[tuple[int, int, int], ...]:
    """Where ``observation``'s checkers differ from the record (see ``misread``)."""
    assert self.seating is not None
    record = to_physical(self.game.position, self.seating, LIGHT)
    places = [*zip(observation.points, record.points, strict=True),
              (observation.bar, record.bar)]
    if observation.off is not None:
        places.append((observation.off, record.off))
    return tuple((place, seen.light - kept.light, seen.dark - kept.dark)
                 for place, (seen, kept) in enumerate(places)
                 if (seen.light, seen.dark) != (kept.light, kept.dark))


def _without_misread(self: "Referee", observation: Observation) -> Observation | None:
    """``observation`` with the differences read at the throw taken out (None when
    that leaves a place with fewer than no checkers)."""
    places = _shifted((*observation.points, observation.bar, observation.off),
                      self.misread, -1)
    if places is None:
        return None
    points = tuple(Counts(*c) for c in places[:-2] if c is not None)
    bar, off = places[-2], places[-1]
    assert bar is not None
    return replace(observation, points=points, bar=Counts(*bar),
                   off=None if off is None else Counts(*off))


def _misread_doubt(self: "Referee", observation: Observation, judgement: PlayJudgement) -> str:
    """Why an illegal-looking board may be a misreading of a legal play ('' if not):
    a tall stack read a checker short (``Plausibility.tall_stack``), a stack read a
    checker too many with the tray's own reading against it
    (``Plausibility.over_stack``), or the same differences from the record as at the
    throw (``misread``)."""
    game = self.game
    assert game.dice is not None and judgement.after is not None
    stack = tall_stack_misread(game.position, judgement.after, game.dice,
                               PLAUSIBLE.tall_stack)
    if stack is not None:
        return (f"a legal play but for a checker of the tall stack on point {stack[0]} "
                "read as borne off: the stack may be misread")
    witness = self._witness_doubt(observation, judgement)
    if witness:
        return witness
    double = self._double_misread(observation, judgement)
    if double is not None:
        return (f"the dice were read {game.dice[0]}-{game.dice[1]}, and the play is a "
                f"legal {double[0]}-{double[1]}: a die read with pips missed?")
    if self._misread_legal(observation) is not None:
        return ("the board differs from a legal play where it already differed from the "
                "record at the throw: misread?")
    return ""


def _witness_doubt(self: "Referee", observation: Observation, judgement: PlayJudgement) -> str:
    """Why an illegal-looking board is the camera disagreeing with itself ('' if
    not): the tray's own count (``off_read``) is a legal play's borne-off count and
    the board is that play but for one checker between a stack and the tray
    (``Plausibility.over_stack``, ``Plausibility.under_stack``), or the board's own
    count of its stacks (``own_points``) is a legal play.  Empty with a perfect
    reader (the tray's own count is the board's).  These hold in both modes: the
    call light is not lit on a reading the camera itself contradicts."""
    game = self.game
    assert game.dice is not None and judgement.after is not None
    tray = None if observation.off_read is None else \
        int(getattr(observation.off_read, colour_name(game.turn)))
    # The tray's own count as read, and, when it was read off the record at the
    # throw, the record's count plus what it gained since (``tray_off``).
    trays = (tray,) if tray is None or not self.tray_off else (tray, tray - self.tray_off)
    over = next((found for count in trays
                 if (found := stack_read_over(game.position, judgement.after, game.dice,
                                              count, PLAUSIBLE.over_stack)) is not None),
                None)
    if over is not None:
        return (f"a legal play but for one checker more on the stack on point {over[0]}, "
                "which the tray's own count has borne off: the stack may be misread")
    short = next((found for count in trays
                  if (found := stack_read_short(game.position, judgement.after, game.dice,
                                                count, PLAUSIBLE.under_stack)) is not None),
                 None)
    if short is not None:
        return (f"a legal play but for one checker fewer on the stack on point "
                f"{short[0]}, which the tray's own count has not borne off: the stack "
                "may be misread")
    if self._own_reading_legal(observation):
        return ("the board's own count of its stacks, before the tray's count settled "
                "them, is a legal play: the tray or a stack may be misread")
    return ""


def _double_misread(self: "Referee", observation: Observation,
                    judgement: PlayJudgement) -> tuple[int, int] | None:
    """A roll read as a double whose play breaks more than the one rule a double
    played a die short breaks, and is legal, both dice played, with one die read
    again as ``Plausibility.pips_missed`` says (a 6 read as a 3): that roll, or None.

    A 6-3 read as 3-3 and played ``bar/22 15/9`` is, with 3s, a die unplayed *and* a
    checker passing over a blot it would have hit (rendered 28de820384cd seed 23):
    two faults at once, where one common misreading of the dice explains the board;
    a look, never a call.  A double played only a die short (``UNPLAYED_DIE`` alone)
    stays a call even when it is also a legal 6-3: it is exactly a planted
    ``one_die`` mistake (960b5e2b053c seed 23; ``tests/test_referee_stacks.py``).
    """
    game = self.game
    if game.dice is None or self.seating is None or game.dice[0] != game.dice[1] or \
            judgement.after is None:
        return None
    kinds = set(judge(game.position, judgement.after, *game.dice).kinds)
    if kinds <= {FaultKind.UNPLAYED_DIE}:
        return None
    try:
        reading = read_board(observation)
    except BoardReadError:
        return None
    fits = self._rolls_with_pips_missed(reading)
    return fits[0] if fits else None


def _rolls_with_pips_missed(
        self: "Referee", reading: BoardReading,
        pairs: tuple[tuple[int, int], ...] = PLAUSIBLE.pips_missed,
) -> list[tuple[int, int]]:
    """The rolls, one die of the dice read taken as showing another value (``pairs``
    of value read and value shown, in their order: by default
    ``Plausibility.pips_missed``), that make the board a legal play with both dice
    played (all four when the roll read again is a double: a 6-6 read as 6-3 and
    played in full, rendered 28de820384cd seed 44): a play of one die (the other
    unplayable) is what a die left unplayed looks like (960b5e2b053c seed 16)."""
    game = self.game
    assert game.dice is not None and self.seating is not None
    fits: list[tuple[int, int]] = []
    for index in (0, 1):
        read, other = game.dice[index], game.dice[1 - index]
        for seen, shown in pairs:
            if read != seen:
                continue
            roll = (max(shown, other), min(shown, other))
            again = judge_play(game.position, reading, self.seating, roll)
            whole = 4 if roll[0] == roll[1] else 2
            if roll not in fits and again.kind == "legal" and again.play is not None \
                    and len(again.play.moves) == whole:
                fits.append(roll)
    return fits


def _own_reading_legal(self: "Referee", observation: Observation) -> bool:
    """Whether the board's own reading (``own_points``: the stacks counted without
    the tray's count, the borne-off checkers taken as the rest) is a legal play.

    With a tray in view the vision takes a bearing-off side's total on the board as
    fifteen less the tray's count, so a tray read a checker short makes a stack of
    five read as six: board and tray agree, both wrong, and the board is exactly a
    die left unplayed (rendered 28de820384cd seeds 7, 27, 39).  The board read on
    its own disagreeing, and making the play legal, is the camera in doubt.
    """
    game = self.game
    if observation.own_points is None or game.dice is None or self.seating is None:
        return False
    own = replace(observation, points=observation.own_points, off=None, off_read=None,
                  own_points=None)
    try:
        reading = read_board(own)
    except BoardReadError:
        return False
    judgement = judge_play(game.position, BoardReading(reading.board, True), self.seating,
                           game.dice)
    return judgement.kind == "legal"


def _pips_missed(self: "Referee", reading: BoardReading, judgement: PlayJudgement, out: "_Out",
                 pairs: tuple[tuple[int, int], ...] = PLAUSIBLE.pips_missed,
                 doubles: bool = False) -> tuple["Referee", PlayJudgement]:
    """An illegal play that is legal with one die read as fewer pips than it shows.

    The dice reader misses pips, a six's column above all (a 6 read as a 3:
    ``Plausibility.pips_missed``): for a roll read as no double, when exactly one
    roll with such a die read again makes the board a legal play, that was the
    roll (a ``dice`` warning says so) and the play is legal, as for a die read two
    ways where it lay (:meth:`_reread_roll`).  The opening roll is read again only
    when the same player still starts.  ``pairs``: the misreadings tried (value
    read, value shown); ``doubles``: a roll read as a double is read again too
    (see ``Plausibility.dice_confusions`` for when).
    """
    game = self.game
    before = self.before_roll
    assert game.dice is not None and self.seating is not None
    if before is None or before.game.phase not in (Phase.ROLL, Phase.OPENING) or \
            (game.dice[0] == game.dice[1] and not doubles):
        return self, judgement
    fits = self._rolls_with_pips_missed(reading, pairs)
    if len(fits) != 1:
        return self, judgement
    roll = fits[0]
    if before.game.phase is Phase.OPENING:
        if roll[0] == roll[1]:
            return self, judgement
        starter_first = (roll[0], roll[1]) if game.turn == LIGHT else (roll[1], roll[0])
        session = before.apply(OpeningRoll(starter_first))
        if session.game.turn != game.turn:
            return self, judgement
    else:
        session = before.apply(Roll(game.turn, roll))
    as_read = "-".join(map(str, game.dice))
    out.warn("dice", f"the dice were read {as_read}, but the play fits {roll[0]}-{roll[1]}: "
                     "a die read with pips missed?", dice=list(roll))
    state = replace(self, session=session, rereads=())
    return state, judge_play(game.position, reading, self.seating, roll)


def _misread_nearest(self: "Referee", observation: Observation,
                     judgement: PlayJudgement) -> PlayJudgement | None:
    """The legal play an unjudgeable board is, when the opponent's throw would take it
    as that play anyway (``nearest_legal``: the one legal play a checker away) and
    the board without the differences its throw's board already had from the record
    (``misread``) is that same legal play."""
    game = self.game
    if not self.misread or game.dice is None:
        return None
    nearest = nearest_legal(game.position, judgement.after, game.dice)
    if nearest is None or nearest.after is None:
        return None
    fixed = self._misread_legal(observation)
    if fixed is None or fixed.after is None or fixed.after.key != nearest.after.key:
        return None
    return nearest


def _misread_legal(self: "Referee", observation: Observation) -> PlayJudgement | None:
    """The legal judgement of the board with the throw's misreadings taken out, if it
    is a legal play (see ``misread``)."""
    game = self.game
    if not self.misread or game.dice is None or self.seating is None:
        return None
    fixed = self._without_misread(observation)
    if fixed is None:
        return None
    try:
        judgement = judge_play(game.position, read_board(fixed), self.seating, game.dice)
    except BoardReadError:
        return None
    return judgement if judgement.kind == "legal" else None
