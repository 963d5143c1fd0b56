"""One game of backgammon (or a variant) as an immutable state machine.

``Game.new(rules)`` waits for the opening roll; :meth:`Game.apply` takes an
event and returns the next state or raises a precise
:class:`~controller.game.errors.GameError` saying which rule forbids it.
The states are values: the referee can keep the previous one to undo, and
``Game.replay(rules, events)`` rebuilds any game from its record.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import Enum

from controller.game.errors import CubeError, GameError, NotYourTurnError
from controller.game.events import (
    AcceptResignation,
    ChooseDouble,
    DeclineResignation,
    Double,
    Event,
    Move,
    OpeningRoll,
    Pass,
    Resign,
    ResignLevel,
    Roll,
    Take,
)
from controller.game.result import Ending, GameResult, WinKind
from controller.game.settings import AutoDoubles, GameRules
from controller.rules.errors import IllegalPlayError
from controller.rules.move import Play
from controller.rules.player import Player
from controller.rules.position import Position, check_dice
from controller.rules.variant import Variant, variant_start


class Phase(Enum):
    """What the game waits for."""

    OPENING = "opening roll"
    ROLL = "roll or double"
    DOUBLED = "answer to a double"
    PLAY = "play"
    CHOOSE_DOUBLE = "choice of a double (acey-deucey)"
    OVER = "over"


class AceyStage(Enum):
    """Where a player is within an acey-deucey turn."""

    NONE = "none"
    ONE_TWO = "playing the 1-2"
    DOUBLE = "playing the chosen double"


def _legal_positions(position: Position, dice: tuple[int, int],
                     variant: Variant) -> frozenset[Position]:
    if variant is Variant.STANDARD:
        return position.legal_positions(*dice)
    from controller.rules.variant_moves import variant_legal_positions

    return variant_legal_positions(position, dice[0], dice[1], variant)


def _legal_plays(position: Position, dice: tuple[int, int], variant: Variant) -> list[Play]:
    if variant is Variant.STANDARD:
        return position.legal_plays(*dice)
    from controller.rules.variant_moves import variant_legal_plays

    return variant_legal_plays(position, dice[0], dice[1], variant)


def _start(variant: Variant) -> Position:
    return variant_start(variant, Player.ZERO)


@dataclass(frozen=True, slots=True)
class Game:
    """The state of one game after the events in :attr:`events`."""

    rules: GameRules
    position: Position
    phase: Phase = Phase.OPENING
    dice: tuple[int, int] | None = None
    cube_value: int = 1
    """The stake multiplier: the cube's value (in Acey-Deucey, the stake)."""
    cube_owner: Player | None = None
    cube_turned: bool = False
    """A double was taken in this game (the Jacoby rule looks at this)."""
    automatic_doubles: int = 0
    acey: AceyStage = AceyStage.NONE
    resignation: tuple[Player, ResignLevel] | None = None
    result: GameResult | None = None
    events: tuple[Event, ...] = field(default=())
    start: Position | None = None
    """Where the record begins when the game was set up mid-way (None: the
    variant's starting position, before the opening roll)."""

    # -- construction -----------------------------------------------------

    @classmethod
    def new(cls, rules: GameRules | None = None, *, cube_value: int = 1) -> "Game":
        """A game waiting for its opening roll."""
        rules = rules or GameRules()
        return cls(rules=rules, position=_start(rules.variant), cube_value=cube_value)

    @classmethod
    def at(cls, position: Position, rules: GameRules | None = None, *,
           cube_value: int = 1, cube_owner: Player | None = None) -> "Game":
        """A game set up mid-way: ``position.turn`` is about to roll (or double).

        For positions set by hand (the operator, tests, imported records).
        """
        return cls(rules=rules or GameRules(), position=position, phase=Phase.ROLL,
                   cube_value=cube_value, cube_owner=cube_owner, start=position)

    @classmethod
    def replay(cls, rules: GameRules, events: Iterable[Event], *,
               cube_value: int = 1, start: Position | None = None,
               cube_owner: Player | None = None) -> "Game":
        """Rebuild a game from its record, checking every event again."""
        if start is None:
            game = cls.new(rules, cube_value=cube_value)
        else:
            game = cls.at(start, rules, cube_value=cube_value, cube_owner=cube_owner)
        for event in events:
            game = game.apply(event)
        return game

    # -- reading ----------------------------------------------------------

    @property
    def turn(self) -> Player:
        """The player to act (for a pending double: the doubler's opponent answers)."""
        return self.position.turn

    @property
    def is_over(self) -> bool:
        """True once the game has a result."""
        return self.result is not None

    def legal_plays(self) -> list[Play]:
        """The legal plays of the dice out (one per resulting position)."""
        if self.phase is not Phase.PLAY or self.dice is None:
            raise GameError(f"no dice to play: the game waits for the {self.phase.value}")
        return _legal_plays(self.position, self.dice, self.rules.variant)

    def legal_positions(self) -> frozenset[Position]:
        """Every position a legal play of the dice out can leave."""
        if self.phase is not Phase.PLAY or self.dice is None:
            raise GameError(f"no dice to play: the game waits for the {self.phase.value}")
        return _legal_positions(self.position, self.dice, self.rules.variant)

    def double_refusal(self, player: Player) -> str | None:
        """Why ``player`` may not double now, or None when they may."""
        if not self.rules.cube:
            return "the cube is not in play in this game"
        if self.resignation is not None:
            return "a resignation is waiting for an answer"
        if self.phase is not Phase.ROLL:
            return ("a double is offered only before rolling "
                    f"(the game waits for the {self.phase.value})")
        if player != self.turn:
            return "only the player on turn may double"
        if self.cube_owner is not None and self.cube_owner != player:
            return "the cube belongs to the opponent"
        return None

    def may_double(self, player: Player) -> bool:
        """True when ``player`` may offer the cube now."""
        return self.double_refusal(player) is None

    # -- events -----------------------------------------------------------

    def apply(self, event: Event) -> "Game":
        """The game after ``event``; raises :class:`GameError` when the rules forbid it."""
        if self.result is not None:
            raise GameError("the game is over")
        if self.resignation is not None and not isinstance(
            event, AcceptResignation | DeclineResignation
        ):
            raise GameError("a resignation is waiting for an answer")
        after: Game
        match event:
            case OpeningRoll():
                after = self._opening(event)
            case Roll():
                after = self._roll(event)
            case Move():
                after = self._move(event)
            case ChooseDouble():
                after = self._choose_double(event)
            case Double():
                after = self._double(event)
            case Take():
                after = self._take(event)
            case Pass():
                after = self._pass(event)
            case Resign():
                after = self._resign(event)
            case AcceptResignation():
                after = self._accept(event)
            case DeclineResignation():
                after = self._decline(event)
            case _:
                raise GameError(f"not a game event: {event!r}")
        return replace(after, events=(*self.events, event))

    def _expect(self, phase: Phase, player: Player | None = None) -> None:
        if self.phase is not phase:
            raise GameError(f"the game waits for the {self.phase.value}, not the {phase.value}")
        if player is not None and player != self.turn:
            raise NotYourTurnError(f"it is player {self.turn.value}'s turn")

    def _opening(self, event: OpeningRoll) -> "Game":
        self._expect(Phase.OPENING)
        check_dice(*event.dice)
        mine, theirs = event.dice
        if mine == theirs:
            counted = self.rules.automatic_doubles is AutoDoubles.UNLIMITED or (
                self.rules.automatic_doubles is AutoDoubles.ONCE and not self.automatic_doubles
            )
            if counted:
                return replace(self, cube_value=self.cube_value * 2,
                               automatic_doubles=self.automatic_doubles + 1)
            return self
        starter = Player.ZERO if mine > theirs else Player.ONE
        dice = (mine, theirs) if starter == Player.ZERO else (theirs, mine)
        return self._dice_out(self.position.with_turn(starter), dice)

    def _dice_out(self, position: Position, dice: tuple[int, int]) -> "Game":
        acey = AceyStage.NONE
        value = self.cube_value
        if self.rules.variant is Variant.ACEY_DEUCEY and sorted(dice) == [1, 2]:
            acey = AceyStage.ONE_TWO
            if self.rules.acey_deucey_doubles_stake:
                value *= 2
        return replace(self, position=position, phase=Phase.PLAY, dice=dice, acey=acey,
                       cube_value=value)

    def _roll(self, event: Roll) -> "Game":
        self._expect(Phase.ROLL, event.player)
        check_dice(*event.dice)
        return self._dice_out(self.position, event.dice)

    def _move(self, event: Move) -> "Game":
        self._expect(Phase.PLAY, event.player)
        assert self.dice is not None
        if tuple(sorted(event.play.dice)) != tuple(sorted(self.dice)):
            raise GameError(f"the play is for {event.play.dice}, the dice are {self.dice}")
        legal = _legal_positions(self.position, self.dice, self.rules.variant)
        mover = self.turn
        if not legal:
            if event.play.moves:
                raise GameError(f"{self.dice[0]}-{self.dice[1]} cannot be played at all")
            after = self.position.swap_turn()
        else:
            try:
                after = self.position.result_of(event.play)
            except IllegalPlayError as exc:
                raise GameError(str(exc)) from exc
            if after not in legal:
                raise GameError(
                    f"{event.play} is not a legal play of {self.dice[0]}-{self.dice[1]}")
        if after.off(mover) == 15:
            return self._finish(after, mover)
        state = replace(self, position=after, phase=Phase.ROLL, dice=None, acey=AceyStage.NONE)
        if self.acey is AceyStage.ONE_TWO and len(event.play.moves) == 2:
            return replace(state, position=after.with_turn(mover), phase=Phase.CHOOSE_DOUBLE)
        if self.acey is AceyStage.DOUBLE and len(event.play.moves) == 4:
            return replace(state, position=after.with_turn(mover))
        return state

    def _choose_double(self, event: ChooseDouble) -> "Game":
        self._expect(Phase.CHOOSE_DOUBLE, event.player)
        check_dice(event.die, event.die)
        return replace(self, phase=Phase.PLAY, dice=(event.die, event.die), acey=AceyStage.DOUBLE)

    def _double(self, event: Double) -> "Game":
        refusal = self.double_refusal(event.player)
        if refusal is not None:
            raise CubeError(refusal)
        return replace(self, phase=Phase.DOUBLED)

    def _answer(self, player: Player) -> None:
        self._expect(Phase.DOUBLED)
        if player == self.turn:
            raise NotYourTurnError("the doubler's opponent answers the double")

    def _take(self, event: Take) -> "Game":
        self._answer(event.player)
        return replace(self, phase=Phase.ROLL, cube_value=self.cube_value * 2,
                       cube_owner=event.player, cube_turned=True)

    def _pass(self, event: Pass) -> "Game":
        self._answer(event.player)
        result = GameResult(self.turn, WinKind.SINGLE, Ending.PASSED, self.cube_value,
                            self.cube_value)
        return replace(self, phase=Phase.OVER, result=result)

    def _resign(self, event: Resign) -> "Game":
        if self.phase in (Phase.OPENING, Phase.OVER):
            raise GameError(f"no resignation during the {self.phase.value}")
        return replace(self, resignation=(event.player, ResignLevel(event.level)))

    def _accept(self, event: AcceptResignation) -> "Game":
        if self.resignation is None:
            raise GameError("no resignation was offered")
        resigner, level = self.resignation
        if event.player == resigner:
            raise NotYourTurnError("the resigning player's opponent accepts or declines")
        kind = WinKind(int(level))
        points = self._points(kind, resigner)
        result = GameResult(resigner.opponent, kind, Ending.RESIGNED, self.cube_value, points)
        return replace(self, phase=Phase.OVER, resignation=None, result=result)

    def _decline(self, event: DeclineResignation) -> "Game":
        if self.resignation is None:
            raise GameError("no resignation was offered")
        if event.player == self.resignation[0]:
            raise NotYourTurnError("the resigning player's opponent accepts or declines")
        return replace(self, resignation=None)

    # -- ending -----------------------------------------------------------

    def _points(self, kind: WinKind, loser: Player) -> int:
        if self.rules.variant is Variant.ACEY_DEUCEY:
            return self.cube_value * (15 - self.position.off(loser))
        multiplier = int(kind)
        if kind is WinKind.BACKGAMMON:
            multiplier = self.rules.backgammon_multiplier
        if self.rules.jacoby and not self.cube_turned:
            multiplier = 1
        return self.cube_value * multiplier

    def _finish(self, position: Position, winner: Player) -> "Game":
        loser = winner.opponent
        kind = WinKind.SINGLE
        if position.off(loser) == 0:
            kind = WinKind.GAMMON
            row = position.layout(loser)
            behind = row[25] + position.in_hand(loser) + sum(row[19:25])
            if behind:
                kind = WinKind.BACKGAMMON
        result = GameResult(winner, kind, Ending.BORNE_OFF, self.cube_value,
                            self._points(kind, loser))
        return replace(self, position=position, phase=Phase.OVER, dice=None, result=result)

