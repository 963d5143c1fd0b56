"""From a self-played match to the moments a camera over the table would see, with the truth.

The director plays a whole match (or one money game) between two random
players who avoid hitting most of the time (purely random play runs to
ninety plays a game; these players finish in about half that, which keeps
the rendering affordable without changing what the referee meets), and
stages every step as it happens at a table: the set-up, the opening throw
of one die each, a cup over the thrower's half, dice tumbling and coming to
rest, hands reaching in to move checkers (sometimes in two goes, with the
board in between left alone for a while, sometimes with a checker held in
the hand off the board), dice picked up, the cube turned and taken, a
resignation offered.

Faults are planted with their labels: illegal plays (:mod:`.mistakes`),
void throws (:mod:`.throws`), and early throws while the opponent's dice are
still down, which are void except when both sides are bearing off with
contact broken or the opponent's play was forced.  In *players* mode the
opponent presses *call* after some illegal plays and lets others stand; in
*strict* mode the mover puts the board right after the referee's call.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Literal

import numpy as np

from controller.game.events import (
    AcceptResignation,
    DeclineResignation,
    Double,
    Move,
    OpeningRoll,
    Pass,
    Resign,
    ResignLevel,
    Roll,
    Take,
)
from controller.game.game import Game, Phase
from controller.game.match import Match, MatchRules
from controller.game.settings import GameRules
from controller.rules import physical as phys
from controller.rules.player import Player
from controller.rules.position import Position
from controller.simulation.mistakes import MISTAKES, Mistake, plant
from controller.simulation.table import Table
from controller.simulation.throws import NoRoomError, land, tumbling
from controller.simulation.timeline import (
    Board,
    Colour,
    GameTruth,
    Moment,
    PlayTruth,
    Press,
    Shot,
    ThrowTruth,
    Truth,
    VoidReason,
)
from vision.observation import Counts
from vision.synth.scene import DiePlacement, HandPose

VOIDS: tuple[VoidReason, ...] = ("cocked", "wrong_half", "on_checker", "off_field")


@dataclass(frozen=True)
class Direction:
    """How often each thing happens (per turn unless stated)."""

    fps: float = 10.0
    mode: Literal["strict", "players"] = "players"
    match_length: int = 0
    """0: one money game."""
    illegal_rate: float = 0.07
    void_rate: float = 0.06
    early_rate: float = 0.03
    early_exception_rate: float = 0.12
    """Early throws where the exceptions apply (no-contact bear-off, forced play)."""
    call_rate: float = 0.5
    """Players mode: the opponent calls a planted illegal play."""
    double_rate: float = 0.05
    take_rate: float = 0.6
    resign_rate: float = 0.006
    accept_resign_rate: float = 0.7
    hit_aversion: float = 0.9
    """Chance a player skips hitting plays when others exist."""
    throw_hand_rate: float = 0.2
    tumble_rate: float = 0.3
    two_goes_rate: float = 0.25
    """Checkers moved in two goes, the board left alone between them."""
    held_rate: float = 0.15
    """A checker lifted and held off the board for a moment (boards without a tray)."""
    pickup_hand_rate: float = 0.25
    voids: tuple[VoidReason, ...] = VOIDS
    """The void throws to plant (early throws apart)."""
    max_turns: int | None = None
    """Short games: after this many turns the player on roll resigns, and it is accepted."""
    style: tuple[str, str, str] | None = None
    """Board, checker and dice style by name (``vision.synth.styles``); None draws them."""
    overhead: bool = False
    """A camera straight above the board filling 95 % of the frame, and 16 mm dice (the
    easiest set-up a club would mount); otherwise drawn like the vision's test scenes."""


@dataclass
class _Stage:
    """The director's running state: what lies on the table now, and the time."""

    table: Table
    fps: float
    board: Board
    dice: tuple[DiePlacement, ...] = ()
    cube_value: int = 1
    cube_owner: Colour | None = None
    t: float = 0.0
    moments: list[Moment] = field(default_factory=list)
    presses: list[Press] = field(default_factory=list)
    withdraw: Callable[[], bool] = lambda: True

    def shot(self, hands: tuple[HandPose, ...] = ()) -> Shot:
        return Shot(self.board, self.dice, self.table.cube(self.cube_value, self.cube_owner),
                    hands)

    def hold(self, seconds: float, label: str, hands: tuple[HandPose, ...] = ()) -> float:
        """Show the table as it is for ``seconds`` (whole frames); returns the start time.

        Hands do not always vanish between two frames: after half the moments
        with hands comes a frame of the arms withdrawing beyond the field's
        edge toward their owners, blurred, as a camera sees an arm leave.
        """
        frames = max(1, round(seconds * self.fps))
        start = self.t
        self.moments.append(Moment(self.shot(hands), frames / self.fps, label))
        self.t += frames / self.fps
        if hands and self.withdraw():
            for step in (1,):
                away = tuple(self.table.withdrawn(hand, step) for hand in hands)
                self.moments.append(Moment(self.shot(away), 1.0 / self.fps, "withdrawing"))
                self.t += 1.0 / self.fps
        return start

    def press(self, delay: float, button: str, player: Colour, level: str | None = None) -> None:
        """A button pressed after the table has been left as it is for ``delay`` seconds."""
        if delay > 0:
            self.hold(delay, "waiting")
        self.presses.append(Press(round(self.t, 4), button, player, level))  # type: ignore[arg-type]


class Director:
    """Stages one session (a match, or a money game) from a seed."""

    def __init__(self, seed: int, direction: Direction) -> None:
        self.seed = seed
        self.d = direction
        self.rng = random.Random(seed)
        self.np = np.random.default_rng([seed, 9])
        bottom: Colour = "light" if self.rng.random() < 0.5 else "dark"
        self.light = Player.ZERO if self.rng.random() < 0.5 else Player.ONE
        home = phys.Side.RIGHT if self.rng.random() < 0.5 else phys.Side.LEFT
        bottom_player = self.light if bottom == "light" else self.light.opponent
        self.seating = phys.Seating(bottom_player, home)
        table = Table.draw(self.np, bottom, tray=self.rng.random() < 0.5,
                           style=direction.style, overhead=direction.overhead)
        self.stage = _Stage(table, direction.fps, self._board(Position.initial()),
                            withdraw=lambda: self.rng.random() < 0.5)
        self.truth = Truth(seed, direction.mode, direction.match_length,
                           {"bottom": bottom, "home": home.value}, int(self.light),
                           style=table.base.describe()["style"])
        self.turn = 0
        self.game_no = 0
        self.game_first_turn = 0

    # -- helpers ------------------------------------------------------------

    def colour(self, player: Player) -> Colour:
        return "light" if player == self.light else "dark"

    def _board(self, position: Position) -> Board:
        pb = phys.to_physical(position, self.seating, self.light)
        return Board(tuple(Counts(c.light, c.dark) for c in pb.points),
                     Counts(pb.bar.light, pb.bar.dark), Counts(pb.off.light, pb.off.dark))

    def _u(self, low: float, high: float) -> float:
        return self.rng.uniform(low, high)

    # -- the session ----------------------------------------------------------

    def run(self) -> tuple[list[Moment], list[Press], Truth]:
        length = self.d.match_length
        rules = MatchRules(length=max(length, 1), game=GameRules())
        match = Match.new(rules)
        if length == 0:
            match = replace(match, game=Game.new(GameRules()))
        first = True
        while True:
            self._set_up(first)
            first = False
            match = self._game(match)
            if length == 0 or match.is_over:
                break
        s = self.stage
        s.hold(1.0, "end")
        self.truth.presses = [p.to_json() for p in s.presses]
        self.truth.duration = round(s.t, 4)
        return s.moments, s.presses, self.truth

    def _set_up(self, first: bool) -> None:
        s = self.stage
        start = self._board(Position.initial())
        s.dice = ()
        s.cube_value, s.cube_owner = 1, None
        if first:
            # Still setting up: the last checker is in a hand.
            points = list(start.points)
            index = max(range(24), key=lambda i: points[i].light)
            points[index] = Counts(points[index].light - 1, 0)
            s.board = Board(tuple(points), Counts(), Counts(1, 0))
            s.hold(self._u(0.5, 1.2), "setting up")
        else:
            s.hold(self._u(0.8, 1.5), "game over")
        hand = self.table.hand(self.np, "light", 0.5, 0.5)
        s.board = start
        s.hold(self._u(0.3, 0.6), "setting up", (hand,))
        s.hold(self._u(1.0, 2.0), "set up")

    @property
    def table(self) -> Table:
        return self.stage.table

    def _game(self, match: Match) -> Match:
        self.game_no += 1
        self.game_first_turn = self.turn
        game_no = self.game_no
        match = self._opening(match)
        while True:
            game = match.game
            if game.is_over:
                break
            match = self._turn(match)
            if match.game is not game and match.game.phase is Phase.OPENING:
                break  # the game ended and the match started the next one
            if match.is_over:
                break
        finished = match.games[-1] if match.games else match.game
        result = finished.result
        assert result is not None
        kind = {"borne off": None, "double passed": "pass", "resigned": "resign"}[
            result.ending.value]
        self.truth.games.append(GameTruth(game_no, self.colour(result.winner),
                                          kind or result.kind.name.lower(), result.points,
                                          round(self.stage.t, 4)))
        return match

    # -- throws ---------------------------------------------------------------

    def _throw(self, colour: Colour, values: tuple[int, ...], void: VoidReason | None,
               lying: tuple[DiePlacement, ...] = ()) -> float:
        """The cup, the tumble and the dice at rest; returns the time they came to rest."""
        s = self.stage
        half = self.table.throwing_half(colour)
        before = s.dice
        if self.rng.random() < self.d.throw_hand_rate:
            u = 0.75 if half == "right" else 0.25
            cup = self.table.hand(self.np, colour, u, 0.5 + self._u(-0.2, 0.2),
                                  reaching=False, moving=True)
            s.hold(self._u(0.2, 0.4), "throw", (cup,))
        if self.rng.random() < self.d.tumble_rate:
            for _ in range(self.rng.randint(1, 2)):
                s.dice = before + tumbling(self.np, self.table, s.board, half, len(values), lying)
                s.hold(1.0 / s.fps, "tumble")
        s.dice = before + land(self.np, self.table, s.board, half, values, void, lying)
        return s.hold(self._u(0.8, 2.0), "dice")

    def _pick_up(self, colour: Colour, keep: tuple[DiePlacement, ...] = ()) -> float:
        """The dice (but ``keep``) leave the board; returns when the board shows it."""
        s = self.stage
        gone = [d for d in s.dice if d not in keep]
        s.dice = keep
        if gone and self.rng.random() < self.d.pickup_hand_rate:
            u = sum(d.u for d in gone) / len(gone)
            v = sum(d.v for d in gone) / len(gone)
            s.hold(self._u(0.2, 0.4), "pick up", (self.table.hand(self.np, colour, u, v),))
        return s.t

    def _opening(self, match: Match) -> Match:
        s = self.stage
        while True:
            light_die, dark_die = self.rng.randint(1, 6), self.rng.randint(1, 6)
            lying: tuple[DiePlacement, ...] = ()
            half_l = self.table.throwing_half("light")
            half_d = self.table.throwing_half("dark")
            if self.rng.random() < self.d.tumble_rate:
                s.dice = (tumbling(self.np, self.table, s.board, half_l, 1)
                          + tumbling(self.np, self.table, s.board, half_d, 1))
                s.hold(1.0 / s.fps, "tumble")
            lying = land(self.np, self.table, s.board, half_l, (light_die,))
            s.dice = lying + land(self.np, self.table, s.board, half_d, (dark_die,), lying=lying)
            t_rest = s.hold(self._u(0.8, 1.6), "opening dice")
            dice_by_player = {self.light: light_die, self.light.opponent: dark_die}
            event = OpeningRoll((dice_by_player[Player.ZERO], dice_by_player[Player.ONE]))
            throw = ThrowTruth(self.game_no, self.turn, None, (light_die, dark_die),
                               round(t_rest, 4), 0.0, opening=True)
            self.truth.throws.append(throw)
            match = match.apply(event)
            if light_die != dark_die:
                return match
            t_gone = self._pick_up("light")
            s.hold(self._u(0.5, 1.0), "tie")
            throw.t_gone = round(t_gone, 4)

    def _turn(self, match: Match) -> Match:
        """One turn of the player on roll: cube, throw(s), play, pick-up (and what follows)."""
        s = self.stage
        game = match.game
        player = game.turn
        colour, other = self.colour(player), self.colour(player.opponent)
        if game.phase is Phase.ROLL:
            self.turn += 1
            if game.may_double(player) and self.rng.random() < self.d.double_rate:
                s.press(self._u(0.3, 1.0), "double", colour)
                match = match.apply(Double(player))
                s.hold(self._u(0.8, 2.0), "double offered")
                if self.rng.random() < self.d.take_rate:
                    s.press(0.0, "take", other)
                    match = match.apply(Take(player.opponent))
                    s.hold(self._u(0.3, 0.6), "cube", (self.table.hand(
                        self.np, other, 0.5, 0.95 if self.table.seat(other) == "bottom"
                        else 0.05),))
                    s.cube_value, s.cube_owner = match.game.cube_value, other
                    s.hold(self._u(0.5, 1.0), "cube taken")
                else:
                    s.press(0.0, "pass", other)
                    match = match.apply(Pass(player.opponent))
                    s.hold(self._u(0.5, 1.0), "passed")
                    return match
            short = (self.d.max_turns is not None
                     and self.turn - self.game_first_turn > self.d.max_turns)
            if short or self.rng.random() < self.d.resign_rate:
                level = self.rng.choice(list(ResignLevel))
                s.press(self._u(0.3, 1.0), "resign", colour, level.name.lower())
                match = match.apply(Resign(player, level))
                s.hold(self._u(0.8, 1.5), "resignation offered")
                if short or self.rng.random() < self.d.accept_resign_rate:
                    s.press(0.0, "accept", other)
                    match = match.apply(AcceptResignation(player.opponent))
                    s.hold(self._u(0.5, 1.0), "resigned")
                    return match
                s.press(0.0, "reject", other)
                match = match.apply(DeclineResignation(player.opponent))
                s.hold(self._u(0.3, 0.8), "resignation rejected")
            dice = self._valid_throw(colour)
            match = match.apply(Roll(player, dice))
        return self._play(match, colour, other)

    def _valid_throw(self, colour: Colour) -> tuple[int, int]:
        """Throw until the throw stands (planting void throws on the way)."""
        s = self.stage
        while True:
            dice = (self.rng.randint(1, 6), self.rng.randint(1, 6))
            void: VoidReason | None = None
            if self.d.voids and self.rng.random() < self.d.void_rate:
                void = self.rng.choice(self.d.voids)
            try:
                saved = (s.dice, len(s.moments), s.t)
                t_rest = self._throw(colour, dice, void)
            except NoRoomError:
                s.dice, s.t = saved[0], saved[2]
                del s.moments[saved[1]:]
                continue  # a crowded half: the dice fall otherwise
            throw = ThrowTruth(self.game_no, self.turn, colour, dice, round(t_rest, 4), 0.0,
                               void=void)
            self.truth.throws.append(throw)
            if void is None:
                return dice
            throw.t_gone = round(self._pick_up(colour), 4)
            s.hold(self._u(0.4, 1.0), "rethrow")

    # -- plays ----------------------------------------------------------------

    def _choose(self, game: Game) -> Position:
        plays = game.legal_plays()
        if self.rng.random() < self.d.hit_aversion:
            quiet = [p for p in plays if not any(m.hit for m in p.moves)]
            plays = quiet or plays
        play = self.rng.choice(plays)
        return game.position.result_of(play)

    def _play(self, match: Match, colour: Colour, other: Colour) -> Match:
        s = self.stage
        game = match.game
        player = game.turn
        assert game.dice is not None
        dice = game.dice
        before = game.position
        legal = game.legal_positions()
        forced = len(legal) <= 1
        mistake: Mistake | None = None
        if legal and self.rng.random() < self.d.illegal_rate:
            kinds = list(MISTAKES)
            self.rng.shuffle(kinds)
            for kind in kinds:
                mistake = plant(before, dice, kind, self.rng)
                if mistake is not None and mistake.after.off(player) < 15:
                    break
                mistake = None
        if mistake is not None:
            after = mistake.after
        elif legal:
            after = self._choose(game)
        else:
            after = before  # a dance
        self._animate(colour, other, self._board(after))
        s.hold(self._u(0.4, 1.4), "played")
        play = before.legal_play_to(after if mistake is None else mistake.nearest, *dice)
        truth = PlayTruth(self.game_no, self.turn, colour, dice, mistake is None,
                          "" if play is None else str(play), 0.0, forced=forced,
                          dance=not legal)
        if mistake is not None:
            truth.mistake = mistake.kind
            truth.judge_kinds = mistake.judge_kinds
        self.truth.plays.append(truth)

        early = self._maybe_early(match, colour, other, after, forced, mistake is not None)
        mover_dice = tuple(d for d in s.dice if d not in early)
        truth.t_final = round(self._pick_up(colour, keep=early), 4)
        s.hold(self._u(0.5, 1.2) if mistake is None else self._u(1.2, 2.0), "picked up")
        if early and self.truth.throws[-1].void == "early":
            self.truth.throws[-1].t_gone = round(self._pick_up(other), 4)
            s.hold(self._u(0.3, 0.8), "early throw taken back")
            early = ()
        del mover_dice

        if mistake is None:
            assert play is not None
            match = match.apply(Move(player, play))
        else:
            match = self._after_mistake(match, mistake, truth, colour, other)
        if early:
            # The early throw stood (an exception): the opponent plays it now.
            assert match.game.phase is Phase.ROLL
            values = self.truth.throws[-1].dice
            match = match.apply(Roll(match.game.turn, (values[0], values[1])))
            self.turn += 1
            return self._play(match, other, colour)
        return match

    def _after_mistake(self, match: Match, mistake: Mistake, truth: PlayTruth, colour: Colour,
                       other: Colour) -> Match:
        """The call and the correction, or (players mode, not called) the play stands."""
        s = self.stage
        game = match.game
        player = game.turn
        dice = game.dice
        assert dice is not None
        called = True
        if self.d.mode == "players":
            called = self.rng.random() < self.d.call_rate
            truth.called = called
            if called:
                s.press(0.0, "call", other)
                truth.t_call = s.t
                s.hold(self._u(1.0, 1.8), "called")
        if called:
            self._animate(colour, other, self._board(mistake.nearest))
            truth.t_corrected = round(s.t, 4)
            s.hold(self._u(0.8, 1.5), "corrected")
            play = game.position.legal_play_to(mistake.nearest, *dice)
            assert play is not None
            return match.apply(Move(player, play))
        # Not called: the board as played is the game from now on.
        stands = Game.at(mistake.after.with_turn(player.opponent), game.rules,
                         cube_value=game.cube_value, cube_owner=game.cube_owner)
        return replace(match, game=stands)

    def _maybe_early(self, match: Match, colour: Colour, other: Colour, after: Position,
                     forced: bool, illegal: bool) -> tuple[DiePlacement, ...]:
        """The opponent throws before the mover has picked up; returns their dice if any."""
        if illegal or after.off(match.game.turn) == 15:
            return ()
        race = _bearing_off_race(after)
        exception = "race" if race else "forced" if forced else None
        rate = self.d.early_exception_rate if exception else self.d.early_rate
        if self.rng.random() >= rate:
            return ()
        s = self.stage
        values = (self.rng.randint(1, 6), self.rng.randint(1, 6))
        saved = (s.dice, len(s.moments), s.t)
        try:
            t_rest = self._throw(other, values, None, lying=s.dice)
        except NoRoomError:
            s.dice, s.t = saved[0], saved[2]
            del s.moments[saved[1]:]
            return ()
        early = tuple(d for d in s.dice if d not in saved[0])
        self.truth.throws.append(ThrowTruth(
            self.game_no, self.turn + 1, other, values, round(t_rest, 4), 0.0,
            void=None if exception else "early",
            exception=exception))  # type: ignore[arg-type]
        return early

    # -- hands moving checkers ------------------------------------------------

    def _animate(self, colour: Colour, other: Colour, target: Board) -> None:
        """Hands take the board from what it is to ``target`` (the dice stay)."""
        s = self.stage
        transfers = _transfers(s.board, target)
        if not transfers:
            return
        goes = [transfers]
        if len(transfers) >= 2 and self.rng.random() < self.d.two_goes_rate:
            cut = self.rng.randint(1, len(transfers) - 1)
            goes = [transfers[:cut], transfers[cut:]]
        for i, go in enumerate(goes):
            if (not self.table.has_tray and self.rng.random() < self.d.held_rate
                    and go[0][0] == colour and go[0][1] != "off"):
                held = _apply(s.board, [(go[0][0], go[0][1], "off")])
                s.board = held
                s.hold(self._u(0.2, 0.6), "checker in hand")
                s.board = _apply(held, [(go[0][0], "off", go[0][2])])
                s.board = _apply(s.board, go[1:])
            else:
                s.board = _apply(s.board, go)
            place = go[-1][2]
            u, v = self._uv(place, go[-1][0])
            s.hold(self._u(0.3, 0.8), "moving", (self.table.hand(self.np, colour, u, v),))
            if i + 1 < len(goes):
                s.hold(self._u(0.2, 1.2), "between")

    def _uv(self, place: int | str, colour: Colour) -> tuple[float, float]:
        if place == "bar":
            return self.table.bar_uv(colour)
        if place == "off":
            return (1.05, 0.5)
        assert isinstance(place, int)
        return self.table.point_uv(place, 2)


Place = int | str
Transfer = tuple[Colour, Place, Place]


def _count(board: Board, colour: str, place: Place) -> int:
    if isinstance(place, int):
        counts = board.points[place]
    else:
        counts = board.bar if place == "bar" else board.off
    return counts.light if colour == "light" else counts.dark


def _transfers(a: Board, b: Board) -> list[Transfer]:
    """Checkers to carry, one by one, to turn ``a`` into ``b``, in an order a hand can
    follow: a checker is only put down where no checker of the other colour stands
    (so a hit blot goes to the bar before the hitter lands)."""
    places: list[Place] = [*range(24), "bar", "off"]
    pending: list[Transfer] = []
    for colour in ("light", "dark"):
        gone: list[Place] = []
        come: list[Place] = []
        for place in places:
            diff = _count(b, colour, place) - _count(a, colour, place)
            gone += [place] * max(-diff, 0)
            come += [place] * max(diff, 0)
        pending += [(colour, src, dst) for src, dst in zip(gone, come, strict=True)]
    ordered: list[Transfer] = []
    board = a
    while pending:
        ready = next((t for t in pending if _free_for(board, t)), pending[0])
        pending.remove(ready)
        ordered.append(ready)
        board = _apply(board, [ready])
    return ordered


def _free_for(board: Board, transfer: Transfer) -> bool:
    colour, _, dst = transfer
    if not isinstance(dst, int):
        return True
    counts = board.points[dst]
    return (counts.dark if colour == "light" else counts.light) == 0


def _apply(board: Board, transfers: list[Transfer]) -> Board:
    points = list(board.points)
    bar, off = board.bar, board.off
    for colour, src, dst in transfers:
        for place, delta in ((src, -1), (dst, 1)):
            if place == "bar":
                bar = _add(bar, colour, delta)
            elif place == "off":
                off = _add(off, colour, delta)
            else:
                assert isinstance(place, int)
                points[place] = _add(points[place], colour, delta)
    return Board(tuple(points), bar, off)


def _add(counts: Counts, colour: Colour, delta: int) -> Counts:
    if colour == "light":
        return Counts(counts.light + delta, counts.dark)
    return Counts(counts.light, counts.dark + delta)


def _bearing_off_race(position: Position) -> bool:
    """Both sides have every checker home (or off) and contact is broken."""
    if position.is_contact():
        return False
    return all(sum(position.layout(p)[7:26]) == 0 for p in Player)


def direct(seed: int, direction: Direction) -> tuple[list[Moment], list[Press], Truth]:
    """The moments, presses and truth of session ``seed``."""
    return Director(seed, direction).run()
