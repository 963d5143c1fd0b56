"""Observation streams for the referee's tests, built from positions and dice.

The camera reports physical points; the tests think in the rules' positions.
:func:`observe` draws a position (light is player 0) as the camera would see
it at a table seated as given, with dice and a cube where the test puts
them.  :class:`Script` strings inputs together with rising times, and the
turn helpers (:meth:`Script.throw`, :meth:`Script.play`) produce the states
a real turn passes through: the dice landing, checkers moved one at a time,
the dice picked up.  :func:`frames` turns a script's stable states into a
raw frame stream with flicker, hands over the board and lifted checkers,
for the real stabiliser (:class:`vision.stabiliser.Stabiliser`) to settle.

Image geometry: a 1000 x 700 image, the field from x = 60 to 940, the bar
at x = 500; the right half is x > 500.
"""

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from controller.game.events import (
    AcceptResignation,
    DeclineResignation,
    Double,
    Event,
    Move,
    OpeningRoll,
    Pass,
    Resign,
    Roll,
    Take,
)
from controller.game.match import Match
from controller.referee.events import RefereeEvent
from controller.referee.inputs import (
    ButtonInput,
    OperatorInput,
    RefereeInput,
    StableInput,
    StatusInput,
)
from controller.referee.machine import Referee
from controller.rules.move import Move as Move_
from controller.rules.move import Play
from controller.rules.notation import parse_segments
from controller.rules.physical import Seating, Side, to_physical
from controller.rules.player import Player
from controller.rules.position import Position
from vision.observation import Counts, Cube, Die, Observation
from vision.stabiliser import Stabiliser, StabiliserConfig, StableState, StatusChange

LIGHT = Player.ZERO
DARK = Player.ONE
SEATINGS = Seating.every()
"""All four seatings: light or dark at the bottom, home boards right or left."""

Half = Literal["left", "right"]
_SPOTS = ((640.0, 300.0), (760.0, 400.0), (700.0, 200.0), (820.0, 280.0))
"""Where dice come to rest in the right half; the left half mirrors them."""


def colour(player: Player) -> Literal["light", "dark"]:
    """The colour a player's checkers have in these streams."""
    return "light" if player == LIGHT else "dark"


def half_of(seating: Seating, player: Player) -> Half:
    """The half ``player`` throws into: their own right hand."""
    return "right" if seating.bottom == player else "left"


def die(value: int | None, half: Half | None, spot: int = 0, *, flat: bool = True,
        on_checker: bool = False) -> Die:
    """One die resting at a fixed spot of a half (``half`` None: off the field)."""
    x, y = _SPOTS[spot % len(_SPOTS)]
    if half == "left":
        x = 1000.0 - x
    if half is None:
        x, y = 980.0, 690.0
    return Die(value, (x, y), flat, on_checker, half)


def throw(values: Sequence[int], half: Half, first_spot: int = 0) -> tuple[Die, ...]:
    """Dice thrown well into ``half``."""
    return tuple(die(v, half, first_spot + i) for i, v in enumerate(values))


def cube_at(seating: Seating, owner: Player | None, value: int = 64) -> Cube:
    """The cube where the record says it is: centre, or on its owner's side."""
    if owner is None:
        return Cube(value, (500.0, 350.0), "centre")
    seat: Literal["bottom", "top"] = "bottom" if seating.bottom == owner else "top"
    return Cube(value, (500.0, 640.0 if seat == "bottom" else 60.0), seat)


def observe(position: Position, seating: Seating, dice: Iterable[Die] = (), *,
            cube: Cube | None = None, tray: bool = True, t: float | None = None) -> Observation:
    """The camera's view of ``position`` (light is player 0) with these dice and cube."""
    board = to_physical(position, seating, LIGHT)
    return Observation(
        board_found=True,
        points=tuple(Counts(c.light, c.dark) for c in board.points),
        bar=Counts(board.bar.light, board.bar.dark),
        off=Counts(board.off.light, board.off.dark) if tray else None,
        dice=tuple(dice),
        cube=cube,
        t=t,
    )


def shifted(position: Position, text: str) -> Position:
    """The board after the checker moves ``text`` (notation), legal or not.

    Only single moves are checked (a checker must be there, the point not
    blocked): this is how tests make the illegal plays the referee must catch.
    """
    moves = tuple(Move_(src, dst) for src, dst, _ in parse_segments(text))
    return position.result_of(Play(moves, (1, 1)))


def lift(position: Position, source: int) -> Position:
    """``position`` with one of the mover's checkers on ``source`` held in the hand."""
    mover = position.turn
    rows = [list(position.layout(p)) for p in (Player.ZERO, Player.ONE)]
    rows[mover][source] -= 1
    return Position(rows[0], rows[1], mover)


def partial_positions(position: Position, play: Play) -> list[Position]:
    """The boards a play passes through, one checker moved at a time (the last is the result)."""
    out = []
    for count in range(1, len(play.moves) + 1):
        out.append(position.result_of(Play(play.moves[:count], play.dice)))
    return out


@dataclass
class Script:
    """Referee inputs with times 0.5 s apart, built turn by turn."""

    seating: Seating
    t: float = 0.0
    step: float = 0.5
    tray: bool = True
    inputs: list[RefereeInput] = field(default_factory=list)

    def _next(self) -> float:
        self.t = round(self.t + self.step, 3)
        return self.t

    def stable(self, position: Position, dice: Iterable[Die] = (), *,
               cube: Cube | None = None) -> "Script":
        """A stable state of the board."""
        t = self._next()
        self.inputs.append(StableInput(t, observe(position, self.seating, dice, cube=cube,
                                                  tray=self.tray, t=t)))
        return self

    def observation(self, observation: Observation) -> "Script":
        """A stable state given as an observation (for hand-made oddities)."""
        t = self._next()
        self.inputs.append(StableInput(t, replace(observation, t=t)))
        return self

    def status(self, condition: Literal["stable", "settling", "occluded", "no_board"]
               ) -> "Script":
        self.inputs.append(StatusInput(self._next(), condition))
        return self

    def press(self, button: str, player: Player, level: str | None = None) -> "Script":
        """A button press by ``player``."""
        self.inputs.append(ButtonInput(self._next(), button, colour(player), level))  # type: ignore[arg-type]
        return self

    def operator(self, action: str, **args: object) -> "Script":
        self.inputs.append(OperatorInput(self._next(), action, args))  # type: ignore[arg-type]
        return self

    # -- whole steps of a game ----------------------------------------------

    def setup(self) -> "Script":
        """The starting position, no dice."""
        return self.stable(Position.initial())

    def opening(self, light: int, dark: int) -> tuple[Die, ...]:
        """Each player throws one die into their own right half; returns the dice."""
        bottom, top = self.seating.bottom, self.seating.top
        values = {LIGHT: light, DARK: dark}
        dice = (die(values[bottom], "right", 0), die(values[top], "left", 1))
        self.stable(Position.initial(), dice)
        return dice

    def throw(self, position: Position, player: Player, values: Sequence[int],
              spot: int = 0) -> tuple[Die, ...]:
        """``player`` throws two dice well into their half; returns the dice."""
        dice = throw(values, half_of(self.seating, player), spot)
        self.stable(position, dice)
        return dice

    def play(self, position: Position, play: Play, dice: tuple[Die, ...], *,
             steps: bool = True, pick_up: bool = True, lifted: bool = False) -> Position:
        """Checkers moved one at a time with the dice down, then the dice picked up.

        ``lifted`` shows each moving checker in the hand first (gone from the board).
        """
        after = position.result_of(play)
        boards = partial_positions(position, play) if steps else [after]
        previous = position
        for move, board in zip(play.moves, boards, strict=False):
            if lifted:
                self.stable(lift(previous, move.source), dice)
            self.stable(board, dice)
            previous = board.swap_turn() if board.turn != position.turn else board
        for board in boards[len(play.moves):]:
            self.stable(board, dice)
        if pick_up:
            self.stable(after)
        return after

    def move_to(self, before: Position, after: Position, dice: tuple[Die, ...], *,
                pick_up: bool = True) -> None:
        """Any board (legal or not) shown after the dice, then the dice picked up."""
        del before
        self.stable(after, dice)
        if pick_up:
            self.stable(after)


def dark_to_throw(seating: Seating) -> tuple[Script, Position]:
    """Light opens 3-1 with 8/5 6/5 and picks up; dark to throw (a game's first
    ordinary throw, where many scenario tests start)."""
    script = Script(seating).setup()
    dice = script.opening(3, 1)
    after = shifted(Position.initial(), "8/5 6/5")
    script.stable(after, dice)
    script.stable(after)
    return script, after.with_turn(DARK)


def run(referee: Referee, inputs: Iterable[RefereeInput]
        ) -> tuple[Referee, list[RefereeEvent]]:
    """Feed inputs; the final referee and every event announced."""
    events: list[RefereeEvent] = []
    for inp in inputs:
        referee, out = referee.step(inp)
        events.extend(out)
    return referee, events


def names(events: Iterable[RefereeEvent]) -> list[str]:
    """The event names, in order (warnings with their reason)."""
    return [f"warning:{e.data['reason']}" if e.event == "warning" else e.event for e in events]


@dataclass
class Plant:
    """Faults to plant in a scripted match, and the count of those planted.

    An illegal play is one checker of a legal play moved one pip short or
    long, shown and picked up, then (players mode: after the opponent's
    call) put back and played legally.  A void throw lands one die badly
    and is thrown again.  An early throw is the opponent's, made while the
    mover's dice still lie there, where neither exception applies.
    """

    mode: Literal["strict", "players"]
    illegal: float = 0.1
    void: float = 0.1
    early: float = 0.1
    seed: int = 0
    planted: dict[str, int] = field(default_factory=dict)

    def count(self, kind: str) -> None:
        self.planted[kind] = self.planted.get(kind, 0) + 1


def plausible_mistake(before: Position, play: Play) -> Position | None:
    """A board one pip off ``play``'s result that the rules call an illegal play.

    Faults about the reading (counts, the opponent's checkers) or naming no
    rule are avoided: what is planted is a mistake a player makes.
    """
    from controller.rules.faults import FaultKind
    from controller.rules.judge import judge

    reading = {FaultKind.COUNT, FaultKind.NOT_MOVERS_CHECKER, FaultKind.OPPONENT_CHANGED}
    for index in range(len(play.moves) - 1, -1, -1):
        move = play.moves[index]
        for shift in (-1, 1):
            target = move.destination + shift
            if not 1 <= target < move.source or move.destination == 0:
                continue
            moves = (*play.moves[:index], Move_(move.source, target), *play.moves[index + 1:])
            try:
                after = before.result_of(Play(moves, play.dice))
            except ValueError:
                continue
            verdict = judge(before, after, *play.dice)
            kinds = set(verdict.kinds)
            if not verdict.legal and not kinds & reading and kinds - {FaultKind.UNREACHABLE}:
                return after
    return None


def script_match(match: Match, seating: Seating, *, seed: int = 0,
                 spots: bool = True, lifted: bool = False, plant: Plant | None = None,
                 tray: bool = True) -> Script:
    """A stream of stable states and button presses that plays ``match``'s games again.

    Each game is set up, opened, thrown, played checker by checker and ended
    exactly as the match's events say; between games the board is set up
    again.  ``seed`` varies where dice land (always well inside the half).
    ``plant`` adds faults the referee must catch, and counts them.  ``tray``
    False: the camera sees no tray (borne-off checkers are simply gone).
    """
    rng = random.Random(seed)
    script = Script(seating, tray=tray)
    games = [*match.games]
    if match.game not in games and match.game.events:
        games.append(match.game)
    for game in games:
        script.setup()
        _script_game(script, game.events, rng if spots else None, lifted, plant)
    return script


def _script_game(script: Script, events: Sequence[Event], rng: random.Random | None,
                 lifted: bool, plant: Plant | None) -> None:
    position = Position.initial()
    dice: tuple[Die, ...] = ()
    faults = random.Random(plant.seed) if plant is not None else None
    for number, event in enumerate(events):
        spot = 0 if rng is None else rng.randrange(len(_SPOTS) - 1)
        following = events[number + 1] if number + 1 < len(events) else None
        replayed = False
        if plant is not None and faults is not None:
            replayed = _plant(script, plant, faults, event, position, dice, spot)
        match event:
            case OpeningRoll(dice=(light, dark)):
                if dice:
                    script.stable(position)  # the tied dice picked up
                dice = script.opening(light, dark)
                if light != dark:
                    starter = LIGHT if light > dark else DARK
                    position = position.with_turn(starter)
            case Roll(player=player, dice=values):
                position = position.with_turn(player)
                dice = script.throw(position, player, values, spot)
            case Move(play=play):
                if replayed:  # after a planted illegal play: replayed without dice
                    position = script.play(position, play, ())
                elif plant is not None and faults is not None and \
                        faults.random() < plant.early and isinstance(following, Roll):
                    after = script.play(position, play, dice, pick_up=False)
                    _plant_early(script, plant, position, play, dice, following)
                    position = after
                else:
                    position = script.play(position, play, dice, lifted=lifted)
                dice = ()
            case Double(player=p):
                script.press("double", p)
            case Take(player=p):
                script.press("take", p)
            case Pass(player=p):
                script.press("pass", p)
            case Resign(player=p, level=level):
                script.press("resign", p, level.name.lower())
            case AcceptResignation(player=p):
                script.press("accept", p)
            case DeclineResignation(player=p):
                script.press("reject", p)


_VOIDS = ("cocked", "wrong_half", "on_checker", "off_field")


def _plant(script: Script, plant: Plant, rng: random.Random, event: Event,
           position: Position, dice: tuple[Die, ...], spot: int) -> bool:
    """Faults shown before ``event`` is played as recorded; True after an illegal play."""
    match event:
        case Roll(player=player, dice=values) if rng.random() < plant.void:
            reason = rng.choice(_VOIDS)
            half = half_of(script.seating, player)
            other: Half = "left" if half == "right" else "right"
            bad = {"cocked": die(values[1], half, spot + 1, flat=False),
                   "wrong_half": die(values[1], other, spot + 1),
                   "on_checker": die(values[1], half, spot + 1, on_checker=True),
                   "off_field": die(values[1], None)}[reason]
            shown = position.with_turn(player)
            script.stable(shown, (die(values[0], half, spot), bad))
            script.stable(shown)
            plant.count(f"void:{reason}")
        case Move(player=player, play=play) if play.moves and rng.random() < plant.illegal:
            wrong = plausible_mistake(position, play)
            if wrong is None:
                return False
            script.stable(wrong, dice)
            script.stable(wrong)
            if plant.mode == "players":
                script.press("call", player.opponent)
            script.stable(position)
            plant.count("illegal")
            return True
    return False


def _plant_early(script: Script, plant: Plant, position: Position, play: Play,
                 dice: tuple[Die, ...], following: Roll) -> None:
    """The opponent throws while the mover's dice still lie there (no exception applies)."""
    after = position.result_of(play)
    forced = len(position.legal_positions(*play.dice)) <= 1
    race = not after.is_contact() and all(sum(after.layout(p)[7:26]) == 0 for p in Player)
    if forced or race or after.winner() is not None:
        script.stable(after)
        return
    early = throw((following.dice[1], following.dice[0]),
                  half_of(script.seating, following.player), 3)
    script.stable(after, (*dice, *early))
    script.stable(after, early)
    script.stable(after)
    plant.count("early")


# -- raw frames for the stabiliser ---------------------------------------------


def frames(script: Script, *, fps: float = 10.0, hold: float = 1.5, seed: int = 0,
           flicker: float = 0.05, hands: float = 0.3,
           starts: dict[Observation, float] | None = None,
           ) -> Iterator[Observation | ButtonInput | OperatorInput]:
    """A raw frame stream showing each of the script's stable states for ``hold`` seconds.

    Between states a hand passes over the board (occluded frames) with
    probability ``hands``; within a state single frames flicker (a checker
    read on the wrong point, a die missed) with probability ``flicker``.
    Button presses and operator inputs come through in their place, timed
    after the frames of the state before them.  ``starts``, when given, is
    filled with the time each state first appears (keyed by the observation
    without its time), for measuring how long the referee took to decide.
    """
    rng = random.Random(seed)
    t = 0.0
    dt = 1.0 / fps
    for inp in script.inputs:
        if isinstance(inp, ButtonInput | OperatorInput):
            t += dt
            yield replace(inp, t=round(t, 3))
            continue
        if not isinstance(inp, StableInput):
            continue
        if rng.random() < hands:
            for _ in range(rng.randint(1, 4)):
                t += dt
                yield Observation(board_found=True, occluded=True, t=round(t, 3))
        count = max(1, round(hold * fps))
        for number in range(count):
            t += dt
            frame = replace(inp.observation, t=round(t, 3))
            if starts is not None and number == 0:
                starts[replace(inp.observation, t=None)] = frame.t or 0.0
            if rng.random() < flicker:
                frame = _flickered(frame, rng)
            yield frame


def _flickered(frame: Observation, rng: random.Random) -> Observation:
    if frame.dice and rng.random() < 0.5:
        return replace(frame, dice=frame.dice[1:])
    points = list(frame.points)
    filled = [i for i, c in enumerate(points) if c.light or c.dark]
    index = rng.choice(filled)
    c = points[index]
    points[index] = Counts(max(c.light - 1, 0), max(c.dark - 1, 0))
    return replace(frame, points=tuple(points))


def stabilised(stream: Iterable[Observation | ButtonInput | OperatorInput],
               config: StabiliserConfig | None = None) -> Iterator[RefereeInput]:
    """The stabiliser's reports on a raw stream, as referee inputs (other inputs pass through)."""
    stabiliser = Stabiliser(config or StabiliserConfig())
    for item in stream:
        if not isinstance(item, Observation):
            yield item
            continue
        assert item.t is not None
        for report in stabiliser.push(item):
            if isinstance(report, StableState):
                yield StableInput(item.t, report.observation)
            elif isinstance(report, StatusChange):
                yield StatusInput(item.t, report.condition)


__all__ = ["DARK", "LIGHT", "SEATINGS", "Plant", "Script", "Side", "cube_at", "dark_to_throw",
           "die", "frames", "half_of", "names", "observe", "plausible_mistake", "run",
           "script_match", "shifted", "stabilised", "throw"]
