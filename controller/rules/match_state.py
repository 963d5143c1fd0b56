"""Everything about a match that is not the checkers: score, cube, dice, offers.

This is exactly what a GNU Backgammon Match ID holds (and what an XGID holds
besides the board), so both notations convert to and from one value type.
gnubg distinguishes two "current players": the one who rolls the dice
(:attr:`MatchState.on_roll`) and the one who must act now
(:attr:`MatchState.turn`); they differ while a double or a resignation
waits for the opponent's answer.

Construction validates the combination, rejecting states no game can reach
(a die of 7, a 3-cube, both players past the match length); the checks are
deliberately no stricter than what gnubg itself writes, so every ID gnubg
prints can be read back.
"""

from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from controller.rules.errors import InvalidMatchStateError
from controller.rules.player import Player

MAX_CUBE_LOG2: Final = 15
"""The Match ID stores the cube as a 4-bit logarithm: at most a 32768-cube."""
MAX_FIELD: Final = (1 << 15) - 1
"""Match length and scores are 15-bit fields in the Match ID."""


class GameState(IntEnum):
    """Where the current game stands (the Match ID's 3-bit game state)."""

    NONE = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4

    @property
    def ended(self) -> bool:
        """True once the game has a winner, however it was decided."""
        return self in (GameState.OVER, GameState.RESIGNED, GameState.DROPPED)


class Resignation(IntEnum):
    """What a pending resignation offers (points are multiplied by the cube)."""

    NONE = 0
    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


@dataclass(frozen=True, slots=True)
class MatchState:
    """Score, cube, dice and pending offers of one moment in a match or session.

    ``match_length`` 0 means money play (a session); ``score`` is indexed by
    player.  ``cube_owner`` ``None`` means the cube is in the middle.  ``dice``
    ``(0, 0)`` means not rolled yet; they are kept higher die first, as gnubg
    writes them, so the same roll always gives the same state.  ``jacoby``
    (gammons count only once the cube has been turned) exists in money play
    only.
    """

    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    cube_value: int = 1
    cube_owner: Player | None = None
    on_roll: Player = Player.ZERO
    turn: Player = Player.ZERO
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    double_offered: bool = False
    resignation: Resignation = Resignation.NONE
    dice: tuple[int, int] = (0, 0)
    jacoby: bool = False

    def __post_init__(self) -> None:
        # Normalise ints to the enums so equal states compare equal however
        # they were built, then refuse impossible combinations.
        object.__setattr__(self, "on_roll", Player(self.on_roll))
        object.__setattr__(self, "turn", Player(self.turn))
        if self.cube_owner is not None:
            object.__setattr__(self, "cube_owner", Player(self.cube_owner))
        object.__setattr__(self, "game_state", GameState(self.game_state))
        object.__setattr__(self, "resignation", Resignation(self.resignation))
        object.__setattr__(self, "score", tuple(self.score))
        _check(self)
        object.__setattr__(self, "dice", tuple(sorted(self.dice, reverse=True)))

    @property
    def is_money(self) -> bool:
        """True for money play (no match length, no Crawford rule)."""
        return self.match_length == 0

    @property
    def dice_rolled(self) -> bool:
        """True once the player on roll has rolled."""
        return self.dice != (0, 0)

    @property
    def cube_log2(self) -> int:
        """The cube value as a power of two (1 -> 0, 2 -> 1, 4 -> 2 ...)."""
        return self.cube_value.bit_length() - 1

    def with_players_swapped(self) -> "MatchState":
        """The same state with players 0 and 1 exchanged.

        gnubg does this when it swaps players (``swap players``, and after
        ``set xgid`` when the top player is on roll); a referee needs it when
        the camera's idea of who is player 0 turns out to be the other way.
        """
        return MatchState(
            match_length=self.match_length,
            score=(self.score[1], self.score[0]),
            cube_value=self.cube_value,
            cube_owner=None if self.cube_owner is None else self.cube_owner.opponent,
            on_roll=self.on_roll.opponent,
            turn=self.turn.opponent,
            crawford=self.crawford,
            game_state=self.game_state,
            double_offered=self.double_offered,
            resignation=self.resignation,
            dice=self.dice,
            jacoby=self.jacoby,
        )

    @property
    def winner(self) -> Player | None:
        """The player who reached the match length, once the match is over."""
        if self.is_money:
            return None
        for player in Player:
            if self.score[player] >= self.match_length:
                return player
        return None


def _check(state: MatchState) -> None:
    """Raise :class:`InvalidMatchStateError` naming the first impossible fact."""
    length, score = state.match_length, state.score
    if not isinstance(length, int) or not 0 <= length <= MAX_FIELD:
        raise InvalidMatchStateError(
            f"match length must be 0 (money) to {MAX_FIELD}, not {length!r}"
        )
    if len(score) != 2 or not all(isinstance(s, int) and 0 <= s <= MAX_FIELD for s in score):
        raise InvalidMatchStateError(f"scores are two numbers 0 to {MAX_FIELD}, not {score!r}")
    cube = state.cube_value
    if not isinstance(cube, int) or cube < 1 or cube & (cube - 1) or cube > 1 << MAX_CUBE_LOG2:
        raise InvalidMatchStateError(
            f"the cube shows a power of two from 1 to {1 << MAX_CUBE_LOG2}, not {cube!r}"
        )
    dice = state.dice
    if len(dice) != 2 or not all(isinstance(d, int) and 0 <= d <= 6 for d in dice):
        raise InvalidMatchStateError(f"dice show 1 to 6 (0 = not rolled), not {dice!r}")
    if (dice[0] == 0) != (dice[1] == 0):
        raise InvalidMatchStateError(f"either both dice are rolled or neither, not {dice!r}")
    if length:
        _check_match_score(state)
        if state.jacoby:
            raise InvalidMatchStateError("the Jacoby rule applies to money play only")
    elif state.crawford:
        raise InvalidMatchStateError("money play has no Crawford game")
    if state.double_offered:
        if state.resignation:
            raise InvalidMatchStateError("a double and a resignation cannot both be pending")
        if state.dice_rolled:
            raise InvalidMatchStateError("a double is offered before rolling, not with dice rolled")
        if state.crawford:
            raise InvalidMatchStateError("no doubling in the Crawford game")
    if state.double_offered and state.game_state != GameState.PLAYING:
        raise InvalidMatchStateError(
            f"a double can only be pending while playing, not in game state {state.game_state.name}"
        )
    if state.resignation and state.game_state not in (GameState.PLAYING, GameState.RESIGNED):
        # After an accepted resignation gnubg keeps what was resigned.
        raise InvalidMatchStateError(
            f"a resignation belongs to a game being played or resigned, not in game state "
            f"{state.game_state.name}"
        )


def _check_match_score(state: MatchState) -> None:
    length, score = state.match_length, state.score
    # gnubg adds a game's full points to the winner's score, so the match
    # winner may end past the match length (9-5 in a 7-point match after a
    # backgammon at 6-5); only the winner, and only once the game is over.
    over = [player for player in Player if score[player] >= length]
    if len(over) == 2:
        raise InvalidMatchStateError(f"both players cannot reach {length} points: {score}")
    if over and not state.game_state.ended:
        raise InvalidMatchStateError(
            f"score {score[0]}-{score[1]} ends a {length}-point match, "
            f"but the game state is {state.game_state.name}"
        )
    if state.crawford and not over and length - 1 not in score:
        raise InvalidMatchStateError(
            f"the Crawford game needs a player at {length - 1} points, not {score[0]}-{score[1]}"
        )
