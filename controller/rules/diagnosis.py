"""Naming what is wrong with a board that no legal play of the roll leaves.

Three sources of faults, in order of certainty:

1. Plain facts of the two boards, true whatever the player did: checkers
   that appeared or vanished, checkers that could only have moved
   backwards, opponent's checkers that moved or left a point of two.
2. Explanations (:class:`Way`): sequences of single-die moves that reach
   the mover's checkers as seen with some rules lifted.
   Each is charged with the rules it lifted, with dice it left unplayed that
   could have been played, and with hits it implies that the board does not
   show (or shows without a hit).  Explanations breaking the same kinds of
   rule as a simpler one and more are dropped; a kind broken by *every*
   remaining explanation is announced, worded so that it holds for all of
   them: the player broke that rule whichever way the checkers went.
3. When no explanation exists, or the simplest ones share no kind, a plain
   "cannot be reached" (listing the alternatives when they are few), after
   a pip-count comparison when the pips alone show the mistake.

A reason is never a guess: each sentence is either a fact of the boards or
true of every way the board could have been reached.

Both judges share this path (:func:`conclude`): the standard one
(:func:`diagnose`, ways from the packed-key replays of
:mod:`controller.rules.relaxed`) and the variant one
(:mod:`controller.rules.variant_judge`, ways from the relaxed steps of
:mod:`controller.rules.variant_moves`, checkers in hand included).  Each
brings only what depends on its boards: the facts of the mover's checkers,
the ways, and the sentences of the rules its steps break.
"""

from collections.abc import Callable, Collection, Iterable, Mapping
from types import MappingProxyType
from typing import Final, Protocol

from controller.rules import layout as lay
from controller.rules.faults import Breach, Fault, FaultKind, join_and, plural_points, times
from controller.rules.relaxed import explain, playable

_KIND_ORDER: Final = {kind: index for index, kind in enumerate(FaultKind)}
_MAX_ALTERNATIVES: Final = 3
_PREFIX: Final = {FaultKind.FULL_VALUE: "must use the full value of a die when it can: "}
_HIT_SUMMARIES: Final[Mapping[FaultKind, str]] = MappingProxyType({
    FaultKind.HIT_NOT_ON_BAR: "a hit checker was not put on the bar",
    FaultKind.OPPONENT_CHANGED: "an opponent's checker went to the bar without being hit",
    FaultKind.COUNT: "checkers appeared or disappeared",
})
"""The standard judge's sentences for hit breaches that differ in detail."""
EARLY_HIT_TEXT: Final = "no hitting before a checker has reached the home board"
"""Dutch: the rule of :attr:`FaultKind.NO_EARLY_HIT`."""


def _pips(row: tuple[int, ...]) -> int:
    return sum(place * row[place] for place in range(1, 26))


def _mine(point: int) -> int:
    """The mover's number of the opponent's ``point`` (their bar and off stay)."""
    return point if point in (lay.OFF, lay.BAR) else 25 - point


def _count(who: str, before: int, after: int, counted: str = "checkers") -> Fault:
    return Fault(FaultKind.COUNT,
                 f"checkers appeared or disappeared: {who} has {after} {counted}, not {before}")


def mover_facts(before: tuple[int, ...], after: tuple[int, ...]) -> list[Fault]:
    """Faults of the mover's checkers that no sequence of moves can explain."""
    if sum(after) != sum(before):
        return [_count("the mover", sum(before), sum(after))]
    faults: list[Fault] = []
    if after[lay.OFF] < before[lay.OFF]:
        faults.append(Fault(FaultKind.BACKWARDS, "a borne-off checker was put back on the board",
                            (lay.OFF,)))
    # Checkers only move down: some checker now on place x came from below
    # it when more checkers stand on x..25 than did before.  The highest
    # such x is where the backward move provably ended.
    above_before = above_after = 0
    for place in range(lay.BAR, 0, -1):
        above_before += before[place]
        above_after += after[place]
        if above_after > above_before:
            if place == lay.BAR:
                text = "checkers moved backwards: a checker of the mover's was put on the bar"
            else:
                text = f"checkers moved backwards: a checker moved back to point {place}"
            faults.append(Fault(FaultKind.BACKWARDS, text, (place,)))
            break
    return faults


def opponent_facts(before: tuple[int, ...], after: tuple[int, ...]) -> list[Fault]:
    """Changes to the opponent's checkers that no hit can cause.

    A hit only ever takes a lone opponent checker from a point to the bar,
    so any gain on a point, any change off, any loss from the bar and any
    loss from a point of two or more is a fault whatever the mover did.
    """
    gained = tuple(sorted(_mine(p) for p in range(1, lay.BAR) if after[p] > before[p]))
    lost = tuple(sorted(_mine(p) for p in range(1, lay.BAR) if after[p] < before[p]))
    clauses = [f"left {plural_points(lost)}"] if lost else []
    if after[lay.BAR] < before[lay.BAR]:
        clauses.append("left the bar")
    if after[lay.OFF] < before[lay.OFF]:
        clauses.append("came back from off")
    if gained:
        clauses.append(f"arrived on {plural_points(gained)}")
    if after[lay.OFF] > before[lay.OFF]:
        clauses.append("were borne off")
    if gained or after[lay.OFF] != before[lay.OFF] or after[lay.BAR] < before[lay.BAR]:
        what = "the opponent's checkers " + join_and(clauses)
        return [Fault(FaultKind.NOT_MOVERS_CHECKER,
                      f"a checker was moved that was not the mover's ({what})", gained + lost)]
    return [
        Fault(
            FaultKind.OPPONENT_CHANGED,
            f"the opponent's checkers on point {_mine(point)} changed without being hit "
            "(a point of two or more cannot be hit)",
            (_mine(point),),
        )
        for point in range(1, lay.BAR)
        if before[point] >= 2 and after[point] < before[point]
    ]


def hit_breaches(before: tuple[int, ...], after: tuple[int, ...],
                 predicted: tuple[int, ...]) -> set[Breach]:
    """What the opponent's side shows that a sequence's hits do not explain.

    Called only when the opponent's changes are lone checkers leaving points
    and checkers arriving on the bar; ``predicted`` is the opponent's side the
    sequence leaves.  Hit checkers are matched to arrivals on the bar first.
    """
    vanished = {p for p in range(1, lay.BAR) if before[p] == 1 and after[p] == 0}
    hit = {p for p in range(1, lay.BAR) if before[p] == 1 and predicted[p] == 0}
    arrived = after[lay.BAR] - before[lay.BAR]
    hit_gone, left_on_board, not_hit = vanished & hit, hit - vanished, vanished - hit
    out: set[Breach] = set()
    unbarred = max(0, len(hit_gone) - arrived) + len(left_on_board)
    if unbarred:
        where = left_on_board if len(hit_gone) <= arrived else hit_gone | left_on_board
        points = tuple(sorted(_mine(p) for p in where))
        which = plural_points(points)
        if unbarred < len(points):
            which = f"one of those hit on {which}" if unbarred == 1 else f"of those hit on {which}"
        subject = "a hit checker was" if unbarred == 1 else f"{unbarred} hit checkers were"
        out.add(Breach(FaultKind.HIT_NOT_ON_BAR, f"{subject} not put on the bar ({which})", points))
    spare = max(0, arrived - len(hit_gone))
    barred = min(spare, len(not_hit))
    if barred:
        points = tuple(sorted(_mine(p) for p in not_hit))
        out.add(Breach(FaultKind.OPPONENT_CHANGED,
                       f"the opponent's checker on {plural_points(points)} went to the bar "
                       "without being hit", points))
    if len(not_hit) > barred:
        points = tuple(sorted(_mine(p) for p in not_hit))
        out.add(Breach(FaultKind.COUNT,
                       f"checkers appeared or disappeared: the opponent's checker on "
                       f"{plural_points(points)} vanished", points))
    if spare > barred:
        out.add(Breach(FaultKind.COUNT,
                       "checkers appeared or disappeared: the opponent's bar gained "
                       f"{spare - barred} more than were hit", (lay.BAR,)))
    return out


class Way(Protocol):
    """A way of reaching the mover's checkers as seen, as the charges need it.

    The standard game's ways are :class:`controller.rules.relaxed.Explanation`
    values; the variant judge's come from its own replays of
    :func:`controller.rules.variant_moves.steps`.
    """

    @property
    def breaches(self) -> frozenset[Breach]:
        """The rules its moves broke."""
        ...

    @property
    def unused(self) -> tuple[int, ...]:
        """Dice it left unplayed, ascending."""
        ...

    @property
    def theirs(self) -> tuple[int, ...]:
        """The opponent's 26 counts (from their side) it leaves, hits included."""
        ...

    def playable(self, die: int) -> bool:
        """Whether ``die`` has a legal move on the board it leaves."""
        ...


class Roll:
    """The roll and the legal plays, as the charges against a way need them."""

    def __init__(self, die1: int, die2: int, length: int,
                 start_playable: Callable[[int], bool],
                 summaries: Mapping[FaultKind, str]) -> None:
        """``length``: dice a legal play uses; ``start_playable``: whether a die has a
        legal move before the play; ``summaries``: sentences for kinds whose
        breaches differ in detail (others are listed, joined by "or")."""
        self.die1, self.die2 = die1, die2
        self.doubles = die1 == die2
        self.dice = (die1,) * 4 if self.doubles else (die1, die2)
        self.length = length
        self.start_playable = start_playable
        self.summaries = summaries
        self.roll = f"{die1}-{die2}"

    def dice_breach(self, way: Way) -> Breach | None:
        """The dice rule a way broke by what it left unplayed, if any."""
        used = len(self.dice) - len(way.unused)
        if used < self.length:
            if used == 0:
                text = f"no checker moved, but {self.roll} can be played"
            elif self.doubles:
                text = (f"the {self.die1} could be played {times(self.length)} "
                        f"but was played only {times(used)}")
            elif way.playable(way.unused[0]):
                text = f"the {way.unused[0]} could be played and was not"
            else:
                text = "both dice could be played"
            return Breach(FaultKind.UNPLAYED_DIE, text)
        high = max(self.die1, self.die2)
        if (used == self.length == 1 and not self.doubles and way.unused == (high,)
                and self.start_playable(high)):
            return Breach(FaultKind.HIGHER_DIE,
                          f"the higher die ({high}) must be played when only one can")
        return None

    def generic(self, kind: FaultKind) -> str | None:
        """A sentence true of every breach of ``kind`` when they differ in detail."""
        if kind == FaultKind.UNPLAYED_DIE:
            if self.doubles:
                return f"the {self.die1} could be played {times(self.length)}"
            return "both dice could be played"
        return self.summaries.get(kind)


def _charge(way: Way, roll: Roll,
            opponent: tuple[tuple[int, ...], tuple[int, ...]] | None) -> frozenset[Breach]:
    """Everything one way breaks: lifted rules, dice, unexplained hits."""
    sheet = set(way.breaches)
    dice = roll.dice_breach(way)
    if dice is not None:
        sheet.add(dice)
    if opponent is not None:
        sheet |= hit_breaches(*opponent, way.theirs)
    return frozenset(sheet)


def _merge(kind: FaultKind, breaches: Iterable[Breach], roll: Roll,
           outside: tuple[int, ...]) -> Fault:
    """One fault saying what every one of ``breaches`` (all of ``kind``) says."""
    distinct = sorted(set(breaches), key=lambda b: (b.points, b.text))
    points = outside if kind == FaultKind.BEAR_OFF_OUTSIDE else tuple(
        sorted({p for b in distinct for p in b.points}))
    generic = roll.generic(kind)
    if len(distinct) == 1:
        text = distinct[0].text
    elif kind == FaultKind.BLOCKED:
        text = f"{plural_points(points)} are blocked"
    elif kind == FaultKind.NO_EARLY_HIT:
        text = f"{EARLY_HIT_TEXT} (a blot was hit on {plural_points(points)})"
    elif generic is not None:
        text = generic
    else:
        text = " or ".join(b.text for b in distinct)
    return Fault(kind, _PREFIX.get(kind, "") + text, points)


def _from_sheets(sheets: Collection[frozenset[Breach]], roll: Roll,
                 outside: tuple[int, ...]) -> list[Fault]:
    """The faults every sheet agrees on, or the alternatives when they agree on none.

    Sheets are compared by the kinds of rule they break: a sheet breaking
    the same kinds as another and more is a worse explanation and is
    dropped.  The wording of each announced kind is merged from *every*
    sheet, so it holds whichever way the checkers went.
    """
    kinds = {sheet: frozenset(b.kind for b in sheet) for sheet in sheets}
    simplest = {k for k in kinds.values() if not any(other < k for other in kinds.values())}
    if frozenset() in simplest:
        return []

    def merged(kind: FaultKind, within: frozenset[FaultKind]) -> Fault:
        found = (b for sheet, ks in kinds.items() if within <= ks for b in sheet if b.kind == kind)
        return _merge(kind, found, roll, outside)

    common = frozenset.intersection(*simplest)
    if common:
        return [merged(kind, common) for kind in FaultKind if kind in common]
    text = f"this board cannot be reached with {roll.roll}"
    if len(simplest) <= _MAX_ALTERNATIVES:
        options = sorted(
            (" and ".join(merged(kind, option).text for kind in FaultKind if kind in option)
             for option in simplest),
            key=lambda option: (len(option), option),
        )
        text += " without breaking a rule: either " + ", or ".join(options)
    return [Fault(FaultKind.UNREACHABLE, text)]


def conclude(roll: Roll, mover: list[Fault], theirs: tuple[tuple[int, ...], tuple[int, ...]],
             ways: Callable[[], Collection[Way]], outside: tuple[int, ...], *,
             counted: str = "checkers",
             fallback: Callable[[], Fault | None] = lambda: None) -> tuple[Fault, ...]:
    """Why a board is no legal result of ``roll``, most basic first.  Never empty.

    The one diagnosis behind both judges; each gives what depends on its
    boards.  ``mover``: the facts of the mover's checkers (empty when some
    sequence of moves could explain them); ``theirs``: the opponent's 26
    counts before and as seen, from their side; ``ways``: every way (up to
    the rules broken) to reach the mover's checkers as seen, asked only when
    ``mover`` is empty; ``outside``: the mover's places outside the home
    board before the play; ``counted``: what the opponent's checkers are
    counted on, in the count's sentence; ``fallback``: a fault for a board
    no way reaches (the pip count), asked only then.
    """
    op0, op1 = theirs
    opponent = opponent_facts(op0, op1)
    opp_count = [] if sum(op0) == sum(op1) else [
        _count("the opponent", sum(op0), sum(op1), counted)]
    faults = mover + opponent
    found = () if mover else ways()
    if found:
        # When the opponent's side shows only lone checkers leaving and bar
        # arrivals, each way's hits tell which of those were fair (and
        # account for the opponent's count); otherwise that side is wrong
        # anyway and its count is reported as a plain fact.
        hits = theirs if not opponent else None
        sheets = {_charge(way, roll, hits) for way in found}
        faults += _from_sheets(sheets, roll, outside)
        if opponent:
            faults += opp_count
    else:
        faults += opp_count
        if not mover:
            extra = fallback()
            faults += [] if extra is None else [extra]
    if (not found and not mover) or not faults:
        faults.append(Fault(FaultKind.UNREACHABLE,
                            f"this board cannot be reached with {roll.roll}"))
    faults.sort(key=lambda f: _KIND_ORDER[f.kind])
    return tuple(faults)


def _pip_fault(before: tuple[int, ...], after: tuple[int, ...], roll: Roll,
               legal: Collection[int]) -> Fault | None:
    """The pip-count mismatch, when nothing was borne off and the count shows it."""
    if after[lay.OFF] != before[lay.OFF]:
        return None
    moved = _pips(before) - _pips(after)
    if not legal:
        return Fault(FaultKind.PIPS,
                     f"moved {moved} pips but {roll.roll} cannot be played at all")
    results = [lay.unpack(key & lay.LOW_MASK) for key in legal]
    if all(row[lay.OFF] == before[lay.OFF] for row in results):
        totals = {_pips(before) - _pips(row) for row in results}
        if len(totals) == 1 and moved not in totals:
            return Fault(FaultKind.PIPS,
                         f"moved {moved} pips but the dice allow {totals.pop()}")
        return None
    if moved > sum(roll.dice):
        return Fault(FaultKind.PIPS,
                     f"moved {moved} pips but {roll.roll} allows at most {sum(roll.dice)}")
    return None


def diagnose(start: int, target: int, die1: int, die2: int, *, legal: Collection[int],
             length: int) -> tuple[Fault, ...]:
    """Why ``target`` is no legal result of ``die1``-``die2`` from ``start``.

    Both keys are mover-relative; ``legal`` holds the keys of the legal
    results and ``length`` the number of dice a legal play uses (from
    :func:`controller.rules.movegen.generate`).  Never empty.
    """
    me0, me1 = lay.unpack(start & lay.LOW_MASK), lay.unpack(target & lay.LOW_MASK)
    op0, op1 = lay.unpack(start >> lay.HALF), lay.unpack(target >> lay.HALF)
    roll = Roll(die1, die2, length, lambda die: playable(start, die), _HIT_SUMMARIES)
    return conclude(roll, mover_facts(me0, me1), (op0, op1),
                    lambda: explain(start, target, roll.dice),
                    tuple(p for p in range(7, 26) if me0[p]),
                    fallback=lambda: _pip_fault(me0, me1, roll, legal))
