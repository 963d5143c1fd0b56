"""Back in step from the board: a throw on a board the record cannot explain (a resync), and
the board between plays checked against the record (checkers moved, a play corrected by its
mover, a roll inferred from a play seen only in part, the cube).

These are methods of :class:`~controller.referee.machine.Referee`, kept here as
functions of it (``self``) and bound to it in its class body.
"""

from dataclasses import replace
from typing import TYPE_CHECKING

from controller.game.events import Roll
from controller.game.game import Phase
from controller.referee.board import (
    BoardReadError,
    BoardReading,
    colour_name,
    position_of,
    read_board,
)
from controller.referee.plays import PLAUSIBLE, judge_play
from controller.referee.state import RESYNC_PLAYS, Stage, _Out
from controller.referee.throws import rolls_with
from controller.rules.player import Player
from controller.rules.position import Position
from vision.observation import Observation

if TYPE_CHECKING:
    from controller.referee.machine import Referee


def _resync(self: "Referee", observation: Observation, thrower: Player, out: "_Out") -> "Referee":
    """Out of step: ``thrower`` has thrown on a board the record cannot explain.

    The camera missed a throw or a play (or read one wrongly) and the game
    went on.  The game goes on from the board as it stands, ``thrower`` to
    play: a ``look`` warning with ``resync``, and the record notes the
    divergence.  Never a call (etiquette 5).  The caller has read the board.
    """
    assert self.seating is not None
    board = position_of(read_board(observation), self.seating, thrower)
    out.warn("look", f"{colour_name(thrower)} has thrown, but the board is not where the "
                     "record has it: play goes on from the board as it stands",
             resync=True)
    state = self._diverge(board, "the camera lost the thread; the game went on from "
                                 "the board as the camera saw it")
    return replace(state, stage=Stage.ROLL, glimpsed=(), dice_down=(), rereads=(),
                   call=None, before_roll=None, resynced=RESYNC_PLAYS, parted=None,
                   stood=None)


def _check_board(self: "Referee", observation: Observation, out: "_Out") -> "Referee":
    """Between plays the checkers should stay put: a change is worth a look."""
    if self.call is not None:
        if self.glimpsed and self.game.phase is Phase.ROLL:
            stood = self._stands_then_inferred(observation, out)
            if stood is not None:
                return stood
        return self._mover_corrects(observation, out)
    if self.seating is None:
        return self
    try:
        board = position_of(read_board(observation), self.seating, self.game.turn)
    except BoardReadError:
        return self
    if board.key == self.game.position.key:
        if self.parted is not None and self.resynced == RESYNC_PLAYS:
            # Back where the record has it, no play judged since it parted: a
            # misread or a hand passing over, no doubt left (rendered seed 58 of
            # 960b5e2b053c: two checkers missed for a moment while the cube was
            # taken, and the next illegal play went uncalled as judged leniently).
            return replace(self, resynced=self.parted, parted=None)
        return self
    if self.glimpsed and self.game.phase is Phase.ROLL:
        return self._infer_roll(observation, out, over=self._glimpse_picked_up())
    out.warn("moved", "the checkers are not where the last play left them")
    # The record and the board part: whatever happened (a throw missed and played,
    # a play put right), the next plays are judged against a position in doubt.
    return replace(self, resynced=RESYNC_PLAYS,
                   parted=self.resynced if self.parted is None else self.parted)


def _glimpse_picked_up(self: "Referee") -> bool:
    """ROLL, no die seen now, a throw of the player on turn seen in part (``glimpsed``):
    whether a die of it lay where it fell in the state just before, so this state is
    its pick-up, which ends the play as the opponent's throw does.

    Rendered 7e15fdd04acc seed 28 t=497.4 (a 2 seen, 13/5 fits 2-2 and 2-6) and
    t=167.3: the board after the pick-up read right, and the play waited 1.5-1.8 s
    for the opponent's throw.  Only the pick-up seen (the die in the state before,
    none now): a die the frames miss while it lies is no pick-up once it has been
    gone a state (``lying`` is then empty), and a board half-way through a play waits
    as before.
    """
    return bool(self._glimpse_lying(self.lying)[0])


def _stands_then_inferred(self: "Referee", observation: Observation,
                          out: "_Out") -> "Referee | None":
    """*Players* mode, a call window open: the player on turn threw, seen in part
    (``glimpsed``: a die of theirs in their half), played and picked up.

    Their throw ended the window (``play_stands``), and their roll is inferred
    from the play as without a window (rendered 28de820384cd seeds 12 and 28: the
    board was only looked at as the mover putting their play right, and the roll
    and play waited 1.5-2 s for the next throw).  None when no single roll with
    the dice seen makes the board a legal play: the window stays as it was (the
    mover's correction is looked for as before).
    """
    window = self.call
    assert window is not None
    trial = _Out(out.t)
    state = replace(self, call=None)._infer_roll(observation, trial)
    if not any(e.event == "roll" for e in trial.events):
        return None
    out.emit("play_stands", colour_name(window.mover), move=window.move)
    out.events.extend(trial.events)
    out.beeps += trial.beeps
    return state


def _mover_corrects(self: "Referee", observation: Observation, out: "_Out") -> "Referee":
    """*Players* mode: the mover puts their own illegal play right before anyone throws.

    Nobody objects to that: back to the position before the play means
    the mover plays the dice again (as after a call); a legal play of the
    same dice replaces the illegal one in the record.
    """
    window = self.call
    assert window is not None and self.seating is not None
    game = window.previous.session.game
    assert game.dice is not None
    try:
        reading = read_board(observation)
        board = position_of(reading, self.seating, game.turn.opponent)
    except BoardReadError:
        return self
    back = replace(self, session=window.previous.session, call=None, undo_point=None,
                   divergences=window.previous.divergences)
    if board.key == game.position.key:
        out.emit("position_restored", colour_name(game.turn),
                 position_id=game.position.position_id())
        return replace(back, stage=Stage.RESTORE, restored=True, message="PLAY AGAIN")
    judgement = judge_play(game.position, reading, self.seating, game.dice)
    if judgement.kind == "legal":
        return replace(back, stage=Stage.PLAY)._record_play(judgement, out)
    return self


def _infer_roll(self: "Referee", observation: Observation, out: "_Out",
                over: bool = False) -> "Referee":
    """A throw seen in part, then played and picked up: the roll the play fits.

    The camera missed a die (a 1 is the hardest to see), or both, and the
    player played.  When exactly one roll with the dice that were seen
    makes the board a legal play, that was the roll: it and the play are
    recorded, marked as inferred.  Otherwise it is a warning to look,
    never a call.  With no die seen, the play is only taken as over when
    the opponent throws (:meth:`_roll`), never on a board of its own: a
    board half-way through a play can be a legal play of another roll.

    ``over``: the opponent has thrown, or the die seen was picked up
    (:meth:`_glimpse_picked_up`), so the play is over.  Several rolls
    whose legal plays all leave this board (``8/2 6/4`` is 6-2 or 2-2 with a
    2 seen) then put the position beyond doubt and only the roll in doubt:
    the play is recorded with one of them (:func:`likeliest_roll`) and a
    ``look`` warning naming them all, never lost to a resync.
    """
    game = self.game
    assert self.seating is not None
    reading = read_board(observation)
    fits = []
    ending: Position | None = None
    for roll in rolls_with(self.glimpsed):
        judged = judge_play(game.position, reading, self.seating, roll)
        if judged.kind == "legal":
            fits.append(roll)
            ending = judged.after
    reread = ""
    if not fits and over:
        fits, ending, reread = self._infer_reread(reading)
    if len(fits) > 1 and ending is not None and ending.winner() is not None:
        # Every roll that fits bears off the last checker to the same board: the
        # game is over whichever it was (left unrecorded, the referee would take
        # the next game's set-up and opening throw for this game's).
        out.warn("dice", f"the last play fits {len(fits)} rolls with the dice seen; "
                         f"recorded with {fits[0][0]}-{fits[0][1]}")
        fits = fits[:1]
    if len(fits) > 1 and over:
        taken = likeliest_roll(fits)
        listed = ", ".join(f"{a}-{b}" for a, b in fits)
        move = judge_play(game.position, reading, self.seating, taken).move
        out.warn("look", f"{colour_name(game.turn)}'s play fits {listed} with the dice "
                         f"seen: taken as {move or 'no move'} with {taken[0]}-{taken[1]}, "
                         "the roll in doubt", move=move)
        fits = [taken]
    if len(fits) != 1:
        listed = ", ".join(f"{a}-{b}" for a, b in fits) or "no roll"
        seen = "-".join(map(str, self.glimpsed)) or "no die"
        out.warn("moved", f"checkers moved after a throw not fully seen ({seen} seen); "
                          f"the board fits {listed}")
        return self
    roll = fits[0]
    player = game.turn
    if reread:
        out.warn("dice", f"{reread}: the roll is taken as {roll[0]}-{roll[1]}, the one "
                         "the play fits")
    session = self.session.apply(Roll(player, roll))
    out.emit("roll", colour_name(player), dice=list(roll), inferred=True)
    state = replace(self, session=session, stage=Stage.PLAY, glimpsed=(), dice_down=())
    if self.parted is not None and self.resynced == RESYNC_PLAYS:
        # The board parted from the record (a ``moved`` warning, the next plays
        # lenient) and exactly one roll's legal play explains it: the parting was
        # this play, made with dice the camera missed, and the record is back with
        # the board.  No doubt left, so the lenience goes back to what it was
        # (rendered 28de820384cd seed 28: a 6-6 unseen, inferred from the play at
        # the opponent's throw, and the opponent's planted one_die mistake right
        # after it judged leniently, not called).
        state = replace(state, resynced=self.parted, parted=None)
    judgement = judge_play(game.position, reading, self.seating, roll)
    return state._record_play(judgement, out)


def _infer_reread(self: "Referee", reading: BoardReading
                  ) -> tuple[list[tuple[int, int]], Position | None, str]:
    """The rolls the play fits with one die seen of the throw read again as the vision
    misreads dice (``PLAUSIBLE.dice_confusions``: a 6 read as a 3, a 4 as a 2), the
    board they leave, and what was read again (empty when nothing fits).

    For a play over (the opponent has thrown, or the die seen was picked up) that no
    roll with the dice as seen explains: the same misreadings the referee allows for
    a throw seen whole (rendered 7e15fdd04acc seed 44 t=109: a 6-6 thrown again, one
    die seen and read as a 3, ``13/1 13/7(2)`` played; no roll with a 3 fits, and the
    play was lost to a resync at the opponent's throw).  A legal play is recorded,
    never a call, so a planted mistake can only be missed through this where the die
    was misread anyway.
    """
    game = self.game
    assert self.seating is not None
    fits: list[tuple[int, int]] = []
    ending: Position | None = None
    read_as: list[str] = []
    for index, value in enumerate(self.glimpsed):
        for misread, shown in PLAUSIBLE.dice_confusions:
            if value != misread:
                continue
            known = (*self.glimpsed[:index], shown, *self.glimpsed[index + 1:])
            for roll in rolls_with(known):
                if roll in fits or (roll[1], roll[0]) in fits:
                    continue
                judged = judge_play(game.position, reading, self.seating, roll)
                if judged.kind == "legal":
                    fits.append(roll)
                    ending = judged.after
                    read_as.append(f"the {misread} seen read again as a {shown}")
    return fits, ending, "; ".join(dict.fromkeys(read_as))


def _a_legal_play_of_some_roll(self: "Referee", observation: Observation) -> bool:
    """Whether the board is a legal play of the player on turn for some roll with
    the dice seen of their throw (``glimpsed``; any roll when none was seen)."""
    game = self.game
    assert self.seating is not None
    try:
        reading = read_board(observation)
    except BoardReadError:
        return False
    return any(judge_play(game.position, reading, self.seating, roll).kind == "legal"
               for roll in rolls_with(self.glimpsed))


def _check_cube(self: "Referee", observation: Observation, out: "_Out") -> "Referee":
    """The cube on the board should be where the record says it is."""
    cube, game = observation.cube, self.game
    if cube is None or not game.rules.cube or game.phase is Phase.DOUBLED \
            or self.seating is None:
        return self
    owner = game.cube_owner
    where = "centre" if owner is None else self.seat(owner)
    problems = []
    if cube.position != where:
        holder = "in the centre" if owner is None else \
            f"on {colour_name(owner)}'s side ({where})"
        problems.append(f"the cube is at the {cube.position}, the record has it {holder}")
    shown = 64 if game.cube_value == 1 and owner is None else game.cube_value
    if cube.value is not None and cube.value not in (shown, 1 if shown == 64 else shown):
        problems.append(f"the cube shows {cube.value}, the record has {game.cube_value}")
    if problems:
        out.warn("cube", "; ".join(problems))
    return self


def likeliest_roll(rolls: list[tuple[int, int]]) -> tuple[int, int]:
    """Of rolls that all explain a play, the one to record: a double is half as likely
    as any other roll (1 in 36 against 2 in 36), so the first that is no double."""
    return next((roll for roll in rolls if roll[0] != roll[1]), rolls[0])
