"""The referee's events against the truth: faults caught, false calls, latencies.

Events are matched to what really happened by player and time window:

* a planted illegal play is *caught* when the referee judges that play
  illegal (``play`` with ``legal: false``, or ``illegal_play``) between the
  dice being picked up and the next throw; the mode's outcome is checked
  too (strict: ``illegal_play``; players: ``call_upheld`` when the opponent
  called, ``play_stands`` when not);
* a planted void throw is caught by a ``reroll`` of the thrower while those
  dice lie (the reason must match to count as right);
* an early throw under an exception must *not* be voided, and must be
  taken as the opponent's roll;
* a *false call* is any ``illegal_play``, ``reroll`` or ``call_upheld`` no
  planted fault explains; a legal play judged illegal (``play`` with
  ``legal: false``) is counted apart, as a false verdict.

Latency is measured from the truth's moments: a throw's dice at rest (the
first frame of the resting dice, i.e. the last change) to its ``roll`` or
``opening_roll``, and the dice picked up (the first frame without them) to
the ``play``.  For every miss and false call the frame the referee acted on
is compared with what the frame truly showed, so the report can say whether
the vision misread it or the referee misjudged a true reading.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from controller.simulation.timeline import PlayTruth, ThrowTruth, Truth

SLACK = 0.05
"""Seconds an event may precede its truth moment (times are rounded to frames)."""
RETHROW_SEEN = 1.0
"""Seconds after a rethrow comes to rest within which the referee sees it (the
stabiliser's hold and a frame or two): a void throw recognised only then is caught."""
DECIDE_WINDOW = 3.0
"""Seconds after the dice come to rest or are picked up within which the roll or the
play must be announced to count (later than that, the players have moved on)."""


@dataclass
class Problem:
    """A miss or a false call, with where to look."""

    seed: int
    t: float
    kind: str
    detail: str
    vision: str = ""

    def __str__(self) -> str:
        text = f"seed {self.seed} t={self.t:.1f}: {self.kind}: {self.detail}"
        return f"{text} [{self.vision}]" if self.vision else text

    @property
    def cause(self) -> str:
        """Where the fault most likely lies, from the frame the referee acted on."""
        if not self.vision:
            return "unknown"
        if self.vision.startswith("vision right"):
            return "referee or stabiliser (the frame was read right)"
        causes = []
        if " dice " in self.vision or ": dice " in self.vision:
            causes.append("vision: dice")
        if "point " in self.vision or "bar " in self.vision:
            causes.append("vision: checkers")
        if "occluded" in self.vision:
            causes.append("vision: occlusion")
        return " + ".join(causes) or "vision"


def first_problems(problems: list[Problem]) -> list[Problem]:
    """The earliest problem of each session: the root cause, before any knock-on
    (a referee that missed one roll is out of step for the rest of the game)."""
    first: dict[int, Problem] = {}
    for problem in problems:
        if problem.seed not in first or problem.t < first[problem.seed].t:
            first[problem.seed] = problem
    return [first[seed] for seed in sorted(first)]


@dataclass
class Tally:
    """Counts over any number of streams."""

    streams: int = 0
    games: int = 0
    turns: int = 0
    throws: int = 0
    plays_judged: int = 0
    illegal_planted: Counter[str] = field(default_factory=Counter)
    illegal_caught: Counter[str] = field(default_factory=Counter)
    outcome_right: int = 0
    outcome_expected: int = 0
    void_planted: Counter[str] = field(default_factory=Counter)
    void_caught: Counter[str] = field(default_factory=Counter)
    void_reason_wrong: int = 0
    exceptions: Counter[str] = field(default_factory=Counter)
    exceptions_kept: Counter[str] = field(default_factory=Counter)
    false_calls: Counter[str] = field(default_factory=Counter)
    false_verdicts: int = 0
    warnings: Counter[str] = field(default_factory=Counter)
    rolls_expected: int = 0
    rolls_seen: int = 0
    rolls_wrong_dice: int = 0
    plays_expected: int = 0
    plays_seen: int = 0
    plays_wrong_move: int = 0
    games_ended: int = 0
    dice_shown: Counter[int] = field(default_factory=Counter)
    """Dice at rest in valid throws, by face value (from the truth)."""
    dice_read: Counter[int] = field(default_factory=Counter)
    """Of those, read with that value when the throw's state had held (0.5 s on)."""
    settle_latency: list[tuple[float, int, float]] = field(default_factory=list)
    """(seconds from the dice at rest to the roll event, seed, truth time)."""
    pickup_latency: list[tuple[float, int, float]] = field(default_factory=list)
    """(seconds from the dice picked up to the play event, seed, truth time)."""
    problems: list[Problem] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for name, value in other.__dict__.items():
            mine = getattr(self, name)
            if isinstance(mine, Counter):
                mine.update(value)
            elif isinstance(mine, list):
                mine.extend(value)
            else:
                setattr(self, name, mine + value)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def summary(values: list[float]) -> tuple[float, float, float]:
    """Median, 95th percentile and maximum."""
    if not values:
        return float("nan"), float("nan"), float("nan")
    return statistics.median(values), percentile(values, 0.95), max(values)


class _Frames:
    """The stream's observations and the truth's moments, to explain an event."""

    def __init__(self, lines: Iterable[dict[str, Any]] | None,
                 moments: list[dict[str, Any]] | None) -> None:
        self.observations = [o for o in lines or () if "schema" in o]
        self.moments = moments or []

    def explain(self, t: float) -> str:
        """Compare what the vision reported at ``t`` with the truth there."""
        if not self.observations or not self.moments:
            return ""
        seen = None
        for o in self.observations:
            if o["t"] > t + 1e-6:
                break
            seen = o
        truth = None
        for m in self.moments:
            if m["t"] > t + 1e-6:
                break
            truth = m
        if seen is None or truth is None:
            return ""
        problems = []
        for k in range(24):
            got = [seen["points"][k]["light"], seen["points"][k]["dark"]]
            if got != truth["points"][k]:
                problems.append(f"point {k} {truth['points'][k]} read {got}")
        bar = [seen["bar"]["light"], seen["bar"]["dark"]]
        if bar != truth["bar"]:
            problems.append(f"bar {truth['bar']} read {bar}")
        want = sorted((tuple(d) for d in truth["dice"]), key=str)
        got_dice = sorted([*((d["value"], d["flat"], d["on_checker"], d["side"])
                             for d in seen["dice"]),
                           # a die off the field: flat, on no checker, in neither half
                           *((d["value"], True, False, None)
                             for d in seen.get("dice_off_field", []))], key=str)
        if want != got_dice:
            problems.append(f"dice {want} read {got_dice}")
        if bool(seen["occluded"]) != bool(truth["occluded"]):
            problems.append(f"occluded {truth['occluded']} read {seen['occluded']}")
        where = f"{truth['label']} at {truth['t']:.1f}"
        if problems:
            return f"vision misread ({where}): " + "; ".join(problems)
        return f"vision right ({where}): the referee or the stabiliser"


def score(truth: Truth, events: list[dict[str, Any]],
          lines: Iterable[dict[str, Any]] | None = None,
          moments: list[dict[str, Any]] | None = None) -> Tally:
    """Tally one stream."""
    tally = Tally(streams=1, games=len(truth.games), turns=len(truth.plays),
                  throws=len(truth.throws))
    frames = _Frames(lines, moments)
    used: set[int] = set()
    seed = truth.seed

    def find(names: tuple[str, ...], player: str | None, start: float, end: float,
             **fields: Any) -> int | None:
        for i, e in enumerate(events):
            if i in used or e["event"] not in names:
                continue
            if player is not None and e.get("player") != player:
                continue
            if not start - SLACK <= e["t"] <= end:
                continue
            if any(e.get(k) != v for k, v in fields.items()):
                continue
            return i
        return None

    def problem(t: float, kind: str, detail: str) -> None:
        # A miss is explained by the frame a decision was due on (the hold after the
        # truth's moment); a call by the frame the referee acted on.
        missed = not kind.startswith(("false", "void throw: wrong", "roll misread",
                                      "opening roll misread", "play recorded wrongly"))
        look = t + 0.4 if missed else t
        tally.problems.append(Problem(seed, t, kind, detail, frames.explain(look)))

    next_throw = _next_throw_times(truth)
    decided = _decided_from(truth)
    for play in truth.plays:
        _score_play(play, truth, events, next_throw, decided, tally, find, used, problem)
    settles = sorted(t.t_settled for t in truth.throws)
    for throw in truth.throws:
        later = [t for t in settles if t > throw.t_settled]
        until = min(later[0] if later else truth.duration, throw.t_settled + 12.0)
        after = next((t for t in truth.throws if later and t.t_settled == later[0]), None)
        rethrown = after is not None and after.player == throw.player
        _score_throw(throw, until, seed, events, tally, find, used, problem, rethrown=rethrown)
        if throw.void is None and not throw.opening:
            _count_dice(throw, frames, tally)
    for game in truth.games:
        if find(("game_over",), None, 0.0, truth.duration + 10.0, winner=game.winner) \
                is not None:
            tally.games_ended += 1
    for i, e in enumerate(events):
        name = e["event"]
        if name == "warning":
            tally.warnings[str(e.get("reason"))] += 1
        if name == "play":
            tally.plays_judged += 1
        if i in used:
            continue
        if name in ("illegal_play", "reroll", "call_upheld"):
            reason = f" ({e.get('reason')})" if name == "reroll" else ""
            tally.false_calls[name + reason] += 1
            problem(e["t"], f"false {name}", f"{e.get('player')}{reason}: {e.get('detail', '')}"
                    f"{e.get('reason', '') if name == 'illegal_play' else ''}")
        elif name == "play" and e.get("legal") is False:
            tally.false_verdicts += 1
            problem(e["t"], "false illegal verdict", f"{e.get('player')} {e.get('move')}")
    return tally


def _count_dice(throw: ThrowTruth, frames: _Frames, tally: Tally) -> None:
    """How the vision read a valid throw's dice once they had lain still for 0.5 s."""
    seen = None
    for o in frames.observations:
        if o["t"] > throw.t_settled + 0.5 + 1e-6:
            break
        seen = o
    if seen is None or seen["t"] < throw.t_settled - 1e-6:
        return
    values = [d["value"] for d in seen["dice"]]
    for value in throw.dice:
        tally.dice_shown[value] += 1
        if value in values:
            values.remove(value)
            tally.dice_read[value] += 1


def _next_throw_times(truth: Truth) -> dict[int, float]:
    """For each play (by index), when the next valid throw came to rest (its call deadline)."""
    out: dict[int, float] = {}
    settled = sorted(t.t_settled for t in truth.throws if t.void is None)
    for i, play in enumerate(truth.plays):
        later = [t for t in settled if t > play.t_final]
        out[i] = later[0] if later else truth.duration + 10.0
    return out


def _decided_from(truth: Truth) -> dict[int, float]:
    """For each play (by index), from when the referee may judge it: the pick-up, or an
    early throw that came while the mover's dice were still down (it ends the play)."""
    out: dict[int, float] = {}
    early = sorted(t.t_settled for t in truth.throws
                   if t.exception is not None or t.void == "early")
    previous = 0.0
    for i, play in enumerate(truth.plays):
        during = [t for t in early if previous < t < play.t_final]
        out[i] = during[-1] if during else play.t_final
        previous = play.t_final
    return out


def _score_play(play: PlayTruth, truth: Truth, events: list[dict[str, Any]],
                next_throw: dict[int, float], decided: dict[int, float], tally: Tally,
                find: Any, used: set[int], problem: Any) -> None:
    index = truth.plays.index(play)
    start = decided[index]
    deadline = play.t_final + DECIDE_WINDOW
    if play.legal:
        tally.plays_expected += 1
        i = find(("play",), play.player, start, deadline, legal=True)
        if i is None:
            problem(play.t_final, "play not recorded",
                    f"{play.player} {play.dice} {play.move or '(no move)'}")
            return
        used.add(i)
        tally.plays_seen += 1
        if start == play.t_final:  # judged on the pick-up, not on an early throw
            tally.pickup_latency.append((events[i]["t"] - play.t_final, truth.seed,
                                         play.t_final))
        if events[i].get("move", "") != play.move:
            tally.plays_wrong_move += 1
            problem(events[i]["t"], "play recorded wrongly",
                    f"{play.player} played {play.move}, recorded {events[i].get('move')}")
        return
    kind = play.mistake or "?"
    tally.illegal_planted[kind] += 1
    verdict = find(("play",), play.player, play.t_final, deadline, legal=False)
    call = find(("illegal_play",), play.player, play.t_final, deadline)
    if verdict is not None:
        used.add(verdict)
    if call is not None:
        used.add(call)
    if verdict is None and call is None:
        problem(play.t_final, f"illegal play missed ({kind})",
                f"{play.player} {play.dice}, nearest legal {play.move}")
        return
    tally.illegal_caught[kind] += 1
    ended = next((g.t_end for g in truth.games if g.game == play.game), truth.duration)
    if truth.mode == "players" and not play.called and next_throw[index] > ended:
        return  # the game ended (a resignation, a pass) before anyone threw: nothing stands
    tally.outcome_expected += 1
    if truth.mode == "strict":
        ok = call is not None
        if play.t_corrected is not None:
            fixed = find(("play",), play.player, play.t_corrected,
                         play.t_corrected + DECIDE_WINDOW, legal=True)
            if fixed is not None:
                used.add(fixed)
    elif play.called:
        assert play.t_call is not None
        upheld = find(("call_upheld",), None, play.t_call, play.t_call + 3.0)
        ok = upheld is not None
        if upheld is not None:
            used.add(upheld)
        if play.t_corrected is not None:
            fixed = find(("play",), play.player, play.t_corrected,
                         play.t_corrected + DECIDE_WINDOW, legal=True)
            if fixed is not None:
                used.add(fixed)
    else:
        stands = find(("play_stands",), play.player, play.t_final,
                      max(next_throw[index], play.t_final) + DECIDE_WINDOW)
        ok = stands is not None
        if stands is not None:
            used.add(stands)
    if ok:
        tally.outcome_right += 1
    else:
        problem(play.t_final, f"illegal play: wrong outcome ({truth.mode})",
                f"{play.player} {kind} called={play.called}")


def _score_throw(throw: ThrowTruth, until: float, seed: int, events: list[dict[str, Any]],
                 tally: Tally, find: Any, used: set[int], problem: Any,
                 rethrown: bool = False) -> None:
    """``until``: when the next throw came to rest (no event after it is this throw's).

    ``rethrown``: the next throw is the same player's.  A void throw is then also
    caught by a ``reroll`` with its reason made when the rethrow is seen (within
    :data:`RETHROW_SEEN` of it coming to rest, and before its ``roll``): the referee
    may only learn that the throw was void from the same player throwing again with
    nothing moved (a die read cocked on a throw nothing could move with, or a pick-up
    too quick to settle)."""
    end = min((throw.t_gone or throw.t_settled + 6.0) + 1.0, until)
    if throw.opening:
        if throw.dice[0] == throw.dice[1]:
            return
        tally.rolls_expected += 1
        i = find(("opening_roll",), None, throw.t_settled, min(until, throw.t_settled + 6.0))
        if i is None:
            problem(throw.t_settled, "opening roll not seen", f"{throw.dice}")
            return
        used.add(i)
        tally.rolls_seen += 1
        tally.settle_latency.append((events[i]["t"] - throw.t_settled, seed,
                                     throw.t_settled))
        seen = events[i].get("dice", {})
        if (seen.get("light"), seen.get("dark")) != throw.dice:
            tally.rolls_wrong_dice += 1
            problem(events[i]["t"], "opening roll misread", f"{throw.dice} read {seen}")
        return
    if throw.void is not None:
        tally.void_planted[throw.void] += 1
        i = find(("reroll",), throw.player, throw.t_settled, end)
        if i is None and rethrown:
            rolled = next((e["t"] for e in events if e["event"] == "roll"
                           and e.get("player") == throw.player and e["t"] >= until - SLACK),
                          until + RETHROW_SEEN)
            i = find(("reroll",), throw.player, throw.t_settled,
                     min(rolled, until + RETHROW_SEEN), reason=throw.void)
        if i is None:
            problem(throw.t_settled, f"void throw missed ({throw.void})",
                    f"{throw.player} {throw.dice}")
            return
        used.add(i)
        tally.void_caught[throw.void] += 1
        if events[i].get("reason") != throw.void:
            tally.void_reason_wrong += 1
            problem(events[i]["t"], "void throw: wrong reason",
                    f"{throw.void} called {events[i].get('reason')}")
        return
    if throw.exception is not None:
        tally.exceptions[throw.exception] += 1
        bad = find(("reroll",), throw.player, throw.t_settled, end)
        if bad is not None:
            used.add(bad)
            problem(events[bad]["t"], f"early throw voided despite {throw.exception}",
                    f"{throw.player} {throw.dice}")
            return
        tally.exceptions_kept[throw.exception] += 1
    tally.rolls_expected += 1
    i = find(("roll",), throw.player, throw.t_settled, until)
    if i is None:
        problem(throw.t_settled, "roll not seen", f"{throw.player} {throw.dice}")
        return
    used.add(i)
    tally.rolls_seen += 1
    if throw.exception is None:
        # An early throw is only taken once the mover's dice are up: no settling latency.
        tally.settle_latency.append((events[i]["t"] - throw.t_settled, seed,
                                     throw.t_settled))
    if sorted(events[i].get("dice", [])) != sorted(throw.dice):
        tally.rolls_wrong_dice += 1
        problem(events[i]["t"], "roll misread", f"{throw.dice} read {events[i].get('dice')}")
