"""Judging a finished play: legal, an illegal play to call, or something to look at.

The rules engine (:func:`controller.rules.judge`) says whether the board
after is a legal result of the roll and, when not, why.  The referee adds
one judgement of its own (etiquette 5, "a false call is worse than a missed
one"): an illegal board is called only when it is a *plausible mistake*
with the checkers, a play a person could have made.  Checkers appearing or
vanishing, the opponent's checkers moving, a board no sequence of moves
explains (unless one checker away from a legal play), or a tray out of view
that cannot tell a borne-off checker from a hidden one, are warnings to look.

With no tray in view, the mover's checkers missing from the board are taken
as borne off; when that is no legal play, they may still be hidden or held
in a hand.  The play is then called only when it is illegal *wherever* the
missing checkers are: no legal result of the roll fits the board with them
put back anywhere (on any point or the bar) or borne off.  Bearing off from
outside the home board, or with a die left unplayed, stays illegal however
the missing checker is accounted for; a legal play with one checker still
in a hand does not, and stays a warning.
"""

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final, Literal

from controller.referee.board import BoardReadError, BoardReading, position_of
from controller.rules import layout as lay
from controller.rules.faults import FaultKind
from controller.rules.judge import judge
from controller.rules.move import Play
from controller.rules.nearest import key_distance
from controller.rules.physical import Seating
from controller.rules.player import Player
from controller.rules.position import Position

UNCLEAR_KINDS: Final = frozenset({FaultKind.COUNT, FaultKind.NOT_MOVERS_CHECKER,
                                  FaultKind.OPPONENT_CHANGED})
"""Faults that say more about the reading than about the player."""
VAGUE_KINDS: Final = frozenset({FaultKind.UNREACHABLE})
"""Faults that name no rule: alone, they make a board no plausible mistake
unless it lies close to a legal play (:class:`Plausibility`)."""


@dataclass(frozen=True, slots=True)
class Plausibility:
    """When a board the rules engine names no rule for is still a mistake to call."""

    vague_within: int = 1
    """Checkers to move to turn a board the rules engine can only call
    ``unreachable`` into a legal result of the roll, at most, for it to be
    called.  In bearing off, a checker moved a pip too far or too short, or
    a die left unplayed, often breaks no single nameable rule ("either both
    dice could be played, or the full value ..."), yet one checker set right
    makes the play legal: a mistake a person makes.  A board further from
    every legal play says more about the reading than about the player."""

    tall_stack: int = 6
    """A stack this tall (as the legal play leaves it) may be read a checker
    short, with that checker taken for borne off: a board that is a legal
    result of the roll but for one checker more borne off, missing from such
    a stack that neither the record nor the legal play leaves so low, is a
    warning, not a call.  The camera counts a stack's upper layers by their
    rims, and the tray's count is made to agree with the board's (fifteen a
    side, ``vision.checkers.totals.consistent_off``), so a stack read short
    moves a checker into the tray even when the tray is in view (rendered
    960b5e2b053c seed 125: a stack of seven read as six on a forced 2-2).
    Bearing off one checker more than the roll allows, and from a point the
    play leaves untouched or fills, is no mistake a person makes by a die's
    worth.  Only this direction: a stack read one *too many* with a checker
    missing from the tray looks exactly like a die left unplayed or a
    checker moved onto the stack instead of off (the planted ``one_die``
    mistakes: excusing those cost 16 of 482 catches with a perfect reader).
    Six: the rendered misreads were stacks of five to seven; lower stacks are
    read right."""

    pips_missed: tuple[tuple[int, int], ...] = ((3, 6),)
    """(value read, value shown) of the dice misreadings taken as likely: a play that
    is illegal with a roll read as no double, and legal with one die read again so,
    is recorded as that roll's (a ``dice`` warning), never called.  The reader
    misses a six's column of pips: on the rendered streams (960b5e2b053c and
    3c64a794ac91) a 6 read as a 3 was 9 of the 25 misread rolls and three of the
    four false calls on today's vision (3c64a794ac91 seeds 7 and 21: 6-2 read 3-2).
    Only this pair: taking any die read two or more pips short (4 as 2, 2 as 1,
    ...) also re-read planted mistakes in bear-offs as legal plays of a larger die
    (4 of 482 catches lost on 960b5e2b053c).  A roll read as a double is not read
    again (a double played three times is a legal play of the die and its double:
    960b5e2b053c seed 23's 3-3 for 6-3 looks exactly like a planted ``one_die``
    mistake); where the referee calls at once (strict mode, a game's last play) such a
    play is a look instead of a call (28de820384cd seed 23)."""

    dice_confusions: tuple[tuple[int, int], ...] = ((3, 6), (2, 4))
    """(value read, value shown) of the dice misreadings the referee allows for (both
    modes; at first only where it calls at once): a play illegal with the roll as
    read, and legal with both dice played when one die is read again so (exactly one
    roll fits), is recorded as that roll's with a ``dice`` warning, never called; a
    roll read as a double is read again too.  Measured on the rendered streams
    (fe67551d4c6d, first 35 sessions: 18 rolls recorded with wrong dice): a 6 read
    as a 3 11 times, a 4 as a 2 twice, a 1 as a 2 twice, a 6 as a 5, a 2 or a 1 once
    each; the false calls they made were seeds 113 (4-3 read 3-2), 23 (6-3 read 3-3,
    played as a double a die short) and 63 (4-1 read 2-4).  A 1 read as a 2 is left
    out: re-read, a checker moved a pip short with a 2 is a legal 1, and that is a
    planted ``distance`` mistake (10 of 482 catches lost with a perfect reader over
    200 games); the two pairs kept lost none.  Players mode too (at first only
    strict): the call light lit on a legal play invites the opponent to call it
    (7e15fdd04acc seed 60: 4-2 read 2-2; 28de820384cd seed 96: 6-3 read 3-3, both
    judged illegal); with a perfect reader nothing changed there either (482/482)."""

    over_stack: int = 5
    """A stack this tall (as the legal play leaves it) may be read a checker *too many*,
    with the tray read one short to match: a board that is a legal result of the roll
    but for one checker more on such a stack and one fewer borne off is a warning, not
    a call, when the tray's own reading (the observation's ``off_read``, before the
    vision made it agree with the board) shows the legal play's borne-off count.  That
    board alone is exactly a die left unplayed or a checker moved onto the stack
    instead of off (the planted ``one_die`` mistakes), so it takes the tray's own word
    against the board's: the camera disagreeing with itself.  A real mistake leaves
    the tray one short in its own reading too, and is called.  Five: the rendered
    misreads were stacks of five read as six (28de820384cd seeds 7, 27, 39; 960b5e2b053c
    seeds 7, 27, 39, 115, 123), where a second layer begins."""

    under_stack: int = 5
    """A stack this tall (as the legal play leaves it) may be read a checker *short*,
    with the tray read one over to match: a board that is a legal result of the roll but
    for one checker fewer on such a stack and one more borne off is a warning, not a
    call, when the tray's own reading (``off_read``) shows the legal play's borne-off
    count (the mirror of ``over_stack``, for stacks ``tall_stack`` leaves to the call).
    A checker borne off a die too many shows in the tray's own reading too and is
    called.  Rendered 7e15fdd04acc seed 12 (players mode): ``2/off(2)`` from a stack
    of seven, the five left read as four and the tray as nine, its own reading eight:
    judged illegal, the call light lit for a legal play.  Five, as ``over_stack``:
    with the tray as witness the height matters little, and the shorter stacks are
    read right."""

    tray_blind_stack: int = 5
    """A tray whose count the record shows cannot be right (``Referee.tray_derived``), or
    one read so earlier in the turn (``Referee.tray_doubted``): the play is judged from
    the points and the bar alone, and called only when no legal result of the roll fits
    them with the mover's checkers missed anywhere (counted as borne off) and with any
    stack this tall or taller (as the legal result leaves it) read long.  A stack read
    long with the tray read short to match is the misreading such a tray comes with
    (rendered 28de820384cd seed 125: a tray read three short, then a stack of six read
    as eight and the tray two short, adding up: a false call); a checker seen where no
    legal result leaves one, on a point below this height, is the player's (rendered
    1ebf74df850d seed 29, strict: ``2/off`` with 4-2 when ``2/off(2)`` was forced, the
    tray read two for nine; no call before).  Five, as ``over_stack``: the stacks the
    camera reads long begin at five, where a second layer begins."""

    astray: int = 2
    """Checkers to move, at least, between the board and the record for the referee to
    be out of step while waiting for a throw: dice then lying in both halves are no
    ground for a ``wrong_half`` call (a look instead).  The checkers moved unseen (a
    game's end missed and the next game begun, a play missed), so a die of that play
    or of the other player may lie beside the throw (rendered 960b5e2b053c seed 101:
    the next game's opening 3-1, played on while the record's game went on, called
    as a split throw).  Two: one checker off is the commonest misreading of a board
    that is where the record has it, and a void throw on it is still called."""


PLAUSIBLE: Final = Plausibility()


@dataclass(frozen=True, slots=True)
class PlayJudgement:
    """What the referee makes of the board after a play."""

    kind: Literal["legal", "illegal", "unclear"]
    after: Position | None
    """The board as a position with the opponent on roll (None when unreadable)."""
    move: str
    """gnubg notation of the legal play, or of the change the board shows."""
    reasons: tuple[str, ...] = ()
    """Why it is illegal, or why the referee cannot judge it."""
    closest: tuple[str, ...] = ()
    """For an illegal play: the nearest legal plays, in notation."""
    play: Play | None = None


def judge_play(before: Position, reading: BoardReading, seating: Seating,
               dice: tuple[int, int], plausibility: Plausibility = PLAUSIBLE) -> PlayJudgement:
    """Judge ``before`` (mover on roll) against the board read after the dice were picked up."""
    mover = before.turn
    try:
        after = position_of(reading, seating, mover.opponent)
    except BoardReadError as exc:
        return PlayJudgement("unclear", None, "", (str(exc),))
    verdict = judge(before, after, *dice)
    if not reading.off_seen and after.off(mover.opponent) != before.off(mover.opponent):
        return PlayJudgement("unclear", after, describe_change(before, after),
                             ("the opponent's checkers do not all show and no tray is in view",))
    if verdict.legal:
        assert verdict.play is not None
        return PlayJudgement("legal", after, str(verdict.play), play=verdict.play)
    move = describe_change(before, after)
    if not reading.off_seen and after.off(mover) != before.off(mover) and (
            after.off(mover) < before.off(mover) or hidden_could_be_legal(before, after, dice)):
        return PlayJudgement("unclear", after, move,
                             ("checkers are missing from the board and no tray is in view: "
                              "borne off or hidden?",))
    if any(kind in UNCLEAR_KINDS for kind in verdict.kinds) or (
            all(kind in VAGUE_KINDS for kind in verdict.kinds)
            and not near_legal(before, after, dice, plausibility.vague_within)):
        return PlayJudgement("unclear", after, move, verdict.reasons)
    return PlayJudgement("illegal", after, move, verdict.reasons,
                         tuple(str(p) or "no move" for p in verdict.closest))


def hidden_could_be_legal(before: Position, after: Position, dice: tuple[int, int]) -> bool:
    """True when some legal result of the roll fits ``after`` with the mover's checkers
    missing from it (taken as borne off) put back anywhere, or some of them borne off.

    ``after`` counts every mover's checker not on the board as borne off (no
    tray in view).  A legal result fits when it shows the opponent's checkers
    as ``after`` does, at least as many of the mover's on every point and on
    the bar, and no more borne off.
    """
    seen = after.layout(before.turn)
    return any(
        counts[lay.OFF] <= seen[lay.OFF] and all(
            counts[place] >= seen[place] for place in range(lay.PLACES) if place != lay.OFF)
        for counts in _mover_layouts(before, after, dice))


def blind_fits(before: Position, after: Position, dice: tuple[int, int], tall: int) -> bool:
    """True when some legal result of the roll fits ``after`` judged from the points and
    the bar alone (its borne-off count derived from them): the opponent's checkers
    exactly as the result has them, and on every point and on the bar no more of the
    mover's than the result has, unless the result holds ``tall`` or more there (a
    stack read long).  Checkers the result has and ``after`` does not may be anywhere
    (missed on a point, held in a hand, borne off)."""
    seen = after.layout(before.turn)
    return any(
        all(seen[place] <= counts[place] or counts[place] >= tall
            for place in range(lay.PLACES) if place != lay.OFF)
        for counts in _mover_layouts(before, after, dice))


def _mover_layouts(
    before: Position, after: Position, dice: tuple[int, int],
) -> Iterator[tuple[int, ...]]:
    """The mover's layout in each legal result of the roll that leaves the opponent's
    checkers exactly as ``after`` shows them: a play never moves the opponent's
    checkers except by hitting, so those must match before the mover's are weighed."""
    mover = before.turn
    theirs = after.layout(mover.opponent)
    for legal in before.legal_positions(*dice):
        if legal.layout(mover.opponent) == theirs:
            yield legal.layout(mover)


def tall_stack_misread(before: Position, after: Position, dice: tuple[int, int],
                       tall: int) -> tuple[int, Position] | None:
    """A point of the mover's (their numbering) and a legal result of the roll that
    ``after`` matches but for one checker more borne off, missing from that point,
    which holds ``tall`` checkers or more in the legal result and fewer in ``after``
    than both before the play and in the legal result; else None.

    The opponent's checkers must be exactly where the legal result has them.
    """
    old = before.layout(before.turn)
    for point, legal, counts, seen in _one_checker_between_stack_and_tray(before, after, dice):
        if seen[lay.OFF] == counts[lay.OFF] + 1 and seen[point] == counts[point] - 1 and \
                counts[point] >= tall and seen[point] < old[point]:
            return point, legal
    return None


def stack_read_over(before: Position, after: Position, dice: tuple[int, int],
                    tray: int | None, tall: int) -> tuple[int, Position] | None:
    """A point of the mover's (their numbering) and a legal result of the roll that
    ``after`` matches but for one checker fewer borne off, found on that point, which
    holds ``tall`` checkers or more in the legal result, when ``tray`` (the tray's own
    reading of the mover's borne-off checkers) is the legal result's borne-off count;
    else None (always None when ``tray`` is None: not read).

    The opponent's checkers must be exactly where the legal result has them.
    """
    if tray is None:
        return None
    for point, legal, counts, seen in _one_checker_between_stack_and_tray(before, after, dice):
        if seen[lay.OFF] == counts[lay.OFF] - 1 and seen[point] == counts[point] + 1 and \
                counts[point] >= tall and tray == counts[lay.OFF]:
            return point, legal
    return None


def stack_read_short(before: Position, after: Position, dice: tuple[int, int],
                     tray: int | None, tall: int) -> tuple[int, Position] | None:
    """A point of the mover's (their numbering) and a legal result of the roll that
    ``after`` matches but for one checker more borne off, missing from that point,
    which holds ``tall`` checkers or more in the legal result, when ``tray`` (the tray's
    own reading of the mover's borne-off checkers) is the legal result's borne-off
    count; else None (always None when ``tray`` is None: not read).

    The opponent's checkers must be exactly where the legal result has them.
    """
    if tray is None:
        return None
    for point, legal, counts, seen in _one_checker_between_stack_and_tray(before, after, dice):
        if seen[lay.OFF] == counts[lay.OFF] + 1 and seen[point] == counts[point] - 1 and \
                counts[point] >= tall and tray == counts[lay.OFF]:
            return point, legal
    return None


def _one_checker_between_stack_and_tray(
        before: Position, after: Position, dice: tuple[int, int],
) -> Iterator[tuple[int, Position, tuple[int, ...], tuple[int, ...]]]:
    """The legal results of the roll that ``after`` matches but for the mover's borne-off
    count and one point's (not the bar): that point (the mover's numbering), the result,
    and the mover's counts in it and in ``after``.  The opponent's checkers must be
    exactly where the result has them."""
    mover = before.turn
    seen, theirs = after.layout(mover), after.layout(mover.opponent)
    for legal in before.legal_positions(*dice):
        if legal.layout(mover.opponent) != theirs:
            continue
        counts = legal.layout(mover)
        differ = [place for place in range(lay.PLACES) if counts[place] != seen[place]]
        if len(differ) == 2 and differ[0] == lay.OFF and differ[1] != lay.BAR:
            yield differ[1], legal, counts, seen


def near_legal(before: Position, after: Position, dice: tuple[int, int], within: int) -> bool:
    """True when moving at most ``within`` checkers turns ``after`` into a legal result."""
    return any(key_distance(after.key, legal.key)[0] <= within
               for legal in before.legal_positions(*dice))


def nearest_legal(before: Position, seen: Position | None,
                  dice: tuple[int, int]) -> PlayJudgement | None:
    """The one legal play whose board is a single checker away from ``seen``, if exactly one is.

    For a board read unclearly (a checker missed or counted twice) once the
    play is certainly over: the legal play it is closest to, when no other
    legal play is as close, is what the player made.
    """
    if seen is None:
        return None
    ranked = sorted((key_distance(seen.key, legal.key)[0], index, legal)
                    for index, legal in enumerate(sorted(before.legal_positions(*dice),
                                                         key=lambda p: p.key)))
    if not ranked or ranked[0][0] > 1 or (len(ranked) > 1 and ranked[1][0] == ranked[0][0]):
        return None
    return legal_judgement(before, ranked[0][2], dice)


def legal_judgement(before: Position, after: Position, dice: tuple[int, int]) -> PlayJudgement:
    """The judgement of ``after``, a legal result of the roll from ``before``."""
    play = before.legal_play_to(after, *dice)
    assert play is not None
    return PlayJudgement("legal", after, str(play), play=play)


def describe_change(before: Position, after: Position) -> str:
    """The mover's change as move notation: what the board shows, not a legal play.

    Checkers leaving places are paired with checkers arriving, farthest with
    farthest (``13/7 8/2``); ``*`` marks a point where an opposing checker
    went to the bar.  An illegal play has no legal path to show, and players
    recognise their own play best in the notation they know.
    """
    mover = before.turn
    old, new = before.layout(mover), after.layout(mover)
    theirs_old, theirs_new = before.layout(mover.opponent), after.layout(mover.opponent)
    sources: list[int] = []
    targets: list[int] = []
    for place in range(lay.PLACES):
        change = new[place] - old[place]
        if change < 0:
            sources += [place] * -change
        elif change > 0:
            targets += [place] * change
    sources.sort(reverse=True)
    targets.sort(reverse=True)
    hit = {25 - p for p in range(1, 25) if theirs_old[p] > theirs_new[p]} if \
        theirs_new[lay.BAR] > theirs_old[lay.BAR] else set()
    parts = []
    for source, target in zip(sources, targets, strict=False):
        star = "*" if target in hit else ""
        parts.append(f"{_name(source)}/{_name(target)}{star}")
    return " ".join(parts)


def _name(place: int) -> str:
    if place == lay.BAR:
        return "bar"
    if place == lay.OFF:
        return "off"
    return str(place)


def is_forced(position: Position, dice: tuple[int, int]) -> bool:
    """True when the roll leaves the mover no choice (etiquette 4's exception)."""
    return len(position.legal_positions(*dice)) <= 1


def is_bear_off_race(position: Position) -> bool:
    """Both players bearing off with contact broken (etiquette 4's exception)."""
    if position.is_contact():
        return False
    return all(sum(position.layout(p)[7:26]) == 0 for p in Player)
