"""Who pays whom after a chouette game, and the running totals.

The chouette rule (rules-cy.txt, the chouette section) settles every team
member separately with the player in the box:

    "Mae chwaraewyr sy'n gwrthod yn ildio'r stanc presennol i'r chwaraewr
    yn y blwch ac yn gadael y gêm bresennol. [...] Os byddan nhw'n ennill,
    mae'r chwaraewr yn y blwch yn talu pob enillydd stanc y gêm. Os byddan
    nhw'n colli, mae pob un ohonyn nhw'n talu'r stanc i'r chwaraewr yn y
    blwch."

    (Players who refuse [the box's cube] give up the current stake to the
    player in the box and leave the current game. [...] If they [the takers]
    win, the player in the box pays each winner the game's stake. If they
    lose, each of them pays the stake to the player in the box.)

So a game produces one payment per team member: the droppers' at the value
before the offer they refused, the others' at their cube value times the
result's multiplier (single, gammon, backgammon, after the Jacoby rule).
Money only moves between the box and each member, never inside the team,
which is why the totals always sum to zero.

Pure values, no I/O: the chouette session (:mod:`controller.game.chouette`)
builds the entries; a scoreboard or a journal only reads them.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from controller.game.result import GameResult


class PaymentReason(Enum):
    """Why a payment is owed (the scoreboard shows it next to the amount)."""

    DROPPED = "dropped the box's double"
    GAME = "result of the game"


@dataclass(frozen=True, slots=True)
class Payment:
    """One amount, in the club's smallest unit, from one player to another."""

    payer: str
    payee: str
    amount: int
    reason: PaymentReason

    def __post_init__(self) -> None:
        if self.amount <= 0:
            raise ValueError(f"a payment is a positive amount, not {self.amount}")
        if self.payer == self.payee:
            raise ValueError(f"{self.payer} cannot pay themselves")


@dataclass(frozen=True, slots=True)
class Stake:
    """A team member's part in a game: the cube value they are in at."""

    member: str
    cube_value: int


def settle(box: str, *, box_won: bool, multiplier: int, stake: int,
           in_game: Iterable[Stake], dropped: Iterable[Stake]) -> tuple[Payment, ...]:
    """The payments of one finished game.

    ``in_game``: the members still in at the end, at their cube value; each
    wins or loses ``cube_value * multiplier * stake`` against the box.
    ``dropped``: the members who refused a double of the box, at the value
    before that offer; each pays ``cube_value * stake`` whatever happens
    after they left.  Droppers are listed first, in the order given.
    """
    if multiplier < 1 or stake < 1:
        raise ValueError("the multiplier and the stake are positive")
    payments = [Payment(s.member, box, s.cube_value * stake, PaymentReason.DROPPED)
                for s in dropped]
    for s in in_game:
        amount = s.cube_value * multiplier * stake
        if box_won:
            payments.append(Payment(s.member, box, amount, PaymentReason.GAME))
        else:
            payments.append(Payment(box, s.member, amount, PaymentReason.GAME))
    return tuple(payments)


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One finished chouette game as the club's score sheet records it."""

    number: int
    """1 for the evening's first game."""
    box: str
    captain: str
    """The captain the game started with (who may have dropped on the way)."""
    result: GameResult
    payments: tuple[Payment, ...]

    def net(self, player: str) -> int:
        """What ``player`` won (positive) or lost (negative) in this game."""
        received = sum(p.amount for p in self.payments if p.payee == player)
        paid = sum(p.amount for p in self.payments if p.payer == player)
        return received - paid


@dataclass(frozen=True, slots=True)
class Totals:
    """Every player's net winnings over the evening, in seating order.

    Only payments change it, and a payment adds to one player what it takes
    from another, so :attr:`amounts` always sums to zero.
    """

    players: tuple[str, ...]
    amounts: tuple[int, ...]

    @classmethod
    def zero(cls, players: Iterable[str]) -> "Totals":
        """Nobody has won or lost anything yet."""
        names = tuple(players)
        return cls(names, (0,) * len(names))

    def of(self, player: str) -> int:
        """``player``'s net winnings so far."""
        try:
            return self.amounts[self.players.index(player)]
        except ValueError:
            raise KeyError(player) from None

    def after(self, entry: LedgerEntry) -> "Totals":
        """The totals once ``entry``'s payments are made."""
        amounts = list(self.amounts)
        for payment in entry.payments:
            amounts[self.players.index(payment.payer)] -= payment.amount
            amounts[self.players.index(payment.payee)] += payment.amount
        return Totals(self.players, tuple(amounts))

    def as_dict(self) -> dict[str, int]:
        """The totals by name (a fresh dict: the value itself stays frozen)."""
        return dict(zip(self.players, self.amounts, strict=True))
