"""Legal-play generation on packed keys.

Works on a key seen from the mover: the mover in the low half, the
opponent in the high half, each counted from their own home.  Returns, for
every distinct resulting board, one path (the moves packed 10 bits each)
that reaches it.

Two facts keep this fast without losing any play:

* Blocked points cannot change during a turn (the mover's own moves never
  add opponent checkers, a hit only removes a lone one), so which points are
  open is computed once per query.
* Any legal sequence can be reordered so that sources never increase
  without changing its result or its legality: a move from a lower point
  can never be what makes a move from a higher point possible (it cannot
  put a checker there, cannot bring the higher checker home and cannot
  clear the points above it).  So after a move from point ``s`` only
  sources ``<= s`` are tried, and for doubles each board keeps the highest
  such limit reached, which admits every continuation of the others.
"""

from typing import Final

from controller.rules.layout import BAR, HALF, NIBBLE, OFF

_OPP_SHIFT: Final = [HALF + NIBBLE * (25 - t) if 1 <= t <= 24 else 0 for t in range(25)]
_SHIFT: Final = [NIBBLE * i for i in range(26)]
_BAR_MASK: Final = 15 << (NIBBLE * BAR)
_OUTSIDE: Final = sum(15 << (NIBBLE * i) for i in range(7, 26))
_ABOVE: Final = [sum(15 << (NIBBLE * i) for i in range(s + 1, 26)) for s in range(26)]
_DELTA: Final = [[(1 << (NIBBLE * t)) - (1 << (NIBBLE * s)) for t in range(26)] for s in range(26)]
_HIT: Final = [
    (1 << (HALF + NIBBLE * BAR)) - (1 << (HALF + NIBBLE * (25 - t))) if 1 <= t <= 24 else 0
    for t in range(25)
]

Step = tuple[int, int, int]
"""(source, destination, resulting key) of one legal move."""


def open_points(key: int) -> list[bool]:
    """Which of the mover's points 1-24 may be landed on (index 0 unused)."""
    return [False] + [((key >> _OPP_SHIFT[t]) & 15) < 2 for t in range(1, 25)]


def steps(key: int, die: int, limit: int, open_: list[bool], sources: list[int]) -> list[Step]:
    """Every legal single move with ``die`` from a source no higher than ``limit``.

    ``sources`` lists, highest first, every point that may hold a mover's
    checker (a superset is fine: empty points are skipped); it saves looking
    at all 24 points of every intermediate board.
    """
    out: list[Step] = []
    if key & _BAR_MASK:
        if limit >= BAR:
            t = BAR - die
            if open_[t]:
                k2 = key + _DELTA[BAR][t]
                if ((key >> _OPP_SHIFT[t]) & 15) == 1:
                    k2 += _HIT[t]
                out.append((BAR, t, k2))
        return out
    home = not key & _OUTSIDE
    for s in sources:
        if s > limit or not (key >> _SHIFT[s]) & 15:
            continue
        t = s - die
        if t > 0:
            if open_[t]:
                k2 = key + _DELTA[s][t]
                if ((key >> _OPP_SHIFT[t]) & 15) == 1:
                    k2 += _HIT[t]
                out.append((s, t, k2))
        elif home and (t == 0 or not key & _ABOVE[s]):
            out.append((s, OFF, key + _DELTA[s][OFF]))
    return out


def _occupied(key: int) -> list[int]:
    """The mover's occupied points 1-24, highest first."""
    return [s for s in range(24, 0, -1) if (key >> _SHIFT[s]) & 15]


def generate(key: int, die1: int, die2: int) -> tuple[dict[int, int], int]:
    """All distinct results of a legal play and how many dice it uses.

    Returns ``({resulting key: packed path}, moves per play)``; an empty map
    means the player cannot move (the roll is forfeited).
    """
    open_ = open_points(key)
    if die1 == die2:
        return _doubles(key, die1, open_)
    return _mixed(key, die1, die2, open_)


def _mixed(key: int, die1: int, die2: int, open_: list[bool]) -> tuple[dict[int, int], int]:
    both: dict[int, int] = {}
    single: dict[int, dict[int, int]] = {die1: {}, die2: {}}
    occupied = _occupied(key)
    for first, second in ((die1, die2), (die2, die1)):
        alone = single[first]
        for s, t, k1 in steps(key, first, BAR, open_, occupied):
            p1 = (s << 5) | t
            alone.setdefault(k1, p1)
            # The second move comes from a point no higher than the first's
            # source: one that was occupied before, or where the first landed.
            sources = [t, *occupied] if t > 0 else occupied
            for s2, t2, k2 in steps(k1, second, s, open_, sources):
                if k2 not in both:
                    both[k2] = (p1 << 10) | (s2 << 5) | t2
    if both:
        return both, 2
    high, low = (die1, die2) if die1 > die2 else (die2, die1)
    if single[high]:
        return single[high], 1
    if single[low]:
        return single[low], 1
    return {}, 0


def _doubles(key: int, die: int, open_: list[bool]) -> tuple[dict[int, int], int]:
    """Doubles, breadth first: four layers of single moves, deduplicated.

    The hottest code of the engine (a spread position rolling 1-1 has over
    a thousand results), so the single-move logic of :func:`steps` is
    inlined over a per-query table of candidate sources.
    """
    path = 0
    depth = 0
    if key & _BAR_MASK:
        # Entering is forced and the same for every checker: no choice to make.
        t = BAR - die
        if not open_[t]:
            return {}, 0
        for _ in range(min((key >> _SHIFT[BAR]) & 15, 4)):
            k2 = key + _DELTA[BAR][t]
            if ((key >> _OPP_SHIFT[t]) & 15) == 1:
                k2 += _HIT[t]
            key = k2
            path = (path << 10) | (BAR << 5) | t
            depth += 1
        if depth == 4 or key & _BAR_MASK:
            return {key: path}, depth
    occupied = _occupied(key)
    reachable = set(occupied)
    for s in occupied:
        reachable.update(range(s - die, max(s - 4 * die, 0), -die))
    # (source shift, move delta, target's opponent shift, hit delta, kind, code, above mask)
    # kind 0: a move on the board; 1: bearing off exactly; 2: bearing off by overshoot.
    cand: list[tuple[int, int, int, int, int, int, int]] = []
    for s in sorted(reachable, reverse=True):
        t = s - die
        if t > 0:
            if open_[t]:
                cand.append((_SHIFT[s], _DELTA[s][t], _OPP_SHIFT[t], _HIT[t], 0, (s << 5) | t, 0))
        else:
            cand.append((_SHIFT[s], _DELTA[s][OFF], 0, 0, 1 if t == 0 else 2, s << 5, _ABOVE[s]))
    n = len(cand)
    # Each board maps to (path << 5) | i: i is the first candidate index a
    # continuation may use (sources never increase); the lowest i wins.
    layer: dict[int, int] = {key: path << 5}
    for _ in range(4 - depth):
        nxt: dict[int, int] = {}
        for k, v in layer.items():
            home = not k & _OUTSIDE
            base = (v >> 5) << 10
            for i in range(v & 31, n):
                sh, delta, osh, hit, kind, code, above = cand[i]
                if not (k >> sh) & 15:
                    continue
                if kind:
                    if not home or (kind == 2 and k & above):
                        continue
                    k2 = k + delta
                else:
                    k2 = k + delta
                    if ((k >> osh) & 15) == 1:
                        k2 += hit
                old = nxt.get(k2)
                if old is None or (old & 31) > i:
                    nxt[k2] = ((base | code) << 5) | i
        if not nxt:
            break
        layer = nxt
        depth += 1
    if not depth:
        return {}, 0
    return {k: v >> 5 for k, v in layer.items()}, depth


def unpack_path(key: int, path: int, length: int) -> list[tuple[int, int, bool]]:
    """The moves of a packed path as (source, destination, hit), replayed on ``key``."""
    out: list[tuple[int, int, bool]] = []
    for i in range(length - 1, -1, -1):
        code = (path >> (10 * i)) & 1023
        s, t = code >> 5, code & 31
        hit = t > 0 and ((key >> _OPP_SHIFT[t]) & 15) == 1
        key = key + _DELTA[s][t] + (_HIT[t] if hit else 0)
        out.append((s, t, hit))
    return out
