"""The packed board key shared by positions and the move generator.

A board is one Python int: 4 bits per place, 26 places per player
(index 0 = borne off, 1-24 = points counted from that player's own home,
25 = bar), player 0 in the low 104 bits and player 1 above.  Moving a checker
is then one integer addition, hashing and equality are a single int compare,
and no tuples are built on the move generator's hot path.
"""

from typing import Final

PLACES: Final = 26
OFF: Final = 0
BAR: Final = 25
HAND: Final = 26
"""A move's source for a checker entering from hand (Dutch, Acey-Deucey).
Not a place in the packed key: checkers in hand are the ones missing from 15."""
NIBBLE: Final = 4
HALF: Final = PLACES * NIBBLE
LOW_MASK: Final = (1 << HALF) - 1
CHECKERS: Final = 15


def shift(place: int) -> int:
    """Bit offset of a place of the player in the low half."""
    return place * NIBBLE


def pack(layout: tuple[int, ...]) -> int:
    """Pack one player's 26 counts into the low half of a key."""
    key = 0
    for place, count in enumerate(layout):
        key |= count << (place * NIBBLE)
    return key


def unpack(half: int) -> tuple[int, ...]:
    """The 26 counts of the low half of a key."""
    return tuple((half >> (place * NIBBLE)) & 15 for place in range(PLACES))


def swap(key: int) -> int:
    """Exchange the two halves: the same board seen from the other player."""
    return (key >> HALF) | ((key & LOW_MASK) << HALF)
