"""Plausible game positions in physical point numbering.

Random counts per point would teach a reader nothing about real boards
(real points hold one colour, stacks grow in the home boards, checkers
travel in one direction), so positions come from a random walk of single
legal-looking die moves from the starting position: entering from the bar,
hitting blots, bearing off once a side is home.  The walk knows nothing of
strategy; it only keeps every position one a game could reach.

A *seating* says where light's home board is as the camera sees it; dark's
home board is always the one across from it.  In player coordinates a
checker on point ``p`` (1-24) is ``p`` pips from bearing off.
"""

from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from vision.observation import Counts

Seating = Literal["bottom-right", "bottom-left", "top-right", "top-left"]
SEATINGS: Final[tuple[Seating, ...]] = ("bottom-right", "bottom-left", "top-right", "top-left")
START: Final = {24: 2, 13: 5, 8: 3, 6: 5}
"""The starting position of either side, in its own point numbers."""


def physical(point: int, seating: Seating, light: bool) -> int:
    """The physical index (0-23) of a side's own point ``point`` (1-24)."""
    if not 1 <= point <= 24:
        raise ValueError(f"a player's points are 1-24, not {point}")
    p = point if light else 25 - point
    index = p - 1  # light's home at the bottom right: point 1 is physical 0
    if seating in ("bottom-left", "top-left"):
        index = 11 - index if index < 12 else 35 - index  # mirror left-right
    if seating in ("top-right", "top-left"):
        index = 23 - index  # mirror top-bottom
    return index


class Walk:
    """Two sides' checkers in their own point numbers (index 0 = bar, 25 = off)."""

    def __init__(self) -> None:
        self.light = np.zeros(26, dtype=np.int64)
        self.dark = np.zeros(26, dtype=np.int64)
        for point, n in START.items():
            self.light[point] = n
            self.dark[point] = n

    def step(self, rng: np.random.Generator, light: bool) -> None:
        """One random single-die move for one side (nothing when it cannot move)."""
        own, other = (self.light, self.dark) if light else (self.dark, self.light)
        die = int(rng.integers(1, 7))
        moves = self._moves(own, other, die)
        if not moves:
            return
        src, dst = moves[int(rng.integers(len(moves)))]
        own[0 if src == 25 else src] -= 1  # src 25 = from the bar (stored at index 0)
        if dst <= 0:
            own[25] += 1
            return
        if other[25 - dst] == 1:  # a blot: hit it
            other[25 - dst] = 0
            other[0] += 1
        own[dst] += 1

    @staticmethod
    def _moves(own: npt.NDArray[np.int64], other: npt.NDArray[np.int64],
               die: int) -> list[tuple[int, int]]:
        blocked = [False] + [int(other[25 - p]) >= 2 for p in range(1, 25)]
        if own[0] > 0:
            target = 25 - die
            return [] if blocked[target] else [(25, target)]
        home = int(own[7:25].sum()) == 0
        highest = max((p for p in range(1, 25) if own[p] > 0), default=0)
        moves = []
        for p in range(1, 25):
            if own[p] == 0:
                continue
            target = p - die
            if target >= 1:
                if not blocked[target]:
                    moves.append((p, target))
            elif home and (target == 0 or p == highest):
                moves.append((p, 0))
        return moves

    def counts(self, seating: Seating) -> tuple[tuple[Counts, ...], Counts, Counts]:
        """Physical points, bar and borne-off counts."""
        light = [0] * 24
        dark = [0] * 24
        for p in range(1, 25):
            light[physical(p, seating, True)] += int(self.light[p])
            dark[physical(p, seating, False)] += int(self.dark[p])
        points = tuple(Counts(a, b) for a, b in zip(light, dark, strict=True))
        return (points, Counts(int(self.light[0]), int(self.dark[0])),
                Counts(int(self.light[25]), int(self.dark[25])))


def start_position(seating: Seating = "bottom-right") -> tuple[Counts, ...]:
    """The 24 physical points of the starting position."""
    return Walk().counts(seating)[0]


def random_position(rng: np.random.Generator, moves: int,
                    seating: Seating) -> tuple[tuple[Counts, ...], Counts, Counts]:
    """Points, bar and off after ``moves`` random single-die moves, alternating sides."""
    walk = Walk()
    for i in range(moves):
        walk.step(rng, light=i % 2 == 0)
    return walk.counts(seating)
