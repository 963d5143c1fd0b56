"""The referee's play stage (PLAY): the mover's checkers moving, the tray watched, early
throws, and the play judged once the dice are picked up (``_final``).

These are methods of :class:`~controller.referee.machine.Referee`, kept here as
functions of it (``self``) and bound to it in its class body.
"""

import math
from dataclasses import replace
from typing import TYPE_CHECKING, Final

from controller.game.events import Roll
from controller.game.game import Phase
from controller.referee.board import (
    LIGHT,
    BoardReadError,
    BoardReading,
    colour_name,
    position_of,
    read_board,
)
from controller.referee.plays import (
    PLAUSIBLE,
    PlayJudgement,
    blind_fits,
    is_bear_off_race,
    is_forced,
    judge_play,
    legal_judgement,
    nearest_legal,
)
from controller.referee.state import Stage, _a_throw, _only_hit, _Out, _same_place, _shifted
from controller.referee.throws import die_json, split_dice, thrower_half
from controller.rules import layout as lay
from controller.rules.faults import FaultKind
from controller.rules.judge import judge
from controller.rules.physical import Counts as PhysicalCounts
from controller.rules.physical import to_physical
from controller.rules.player import Player
from controller.rules.position import Position
from vision.observation import Die, Observation

if TYPE_CHECKING:
    from controller.referee.machine import Referee

NUDGE: Final = 4.0
"""A die found within this many die tolerances of where a die of the same
value lay is that die pushed aside, not a fresh throw."""


# PLAY -----------------------------------------------------------------


def _play(self: "Referee",
          observation: Observation, seen: tuple[Die, ...], out: "_Out") -> "Referee":
    tolerance = self.settings.die_tolerance
    kept, fresh = split_dice(seen, self.dice_down, tolerance)
    gone = split_dice(self.dice_down, kept, tolerance)[1]
    nudged = split_dice(fresh, gone, NUDGE * tolerance)[0]
    if fresh and len(nudged) == len(fresh):
        # A die pushed aside by a hand or a checker is the same die in a new place.
        still_gone = split_dice(gone, fresh, NUDGE * tolerance)[1]
        return replace(self, dice_down=(*kept, *fresh, *still_gone))
    state = self
    reread = _by_place(fresh, gone, tolerance)
    if reread:
        # A die where one of the mover's lay, read with another value (or now
        # cocked): that die read again, no fresh throw.  Its values are kept: the
        # roll itself may have been misread.
        fresh = tuple(d for d in fresh if all(d is not new for new, _ in reread))
        pairs = tuple((old.value, new.value) for new, old in reread
                      if old.value is not None and new.value is not None
                      and old.value != new.value)
        still_gone = tuple(g for g in gone if all(g is not old for _, old in reread))
        state = replace(self, dice_down=(*kept, *(new for new, _ in reread), *still_gone),
                        rereads=(*self.rereads, *pairs))
        kept = (*kept, *(new for new, _ in reread))
    if not fresh:
        # Some dice out of sight (a hand, one die picked up) are still the
        # mover's: one that shows again where it lay is no fresh throw.
        return state if kept else state._final(observation, (), out)
    mover = self.game.turn
    tolerance = self.settings.die_tolerance
    if kept and _a_throw(fresh) and all(any(_same_place(k, e, tolerance) for e in self.lying)
                                        for k in kept):
        # What is left of the mover's dice lay there before their throw: never
        # thrown (a mark taken for a die), so the mover's dice are up.
        return state._final(observation, fresh, out)
    allowed = self._early_allowed(observation) if kept else True
    if allowed is None and _a_throw(fresh):
        # The board cannot tell whether an exception applies (a checker unaccounted
        # for, the opponent's checkers read elsewhere than the record has them): a
        # look, never a call, and the throw is set aside, neither void nor a roll
        # (taken as the roll, a void early throw picked up and thrown again was
        # then taken for a wrong-half throw: rendered seed 9 of 960b5e2b053c).
        # Played on, the opponent's play is inferred at the next throw.
        out.warn("look", f"a throw while {colour_name(mover)}'s dice are still down, "
                         "but the board cannot tell whether the play was forced or a "
                         "bear-off race")
        return replace(state, ignored=(*state.ignored, *fresh))
    if not allowed:
        if not _a_throw(fresh):
            # One die, or dice strewn over both halves or off the field, while the
            # mover's lie there: no throw to call (the camera may have taken
            # something for a die, or read one of the mover's elsewhere).
            out.warn("dice", f"{len(fresh)} more dice seen while "
                             f"{colour_name(mover)}'s dice are still down")
            return state
        out.emit("reroll", colour_name(mover.opponent), reason="early",
                 die=die_json(fresh[0]),
                 detail=f"{colour_name(mover)} has not picked up the dice yet")
        out.beeps += 1
        return replace(state, ignored=(*state.ignored, *fresh), message="ROLL AGAIN",
                       void_by=mover.opponent)
    if kept and not _a_throw(fresh):
        # The exceptions make the play final at the opponent's throw; one more
        # die is no throw (a die missed, something taken for a die): wait.
        return state
    after = state._final(observation, fresh, out)
    if kept and after.stage is Stage.PLAY and after.game.turn != mover:
        # An early throw that stands (a forced play, a bear-off race) ended the play
        # with the mover's dice still down: they are no throw of theirs to come, and
        # are set aside until picked up.  Left as they were, the next board with them
        # still lying took them for the mover's next throw and ended the thrower's
        # play at once (rendered 1ebf74df850d seed 3 t=196.1: dark's 3-3 read lying
        # 2.6 s after the pick-up, light's play recorded before light picked up and
        # dark's "roll" 3-3 then taken back).
        after = replace(after, ignored=(*after.ignored, *kept))
    return after


def _blind_doubt(self: "Referee", observation: Observation) -> bool:
    """Whether the play may be legal judged from the points and the bar alone, the tray
    not believed: some legal result of the roll fits them with the mover's checkers
    missed anywhere and any tall stack read long (``Plausibility.tray_blind_stack``),
    or the points and the bar alone are no illegal play (the rules engine cannot judge
    them, or they are legal)."""
    game = self.game
    assert game.dice is not None and self.seating is not None
    try:
        reading = read_board(replace(observation, off=None, off_read=None))
    except BoardReadError:
        return True
    blind = judge_play(game.position, reading, self.seating, game.dice)
    if blind.kind != "illegal" or blind.after is None:
        return True
    return blind_fits(game.position, blind.after, game.dice, PLAUSIBLE.tray_blind_stack)


def _tray_went_back(self: "Referee", observation: Observation) -> bool:
    """Whether the tray shows fewer of the mover's checkers borne off than it did
    earlier in this play."""
    if observation.off is None or self.off_high is None or \
            self.off_high[0] != self.game.turn:
        return False
    return bool(getattr(observation.off, colour_name(self.game.turn)) < self.off_high[1])


def _note_off(self: "Referee", observation: Observation) -> "Referee":
    """PLAY: the most of the mover's checkers the tray has shown borne off so far.

    Only counts the roll can reach: more than the record's borne-off checkers and
    one a die (four for a double) is a misreading, no witness (rendered 1ebf74df850d
    seed 40 t=221.4, players mode: dark's checkers all missed on the points for a
    state and the tray read fifteen for eight; the planted ``one_die`` at the
    pick-up, 2/off with 4-6, was then excused as "fewer checkers read borne off than
    the tray showed during the play", the call light left dark)."""
    if observation.off is None:
        return self
    game = self.game
    mover = game.turn
    count = getattr(observation.off, colour_name(mover))
    if game.dice is not None:
        most = 4 if game.dice[0] == game.dice[1] else 2
        if count > game.position.off(mover) + most:
            return self
    if self.off_high is not None and self.off_high[0] == mover and \
            self.off_high[1] >= count:
        return self
    return replace(self, off_high=(mover, count))


def _early_allowed(self: "Referee", observation: Observation) -> bool | None:
    """Etiquette 4's exceptions: the mover's play was forced, or a bear-off race.

    None when the board cannot tell: it cannot be read, or the opponent's
    checkers are not where the record has them (other than hit to the bar),
    so the race it shows is in doubt (rendered seed 70 of 960b5e2b053c: a
    checker read on an empty point made a race look like contact, and an
    early throw under the exception was called void).  A race before the
    play is one after it, whatever the board shows (contact never returns).
    """
    game = self.game
    assert game.dice is not None and self.seating is not None
    if is_forced(game.position, game.dice) or is_bear_off_race(game.position):
        return True
    try:
        after = position_of(read_board(observation), self.seating, game.turn.opponent)
    except BoardReadError:
        return None
    if not _only_hit(game.position.layout(game.turn.opponent),
                     after.layout(game.turn.opponent)):
        return None
    return is_bear_off_race(after)


def _final(self: "Referee", observation: Observation, fresh: tuple[Die, ...],
           out: "_Out") -> "Referee":
    """The dice are up: judge the play, then take any fresh throw of the opponent."""
    reading = self._reading(observation, out)
    state = replace(self._unthrown(observation), dice_down=(), off_high=None,
                    tray_doubted=False, picked_up=self.dice_down)
    game = self.game
    assert game.dice is not None and self.seating is not None
    if reading is None:
        judgement = PlayJudgement("unclear", self._lenient(observation), "")
    else:
        judgement = judge_play(game.position, reading, self.seating, game.dice)
        if (self.tray_derived or self.tray_doubted) and judgement.kind == "illegal" and \
                self._blind_doubt(observation):
            # The tray's count derived from the board (now or earlier in this turn):
            # a checker missed on a point would look borne off, and a tray just read
            # wrong may be read wrong again within the fifteen, with a stack read long
            # to match.  A call only on what the points and the bar show whatever the
            # tray holds (``Plausibility.tray_blind_stack``).
            judgement = PlayJudgement(
                "unclear", judgement.after, judgement.move,
                ("the tray's count cannot be right; counted from the points and bar"
                 if self.tray_derived else "the tray was read wrong during this turn",))
        elif self.tray_derived and judgement.kind == "legal":
            out.warn("look", "the tray's count cannot be right: taken as "
                             f"{judgement.move or 'no move'}, counted from the points "
                             "and bar", move=judgement.move)
        fixed = self._misread_nearest(observation, judgement) \
            if judgement.kind == "unclear" else None
        if judgement.kind == "illegal" and self._tray_went_back(observation):
            # A checker seen borne off during the play is read back on the board
            # once the dice are up: checkers do not leave the tray, the reading is
            # at fault (rendered seed 93 of 960b5e2b053c: the tray read a checker
            # short at the pick-up, a home point one too many; a false call).
            judgement = PlayJudgement(
                "unclear", judgement.after, judgement.move,
                ("fewer checkers read borne off than the tray showed during the play",))
        if judgement.kind == "illegal" and not self.resynced and (
                self.settings.mode == "strict" or (judgement.after is not None
                                                   and judgement.after.winner() is not None)):
            # Called at once (no opponent to decide): a board the camera may have
            # misread is a look instead.  (Players mode leaves the verdict to the
            # opponent, and the play standing keeps the record with the board: on
            # rendered streams a look there left the record a checker off the board
            # when it was the record that was wrong.  With the record in doubt, the
            # lenient path below takes the board as it stands.)
            doubt = self._misread_doubt(observation, judgement)
            if doubt:
                judgement = PlayJudgement("unclear", judgement.after, judgement.move,
                                          (doubt,))
        elif judgement.kind == "illegal" and not self.resynced and \
                judgement.after is not None:
            # Players mode: the opponent decides, but the call light is not lit on a
            # board the camera itself reads two ways (rendered 7e15fdd04acc seed 12).
            doubt = self._witness_doubt(observation, judgement)
            if doubt:
                judgement = PlayJudgement("unclear", judgement.after, judgement.move,
                                          (doubt,))
        if fixed is not None:
            # No rule can judge the board (a checker of the opponent's moved, a
            # colour's total not fifteen), but it differs from the record only where
            # it already did when the throw lay there (a checker the record has and
            # the camera does not see, before and after the play), and is a legal
            # play without those differences, the one the opponent's throw would
            # take it for (a checker away): that play, now, not a second later at
            # the throw (rendered 28de820384cd seed 76: a play left standing with a
            # checker misread, and every play after it waited for the next throw).
            # Two checkers or more away from it are not taken at the throw either
            # (seed 102: the opponent's play unseen; the throw resyncs).
            out.warn("look", "the board differs from the record where it did at the "
                             f"throw: taken as {fixed.move or 'no move'}", move=fixed.move)
            judgement = fixed
        if judgement.kind == "unclear":
            out.warn("look", "cannot judge the play: " + "; ".join(judgement.reasons),
                     move=judgement.move)
    if judgement.kind == "unclear":
        won = self._won_misread(judgement)
        if won is not None:
            # The mover's last checkers are off and a legal play of the roll ends the
            # game: the opponent's checkers (read otherwise than the record has them)
            # cannot have moved during it, and no throw will come to end the play.
            out.warn("look", "the board was not read clearly: the game's last play, "
                             f"taken as {won.move}", move=won.move)
            judgement = won
    if judgement.kind == "unclear":
        nearest = nearest_legal(game.position, judgement.after, game.dice) if fresh else None
        if nearest is None:
            thrower = game.turn.opponent
            if reading is not None and _a_throw(fresh) and \
                    fresh[0].side == thrower_half(self.seat(thrower)) and \
                    self._board_readable(observation):
                split = self._played_on(reading, fresh)
                if split is not None:
                    # The board is this play and the thrower's play of the dice
                    # lying there: the thrower's play is judged at their pick-up.
                    out.warn("look", f"{colour_name(thrower)} has thrown and played on a "
                                     "board not seen clearly: "
                                     f"{colour_name(game.turn)}'s play taken as "
                                     f"{split.move or 'no move'}", move=split.move)
                    return state._record_play(split, out)._throw(thrower, fresh, out,
                                                                 observation)
                # The opponent has thrown on a board no play explains: go on from it.
                return state._resync(observation, thrower, out)._throw(thrower, fresh, out,
                                                                       observation)
            if reading is not None and len(fresh) == 1 and fresh[0].side == \
                    thrower_half(self.seat(thrower)) and self._board_readable(observation):
                # One die of the opponent's throw seen (the other missed) on a board
                # no play explains: the same, the throw seen in part (the roll stage
                # infers the roll from the opponent's play, or goes on from the board).
                # Waiting for two dice left the referee in this play for the rest of
                # the game when the vision kept missing one of the opponent's dice
                # (rendered 7e15fdd04acc seed 7 from t=208).
                return state._resync(observation, thrower, out)._roll(observation, fresh,
                                                                      out)
            # Not judged yet: the mover's dice stay the mover's (a die the camera
            # lost for a moment and sees again where it lay is no fresh throw).
            return self
        # The opponent has thrown: the play is over.  A board one checker
        # off a single legal play is that play misread, never a call.
        judgement = nearest
        out.warn("look", "the board was not read clearly: taken as "
                         f"{nearest.move or 'no move'}", move=nearest.move)
    if judgement.kind == "illegal" and reading is not None and self.rereads:
        state, judgement = state._reread_roll(reading, judgement, out)
        game = state.game
        assert game.dice is not None
    if judgement.kind == "illegal" and reading is not None and not self.resynced:
        state, judgement = state._pips_missed(reading, judgement, out)
        game = state.game
        assert game.dice is not None
    if judgement.kind == "illegal" and reading is not None and not self.resynced:
        # A die misread the way the vision misreads dice makes a legal play look
        # illegal; the roll that fits is taken instead, in both modes: in players
        # mode the call light lit on such a play invites the opponent to call a
        # legal play (rendered 7e15fdd04acc seed 60: 4-2 read 2-2; 28de820384cd
        # seed 96: 6-3 read 3-3).
        state, judgement = state._pips_missed(reading, judgement, out,
                                              PLAUSIBLE.dice_confusions, doubles=True)
        game = state.game
        assert game.dice is not None
    if judgement.kind == "illegal" and judgement.after is not None and \
            self.before_roll is not None and self._unmoved(observation, judgement.after):
        # Dice picked up with nothing moved, when something could move: a
        # throw taken back to be thrown again (one the camera took for good),
        # not a play.  The roll is forgotten; never a call.  Nothing moved also
        # when the board differs from the record only as it did when the throw
        # lay on it (rendered fe67551d4c6d seed 27: a stack of five read as six
        # and the tray a checker short, before and after a throw picked up).
        out.warn("dice", f"{colour_name(game.turn)} picked up the dice without playing: "
                         "the roll is taken back, throw again")
        stage = Stage.OPENING if self.before_roll.game.phase is Phase.OPENING else Stage.ROLL
        state = replace(state, session=self.before_roll, stage=stage, before_roll=None,
                        message="ROLL AGAIN", taken_back=True)
        if not fresh:
            return state
        if stage is Stage.OPENING:
            return state._opening(observation, fresh, out)
        return state._roll(observation, fresh, out)
    if judgement.kind == "illegal" and not self.resynced and reading is not None and \
            self.settings.mode == "players" and self.misread and \
            judgement.after is not None and judgement.after.winner() is None:
        rebased = state._from_throw_board(reading, out)
        if rebased is not None:
            state = rebased
            judgement = PlayJudgement("legal", None, "")
    if judgement.kind == "illegal" and not self.resynced and reading is not None and \
            self.settings.mode == "players" and self.stood is not None and \
            self.stood[0] == game.turn and judgement.after is not None and \
            judgement.after.winner() is None:
        rebased = state._from_stood(reading, out)
        if rebased is not None:
            state = rebased
            judgement = PlayJudgement("legal", None, "")
    if judgement.kind == "illegal" and self.resynced and judgement.after is not None:
        # Judged from a board taken as it stood: it may have caught this play
        # half-way.  A look, and the game goes on from the board as it is now.
        assert game.dice is not None
        taken = nearest_legal(game.position, judgement.after, game.dice)
        shown = judgement.move
        if taken is not None and taken.after is not None and \
                taken.after.winner() is None:
            # A single legal play a checker away: the board taken was misread by a
            # checker (or this one is), and that play is what was made.  It is
            # recorded, taken as, before the game goes on from the board (rendered
            # 7e15fdd04acc seed 93: a stack read a checker long at the resync, and
            # `4/off 2/off` read as three borne off, no play recorded).
            out.warn("look", f"{colour_name(game.turn)}'s play {judgement.move} is "
                             "judged from a board taken as the camera saw it: taken as "
                             f"{taken.move or 'no move'}; play goes on from the board as "
                             "it stands", move=taken.move, resync=True)
            state = state._record_play(taken, out)
            shown = taken.move
        else:
            out.warn("look", f"{colour_name(game.turn)}'s play {judgement.move} is "
                             "judged from a board taken as the camera saw it: not called; "
                             "play goes on from the board as it stands",
                             move=judgement.move, resync=True)
        state = state._diverge(judgement.after.with_turn(game.turn.opponent),
                               "the camera lost the thread; the game went on from the "
                               "board as the camera saw it")
        state = replace(state, stage=Stage.ROLL, message="", last_move=shown,
                        rereads=(), before_roll=None, resynced=self.resynced - 1,
                        parted=None)
    elif judgement.kind == "legal":
        if judgement.play is not None:  # else recorded from the throw's board
            state = state._record_play(judgement, out)
    elif self.settings.mode == "strict" or (
            judgement.after is not None and judgement.after.winner() is not None):
        # A game does not end on an illegal play nobody has had the chance to call.
        state = state._call_now(judgement, out)
    else:
        state = state._open_call(judgement, out)
    if fresh and state.stage is Stage.ROLL:
        return state._throw(state.game.turn, fresh, out, observation)
    if fresh:
        out.warn("dice", "the position must be put right before the next throw")
        return replace(state, ignored=(*state.ignored, *fresh))
    return state


def _won_misread(self: "Referee", judgement: PlayJudgement) -> PlayJudgement | None:
    """The game's last play, when only the opponent's checkers keep it from being judged.

    The board shows none of the mover's checkers on the points or the bar, the
    record and the roll allow a legal play that bears the last of them off (every
    such play leaving the same position), and the board was read unclearly
    (the opponent's checkers read otherwise than the record has them, a stack
    read short, a tray read wrong).  The opponent moves nothing during the mover's
    play, and no throw of theirs follows the game's last play to end it (where the
    referee takes a board read unclearly for the nearest legal play): that play is
    recorded, a ``look``, and the game ends.  Rendered 7e15fdd04acc seeds 40, 47,
    63, 125 and 135: a bear-off of the last checkers with a stack or the tray of
    the opponent misread; the play and the game's end were never recorded.
    """
    game = self.game
    if judgement.after is None or game.dice is None:
        return None
    mover = game.turn
    seen = judgement.after.layout(mover)
    if any(seen[place] for place in range(lay.PLACES) if place != lay.OFF):
        return None
    ends = sorted((p for p in game.position.legal_positions(*game.dice)
                   if p.winner() == mover), key=lambda p: p.key)
    if not ends or any(p.key != ends[0].key for p in ends):
        return None
    return legal_judgement(game.position, ends[0], game.dice)


def _played_on(self: "Referee", reading: BoardReading,
               fresh: tuple[Die, ...]) -> PlayJudgement | None:
    """The mover's play, when the board seen at the opponent's throw is that play and
    the opponent's legal play of the dice lying there, both made while the camera
    saw nothing clearly.

    Exactly one legal result of the mover's roll must leave a position from which
    the board is a legal play of the thrower's dice: that result is the mover's
    play.  Rendered 7e15fdd04acc seed 112 t=41.6: a hand reported over the board
    (wrongly) through dark's play, light's throw and light's play; the referee went
    on from the board as it stood, light's play taken into it, so light's pick-up
    looked like dice taken back without playing and neither play was recorded.
    """
    game = self.game
    assert game.dice is not None and self.seating is not None
    roll = tuple(d.value for d in fresh)
    if len(roll) != 2 or roll[0] is None or roll[1] is None:
        return None
    thrower = game.turn.opponent
    try:
        board = position_of(reading, self.seating, thrower)
    except BoardReadError:
        return None
    if board.winner() is not None:
        return None
    found = [after for after in game.position.legal_positions(*game.dice)
             if after.winner() is None and any(
                 then.key == board.key
                 for then in after.with_turn(thrower).legal_positions(roll[0], roll[1]))]
    if len(found) != 1:
        return None
    return legal_judgement(game.position, found[0], game.dice)


def _reread_roll(self: "Referee", reading: BoardReading, judgement: PlayJudgement,
                 out: "_Out") -> tuple["Referee", PlayJudgement]:
    """An illegal play with dice that were read with other values while they lay.

    The vision misreads a die now and then (a 6 for a 3); a new reading of
    the same die where it lay is a sign of it.  When exactly one roll made
    of the values read makes the board a legal play, that was the roll
    (a ``dice`` warning says so) and the play is legal: a play is called on
    dice that were read one way only, never on a reading in doubt.
    """
    game = self.game
    before = self.before_roll
    assert game.dice is not None and self.seating is not None
    if before is None or before.game.phase is not Phase.ROLL:
        return self, judgement
    rolls = set()
    for old, new in self.rereads:
        for i in (0, 1):
            if game.dice[i] == old:
                other = game.dice[1 - i]
                rolls.add((max(new, other), min(new, other)))
    rolls.discard((max(game.dice), min(game.dice)))
    fits = sorted(r for r in rolls if judge_play(game.position, reading, self.seating,
                                                 r).kind == "legal")
    if len(fits) != 1:
        return self, judgement
    roll = fits[0]
    read = "-".join(map(str, game.dice))
    out.warn("dice", f"the dice were read {read} and, where they lay, also "
                     f"{roll[0]}-{roll[1]}: the play fits {roll[0]}-{roll[1]}",
             dice=list(roll))
    state = replace(self, session=before.apply(Roll(game.turn, roll)), rereads=())
    return state, judge_play(game.position, reading, self.seating, roll)


def _from_throw_board(self: "Referee", reading: BoardReading, out: "_Out") -> "Referee | None":
    """*Players* mode: an illegal-looking play that is a legal play from the board the
    throw lay on, which differed from the record (``misread``): the record is out of
    step (a misread play stood: the record took the board as read, and the board is
    read right again), so the play is recorded from that board (a ``look`` warning
    and a divergence), never left open to a call.  None when it is not legal from
    there (or that board cannot be read)."""
    return self._legal_from_shifted(
        reading, self.misread, out,
        "'s play is legal from the board the throw lay on, which the record had "
        "otherwise: the record follows the board",
        "the camera's record parted from the board; the game went on from the board "
        "the throw lay on")


def _stood_shift(self: "Referee", judgement: PlayJudgement
                 ) -> tuple[Player, tuple[tuple[int, int, int], ...]] | None:
    """For :attr:`stood`: the mover and the difference from the illegal play's board
    to the one legal play a checker away from it (``nearest_legal``), or None."""
    game = self.game
    if self.seating is None or game.dice is None or judgement.after is None:
        return None
    near = nearest_legal(game.position, judgement.after, game.dice)
    if near is None or near.after is None:
        return None
    legal = to_physical(near.after, self.seating, LIGHT)
    seen = to_physical(judgement.after, self.seating, LIGHT)
    places = [*zip(legal.points, seen.points, strict=True), (legal.bar, seen.bar),
              (legal.off, seen.off)]
    return game.turn, tuple((place, a.light - b.light, a.dark - b.dark)
                            for place, (a, b) in enumerate(places)
                            if (a.light, a.dark) != (b.light, b.dark))


def _from_stood(self: "Referee", reading: BoardReading, out: "_Out") -> "Referee | None":
    """*Players* mode: an illegal-looking play that is legal from the record with the
    mover's last illegal play, which stood, set right to the one legal play a
    checker away from it (:attr:`stood`): that play was a misreading the record took
    over (rendered 28de820384cd seed 72: ``3/off 2/off`` read ``3/off``, a stack of
    six read as seven and the tray one short; the next play, read right, looked
    like three checkers borne off with 5-1).  Recorded from there (a ``look``
    warning and a divergence), no verdict against it; None when that is not legal
    either."""
    if self.stood is None:
        return None
    return self._legal_from_shifted(
        reading, self.stood[1], out,
        "'s play is legal once their last play, which stood as read, is taken as the "
        "legal play a checker away: the record follows",
        "an illegal play that stood was a misreading; the game went on from the legal "
        "play a checker away")


def _legal_from_shifted(self: "Referee", reading: BoardReading,
                        shift: tuple[tuple[int, int, int], ...], out: "_Out",
                        look: str, divergence: str) -> "Referee | None":
    """The play recorded from the record shifted by ``shift`` (place, light, dark
    added) when it is legal from there: a ``look`` warning (the mover's name then
    ``look``), a divergence from that board (``divergence``) and the play; None when
    it is not legal from there, that board cannot be read, or the tray is not seen
    (the shifted board's borne-off counts could not be checked)."""
    game = self.game
    if self.seating is None or game.dice is None or not reading.off_seen:
        return None
    record = to_physical(game.position, self.seating, LIGHT)
    places = _shifted((*record.points, record.bar, record.off), shift, 1)
    if places is None:
        return None
    counts = tuple(PhysicalCounts(*c) for c in places if c is not None)
    shifted = BoardReading(replace(reading.board, points=counts[:-2], bar=counts[-2],
                                   off=counts[-1]), True)
    try:
        start = position_of(shifted, self.seating, game.turn)
    except BoardReadError:
        return None
    judged = judge_play(start, reading, self.seating, game.dice)
    if judged.kind != "legal" or judged.play is None:
        return None
    out.warn("look", colour_name(game.turn) + look, move=judged.move, resync=True)
    state = self._diverge(start, divergence)
    state = replace(state, session=state.session.apply(Roll(game.turn, game.dice)))
    return state._record_play(judged, out)


def _unmoved(self: "Referee", observation: Observation, after: Position) -> bool:
    """Whether the board after the dice were picked up (``after``, read from
    ``observation``) shows nothing moved: it is the record's position, or is once
    the differences read at the throw (``misread``) are taken out and those are
    differences no play makes: a checker back from the tray (fe67551d4c6d seed 27),
    checkers appearing or vanishing as read (no tray in view, a checker of a tall
    stack hidden: 28de820384cd seed 105), the opponent's moving.  The mover's
    checkers only gone forward at the throw, every checker accounted for, are a
    play begun before the throw was taken (28de820384cd seed 74: the throw taken
    late, after a board read unclearly, with ``8/2`` already played; that play
    left a die unplayed, and is judged)."""
    game = self.game
    if after.key == game.position.key:
        return True
    if not self.misread or self.seating is None or game.dice is None:
        return False
    kept = sum(light for _, light, _ in self.misread) == 0 and \
        sum(dark for _, _, dark in self.misread) == 0
    kinds = set(judge(game.position, after, *game.dice).kinds)
    if kept and not kinds & {FaultKind.BACKWARDS, FaultKind.COUNT,
                             FaultKind.NOT_MOVERS_CHECKER, FaultKind.OPPONENT_CHANGED} \
            and not self._off_unwitnessed(observation):
        return False
    fixed = self._without_misread(observation)
    if fixed is None:
        return False
    try:
        board = position_of(read_board(fixed), self.seating, game.turn.opponent)
    except BoardReadError:
        return False
    return board.key == game.position.key


def _off_unwitnessed(self: "Referee", observation: Observation) -> bool:
    """Whether the throw's differences (``misread``) bear the mover's checkers off
    where the tray's own count (``off_read``) does not have them: the tray then
    holds what the record says, and the checkers "borne off" are a stack counted
    short, no play begun (rendered 7e15fdd04acc seed 84: a stack of eleven read
    as ten, the tray's count derived from it; the throw was taken back, and the
    board as read was taken for ``2/off`` played with it)."""
    if observation.off is None or observation.off_read is None:
        return False
    colour = colour_name(self.game.turn)
    gained = sum(light if colour == "light" else dark
                 for place, light, dark in self.misread if place == len(observation.points) + 1)
    if gained <= 0:
        return False
    recorded = getattr(observation.off, colour) - gained
    return bool(getattr(observation.off_read, colour) <= recorded)


def _lenient(self: "Referee", observation: Observation) -> Position | None:
    """The board as read, checkers missing and all (None when not even that)."""
    assert self.seating is not None
    try:
        return position_of(read_board(observation, whole=False), self.seating,
                           self.game.turn.opponent)
    except BoardReadError:
        return None


def _by_place(fresh: tuple[Die, ...], gone: tuple[Die, ...],
              tolerance: float) -> list[tuple[Die, Die]]:
    """(fresh die, gone die) pairs lying at the same place, whatever their values
    (closest first, one to one)."""
    pairs = sorted((math.dist(f.center, g.center), i, j) for i, f in enumerate(fresh)
                   for j, g in enumerate(gone) if _same_place(f, g, tolerance))
    out: list[tuple[Die, Die]] = []
    used_f: set[int] = set()
    used_g: set[int] = set()
    for _, i, j in pairs:
        if i not in used_f and j not in used_g:
            used_f.add(i)
            used_g.add(j)
            out.append((fresh[i], gone[j]))
    return out
