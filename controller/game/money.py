"""Money play: a stake per point and running totals.

(shared/rules/README.md: money play options are automatic doubles and the
Jacoby rule, under which gammons and backgammons count single unless the
cube was turned.)
"""

from dataclasses import dataclass, field, replace

from controller.game.events import Event
from controller.game.game import Game
from controller.game.settings import GameRules
from controller.rules.player import Player


@dataclass(frozen=True, slots=True)
class MoneyRules:
    """How a money session is played."""

    stake: int = 1
    """What one point is worth, in the club's smallest unit (cents, chips)."""
    game: GameRules = field(default_factory=GameRules)


@dataclass(frozen=True, slots=True)
class MoneySession:
    """Games played for money, one after the other, with the running totals."""

    rules: MoneyRules
    game: Game
    totals: tuple[int, int] = (0, 0)
    """Each player's net winnings so far (they sum to zero)."""
    games: tuple[Game, ...] = ()

    @classmethod
    def new(cls, rules: MoneyRules | None = None) -> "MoneySession":
        """A session about to start its first game."""
        rules = rules or MoneyRules()
        return cls(rules=rules, game=Game.new(rules.game))

    def apply(self, event: Event) -> "MoneySession":
        """The session after an event; a finished game is paid and the next started."""
        game = self.game.apply(event)
        if game.result is None:
            return replace(self, game=game)
        amount = game.result.points * self.rules.stake
        winner = game.result.winner
        totals = list(self.totals)
        totals[winner] += amount
        totals[Player(winner).opponent] -= amount
        return replace(self, game=Game.new(self.rules.game), totals=(totals[0], totals[1]),
                       games=(*self.games, game))
