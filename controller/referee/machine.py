"""The referee itself: a pure, immutable state machine.

``Referee.new(settings)`` waits for the board to be set up; every input
(:mod:`controller.referee.inputs`) gives the next referee and the events it
announces (:mod:`controller.referee.events`).  Nothing here reads a clock,
a file or a device, and equal inputs give equal referees, so the journal can
keep the inputs and rebuild the referee after a crash by replaying them.

The stages (``docs/referee.md`` draws them):

``SETUP``
    waiting for a stable board in the starting position; the seating it
    shows says which colour sits where and moves which way.
``OPENING``
    waiting for one die from each player, each in their own right half.
``ROLL``
    waiting for the player on turn to throw, double or resign (a pending
    double or resignation is the game's own phase).  In *players* mode the
    opponent of a player whose play was illegal may call it until they throw.
``PLAY``
    the mover's dice are out; checkers may move through any states; the play
    is final once the dice are picked up.
``RESTORE``
    an illegal play was called (strict mode, or a call upheld): waiting for
    the position before the play, then for a legal play of the same dice.
``OVER``
    the match is over.

The game's rules (cube, score, Crawford, results) are the game layer's
(:class:`~controller.game.match.Match`,
:class:`~controller.game.money.MoneySession`); this module decides what the
camera and the buttons mean for them.
"""

from dataclasses import dataclass, replace
from typing import Literal

from controller.game.events import Move, Roll
from controller.game.game import Game, Phase
from controller.game.match import Match, MatchRules
from controller.game.money import MoneySession
from controller.game.result import Ending
from controller.panel import PanelState
from controller.records.record import MatchRecord, scores_before
from controller.referee import doubts, opening, playing
from controller.referee.board import (
    LIGHT,
    BoardReadError,
    BoardReading,
    colour_name,
    position_of,
    read_board,
)
from controller.referee.events import RefereeEvent
from controller.referee.inputs import (
    ButtonInput,
    OperatorInput,
    RefereeInput,
    StableInput,
    StatusInput,
)
from controller.referee.plays import (
    PLAUSIBLE,
    PlayJudgement,
    is_bear_off_race,
    is_forced,
    judge_play,
)
from controller.referee.settings import RefereeSettings
from controller.referee.state import (
    PARKED,
    RESYNC_PLAYS,
    CallWindow,
    Divergence,
    Session,
    Snapshot,
    Stage,
    _a_throw,
    _only_hit,
    _Out,
    _play_message,
    _position_id,
    _same_place,
    _the_fixture,
    _with_off_field,
    likeliest_roll,
)
from controller.referee.throws import (
    Unclear,
    VoidThrow,
    describe_die,
    dice_values,
    die_json,
    judge_throw,
    rolls_with,
    split_dice,
    thrower_half,
)
from controller.rules import layout as lay
from controller.rules.errors import RulesError
from controller.rules.nearest import board_distance
from controller.rules.physical import Seating
from controller.rules.player import Player
from controller.rules.position import Position
from vision.observation import Die, Observation

__all__ = ["Referee", "Session", "Stage", "_Out", "_new_session", "likeliest_roll"]


def _new_session(settings: RefereeSettings) -> Session:
    rules = settings.match_rules()
    if isinstance(rules, MatchRules):
        return Match.new(rules)
    return MoneySession.new(rules)


@dataclass(frozen=True, slots=True)
class Referee:
    """The whole state of the referee; equal referees behave alike."""

    settings: RefereeSettings
    session: Session
    stage: Stage = Stage.SETUP
    seating: Seating | None = None
    dice_down: tuple[Die, ...] = ()
    """PLAY: the mover's dice as they lie on the board."""
    ignored: tuple[Die, ...] = ()
    """Dice of a void throw or a tied opening roll, waiting to be picked up."""
    void_by: Player | None = None
    """Whose void throw still lies on the board (their call light blinks)."""
    parked: tuple[Die, ...] = ()
    """Dice seen beside the field on a quiet board (an idle pair), never a throw."""
    fixtures: tuple[Die, ...] = ()
    """What the camera took for dice on the field while the board was being set up
    (a hinge, a mark, a die left lying): never part of a throw, by place alone."""
    lying: tuple[Die, ...] = ()
    """The dice on the field in the last board seen while waiting for a throw (OPENING,
    ROLL): a die still there, in the same place, once the next play is over was never
    thrown (a mark the camera takes for a die, a die left lying) and becomes a fixture."""
    doubt: VoidThrow | None = None
    """ROLL: a throw whose only fault is a die read as cocked, held in doubt (see
    :meth:`_doubted_throw`); ``doubted`` are its dice as they lay.  Or (reason
    ``wrong_half``) both dice in the opponent's half while the player on turn could
    have danced unseen (:meth:`_doubted_half`); ``doubted_on`` the board they lay on."""
    doubted: tuple[Die, ...] = ()
    doubted_on: Observation | None = None
    doubt_up: bool = False
    """The doubted dice were picked up with nothing moved, though nothing could move
    with them as read: no call; the next throw tells (the thrower's: the throw was
    void; the opponent's: a dance, recorded), never a wrong-half throw."""
    setup_dice: tuple[Die, ...] = ()
    """SETUP: the dice on the field in the last board seen not yet set up."""
    resynced: int = 0
    """Plays still to be judged leniently after the position was taken from the board as
    the camera saw it (out of step) rather than from the record: that board may have
    caught a play half-way or been misread, and the error stays in the position until
    a board read afresh replaces it.  While above 0, an illegal-looking play is no
    ground for a call; each play judged counts one down."""
    off_high: tuple[Player, int] | None = None
    """PLAY: the mover and the most of their checkers the tray has shown borne off during
    the play: a final board with fewer is misread (checkers do not leave the tray)."""
    parted: int | None = None
    """ROLL: the board parted from the record between plays (a ``moved`` warning, which
    makes the next plays lenient): ``resynced`` as it was before, given back if the
    board returns to the record before a play is judged.  None when it has not."""
    rereads: tuple[tuple[int, int], ...] = ()
    """PLAY: (value recorded, value read) for each time one of the mover's dice was read
    with another value where it lay: the roll itself may have been misread."""
    taken_back: bool = False
    """ROLL: the last throw was picked up with nothing moved (taken back): whose turn it
    is may be in doubt, so the next throw in the opponent's half is theirs (a resync),
    never a wrong-half call."""
    misread: tuple[tuple[int, int, int], ...] = ()
    """PLAY: where the board the throw lay on differed from the record, before any
    checker moved: (place, light, dark), the counts read less the record's, place
    0-23 a physical point, 24 the bar, 25 the tray (when in view).  A reading wrong
    at the throw (a stack of five read as six, the tray a checker short: the vision
    makes the two agree) is usually wrong after the play too, so a board that is a
    legal play once these differences are taken out is a look, never a call
    (rendered 960b5e2b053c seed 7).  Empty with a perfect reader."""
    tray_off: int = 0
    """PLAY: the tray's own count of the mover's borne-off checkers (``off_read``) on the
    board the throw lay on, less the record's: a tray read a checker short at the throw
    is usually read a checker short after the play too (rendered 7e15fdd04acc seed 76:
    dark's tray read one short before and after ``5/off``, the checker borne off read
    on a stack of six as a seventh; the call light lit for a legal play).  What the
    tray's own count gained since the throw is what went into the tray
    (:meth:`_witness_doubt`).  0 with a perfect reader, or no tray read."""
    glimpsed: tuple[int, ...] = ()
    """ROLL: the values of a throw's dice that were seen when not both were readable."""
    beside: tuple[Die, ...] = ()
    """ROLL: a lone die that came to lie beside the field while the player on turn was
    to throw, with no fresh die on the field (parked, as beside the field it is no
    throw of its own): a die that bounced off the field, its partner on the field
    missed by the camera.  ``beside_by`` is who was to throw; ``beside_gone`` that it
    has left since.  The same player throwing again after it left, nothing moved,
    shows that throw was void (:meth:`_rethrow_after_off_field`)."""
    beside_by: Player | None = None
    beside_gone: bool = False
    call: CallWindow | None = None
    undo_point: Snapshot | None = None
    """The session just before the last play was recorded (dice out), for the operator's undo."""
    restored: bool = False
    """RESTORE: the position before the play has been seen again."""
    replay: PlayJudgement | None = None
    """RESTORE: the legal board shown as the replay, recorded when the opponent acts."""
    stood: tuple[Player, tuple[tuple[int, int, int], ...]] | None = None
    """*Players* mode: the mover of the last illegal play the record took as played, and
    how the board of the one legal play a checker away from it differs from that
    play's board ((place, light, dark) as in ``misread``): a misreading the record
    took over, should the mover's next play be legal only with it set right
    (:meth:`_from_stood`).  None when no such legal play, once the mover's next
    play is judged, and after a resync or a new game (the record taken afresh)."""
    tray_derived: bool = False
    """ROLL and PLAY: the board now seen had a tray whose count the record shows
    cannot be right (:meth:`_tray_derived`), and is read as if no tray were in view:
    a play judged from it is recorded as a ``look`` ("taken as"), never called."""
    tray_doubted: bool = False
    """PLAY: a board of this turn, from the throw (or the wait for it) to the dice picked
    up, had its tray's count derived: a tray just read wrong may be read wrong again
    within the board's fifteen (the vision holds the tray to the board within two), so
    the play is not called even once the checkers add up (rendered 28de820384cd seed
    125: a tray read three short at 1-1, and dark's 3-3 after it read with a stack of
    six as eight and the tray two short, adding up: a false call)."""
    went_on: tuple[Observation, tuple[Die, ...]] | None = None
    """RESTORE: the board (not put right) on which the opponent threw into their half,
    and that throw's dice: the opponent's checkers moving on from it show that the
    players went on without the call (:meth:`_went_on`)."""
    before_roll: Session | None = None
    """PLAY: the record before the dice now out were recorded, should they be thrown again."""
    last_move: str = ""
    """The last play recorded or left standing, as the board showed it."""
    taking_back: str = ""
    """RESTORE: the play being taken back, for the players' instructions."""
    divergences: tuple[Divergence, ...] = ()
    notes: tuple[str, ...] = ()
    """Comments for the match record (score adjustments and the like)."""
    last_warning: tuple[str, str] | None = None
    """The last warning announced, so a board that stays wrong is not announced again."""
    setup_differences: tuple[str, ...] = ()
    beeps: int = 0
    message: str = "SET UP BOARD"
    condition: str = "stable"
    games_started: int = 0

    # -- construction -----------------------------------------------------

    @classmethod
    def new(cls, settings: RefereeSettings | None = None) -> "Referee":
        """A referee waiting for the first set-up."""
        settings = settings or RefereeSettings()
        return cls(settings=settings, session=_new_session(settings))

    # -- reading ----------------------------------------------------------

    @property
    def game(self) -> Game:
        """The game being played (or about to start)."""
        return self.session.game

    def seat(self, player: Player) -> Literal["bottom", "top"]:
        """Where ``player`` sits; the bottom until a set-up has been seen."""
        if self.seating is None or self.seating.bottom == player:
            return "bottom"
        return "top"

    def expecting(self) -> str:
        """A sentence for the players: what the referee waits for now."""
        from controller.referee.display import expecting

        return expecting(self)

    def panel(self) -> PanelState:
        """What the lights and the scoreboard show now."""
        from controller.referee.display import panel

        return panel(self)

    def match_record(self) -> MatchRecord:
        """The match so far as a record that ``format_mat`` writes."""
        from controller.referee.record import match_record

        return match_record(self)

    # -- the step ---------------------------------------------------------

    def step(self, inp: RefereeInput) -> tuple["Referee", tuple[RefereeEvent, ...]]:
        """The referee after ``inp`` and what it announces; never raises on a well-formed input."""
        out = _Out(inp.t)
        try:
            state = self._dispatch(inp, out)
        except RulesError as exc:
            # A combination the stages should have ruled out: say so, change nothing.
            out = _Out(inp.t)
            out.warn("internal", f"input not applied: {exc}")
            state = self
        return state._announced(out), tuple(out.events)

    def _dispatch(self, inp: RefereeInput, out: "_Out") -> "Referee":
        match inp:
            case StableInput(observation=observation):
                return self._observe(observation, out)
            case StatusInput(condition=condition):
                return replace(self, condition=condition)
            case ButtonInput():
                from controller.referee.buttons import press

                return press(self, inp, out)
            case OperatorInput():
                from controller.referee.corrections import correct

                return correct(self, inp, out)
        return self

    def _announced(self, out: "_Out") -> "Referee":
        """Remember the last warning (repeats are dropped) and count the beeps."""
        last = self.last_warning
        kept: list[RefereeEvent] = []
        for event in out.events:
            if event.event == "warning":
                key = (str(event.data.get("reason")), str(event.data.get("detail")))
                if key == last:
                    continue
                last = key
            else:
                last = None
            kept.append(event)
        out.events = kept
        return replace(self, last_warning=last, beeps=self.beeps + out.beeps)

    # -- observations -----------------------------------------------------

    def _observe(self, observation: Observation, out: "_Out") -> "Referee":
        if observation.occluded or not observation.board_found:
            # Never a board state (the stabiliser does not pass these on; a raw line might).
            return self
        observation = _with_off_field(observation)
        derived = self._tray_derived(observation)
        if derived is not None or self.tray_derived:
            observation = observation if derived is None else derived
            state = replace(self, tray_derived=derived is not None,
                            tray_doubted=self.tray_doubted or derived is not None
                            )._forget_picked_up(observation)
        else:
            state = self._forget_picked_up(observation)
        seen = split_dice(observation.dice, state.ignored, self.settings.die_tolerance)[1]
        seen = tuple(d for d in seen if d.side is None or not any(
            _the_fixture(d, f, self.settings.die_tolerance) for f in state.fixtures))
        parked = state.parked
        state, seen = state._park(seen)
        if self.stage is Stage.ROLL:
            state._off_field_pair(parked, out)
            state = state._note_beside(parked, seen, observation)
        after = state._dispatch_board(observation, seen, out)
        if after.beside and (after.stage is not Stage.ROLL or after.game.turn != after.beside_by):
            after = replace(after, beside=(), beside_by=None, beside_gone=False)
        if after.stage in (Stage.OPENING, Stage.ROLL) and \
                state.stage in (Stage.OPENING, Stage.ROLL):
            # Still waiting for a throw: remember what lies on the field now.
            after = replace(after, lying=tuple(d for d in seen if d.side is not None))
        return after

    def _dispatch_board(self, observation: Observation, seen: tuple[Die, ...],
                        out: "_Out") -> "Referee":
        match self.stage:
            case Stage.SETUP:
                return self._setup(observation, seen, out)
            case Stage.OPENING:
                return self._opening(observation, seen, out)
            case Stage.ROLL:
                return self._check_cube(observation, out)._roll(observation, seen, out)
            case Stage.PLAY:
                return self._check_cube(observation, out)._note_off(observation)._play(
                    observation, seen, out)
            case Stage.RESTORE:
                return self._restore(observation, seen, out)
            case Stage.OVER:
                return self
        return self  # pragma: no cover

    def _tray_derived(self, observation: Observation) -> Observation | None:
        """The observation with its tray out of view, when the tray's count is all that
        keeps the checkers from being accounted for.

        ROLL and PLAY only.  A colour whose points, bar and tray do not add up to
        fifteen, whose points and bar hold no more than fifteen and leave no fewer
        borne off than the record has (checkers do not leave the tray), and who has
        borne off or has all their checkers home in the record (else none can be in
        the tray, and a checker is missed on the board): the difference is taken to
        lie in the tray, and its count is derived from the
        board (fifteen less the points and the bar), as when no tray is in view.
        The vision already does so within ``TrayConfig.board_tolerance`` (two) of
        the board (``vision.checkers.totals.consistent_off``: the board is read
        more surely than the tray); further off, or a colour the tray shows none of,
        it leaves the tray's count and the total wrong, and the referee recorded no
        play until the tray read right again (rendered 7e15fdd04acc seed 7: a tray
        read three and four short from t=208, eight plays lost to the game's end).
        A play judged from a derived tray is a ``look`` ("taken as"), never a call
        (:meth:`_final`): a checker missed on a point looks borne off.  None when
        no tray is in view, the checkers add up, or the points are misread too.
        """
        off = observation.off
        if off is None or self.seating is None or \
                self.stage not in (Stage.ROLL, Stage.PLAY):
            return None
        position = self.game.position
        short = False
        for player, name in ((LIGHT, "light"), (LIGHT.opponent, "dark")):
            board = sum(getattr(c, name) for c in observation.points) + \
                getattr(observation.bar, name)
            if board > lay.CHECKERS or lay.CHECKERS - board < position.off(player):
                return None  # the points or the bar are misread too
            if board + getattr(off, name) == lay.CHECKERS:
                continue
            if position.off(player) == 0 and any(position.layout(player)[7:lay.BAR + 1]):
                # (points 7 to 24 and the bar lie outside the home board)
                return None  # none can have been borne off: a checker missed, not the tray
            short = True
        if not short:
            return None
        return replace(observation, off=None, off_read=None)

    def _unthrown(self, observation: Observation) -> "Referee":
        """A play is over: the dice that lay on the field before its throw and lie in the
        same places now were never thrown; they become fixtures."""
        tolerance = self.settings.die_tolerance
        stayed = tuple(d for d in observation.dice if d.side is not None and any(
            _same_place(d, e, tolerance) for e in self.lying))
        if not stayed:
            return self
        return replace(self, fixtures=(*self.fixtures, *stayed)[-PARKED:], lying=())

    def _park(self, seen: tuple[Die, ...]) -> tuple["Referee", tuple[Die, ...]]:
        """Set aside dice lying beside the field that are no part of a throw.

        Each player has a pair of dice; the idle pair lies beside the board,
        and the camera may see it (or something it takes for a die).  A die
        off the field counts only when it comes with a fresh throw onto the
        field (a die that bounced off: ``off_field``), and only where no die
        lay beside the field on a quiet board before: whatever lies there
        while no fresh die is on the field is parked, by place alone, since
        its pips may be read differently from frame to frame.
        """
        tolerance = self.settings.die_tolerance
        beside = [d for d in seen if d.side is None]
        if not beside:
            return self, seen
        on_field = tuple(d for d in seen if d.side is not None)
        if not split_dice(on_field, self.dice_down, tolerance)[1]:
            parked = [p for p in self.parked
                      if not any(_same_place(p, d, tolerance) for d in beside)]
            parked = [*parked, *beside][-PARKED:]
            return replace(self, parked=tuple(parked)), on_field
        return self, tuple(d for d in seen if d.side is not None or not any(
            _same_place(d, p, tolerance) for p in self.parked))

    def _off_field_pair(self, before: tuple[Die, ...], out: "_Out") -> None:
        """ROLL: two or more dice newly parked beside the field at once, none fresh on it,
        may be a throw that landed wholly off the field (void, etiquette 1) or the idle
        pair laid aside: a ``dice`` warning, never a call (the throw again onto the field
        is judged as usual, the dice beside it parked)."""
        tolerance = self.settings.die_tolerance
        new = [d for d in self.parked
               if not any(_same_place(d, b, tolerance) for b in before)]
        if len(new) >= 2 and len(self.parked) > len(before):
            out.warn("dice", f"{len(new)} dice off the field: a throw that lands off the "
                     "field is void, throw again onto it")

    def _note_beside(self, before: tuple[Die, ...], on_field: tuple[Die, ...],
                     observation: Observation) -> "Referee":
        """ROLL: remember a lone die newly beside the field with no fresh die on it (see
        ``beside``), and notice when it has left."""
        tolerance = self.settings.die_tolerance
        if self.beside:
            lying = any(d.side is None and _same_place(d, self.beside[0], tolerance)
                        for d in observation.dice)
            return self if lying != self.beside_gone else replace(self, beside_gone=not lying)
        new = [d for d in self.parked if not any(_same_place(d, b, tolerance) for b in before)]
        if len(new) != 1 or on_field or \
                self.game.phase is not Phase.ROLL or self.doubt is not None:
            return self
        return replace(self, beside=(new[0],), beside_by=self.game.turn, beside_gone=False)

    def _rethrow_after_off_field(self, player: Player, seen: tuple[Die, ...],
                                 observation: Observation | None,
                                 out: "_Out") -> "Referee":
        """ROLL: a lone die came to lie beside the field while ``player`` was to throw
        (``beside``), none on the field with it that the camera saw, and left again;
        now ``player`` throws again into their half with the checkers as they were.

        The throw is thrown again, so it was void, and the die beside the field
        was part of it: its partner on the field was missed (rendered 28de820384cd
        seeds 28 and 44: a die bounced onto the rail, the one on the field not read).
        ``reroll`` (``off_field``) for it, before the rethrow is judged.  A pair of
        dice beside the field stays a warning (the idle pair laid aside), and a die
        still lying beside the field is no part of a new throw."""
        if not self.beside or not self.beside_gone or player != self.beside_by or \
                observation is None or not seen or self.seating is None:
            return self
        half = thrower_half(self.seat(player))
        if any(d.side != half for d in seen):
            return self
        try:
            board = position_of(read_board(observation), self.seating, player)
        except BoardReadError:
            return self
        if board.key != self.game.position.key:
            return self
        lone = self.beside[0]
        fault = VoidThrow("off_field", lone, f"{describe_die(lone)} was off the field (the "
                                             "other die was not seen); thrown again")
        state = replace(self, beside=(), beside_by=None, beside_gone=False)
        return replace(state._void(fault, player, (), out), void_by=None)

    def _forget_picked_up(self, observation: Observation) -> "Referee":
        """Ignored dice stop being ignored once every one of them has left the board."""
        if not self.ignored:
            return self
        kept = split_dice(observation.dice, self.ignored, self.settings.die_tolerance)[0]
        return self if kept else replace(self, ignored=(), void_by=None)

    def _reading(self, observation: Observation, out: "_Out") -> BoardReading | None:
        try:
            return read_board(observation)
        except BoardReadError as exc:
            out.warn("look", f"the checkers cannot be accounted for: {exc}")
            return None

    # -- set-up and the opening roll (:mod:`.opening`) --------------------------

    _setup = opening._setup
    _fixtures = opening._fixtures
    _missed_start = opening._missed_start
    _start_game = opening._start_game
    _opening = opening._opening
    _doubted_opening = opening._doubted_opening
    _missed_opening = opening._missed_opening
    _opening_played = opening._opening_played
    _resync_opening = opening._resync_opening

    def _thrower_of_side(self, side: str | None) -> Player | None:
        """The player who throws into that image half (None off the field)."""
        if side is None or self.seating is None:
            return None
        return self.seating.bottom if side == "right" else self.seating.top

    def _void(self, fault: VoidThrow, thrower: Player | None, dice: tuple[Die, ...],
              out: "_Out", reason: str | None = None) -> "Referee":
        out.emit("reroll", None if thrower is None else colour_name(thrower),
                 reason=reason or fault.reason, die=die_json(fault.die), detail=fault.detail)
        out.beeps += 1
        return replace(self, ignored=(*self.ignored, *dice), message="ROLL AGAIN",
                       void_by=thrower)

    # ROLL -----------------------------------------------------------------

    def _roll(self, observation: Observation, seen: tuple[Die, ...], out: "_Out") -> "Referee":
        if self.doubt is not None and self.doubt.reason == "wrong_half":
            return self._doubted_half(observation, seen, out)
        if self.doubt is not None:
            return self._doubted_throw(observation, seen, out)
        game = self.game
        state = self
        if not seen:
            return state._check_board(observation, out)
        if game.phase is Phase.DOUBLED or game.resignation is not None:
            out.warn("dice", "dice thrown before the double or resignation was answered")
            return state
        if game.phase is not Phase.ROLL:
            return state
        opponent_half = thrower_half(self.seat(game.turn.opponent))
        if self._set_up_again(observation):
            # The board is set up for a new game while the record's game goes on: its
            # end was missed (rendered seed 101 of 960b5e2b053c: the last play not
            # seen, then the next game's opening throw called wrong_half).  No call.
            out.warn("look", "the board is set up for a new game, but the end of this "
                             "game was not seen")
            return state
        if self.glimpsed:
            stale, rest = self._glimpse_lying(seen)
            if _a_throw(rest) and rest[0].side == opponent_half:
                return self._after_glimpse(observation, stale, rest, out)
            if stale and rest and all(d.side == opponent_half for d in rest):
                # The thrower's lone die still lies there and one die shows in the
                # opponent's half (the other missed): the opponent's, no split throw
                # (rendered seed 102 of 960b5e2b053c).
                out.warn("dice", f"a die in {colour_name(game.turn.opponent)}'s half while "
                                 f"{colour_name(game.turn)}'s throw still lies there")
                return state
        if {d.side for d in seen} >= {"left", "right"} and self._board_astray(observation):
            # The record is out of step (checkers moved unseen): a split throw may be
            # dice of two throws, one die of each missed.  No call (etiquette 5).
            out.warn("look", "dice in both halves while the checkers are far from where "
                             "the record has them")
            return state
        if self.parted is not None and {d.side for d in seen} >= {"left", "right"} and \
                self._board_moved(observation):
            # The checkers moved unseen since the last play (a throw missed and played):
            # a die of that play may still lie beside the next throw, one die of each
            # missed (rendered seed 83 of 960b5e2b053c: the mover's 6 and the opponent's
            # early 4 taken for a split throw).  No ground for a wrong-half call.
            out.warn("look", "dice in both halves while the checkers have moved unseen "
                             "since the last play")
            return state
        if all(d.side == opponent_half for d in seen) and not self._board_readable(observation):
            # The opponent's throw, or a wrong half, on a board the referee cannot
            # account for: out of step is no ground for a call (etiquette 5).
            out.warn("look", f"dice in {colour_name(game.turn.opponent)}'s half while the "
                             "checkers cannot be accounted for")
            return state
        if all(d.side == opponent_half for d in seen) and self._board_moved(observation):
            # The player on turn played with dice the camera did not see (in
            # full); the opponent's throw shows that play is over.  A throw in
            # the wrong half is not what this looks like: never a call here.
            state = state._infer_roll(observation, out, over=_a_throw(seen) or len(seen) == 1)
            if state.game.turn == game.turn:
                if state.call is not None or not (_a_throw(seen) or len(seen) == 1):
                    return state
                # No roll explains the board (or more than one): the opponent's
                # throw still says whose turn it is.  One die of it seen (the other
                # missed) says so as well as two: the throw is taken as seen in part,
                # and the roll is inferred from the opponent's play (rendered
                # 7e15fdd04acc seed 28: dark's 6 missed throw after throw, and with
                # light's play unseen before it no play was recorded until dark's
                # dice were both seen).
                explained = self._a_legal_play_of_some_roll(observation)
                state = state._resync(observation, game.turn.opponent, out)
                if explained:
                    # Several rolls' legal plays leave this board: the roll is in
                    # doubt, the position is not (the thrower's checkers are where
                    # the record has them, the mover's where a legal play put them),
                    # so the next plays are not judged leniently (rendered
                    # 28de820384cd seed 9: 4-3 or 5-2, the same board, and the
                    # thrower's planted one_die mistake right after it not called).
                    before = self.parted if self.parted is not None else self.resynced
                    state = replace(state, resynced=max(0, before - 1))
        elif all(d.side == opponent_half for d in seen) and self.taken_back \
                and _a_throw(seen) and self.call is None:
            # The last throw was picked up with nothing moved: it may have been the
            # opponent's (a void throw in the wrong half taken for the player on turn's,
            # their play missed before it: rendered 960b5e2b053c seed 106).  The dice
            # say whose throw this is; never a wrong-half call on a turn in doubt.
            state = state._resync(observation, game.turn.opponent, out)
        elif all(d.side == opponent_half for d in seen) and self.resynced == RESYNC_PLAYS \
                and _a_throw(seen) and self.call is None:
            # Out of step since the last resync (or since the board parted from the
            # record), with no play judged since: the turn the referee has is a
            # guess, and the dice say whose throw it is.
            state = state._resync(observation, game.turn.opponent, out)
        elif _a_throw(seen) and seen[0].side == thrower_half(self.seat(game.turn)) and \
                self.parted is not None and self.call is None and \
                self._opponent_moved_on(observation) and self._board_astray(observation):
            # The player on turn throws on a board that parted from the record since
            # the last play, two checkers or more away and the opponent's checkers
            # moved too (plays the camera missed, the opponent's throws unseen:
            # rendered 7e15fdd04acc seed 17, two plays unseen after a replay): their
            # play would be judged against a record the board has left.  The game
            # goes on from the board as it stands, the thrower to play, as when the
            # opponent throws.  The thrower's own checkers alone moved are rather
            # their play begun before the throw was seen (seed 3), judged as before.
            # A lone die seen beside the field before is no evidence of a void throw
            # any more: the checkers moved since (see _rethrow_after_off_field).
            state = replace(state._resync(observation, game.turn, out), beside=(),
                            beside_by=None, beside_gone=False)
        return state._throw(state.game.turn, seen, out, observation)

    def _resync(self, observation: Observation, thrower: Player, out: "_Out") -> "Referee":
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

    def _set_up_again(self, observation: Observation) -> bool:
        """Whether the board shows the starting position while the record's game has
        left it."""
        assert self.seating is not None
        start = Position.initial()
        if self.game.position.with_turn(start.turn).key == start.key:
            return False
        try:
            board = position_of(read_board(observation), self.seating, start.turn)
        except BoardReadError:
            return False
        return board.key == start.key

    def _glimpse_lying(self, seen: tuple[Die, ...]) -> tuple[tuple[Die, ...], tuple[Die, ...]]:
        """ROLL, a throw of the player on turn seen in part (``glimpsed``): the dice seen
        that are still those dice, lying where they lay in the thrower's half with a
        value seen then, and the others."""
        half = thrower_half(self.seat(self.game.turn))
        tolerance = self.settings.die_tolerance
        stale = tuple(d for d in seen if d.side == half and d.value in self.glimpsed
                      and any(_same_place(d, e, tolerance) and e.value == d.value
                              for e in self.lying))
        return stale, tuple(d for d in seen if d not in stale)

    def _after_glimpse(self, observation: Observation, stale: tuple[Die, ...],
                       rest: tuple[Die, ...], out: "_Out") -> "Referee":
        """A throw in the opponent's half after the player on turn threw, seen in part.

        The player on turn has thrown (a die of theirs was seen in their half;
        the other was missed), so two dice in the opponent's half are the
        opponent's throw, never a ``wrong_half`` call on the player on turn
        (rendered games: the thrower's lone die still lying, their play done
        and the opponent's early throw beside it, taken for a split throw).

        * The checkers moved: the play is inferred from the dice seen (exactly
          one roll fits) and recorded; if a die of it still lies where it lay,
          the opponent's throw is early (``reroll``, unless the play was forced
          or both players are bearing off).  No roll or several: out of step,
          the game goes on from the board (a resync), the throw the opponent's.
        * Nothing moved and the die seen is gone: a dance when exactly one roll
          with the die seen is one (recorded, inferred); otherwise a resync (the
          die's value may be misread, or the throw was void at the table and is
          thrown again into the wrong half: not a call on a guess).
        * Nothing moved and the die still lies there: a ``dice`` warning.
        """
        game = self.game
        player = game.turn
        opponent = player.opponent
        assert self.seating is not None
        if not self._board_readable(observation):
            out.warn("look", f"dice in {colour_name(opponent)}'s half while the checkers "
                             "cannot be accounted for")
            return self
        if self._board_moved(observation):
            reading = read_board(observation)
            fits = [roll for roll in rolls_with(self.glimpsed)
                    if judge_play(game.position, reading, self.seating, roll).kind == "legal"]
            state = self._infer_roll(observation, out, over=True)
            if state.stage is not Stage.ROLL or state.game.turn == player or len(fits) != 1:
                if state.stage is Stage.ROLL and state.game.turn == player:
                    state = state._resync(observation, opponent, out)
                if state.stage is not Stage.ROLL:
                    return state  # the inferred play ended the game
                return state._throw(opponent, rest, out, observation)
            after = position_of(reading, self.seating, opponent)
            if stale and not is_forced(game.position, fits[0]) and \
                    not is_bear_off_race(after):
                out.emit("reroll", colour_name(opponent), reason="early",
                         die=die_json(rest[0]),
                         detail=f"{colour_name(player)} has not picked up the dice yet")
                out.beeps += 1
                return replace(state, ignored=(*state.ignored, *rest, *stale),
                               message="ROLL AGAIN", void_by=opponent)
            return state._throw(opponent, rest, out, observation)
        if stale:
            out.warn("dice", f"dice in {colour_name(opponent)}'s half while "
                             f"{colour_name(player)}'s throw still lies there")
            return self
        dances = [roll for roll in rolls_with(self.glimpsed)
                  if not game.position.legal_positions(*roll)]
        if len(dances) != 1:
            # Several dancing rolls; or none with the die as seen (its value misread:
            # rendered seed 82 of 960b5e2b053c, a 4 of a dancing 4-4 read as a 6, and a
            # wrong_half call followed; or the throw void at the table and thrown again
            # into the wrong half): the dice say whose throw it is.  Out of step, a
            # resync; a thrower's throw picked up again and thrown into their own half
            # resyncs back to them.
            state = self._resync(observation, opponent, out)
            return state._throw(opponent, rest, out, observation)
        session = self.session.apply(Roll(player, dances[0]))
        out.emit("roll", colour_name(player), dice=list(dances[0]), inferred=True)
        state = replace(self, session=session, stage=Stage.PLAY, glimpsed=(), dice_down=(),
                        before_roll=None, rereads=())
        return state._final(observation, rest, out)

    def _may_have_danced(self, player: Player, seen: tuple[Die, ...]) -> bool:
        """Whether two dice in the opponent's half, on the board as the record has it
        with ``player`` to throw, may be the opponent's throw after a dance of
        ``player``'s the camera missed whole: ``player`` could dance (a checker on the
        bar against a board that shuts out at least one roll) and the opponent could
        move with those dice (a pick-up with nothing moved tells them apart)."""
        game = self.game
        if game.turn != player or self.stage is not Stage.ROLL or not _a_throw(seen) or \
                game.position.bar(player) == 0:
            return False
        if not any(not game.position.legal_positions(*roll) for roll in rolls_with(())):
            return False
        values = dice_values(seen)
        if len(values) != 2:
            return False
        theirs = game.position.with_turn(player.opponent)
        return bool(theirs.legal_positions(values[0], values[1]))

    def _doubted_half(self, observation: Observation, seen: tuple[Die, ...],
                      out: "_Out") -> "Referee":
        """Dice in the opponent's half, held until the table shows whose throw they were.

        The player on turn could have danced, and a throw the camera misses whole
        (rendered 7e15fdd04acc and 28de820384cd seed 102: light on the bar, a 6-6
        never seen) leaves the opponent's next throw looking exactly like a throw in
        the wrong half.  So the call waits for what the players do:

        * the dice picked up with nothing moved, or the same player's throw again
          into their own half: the throw was void, ``reroll`` (wrong_half) for the
          thrower, then the rethrow is judged;
        * the opponent's checkers played, then the dice picked up: the opponent's
          throw; the dance is recorded (inferred) when exactly one roll dances, else
          the game goes on from the board the throw lay on, the opponent to play (a
          ``look`` with ``resync``), and the opponent's play is judged;
        * the thrower's own checkers played: they threw into the wrong half,
          ``reroll`` (wrong_half).
        """
        doubt, held, lay_on = self.doubt, self.doubted, self.doubted_on
        assert doubt is not None and lay_on is not None and self.seating is not None
        game = self.game
        player, opponent = game.turn, game.turn.opponent
        half = thrower_half(self.seat(player))
        tolerance = self.settings.die_tolerance
        lying = tuple(d for d in seen if any(_same_place(d, x, tolerance) for x in held))
        if lying:
            return self  # still lying, played on or not: wait for the pick-up
        others = seen
        if others and all(d.side == thrower_half(self.seat(opponent)) for d in others):
            # Dice in the opponent's half still, elsewhere (read in another place, or
            # thrown there again): still no telling whose; wait on them.
            return replace(self, doubted=others)
        try:
            board = position_of(read_board(observation), self.seating, player)
        except BoardReadError:
            return self  # a hand, a checker unaccounted for: wait for a clear board
        try:
            before = position_of(read_board(lay_on), self.seating, player)
        except BoardReadError:  # pragma: no cover - the throw was taken on a readable board
            return self
        state = replace(self, doubt=None, doubted=(), doubted_on=None)
        record = game.position
        # What moved since the throw lay there (the board as read then, misreadings and
        # all, so that a stack read wrong before and after moves nothing).
        mine = board.layout(player) != before.layout(player)
        theirs = board.layout(opponent) != before.layout(opponent)
        played = mine and not _only_hit(before.layout(player), board.layout(player))
        if not theirs and (played or not mine):
            # Nothing moved, or only the thrower's own checkers did: the thrower's throw.
            state = replace(state._void(doubt, player, (), out), void_by=None)
            if others and _a_throw(others) and others[0].side == half:
                return state._roll(observation, others, out)
            return state
        if played:
            # Both sides' checkers changed: no telling whose throw it was.  No call; the
            # game goes on from the board, the thrower to throw.
            return state._resync(observation, player, out)
        # The opponent played the dice: the thrower danced, unseen.
        dances = [roll for roll in rolls_with(()) if not record.legal_positions(*roll)]
        if len(dances) == 1:
            session = state.session.apply(Roll(player, dances[0]))
            out.emit("roll", colour_name(player), dice=list(dances[0]), inferred=True)
            state = replace(state, session=session, stage=Stage.PLAY, glimpsed=(),
                            dice_down=(), before_roll=None, rereads=())
            state = state._final(lay_on, held, out)
        else:
            out.warn("look", f"{colour_name(player)}'s throw was not seen (a dance): the "
                             f"dice in {colour_name(opponent)}'s half were "
                             f"{colour_name(opponent)}'s", resync=True)
            state = state._diverge(record.with_turn(opponent),
                                   f"a throw of {colour_name(player)}'s the camera did not "
                                   "see (a dance)")
            state = replace(state, stage=Stage.ROLL, glimpsed=(), dice_down=(), rereads=(),
                            before_roll=None, parted=None, stood=None)
            state = state._throw(opponent, held, out, lay_on)
        if state.stage is not Stage.PLAY or state.game.turn != opponent:
            return state
        return state._play(observation, others, out)

    def _doubted_throw(self, observation: Observation, seen: tuple[Die, ...],
                       out: "_Out") -> "Referee":
        """A throw with a die read as cocked, held until the table shows whether it stands.

        A cocked reading alone is no evidence that holds up (on rendered games
        most were flat dice read tilted), so it is a ``dice`` warning at once
        and the call waits for what the players do, as a referee would watch:

        * the dice picked up with the checkers as they were: the throw was
          void, ``reroll`` (cocked) for the thrower; but when nothing could move
          with the dice as read a dance is picked up alike, so a warning, and the
          next throw tells: the same player's, ``reroll`` then (before the rethrow
          is taken); the opponent's, a dance (recorded);
        * the same player's throw again, nothing moved, before the board was
          seen without dice (the pick-up too quick to settle): ``reroll`` (cocked),
          then the rethrow is judged;
        * the die read flat again where it lies: the throw stands;
        * the checkers played, then the dice picked up: the players took the
          throw as good, and so does the referee; the value of the die read
          tilted is doubtful, so the roll is inferred from the play and the
          flat die, as for a die not seen (exactly one roll fits, or a warning).
        """
        doubt = self.doubt
        assert doubt is not None and self.seating is not None
        player = self.game.turn
        half = thrower_half(self.seat(player))
        values = dice_values(self.doubted)
        if self.doubt_up:
            # Picked up with nothing moved, though nothing could move with the dice
            # as read: the next throw tells a void throw from a dance.
            if not _a_throw(seen):
                return self
            state = replace(self, doubt=None, doubted=(), doubt_up=False)
            if seen[0].side == half:
                # The same player throws again: the throw read cocked was void, and
                # is recorded so before the rethrow is taken.
                state = replace(state._void(doubt, player, (), out), void_by=None)
                return state._roll(observation, seen, out)
            out.warn("dice", "the throw read with a cocked die was a dance: the opponent "
                             "has thrown")
            state = state._accept_throw(player, (), (values[0], values[1]), out)
            return state._final(observation, seen, out)
        tolerance = self.settings.die_tolerance
        lying = tuple(d for d in seen if any(_same_place(d, x, tolerance)
                                             for x in self.doubted))
        others = tuple(d for d in seen if d not in lying)
        if len(lying) == len(self.doubted):
            verdict = judge_throw(lying, half)
            if not isinstance(verdict, (VoidThrow, Unclear)):
                return self._accept_throw(player, lying, verdict, out)  # read flat again
            return self  # still in doubt, played on or not: wait for the pick-up
        if lying:
            return self  # one die picked up: wait for the other
        try:
            board = position_of(read_board(observation), self.seating, player)
        except BoardReadError:
            return self  # a hand, a checker unaccounted for: wait for a clear board
        state = replace(self, doubt=None, doubted=())
        if board.key != self.game.position.key:
            # Played, then picked up: the players took the throw as good.  The value
            # of a die read as tilted is no better than its pose, so the roll is
            # taken from the play and the dice read flat (as for a die not seen).
            out.warn("dice", "the throw was played as it lay: the roll is taken from the play")
            flat = tuple(d.value for d in self.doubted if d.flat and d.value is not None)
            return replace(state, glimpsed=flat)._roll(observation, others, out)
        if len(values) == 2 and not others and \
                not self.game.position.legal_positions(values[0], values[1]):
            # Nothing could move with the dice as read: a dance is picked up like this
            # too, so the pick-up is no evidence of a void throw, and a flat die read
            # tilted is the vision's commonest error (rendered streams 960b5e2b053c:
            # 3 false cocked calls in 65 sessions, all dances).  Not a call: the next
            # throw tells (the thrower's: void; the opponent's: a dance, recorded).
            out.warn("dice", f"{doubt.detail}? Nothing could move with "
                             f"{values[0]}-{values[1]}: a dance, or a void throw")
            return replace(self, doubt_up=True)
        if others and _a_throw(others) and others[0].side == half:
            # Thrown again by the same player, nothing moved, before the board was seen
            # without dice (the pick-up under a hand, too short to settle): the players
            # took the throw as void; recorded so before the rethrow is taken.
            state = replace(state._void(doubt, player, (), out), void_by=None)
            return state._roll(observation, others, out)
        if others:
            out.warn("dice", f"{doubt.detail}: dice thrown again, not by the thrower into "
                             "their half")
            return state._roll(observation, others, out)
        # Picked up with nothing moved: the throw was void.
        state = replace(state._void(doubt, player, (), out), void_by=None)
        return state

    def _board_readable(self, observation: Observation) -> bool:
        assert self.seating is not None
        try:
            position_of(read_board(observation), self.seating, self.game.turn)
        except BoardReadError:
            return False
        return True

    def _board_astray(self, observation: Observation) -> bool:
        """Whether the board lies ``Plausibility.astray`` checkers or more from the record."""
        assert self.seating is not None
        try:
            board = position_of(read_board(observation, whole=False), self.seating,
                                self.game.turn)
        except BoardReadError:
            return False
        return board_distance(board, self.game.position) >= PLAUSIBLE.astray

    def _opponent_moved_on(self, observation: Observation) -> bool:
        """Whether the board is readable and the opponent of the player on turn has
        checkers elsewhere than the record has them, other than by being hit."""
        assert self.seating is not None
        try:
            board = position_of(read_board(observation), self.seating, self.game.turn)
        except BoardReadError:
            return False
        opponent = self.game.turn.opponent
        had, has = self.game.position.layout(opponent), board.layout(opponent)
        return has != had and not _only_hit(had, has)

    def _board_moved(self, observation: Observation) -> bool:
        assert self.seating is not None
        try:
            board = position_of(read_board(observation), self.seating, self.game.turn)
        except BoardReadError:
            return False
        return board.key != self.game.position.key

    def _throw(self, player: Player, seen: tuple[Die, ...], out: "_Out",
               observation: Observation | None = None) -> "Referee":
        """Judge a throw by the player on turn; a valid one starts their play.

        ``observation``: the board the throw lies on.  A die read as lying on a
        checker while the checkers cannot be accounted for is a ``look`` warning,
        judged again on the next clear board: the die itself (or its shadow) may be
        what was counted as a checker.
        """
        voided = self._rethrow_after_off_field(player, seen, observation, out)
        if voided is not self:
            return voided._throw(player, seen, out, observation)
        half = thrower_half(self.seat(player))
        if len(seen) > 2:
            # More dice than a throw: those that lay there before it were not thrown.
            tolerance = self.settings.die_tolerance
            thrown = tuple(d for d in seen if not any(_same_place(d, e, tolerance)
                                                      for e in self.lying))
            seen = thrown if len(thrown) == 2 else seen
        if len(seen) == 1:
            # Not seen clearly: the other die may be hidden, or this one may not
            # be the thrower's at all.  A warning, and a clue to the roll.
            out.warn("dice", f"only one die seen ({describe_die(seen[0])}): is the other "
                             "off the board or hidden?")
            if seen[0].side != half:
                return self
            return replace(self, glimpsed=dice_values(seen))
        verdict = judge_throw(seen, half)
        if isinstance(verdict, VoidThrow) and verdict.reason == "on_checker" and \
                observation is not None and not self._board_readable(observation):
            out.warn("look", f"{verdict.detail}, but the checkers cannot be accounted for")
            return self
        if isinstance(verdict, Unclear):
            out.warn("dice", verdict.detail)
            return replace(self, glimpsed=dice_values(seen)) if len(seen) == 2 else self
        if isinstance(verdict, VoidThrow) and verdict.reason == "cocked" and \
                self.stage is Stage.ROLL:
            # The vision reads flat dice as cocked now and then (a tilted reading of a
            # small die): a look first, and the call once the players show it.
            out.warn("dice", f"{verdict.detail}? If so the throw is void: pick up the "
                             "dice and throw again", die=die_json(verdict.die))
            return replace(self, doubt=verdict, doubted=seen)
        if isinstance(verdict, VoidThrow) and verdict.reason == "wrong_half" and \
                observation is not None and self._may_have_danced(player, seen):
            out.warn("dice", f"dice in {colour_name(player.opponent)}'s half: "
                             f"{colour_name(player)}'s throw in the wrong half, or "
                             f"{colour_name(player.opponent)}'s after a dance the camera "
                             "did not see? The pick-up tells")
            return replace(self, doubt=verdict, doubted=seen, doubted_on=observation)
        if isinstance(verdict, VoidThrow):
            return self._void(verdict, player, seen, out)
        state = self._accept_throw(player, seen, verdict, out)
        if observation is not None and state.stage is Stage.PLAY:
            state = replace(state, misread=state._misread_at(observation),
                            tray_off=state._tray_off_at(observation))
        return state

    # -- misread and witness doubts (:mod:`.doubts`) ----------------------------

    _tray_off_at = doubts._tray_off_at
    _misread_at = doubts._misread_at
    _without_misread = doubts._without_misread
    _misread_doubt = doubts._misread_doubt
    _witness_doubt = doubts._witness_doubt
    _double_misread = doubts._double_misread
    _rolls_with_pips_missed = doubts._rolls_with_pips_missed
    _own_reading_legal = doubts._own_reading_legal
    _pips_missed = doubts._pips_missed
    _misread_nearest = doubts._misread_nearest
    _misread_legal = doubts._misread_legal

    def _accept_throw(self, player: Player, seen: tuple[Die, ...], verdict: tuple[int, int],
                      out: "_Out") -> "Referee":
        """A throw that stands: the roll is recorded and ``player``'s play begins."""
        state = replace(self, doubt=None, doubted=(), doubted_on=None)
        if state.call is not None:
            out.emit("play_stands", colour_name(state.call.mover), move=state.call.move)
            state = replace(state, call=None)
        try:
            session = state.session.apply(Roll(player, verdict))
        except RulesError as exc:  # pragma: no cover - the stage guarantees the phase
            out.warn("dice", f"throw not accepted: {exc}")
            return state
        out.emit("roll", colour_name(player), dice=list(verdict))
        return replace(state, session=session, stage=Stage.PLAY, dice_down=seen, glimpsed=(),
                       rereads=(), misread=(), tray_off=0, taken_back=False,
                       message=_play_message(session.game), before_roll=state.session)

    def _check_board(self, observation: Observation, out: "_Out") -> "Referee":
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
            return self._infer_roll(observation, out)
        out.warn("moved", "the checkers are not where the last play left them")
        # The record and the board part: whatever happened (a throw missed and played,
        # a play put right), the next plays are judged against a position in doubt.
        return replace(self, resynced=RESYNC_PLAYS,
                       parted=self.resynced if self.parted is None else self.parted)

    def _stands_then_inferred(self, observation: Observation,
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

    def _mover_corrects(self, observation: Observation, out: "_Out") -> "Referee":
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

    def _infer_roll(self, observation: Observation, out: "_Out",
                    over: bool = False) -> "Referee":
        """A throw seen in part, then played and picked up: the roll the play fits.

        The camera missed a die (a 1 is the hardest to see), or both, and the
        player played.  When exactly one roll with the dice that were seen
        makes the board a legal play, that was the roll: it and the play are
        recorded, marked as inferred.  Otherwise it is a warning to look,
        never a call.  With no die seen, the play is only taken as over when
        the opponent throws (:meth:`_roll`), never on a board of its own: a
        board half-way through a play can be a legal play of another roll.

        ``over``: the opponent has thrown, so the play is over.  Several rolls
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

    def _a_legal_play_of_some_roll(self, observation: Observation) -> bool:
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

    def _check_cube(self, observation: Observation, out: "_Out") -> "Referee":
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

    # -- the play stage (:mod:`.playing`) ---------------------------------------

    _play = playing._play
    _tray_went_back = playing._tray_went_back
    _note_off = playing._note_off
    _early_allowed = playing._early_allowed
    _final = playing._final
    _reread_roll = playing._reread_roll
    _from_throw_board = playing._from_throw_board
    _stood_shift = playing._stood_shift
    _from_stood = playing._from_stood
    _legal_from_shifted = playing._legal_from_shifted
    _unmoved = playing._unmoved
    _off_unwitnessed = playing._off_unwitnessed
    _lenient = playing._lenient

    def _record_play(self, judgement: PlayJudgement, out: "_Out") -> "Referee":
        game = self.game
        mover = game.turn
        assert judgement.play is not None and game.dice is not None
        session = self.session.apply(Move(mover, judgement.play))
        out.emit("play", colour_name(mover), move=judgement.move, legal=True,
                 dice=list(game.dice), position_id=_position_id(judgement))
        state = replace(self, session=session, stage=Stage.ROLL,
                        undo_point=Snapshot(self.session, self.divergences),
                        restored=False, message="", last_move=judgement.move,
                        resynced=max(0, self.resynced - 1), parted=None,
                        rereads=(), stood=None if self.stood is not None
                        and self.stood[0] == mover else self.stood)
        return state._after_result(len(self.session.games), out)

    def _call_now(self, judgement: PlayJudgement, out: "_Out") -> "Referee":
        mover = self.game.turn
        assert self.game.dice is not None
        out.emit("play", colour_name(mover), move=judgement.move, legal=False,
                 dice=list(self.game.dice), position_id=_position_id(judgement))
        out.emit("illegal_play", colour_name(mover), reason="; ".join(judgement.reasons),
                 reasons=list(judgement.reasons), legal_plays=list(judgement.closest),
                 mode=self.settings.mode)
        out.beeps += 1
        return replace(self, stage=Stage.RESTORE, restored=False, message="ILLEGAL",
                       taking_back=judgement.move)

    def _open_call(self, judgement: PlayJudgement, out: "_Out") -> "Referee":
        game = self.game
        mover = game.turn
        assert judgement.after is not None and game.dice is not None
        out.emit("play", colour_name(mover), move=judgement.move, legal=False,
                 dice=list(game.dice), position_id=_position_id(judgement))
        snapshot = Snapshot(self.session, self.divergences)
        window = CallWindow(snapshot, mover, judgement.move, judgement.reasons)
        state = self._diverge(judgement.after.with_turn(mover.opponent),
                              f"{colour_name(mover)}'s illegal play {judgement.move} stood")
        state = replace(state, call=window, undo_point=snapshot, stage=Stage.ROLL,
                        message="CALL?", last_move=judgement.move,
                        stood=self._stood_shift(judgement))
        return state._after_result(len(self.session.games), out)

    def _diverge(self, position: Position, why: str) -> "Referee":
        """Go on from a position the rules' path does not reach."""
        game = self.game
        fresh = Game.at(position, game.rules, cube_value=game.cube_value,
                        cube_owner=game.cube_owner)
        fresh = replace(fresh, cube_turned=game.cube_turned,
                        automatic_doubles=game.automatic_doubles)
        index = len(self.session.games)
        divergences = self.divergences
        if not any(d.game == index for d in divergences):
            divergences = (*divergences, Divergence(index, game.events, why))
        return replace(self, session=replace(self.session, game=fresh), divergences=divergences)

    def _after_result(self, games_before: int, out: "_Out") -> "Referee":
        """Announce a game that has just finished (and the match) and wait for the next set-up."""
        if len(self.session.games) > games_before:
            return self._announce_end(self.session.games[-1], out)
        return self

    def _announce_end(self, finished: Game, out: "_Out") -> "Referee":
        result = finished.result
        assert result is not None
        ending = {Ending.PASSED: "pass", Ending.RESIGNED: "resign"}.get(
            result.ending, result.kind.name.lower())
        score = scores_before(self.session)
        out.emit("game_over", colour_name(result.winner), winner=colour_name(result.winner),
                 points=result.points, result=ending,
                 score={"light": score[LIGHT], "dark": score[LIGHT.opponent]})
        if isinstance(self.session, Match) and self.session.is_over:
            winner = self.session.winner
            assert winner is not None
            out.emit("match_over", colour_name(winner), winner=colour_name(winner),
                     score={"light": score[LIGHT], "dark": score[LIGHT.opponent]})
            return replace(self, stage=Stage.OVER, call=None, undo_point=None,
                           message="MATCH OVER", dice_down=())
        return replace(self, stage=Stage.SETUP, call=None, undo_point=None,
                       message="GAME OVER", dice_down=(), glimpsed=())

    # RESTORE --------------------------------------------------------------

    def _restore(self, observation: Observation, seen: tuple[Die, ...],
                 out: "_Out") -> "Referee":
        """Waiting for the position before the play, then for a legal play of the same dice.

        The dice are not on the board to be picked up, so nothing marks the
        replay as finished: a legal board is only held as the replay
        (``replay``) until the opponent throws or presses a button, since a
        board half-way through the replay may itself be a legal play.  A
        legal board that ends the game is taken at once.
        """
        game = self.game
        assert self.seating is not None and game.dice is not None
        try:
            reading = read_board(observation)
            board = position_of(reading, self.seating, game.turn.opponent)
        except BoardReadError:
            return self
        state = self
        held = self.replay.after if self.replay is not None else None
        mover = game.turn
        if held is not None and board.layout(mover) == held.layout(mover) and \
                board.layout(mover.opponent) != held.layout(mover.opponent):
            # A legal replay held, and the opponent's checkers moved on from it (their
            # throw unseen): the opponent has acted, so the replay is over, as at their
            # throw (rendered 7e15fdd04acc seed 17: a call, the legal replay shown, then
            # the opponent's throw missed and played, and the replay forgotten; nothing
            # recorded until the next throw seen, 14 s later).  The board is then one of
            # the opponent's turn.
            settled = self.settle_replay(out)
            return settled._roll(observation, seen, out)
        if self.went_on is not None:
            # The opponent threw on a board not put right: their checkers moving on
            # from it show the players went on without the call (see _went_on).
            if board.key == game.position.key:
                state = replace(state, went_on=None)
            else:
                try:
                    was = position_of(read_board(self.went_on[0]), self.seating,
                                      game.turn.opponent)
                except BoardReadError:
                    was = None
                thrower = game.turn.opponent
                if was is not None and board.layout(thrower) != was.layout(thrower):
                    return state._went_on(observation, out)
        if board.key == game.position.key and not state.restored:
            out.emit("position_restored", colour_name(game.turn),
                     position_id=game.position.position_id())
            state = replace(state, restored=True, message="PLAY AGAIN")
        judgement = judge_play(game.position, reading, self.seating, game.dice)
        legal = judgement.kind == "legal" and (board.key != game.position.key
                                               or not game.position.legal_positions(*game.dice))
        state = replace(state, replay=judgement if legal else None)
        if legal and judgement.after is not None and judgement.after.winner() is not None:
            return state.settle_replay(out)
        if not seen:
            return state
        if legal:
            # A throw (good or void) after a legal replay: the replay is over.
            return state.settle_replay(out)._roll(observation, seen, out)
        out.warn("dice", "the position must be put right before the next throw")
        state = replace(state, ignored=(*state.ignored, *seen))
        if board.key != game.position.key and _a_throw(seen) and \
                seen[0].side == thrower_half(self.seat(game.turn.opponent)):
            state = replace(state, went_on=(observation, seen))
        return state

    def _went_on(self, observation: Observation, out: "_Out") -> "Referee":
        """RESTORE: the opponent threw on a board not put right (``went_on``) and has
        moved their checkers since: the players went on from the board as it stood
        (the call was the camera's mistake, or the restoring and the replay were not
        seen).  Waiting for a position that will not come left the referee out of step
        for the rest of the game (rendered 28de820384cd seed 39: a stack of five read
        as six called in strict mode at 195.7 s, nothing judged after it).  A resync
        from the board the throw lay on (a ``look`` warning), the throw judged as the
        thrower's, then ``observation`` as a board of their play."""
        assert self.went_on is not None
        board, dice = self.went_on
        thrower = self.game.turn.opponent
        tolerance = self.settings.die_tolerance
        state = replace(self, went_on=None, replay=None, ignored=split_dice(
            self.ignored, dice, tolerance)[1], void_by=None)
        state = state._resync(board, thrower, out)._throw(thrower, dice, out, board)
        if state.stage is not Stage.PLAY:
            return state
        seen = split_dice(observation.dice, state.ignored, tolerance)[1]
        seen = tuple(d for d in seen if d.side is None or not any(
            _the_fixture(d, f, tolerance) for f in state.fixtures))
        return state._play(observation, seen, out)

    def settle_replay(self, out: "_Out") -> "Referee":
        """Record the legal replay held in RESTORE (the opponent acts: it is over)."""
        if self.stage is not Stage.RESTORE or self.replay is None:
            return self
        return replace(self, replay=None)._record_play(self.replay, out)
