"""Chouette: three or more players, one in the box against a team.

The rule is stated in rules-cy.txt (the chouette section, four paragraphs
from "Mae'r chouette yn amrywiad arbennig"); in English:

1. "The chouette is a special variant that brings 3 or more players
   together in one game. All players throw one die each, and the highest
   thrower becomes the player 'in the box'. This player plays the game on
   their own, while the other players all join against them."
2. "The second-highest thrower becomes captain. The captain alone moves the
   team's checkers against the player in the box. The team may however
   consult before any decision; in case of disagreement the captain's
   choice prevails. The relative ranking of the opening throw also decides
   the order in which the team players take their place beside the
   captain."
3. "If the team loses the first game, the second player becomes the new
   captain. The dethroned captain moves to the last place of the team.
   Thanks to the win, the player in the box stays in the box. Conversely,
   if the team wins the game, the captain moves into the box, is replaced
   [as captain] by the second player, while the player who was in the box
   takes the last place of the team."
4. "The decision to offer a double to the player in the box must always be
   unanimous within the team. If the player in the box offers a double,
   however, each team member may decide individually whether they accept
   or refuse the cube. Players who refuse give up the current stake to the
   player in the box and leave the current game. Players who accept the
   cube go on as a team for the new stake. If they win, the player in the
   box pays each winner the game's stake. If they lose, each of them pays
   the stake to the player in the box."

How this module models it:

* **Throw-off.** Every player throws one die (:class:`ThrowOff` events, in
  any order).  Players who tie rethrow among themselves only, to order
  themselves within their tied place (each tie matters: the throw decides
  the whole order of the line).  Several tied groups may rethrow at the
  same time; each group is settled when all its players have thrown.
* **Sides.** Each game is a two-player :class:`~controller.game.game.Game`:
  the box is :data:`BOX` (``Player.ZERO``), the team is :data:`TEAM`
  (``Player.ONE``), moved by the captain.  ``OpeningRoll.dice`` is
  therefore (box's die, captain's die).  Checker play, rolls and
  resignations are ordinary game events; a team resignation or an answer to
  the box's resignation is the captain's decision (paragraph 2).
* **One team cube.** Members still in the game all play at the game's cube
  value (paragraph 4: the takers "go on as a team for the new stake").  A
  member who dropped is out at the value before the offer they refused.
* **Team doubles** need every member still in the game
  (paragraph 4, "unanimous"): the captain proposes (:class:`ProposeDouble`),
  each other member agrees or refuses (:class:`AgreeDouble`,
  :class:`RefuseDouble`); one refusal withdraws the proposal and the
  captain rolls.  With everyone's consent the game records the team's
  ``Double``; the box answers once, with ``Take``/``Pass`` for ``BOX``.
* **Box doubles** (``Double`` for ``BOX``) are answered by each member in
  the game (:class:`MemberTake`, :class:`MemberDrop`, any order).  When all
  have answered: droppers are out at the value before the offer; if anyone
  took, the game goes on at the doubled value for the takers, and if all
  dropped the box wins the game.
* **The captain dropping** (a convention; the Welsh text does not say): the
  member highest in the line among those still in moves for the team for
  the rest of the game (1931 Laws of Chouette; also the usual club rule
  "if the captain drops, the next player in line assumes the captaincy for
  that game").  The captain who dropped "loses his position" (1931 Laws):
  after the game he goes to the end of the line, as a beaten captain does.
  If the team then wins, the acting captain goes into the box and the old
  box takes the last place, behind the dropped captain (paragraph 3: the
  box "takes the last place").
* **After each game** a :class:`~controller.game.ledger.LedgerEntry`
  records every payment (see :mod:`controller.game.ledger`), the running
  :class:`~controller.game.ledger.Totals` are updated and the players
  rotate as paragraph 3 says (:func:`rotate`).

Everything is an immutable value: :meth:`Chouette.apply` returns the next
state, :meth:`Chouette.replay` rebuilds an evening from its event record.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Final

from controller.game.errors import CubeError, MatchError
from controller.game.events import Double, Event, Pass, Take
from controller.game.game import Game, Phase
from controller.game.ledger import LedgerEntry, Stake, Totals, settle
from controller.game.settings import GameRules
from controller.rules.player import Player
from controller.rules.position import check_dice

BOX: Final = Player.ZERO
"""The side the player in the box plays in every chouette game."""
TEAM: Final = Player.ONE
"""The team's side, moved by the captain."""

MIN_PLAYERS: Final = 3
"""rules-cy.txt: the chouette brings "3 neu fwy o chwaraewyr" (3 or more) together."""


# -- errors --------------------------------------------------------------------


class ChouetteError(MatchError):
    """A chouette session action that cannot happen."""


class TooFewPlayersError(ChouetteError):
    """Fewer than three players: that is not a chouette (rules-cy.txt)."""


class DuplicatePlayerError(ChouetteError):
    """Two players with the same name: the ledger could not tell them apart."""


class UnknownPlayerError(ChouetteError):
    """An event by someone who is not a player of this chouette."""


class ThrowOffError(ChouetteError):
    """A throw the throw-off does not allow."""


class AlreadyThrownError(ThrowOffError):
    """A player throws a second time in the same round of the throw-off."""


class PlaceSettledError(ThrowOffError):
    """A player whose place is settled throws again (only tied players rethrow)."""


class ThrowOffOverError(ThrowOffError):
    """A throw after the order of the players has been settled."""


class ThrowOffPendingError(ChouetteError):
    """A game event before the throw-off has decided who is in the box."""


class TeamCubeError(ChouetteError, CubeError):
    """A team cube action the chouette rule does not allow."""


class NotOnTeamError(TeamCubeError):
    """The player in the box acting as a team member."""


class MemberOutError(TeamCubeError):
    """A member who dropped the box's double acting in the game they left."""


class NotCaptainError(TeamCubeError):
    """A team double proposed by a member who is not the (acting) captain."""


class AlreadyAnsweredError(TeamCubeError):
    """A member agreeing to, or answering, the same double twice."""


class NothingToAnswerError(TeamCubeError):
    """A consent with no proposal, or an answer with no double of the box."""


class AnswerPendingError(TeamCubeError):
    """An event while the team's consent or the members' answers are awaited,
    or a cube action for the whole team that its members decide one by one."""


# -- events --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ThrowOff:
    """One player's single die in the throw-off (rules-cy.txt: all throw one die)."""

    player: str
    die: int


@dataclass(frozen=True, slots=True)
class ProposeDouble:
    """The captain proposes that the team doubles the box."""

    member: str


@dataclass(frozen=True, slots=True)
class AgreeDouble:
    """A team member consents to the team's proposed double."""

    member: str


@dataclass(frozen=True, slots=True)
class RefuseDouble:
    """A team member refuses the proposed double: the team does not double."""

    member: str


@dataclass(frozen=True, slots=True)
class MemberTake:
    """A team member takes the box's double and plays on at the new value."""

    member: str


@dataclass(frozen=True, slots=True)
class MemberDrop:
    """A team member drops the box's double: pays the stake and leaves the game."""

    member: str


TeamEvent = ProposeDouble | AgreeDouble | RefuseDouble | MemberTake | MemberDrop
"""The team's cube decisions, made member by member."""

ChouetteEvent = ThrowOff | TeamEvent | Event
"""Anything that can happen at a chouette table."""


# -- rules and views -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChouetteRules:
    """How the evening is played."""

    stake: int = 1
    """What one point is worth, in the club's smallest unit (cents, chips)."""
    game: GameRules = field(default_factory=GameRules)
    """The rules of every game (automatic doubles, Jacoby, backgammon value)."""

    def __post_init__(self) -> None:
        if self.stake < 1:
            raise ValueError(f"the stake per point is a positive amount, not {self.stake}")


class ChouettePhase(Enum):
    """What the table waits for."""

    THROW_OFF = "throw-off"
    PLAYING = "game"
    CONSENT = "team's consent to a double"
    ANSWERS = "members' answers to the box's double"


@dataclass(frozen=True, slots=True)
class TeamMember:
    """A team member's part in the current game."""

    name: str
    in_game: bool
    cube_value: int
    """In the game: the value they play for.  Out: the value they paid at."""


def rotate(box: str, line: tuple[str, ...], dropped: Iterable[str], *,
           box_won: bool) -> tuple[str, tuple[str, ...]]:
    """The box and the line for the next game (rules-cy.txt, paragraph 3).

    ``line[0]`` is the captain the game started with.  Box wins: the box
    stays, that captain goes to the end of the line and the next member
    becomes captain.  Team wins: the captain who was moving at the end (the
    first member of the line still in the game) goes into the box and the
    old box to the end of the line; a captain who had dropped goes to the
    end just ahead of the old box (see the module docstring).
    """
    out = frozenset(dropped)
    captain = line[0]
    if box_won:
        return box, (*line[1:], captain)
    acting = next((m for m in line if m not in out), None)
    if acting is None:
        raise ChouetteError("the team cannot win with every member out of the game")
    rest = tuple(m for m in line if m not in (acting, captain))
    dethroned = () if acting == captain else (captain,)
    return acting, (*rest, *dethroned, box)


# -- the session ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Chouette:
    """A chouette evening after the events in :attr:`events`."""

    rules: ChouetteRules
    players: tuple[str, ...]
    """Everyone at the table, in the order they were listed (the ledger's order)."""
    ranking: tuple[tuple[str, ...], ...]
    """Throw-off so far: places from highest to lowest; a place holding
    several players is a tie still to be rethrown."""
    totals: Totals
    throws: tuple[tuple[str, int], ...] = ()
    """Throws of the current rethrow rounds, not yet settled."""
    box: str | None = None
    """The player in the box (None during the throw-off)."""
    line: tuple[str, ...] = ()
    """The team in order; ``line[0]`` is the captain the game started with."""
    game: Game | None = None
    """The game being played (None during the throw-off)."""
    dropped: tuple[Stake, ...] = ()
    """Members out of the current game, at the value they dropped at."""
    consent: tuple[str, ...] | None = None
    """Members who agreed to a proposed team double (None: no proposal)."""
    answers: tuple[tuple[str, bool], ...] = ()
    """Answers to the box's pending double so far: (member, took)."""
    ledger: tuple[LedgerEntry, ...] = ()
    games: tuple[Game, ...] = ()
    events: tuple[ChouetteEvent, ...] = ()

    # -- construction -----------------------------------------------------

    @classmethod
    def new(cls, players: Iterable[str], rules: ChouetteRules | None = None) -> "Chouette":
        """A table of ``players`` about to throw off."""
        names = tuple(players)
        if len(names) < MIN_PLAYERS:
            raise TooFewPlayersError(
                f"a chouette needs {MIN_PLAYERS} or more players, not {len(names)}")
        if len(set(names)) != len(names):
            raise DuplicatePlayerError(f"every player needs a name of their own: {names}")
        return cls(rules=rules or ChouetteRules(), players=names, ranking=(names,),
                   totals=Totals.zero(names))

    @classmethod
    def replay(cls, players: Iterable[str], rules: ChouetteRules | None,
               events: Iterable[ChouetteEvent]) -> "Chouette":
        """Rebuild an evening from its record, checking every event again."""
        chouette = cls.new(players, rules)
        for event in events:
            chouette = chouette.apply(event)
        return chouette

    # -- reading ----------------------------------------------------------

    @property
    def phase(self) -> ChouettePhase:
        """What the table waits for."""
        if self.game is None:
            return ChouettePhase.THROW_OFF
        if self.consent is not None:
            return ChouettePhase.CONSENT
        if self.game.phase is Phase.DOUBLED and self.game.turn == BOX:
            return ChouettePhase.ANSWERS
        return ChouettePhase.PLAYING

    @property
    def in_game(self) -> tuple[str, ...]:
        """Team members still in the current game, in line order."""
        out = {s.member for s in self.dropped}
        return tuple(m for m in self.line if m not in out)

    @property
    def captain(self) -> str | None:
        """Who moves for the team now: the first member of the line still in
        the game (None during the throw-off)."""
        return next(iter(self.in_game), None)

    @property
    def members(self) -> tuple[TeamMember, ...]:
        """Each team member's part in the current game, in line order."""
        if self.game is None:
            return ()
        out = {s.member: s.cube_value for s in self.dropped}
        return tuple(TeamMember(m, m not in out, out.get(m, self.game.cube_value))
                     for m in self.line)

    @property
    def awaiting(self) -> tuple[str, ...]:
        """Who must act before anything else can happen (throw, consent or
        answer); empty while the game simply goes on."""
        match self.phase:
            case ChouettePhase.THROW_OFF:
                thrown = {name for name, _ in self.throws}
                return tuple(p for g in self.ranking if len(g) > 1 for p in g
                             if p not in thrown)
            case ChouettePhase.CONSENT:
                agreed = set(self.consent or ())
                return tuple(m for m in self.in_game if m not in agreed)
            case ChouettePhase.ANSWERS:
                answered = {name for name, _ in self.answers}
                return tuple(m for m in self.in_game if m not in answered)
            case _:
                return ()

    # -- events -----------------------------------------------------------

    def apply(self, event: ChouetteEvent) -> "Chouette":
        """The table after ``event``; raises a precise
        :class:`~controller.rules.errors.RulesError` subclass when the rules
        forbid it.  A finished game is settled and the players rotate."""
        after: Chouette
        if self.game is None:
            if not isinstance(event, ThrowOff):
                raise ThrowOffPendingError(
                    "the throw-off decides the box and the captain before any game")
            after = self._throw(event)
        else:
            match event:
                case ThrowOff():
                    raise ThrowOffOverError("the order of the players is already settled")
                case ProposeDouble():
                    after = self._propose(event.member)
                case AgreeDouble():
                    after = self._agree(event.member)
                case RefuseDouble():
                    self._consenting(event.member)
                    after = replace(self, consent=None)
                case MemberTake():
                    after = self._answer(event.member, took=True)
                case MemberDrop():
                    after = self._answer(event.member, took=False)
                case _:
                    after = self._game_event(self.game, event)
        return replace(after, events=(*self.events, event))

    # -- throw-off --------------------------------------------------------

    def _known(self, player: str) -> None:
        if player not in self.players:
            raise UnknownPlayerError(f"{player!r} is not a player of this chouette")

    def _throw(self, event: ThrowOff) -> "Chouette":
        self._known(event.player)
        check_dice(event.die, event.die)
        place = next(g for g in self.ranking if event.player in g)
        if len(place) == 1:
            tied = [p for g in self.ranking if len(g) > 1 for p in g]
            raise PlaceSettledError(
                f"{event.player}'s place is settled; only tied players rethrow: {tied}")
        if any(name == event.player for name, _ in self.throws):
            raise AlreadyThrownError(f"{event.player} has already thrown in this round")
        throws = (*self.throws, (event.player, event.die))
        dice = dict(throws)
        if not all(p in dice for p in place):
            return replace(self, throws=throws)
        values = sorted({dice[p] for p in place}, reverse=True)
        split = tuple(tuple(p for p in place if dice[p] == v) for v in values)
        ranking: list[tuple[str, ...]] = []
        for g in self.ranking:
            ranking.extend(split if g == place else (g,))
        state = replace(self, ranking=tuple(ranking),
                        throws=tuple(t for t in throws if t[0] not in place))
        if any(len(g) > 1 for g in state.ranking):
            return state
        order = [g[0] for g in state.ranking]
        return replace(state, box=order[0], line=tuple(order[1:]),
                       game=Game.new(self.rules.game))

    # -- the team's cube --------------------------------------------------

    def _member(self, member: str) -> None:
        """Check that ``member`` may act for the team in the current game."""
        self._known(member)
        if member == self.box:
            raise NotOnTeamError(f"{member} is in the box, not on the team")
        if member not in self.in_game:
            raise MemberOutError(f"{member} dropped the box's double and left this game")

    def _propose(self, member: str) -> "Chouette":
        self._member(member)
        if self.consent is not None:
            raise AnswerPendingError("a team double is already waiting for consent")
        if member != self.captain:
            raise NotCaptainError(f"the captain, {self.captain}, proposes the team's doubles")
        assert self.game is not None
        refusal = self.game.double_refusal(TEAM)
        if refusal is not None:
            raise TeamCubeError(refusal)
        return self._with_consent((member,))

    def _consenting(self, member: str) -> None:
        if self.consent is None:
            raise NothingToAnswerError("no team double has been proposed")
        self._member(member)
        if member in self.consent:
            raise AlreadyAnsweredError(f"{member} has already agreed to this double")

    def _agree(self, member: str) -> "Chouette":
        self._consenting(member)
        assert self.consent is not None
        return self._with_consent((*self.consent, member))

    def _with_consent(self, consent: tuple[str, ...]) -> "Chouette":
        """Offer the double once every member still in the game agrees."""
        if not set(self.in_game) <= set(consent):
            return replace(self, consent=consent)
        assert self.game is not None
        return replace(self, consent=None, game=self.game.apply(Double(TEAM)))

    def _answer(self, member: str, *, took: bool) -> "Chouette":
        if self.phase is not ChouettePhase.ANSWERS:
            raise NothingToAnswerError("the box has not offered a double")
        self._member(member)
        if any(name == member for name, _ in self.answers):
            raise AlreadyAnsweredError(f"{member} has already answered this double")
        answers = (*self.answers, (member, took))
        decided = dict(answers)
        if not all(m in decided for m in self.in_game):
            return replace(self, answers=answers)
        assert self.game is not None
        value = self.game.cube_value
        drops = tuple(Stake(m, value) for m in self.in_game if not decided[m])
        takers = [m for m in self.in_game if decided[m]]
        game = self.game.apply(Take(TEAM) if takers else Pass(TEAM))
        state = replace(self, answers=(), dropped=(*self.dropped, *drops), game=game)
        return state._settled_if_over(game)

    # -- the game ---------------------------------------------------------

    def _game_event(self, game: Game, event: Event) -> "Chouette":
        if self.consent is not None:
            raise AnswerPendingError(
                f"the team's double waits for {', '.join(self.awaiting)} to agree or refuse")
        if self.phase is ChouettePhase.ANSWERS:
            raise AnswerPendingError(
                f"the box's double waits for {', '.join(self.awaiting)} to take or drop")
        if isinstance(event, Double | Take | Pass) and event.player == TEAM:
            raise AnswerPendingError(
                "the team's cube is decided member by member: ProposeDouble/AgreeDouble/"
                "RefuseDouble to double, MemberTake/MemberDrop to answer the box")
        return self._settled_if_over(game.apply(event))

    def _settled_if_over(self, game: Game) -> "Chouette":
        """Record ``game``; once it has a result, pay, rotate and start the next."""
        if game.result is None:
            return replace(self, game=game)
        assert self.box is not None
        result = game.result
        if result.points % result.cube_value:
            raise ChouetteError(f"{result.points} points is not a multiple of the cube")
        box_won = result.winner == BOX
        in_game = tuple(Stake(m, game.cube_value) for m in self.in_game)
        payments = settle(self.box, box_won=box_won,
                          multiplier=result.points // result.cube_value,
                          stake=self.rules.stake, in_game=in_game, dropped=self.dropped)
        entry = LedgerEntry(len(self.ledger) + 1, self.box, self.line[0], result, payments)
        box, line = rotate(self.box, self.line, (s.member for s in self.dropped),
                           box_won=box_won)
        return replace(self, box=box, line=line, game=Game.new(self.rules.game), dropped=(),
                       consent=None, answers=(), ledger=(*self.ledger, entry),
                       totals=self.totals.after(entry), games=(*self.games, game))
