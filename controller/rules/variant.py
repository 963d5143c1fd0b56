"""The rule sets a game can be played under.

The Norwegian rules (/work/shared/rules/rules-no.txt) describe two variants
besides standard backgammon; both start with every checker off the board,
"in hand", and differ from the standard game in only a few rules.  The
variant is a value the move generator asks about rule by rule
(:attr:`Variant.starts_in_hand`, :attr:`Variant.enter_all_first`,
:attr:`Variant.hit_needs_home`) so no rule is spelled out twice.

What this module does *not* cover belongs to the game flow: the extra
double and throw after an acey-deucey (1-2), the absence of the doubling
cube and the stake paid per checker left in Acey-Deucey.
"""

from enum import Enum

from controller.rules.player import Player
from controller.rules.position import Position


class Variant(Enum):
    """A set of rules for moving checkers."""

    STANDARD = "standard"
    """Standard backgammon: the usual setup, no checkers in hand."""

    DUTCH = "dutch"
    """Dutch backgammon ("nederlandsk Backgammon", rules-no.txt).

    "alle brikkene starter av brettet «i hånd» og alle 15 må legges inn på
    motstanderens indre bord før noen kan fortsette videre": all checkers
    start in hand and all 15 must be entered in the opponent's home board
    before any of them moves on.  "en spiller kan ikke ta motspillerens
    brikke før minst en av hans brikker er flyttet inn i hans indre
    (peiling) bord": no hitting until one of the player's checkers has been
    moved into their own home board.
    """

    ACEY_DEUCEY = "acey-deucey"
    """Acey-Deucey (rules-no.txt).

    "alle brikkene starter brettet «i hånden»" and "det er ikke nødvendig at
    alle brikker legges inn før andre brikker kan flyttes": all checkers
    start in hand, and a checker in hand may enter at any time as one of the
    moves, mixed freely with moves on the board.  A hit checker on the bar
    still enters before anything else, as in the standard game.
    """

    @property
    def starts_in_hand(self) -> bool:
        """True when every checker starts off the board, waiting to enter."""
        return self is not Variant.STANDARD

    @property
    def enter_all_first(self) -> bool:
        """True when no checker may move on while one is still in hand (Dutch)."""
        return self is Variant.DUTCH

    @property
    def hit_needs_home(self) -> bool:
        """True when hitting waits until a checker stands in the home board (Dutch).

        The rule is read strictly: a checker must *already* stand in the
        home board (or have been borne off) before the move that hits; the
        very move that first brings a checker home may not hit.
        """
        return self is Variant.DUTCH


def variant_start(variant: Variant, turn: Player = Player.ZERO) -> Position:
    """The position a game of ``variant`` starts from, with ``turn`` on roll.

    Both variants start with all 15 checkers of each side in hand (an empty
    board); the standard game with the usual setup.
    """
    if variant.starts_in_hand:
        empty = [0] * 26
        return Position(empty, empty, turn)
    return Position.initial(turn)
