"""Backgammon positions: immutable, hashable, cheap to copy.

A :class:`Position` holds both players' checkers (24 points, bar, borne
off) and whose turn it is.  Points are numbered 1-24 from each player's own
side, so "my 6-point" means the same thing for both players; player A's
point ``p`` is player B's point ``25 - p``.
"""

from collections.abc import Sequence
from typing import Final

from controller.rules import layout as lay
from controller.rules import movegen
from controller.rules.errors import IllegalPlayError, InvalidDiceError, InvalidPositionError
from controller.rules.move import Move, Play
from controller.rules.player import Player

_START: Final = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


def check_dice(die1: int, die2: int) -> None:
    """Raise :class:`InvalidDiceError` unless both dice show 1-6."""
    for die in (die1, die2):
        if not isinstance(die, int) or not 1 <= die <= 6:
            raise InvalidDiceError(f"a die shows 1 to 6, not {die!r}")


class Position:
    """Where every checker is and who is on roll.

    Build one with :meth:`initial`, from counts with the constructor, or
    from notation (:meth:`from_position_id`).  Equal positions compare and
    hash equal; every method returns a new position.
    """

    __slots__ = ("_key", "_turn")

    _key: int
    _turn: Player

    def __init__(
        self,
        layout0: Sequence[int],
        layout1: Sequence[int],
        turn: Player = Player.ZERO,
    ) -> None:
        """Both players' 26 counts: ``[off, point 1, ..., point 24, bar]``.

        Fewer than 15 checkers on the board and off means the rest are still
        in hand (the Dutch and Acey-Deucey variants start that way).
        """
        rows = (tuple(layout0), tuple(layout1))
        for player, row in zip(Player, rows, strict=True):
            if len(row) != lay.PLACES:
                raise InvalidPositionError(
                    f"player {player.value}: 26 counts (off, points 1-24, bar) expected, "
                    f"got {len(row)}"
                )
            for place, count in enumerate(row):
                if not isinstance(count, int) or count < 0:
                    raise InvalidPositionError(
                        f"player {player.value}: {_place_name(place)} has count {count!r}"
                    )
            if sum(row) > lay.CHECKERS:
                raise InvalidPositionError(
                    f"player {player.value} has {sum(row)} checkers; at most 15"
                )
        for point in range(1, 25):
            if rows[0][point] and rows[1][25 - point]:
                raise InvalidPositionError(
                    f"both players have checkers on player 0's point {point}"
                )
        self._key = lay.pack(rows[0]) | (lay.pack(rows[1]) << lay.HALF)
        self._turn = Player(turn)

    @classmethod
    def _from_key(cls, key: int, turn: Player) -> "Position":
        position = object.__new__(cls)
        position._key = key
        position._turn = turn
        return position

    @classmethod
    def initial(cls, turn: Player = Player.ZERO) -> "Position":
        """The standard starting position."""
        return cls(_START, _START, turn)

    @classmethod
    def from_relative(cls, mover: Sequence[int], opponent: Sequence[int],
                      turn: Player = Player.ZERO) -> "Position":
        """Build from the player on roll's and the opponent's 26 counts."""
        if turn == Player.ZERO:
            return cls(mover, opponent, turn)
        return cls(opponent, mover, turn)

    # -- reading ----------------------------------------------------------

    @property
    def turn(self) -> Player:
        """The player on roll."""
        return self._turn

    @property
    def key(self) -> int:
        """The packed board (player 0 low, player 1 high), without the turn."""
        return self._key

    def layout(self, player: Player) -> tuple[int, ...]:
        """The 26 counts ``[off, point 1..24, bar]`` of ``player``."""
        half = self._key if player == Player.ZERO else self._key >> lay.HALF
        return lay.unpack(half & lay.LOW_MASK)

    def checkers(self, player: Player, point: int) -> int:
        """Checkers ``player`` has on their own ``point`` (1-24)."""
        if not 1 <= point <= 24:
            raise ValueError(f"points are 1-24, not {point}")
        return self.layout(player)[point]

    def bar(self, player: Player) -> int:
        """Checkers of ``player`` on the bar."""
        return self.layout(player)[lay.BAR]

    def off(self, player: Player) -> int:
        """Checkers ``player`` has borne off."""
        return self.layout(player)[lay.OFF]

    def in_hand(self, player: Player) -> int:
        """Checkers of ``player`` not yet brought into play (variants only)."""
        return lay.CHECKERS - sum(self.layout(player))

    def pip_count(self, player: Player) -> int:
        """Pips ``player`` needs to bear everything off (bar counts 25)."""
        row = self.layout(player)
        return sum(place * row[place] for place in range(1, 26)) + 25 * self.in_hand(player)

    def is_contact(self) -> bool:
        """True while some checker still has to pass an opposing one."""
        mine, theirs = self.layout(Player.ZERO), self.layout(Player.ONE)
        back0 = max((p for p in range(1, 26) if mine[p]), default=0)
        back1 = max((p for p in range(1, 26) if theirs[p]), default=0)
        return back0 + back1 > 25

    def winner(self) -> Player | None:
        """The player who has borne off all 15 checkers, if any."""
        for player in Player:
            if self.off(player) == lay.CHECKERS:
                return player
        return None

    def relative_key(self) -> int:
        """The packed board seen from the player on roll (mover low)."""
        return self._key if self._turn == Player.ZERO else lay.swap(self._key)

    # -- changing ---------------------------------------------------------

    def with_turn(self, turn: Player) -> "Position":
        """The same checkers with ``turn`` on roll."""
        return Position._from_key(self._key, Player(turn))

    def swap_turn(self) -> "Position":
        """The same checkers with the other player on roll."""
        return Position._from_key(self._key, self._turn.opponent)

    def _result(self, relative: int) -> "Position":
        absolute = relative if self._turn == Player.ZERO else lay.swap(relative)
        return Position._from_key(absolute, self._turn.opponent)

    def legal_positions(self, die1: int, die2: int) -> frozenset["Position"]:
        """Every distinct position a legal play of this roll can leave.

        The resulting positions have the opponent on roll; an empty set
        means the roll cannot be played at all.  These are the standard
        rules, which know no checkers in hand: positions of the Dutch and
        Acey-Deucey variants go to :mod:`controller.rules.variant_moves`.
        """
        check_dice(die1, die2)
        results, _ = movegen.generate(self.relative_key(), die1, die2)
        # Built inline: this runs once per result, up to ~1,400 times a query.
        new = object.__new__
        after = self._turn.opponent
        out = []
        if self._turn == Player.ZERO:
            for k in results:
                position = new(Position)
                position._key = k
                position._turn = after
                out.append(position)
        else:
            half, low = lay.HALF, lay.LOW_MASK
            for k in results:
                position = new(Position)
                position._key = (k >> half) | ((k & low) << half)
                position._turn = after
                out.append(position)
        return frozenset(out)

    def legal_plays(self, die1: int, die2: int) -> list[Play]:
        """One play for each distinct resulting position, sorted by notation.

        A roll that cannot be played gives one empty play (a dance), so the
        list is never empty.
        """
        check_dice(die1, die2)
        start = self.relative_key()
        results, length = movegen.generate(start, die1, die2)
        dice = (die1, die2)
        if not results:
            return [Play((), dice)]
        plays = [
            Play(tuple(Move(s, t, hit) for s, t, hit in movegen.unpack_path(start, path, length)),
                 dice)
            for path in results.values()
        ]
        plays.sort(key=str)
        return plays

    def legal_play_to(self, after: "Position", die1: int, die2: int) -> Play | None:
        """A legal play of ``die1``-``die2`` that leaves the checkers of ``after``.

        Only the checkers of ``after`` count, not whose turn it says.  None
        when no legal play gives that board; a dance when nothing can move
        and nothing moved.
        """
        check_dice(die1, die2)
        start = self.relative_key()
        results, length = movegen.generate(start, die1, die2)
        target = after.key if self._turn == Player.ZERO else lay.swap(after.key)
        if not results:
            return Play((), (die1, die2)) if target == start else None
        path = results.get(target)
        if path is None:
            return None
        moves = movegen.unpack_path(start, path, length)
        return Play(tuple(Move(s, t, hit) for s, t, hit in moves), (die1, die2))

    def result_of(self, play: Play) -> "Position":
        """The position after ``play``, replayed move by move without judging it.

        Raises :class:`IllegalPlayError` for a move no checker can make
        (no checker there, a blocked point); use :meth:`is_legal` to judge.
        """
        key = self.relative_key()
        for move in play.moves:
            key = _apply_move(key, move)
        return self._result(key)

    def is_legal(self, play: Play) -> bool:
        """True when ``play`` is a legal play of its dice here.

        The empty play (a dance) is legal exactly when the roll cannot be
        played at all.
        """
        try:
            after = self.result_of(play)
        except IllegalPlayError:
            return False
        return self._leaves_legal(play, after)

    def _leaves_legal(self, play: Play, after: "Position") -> bool:
        legal = self.legal_positions(*play.dice)
        if not legal:
            return play.is_dance
        return after in legal

    def play(self, play: Play) -> "Position":
        """The position after a legal ``play``; raises :class:`IllegalPlayError` otherwise."""
        after = self.result_of(play)  # precise errors for impossible single moves
        if not self._leaves_legal(play, after):
            text = str(play) or "no move"
            raise IllegalPlayError(f"{text} is not a legal play of {play.dice[0]}-{play.dice[1]}")
        return after

    # -- notation ---------------------------------------------------------

    def position_id(self) -> str:
        """The GNU Backgammon Position ID (player on roll encoded second)."""
        from controller.rules.position_id import encode_position_id

        return encode_position_id(self)

    @classmethod
    def from_position_id(cls, position_id: str, turn: Player = Player.ZERO) -> "Position":
        """Parse a Position ID; ``turn`` names the player on roll (the ID cannot)."""
        from controller.rules.position_id import decode_position_id

        return decode_position_id(position_id, turn)

    # -- dunder -----------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._key == other._key and self._turn == other._turn

    def __hash__(self) -> int:
        return hash(self._key) ^ self._turn

    def __repr__(self) -> str:
        return f"Position.from_position_id({self.position_id()!r}, turn=Player.{self._turn.name})"


def _place_name(place: int) -> str:
    if place == lay.OFF:
        return "off"
    if place == lay.BAR:
        return "the bar"
    if place == lay.HAND:
        return "hand"
    return f"point {place}"


def _apply_move(key: int, move: Move) -> int:
    """Apply one move to a mover-relative key, checking it can be made at all."""
    s, t = move.source, move.destination
    if s == lay.HAND:
        if not 1 <= t <= 24:
            raise IllegalPlayError(f"a checker from hand cannot go to {_place_name(t)}")
        mover = key & lay.LOW_MASK
        if sum((mover >> (lay.NIBBLE * i)) & 15 for i in range(lay.PLACES)) >= lay.CHECKERS:
            raise IllegalPlayError("no checker in hand")
        key += 1 << (lay.NIBBLE * t)
    else:
        if not (1 <= s <= 25 and 0 <= t <= 24 and t < s):
            raise IllegalPlayError(
                f"a checker cannot move from {_place_name(s)} to {_place_name(t)}")
        if not (key >> (lay.NIBBLE * s)) & 15:
            raise IllegalPlayError(f"no checker on {_place_name(s)}")
        key += (1 << (lay.NIBBLE * t)) - (1 << (lay.NIBBLE * s))
    if t:
        opp_shift = lay.HALF + lay.NIBBLE * (25 - t)
        opp = (key >> opp_shift) & 15
        if opp >= 2:
            raise IllegalPlayError(f"point {t} is blocked")
        if opp == 1:
            key += (1 << (lay.HALF + lay.NIBBLE * lay.BAR)) - (1 << opp_shift)
    return key

