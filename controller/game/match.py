"""Match play to N points, with the Crawford rule.

(shared/rules/README.md, "Stakes, cube and scoring": match play to N points;
in the one game after a player first reaches N-1 there is no doubling; after
that the cube returns; the cube is not used in a 1-point match.)
"""

from dataclasses import dataclass, field, replace

from controller.game.errors import MatchError
from controller.game.events import Event
from controller.game.game import Game
from controller.game.settings import GameRules
from controller.rules.player import Player


@dataclass(frozen=True, slots=True)
class MatchRules:
    """How a match is played."""

    length: int
    crawford: bool = True
    """The Crawford rule (the usual convention; cy, hu)."""
    game: GameRules = field(default_factory=GameRules)
    """The rules of each game (the cube is switched off where the match says so)."""

    def __post_init__(self) -> None:
        if self.length < 1:
            raise ValueError(f"a match is to 1 point or more, not {self.length}")


@dataclass(frozen=True, slots=True)
class Match:
    """A match in progress or finished: scores, finished games, the game being played."""

    rules: MatchRules
    game: Game
    score: tuple[int, int] = (0, 0)
    games: tuple[Game, ...] = ()
    crawford_game: bool = False
    """The current game is the Crawford game (no doubling)."""
    crawford_done: bool = False
    """The Crawford game has been played (later games are post-Crawford)."""

    @classmethod
    def new(cls, rules: MatchRules) -> "Match":
        """A match about to start its first game."""
        return cls(rules=rules, game=Game.new(cls._game_rules(rules, crawford=False)))

    @staticmethod
    def _game_rules(rules: MatchRules, *, crawford: bool) -> GameRules:
        cube = rules.game.cube and rules.length > 1 and not crawford
        return replace(rules.game, cube=cube, jacoby=False)

    # -- reading ----------------------------------------------------------

    @property
    def winner(self) -> Player | None:
        """The player who has reached the match length, if any."""
        for player in Player:
            if self.score[player] >= self.rules.length:
                return player
        return None

    @property
    def is_over(self) -> bool:
        """True once a player has won the match."""
        return self.winner is not None

    def needs(self, player: Player) -> int:
        """Points ``player`` still needs to win the match."""
        return max(self.rules.length - self.score[player], 0)

    @property
    def post_crawford(self) -> bool:
        """True in the games after the Crawford game."""
        return self.crawford_done and not self.crawford_game

    def cube_warning(self, player: Player) -> str | None:
        """A warning (never a ban) when doubling now gains ``player`` nothing.

        The cube already covers the match when its value wins the match for
        the doubler (hu: at 3-3 in a 7-point match there is no need to
        double at 4; in a 7-point match no need to double at 8).
        """
        value = self.game.cube_value
        need = self.needs(player)
        if value >= need:
            return (f"the cube at {value} already wins the match for player {player.value}, "
                    f"who needs {need}: doubling gains nothing")
        return None

    # -- events -----------------------------------------------------------

    def apply(self, event: Event) -> "Match":
        """The match after an event of the current game; a finished game is
        scored and the next one started."""
        if self.is_over:
            raise MatchError("the match is over")
        game = self.game.apply(event)
        if game.result is None:
            return replace(self, game=game)
        score = list(self.score)
        score[game.result.winner] += game.result.points
        new_score = (score[0], score[1])
        games = (*self.games, game)
        crawford_done = self.crawford_done or self.crawford_game
        crawford_next = False
        if (self.rules.crawford and not crawford_done
                and all(s < self.rules.length for s in new_score)):
            before = max(self.score)
            leader = max(new_score)
            crawford_next = leader == self.rules.length - 1 and before < leader
        finished = replace(self, game=game, score=new_score, games=games,
                           crawford_game=False, crawford_done=crawford_done)
        if finished.is_over:
            return finished
        next_game = Game.new(self._game_rules(self.rules, crawford=crawford_next))
        return replace(finished, game=next_game, crawford_game=crawford_next)
