"""The plain-text match file (``.mat``) that GNU Backgammon, XG and others import.

The layout is the one GNU Backgammon 1.07 writes with ``export match mat``:
the tests hold our text to gnubg's byte for byte, both for games played by
hand in gnubg and for gnubg re-exporting files we wrote::

    ; [EventDate "2024.05.01"]

     5 point match

     Game 1
     Alice : 0                      Bob : 0
      1)                             31: 8/5 6/5
      2) 64: 24/18 13/9               Doubles => 2
      3)  Takes                      55: 13/8 13/8 6/1* 6/1
     ...
                                      Wins 2 points

Player 0 is the left column and player 1 the right one, as gnubg numbers
them.  Each numbered line holds one action of each player; a roll is written
with the higher die first and its play one die at a time, bar as 25 and off
as 0 (``25/22* 6/0``), a hit marked where the blot stood at the start of the
play, in the order gnubg sorts the moves of files it imports.  A roll with
nothing after it is a dance, or the roll of a player who then resigned
(gnubg reads it as the play when the play is forced; we read it as written).
``Wins N point(s)`` closes every finished game, in the winner's column; an
accepted resignation is written only as that line (the loser resigned; the
level is what the points say), which is how gnubg writes it and reads it
back.  The last game of a match adds ``and the match``, as
Jellyfish and XG do (gnubg reads it; its own export leaves it out).  gnubg
marks no Crawford game: the scores say which game it is.  A money session is
a ``0 point match`` whose scores are the points each player has won.

What the format has no place for goes into XG-style header tags, which gnubg
keeps as comments: ``[Crawford "Off"]``, ``[Jacoby "On"]``, ``[CubeLimit
"1"]`` (no cube) and ``[Stake "N"]`` as XG spells them, and bgref's own
``[Variation "Dutch Backgammon"]`` / ``[Variation "Acey-Deucey"]``,
``[AutomaticDoubles "Once"]``, ``[BackgammonValue "2"]``,
``[AceyDeuceyStake "Doubles"]`` and ``[OpeningTies "2: 33 55"]`` (the tied
opening throws of game 2, which matter under automatic doubles).  A variant
file has the same layout, with moves from hand written ``hand/20``; gnubg
cannot play the variants: it imports the file as standard backgammon and
complains about every move (``Unrecognised move``, ``Invalid move``).  A
declined resignation leaves no trace in a .mat file, nor does one still
waiting for its answer.

:func:`parse_mat` is lenient about layout (spacing, case, Windows line ends,
tabs, comment lines, a byte-order mark, consolidated moves like ``24/13`` or
``8/5(2)``, XG's ``Cannot Move`` and ``???``) and strict about content: every
action is replayed through the rules, and anything it cannot read or the
rules refuse raises :class:`~controller.game.errors.RecordError` naming the
line, the game and the move.
"""

import datetime
import re
from dataclasses import dataclass, replace
from enum import Enum
from typing import Final

from controller.game.errors import RecordError
from controller.game.events import (
    AcceptResignation,
    ChooseDouble,
    Double,
    Event,
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
from controller.game.money import MoneyRules, MoneySession
from controller.game.settings import AutoDoubles, GameRules
from controller.records.record import (
    DEFAULT_PLAYERS,
    GameRecord,
    MatchRecord,
    Session,
    scores_before,
)
from controller.rules.errors import RulesError
from controller.rules.layout import BAR, OFF
from controller.rules.move import Move as MoveStep
from controller.rules.move import Play
from controller.rules.notation import parse_play, parse_segments
from controller.rules.player import Player
from controller.rules.position import Position
from controller.rules.variant import Variant

_CELL: Final = 27
"""Width of the left column's text; a space follows it."""
_RIGHT: Final = 33
"""Column where the right player's actions start."""
_LEFT_LIMIT: Final = 20
"""An action starting at or before this column is the left player's.

Left actions start at column 5 or 6, right ones at 33 or 34 (wider in some
programs); gnubg writes the result of a resignation that follows a left-hand
roll at column 15, on the roll's line, and it is still the left player's.
"""

_VARIATIONS: Final = {
    Variant.STANDARD: "Backgammon",
    Variant.DUTCH: "Dutch Backgammon",
    Variant.ACEY_DEUCEY: "Acey-Deucey",
}


# -- writing ------------------------------------------------------------------


class _Kind(Enum):
    """What a cell of the two-column layout holds (a few layouts depend on it)."""

    PLAY = "roll and play"
    ROLLED = "roll not played"
    CUBE = "cube action"
    DROP = "drop"
    WINS = "result"


@dataclass(frozen=True, slots=True)
class _Cell:
    player: Player
    text: str
    kind: _Kind


def format_mat(record: MatchRecord) -> str:
    """The record as a ``.mat`` file; raises :class:`RecordError` if it does not replay."""
    for name in record.players:
        if not name.strip() or name != name.strip() or ":" in name or not name.isprintable():
            raise RecordError(f"player name {name!r} cannot be written in a .mat file "
                              "(empty, surrounding spaces, a colon or a control character)")
    final, games = record.replay_games()
    lines = [*_header(record, games), f" {record.length} point match", ""]
    for number, (game_record, game) in enumerate(zip(record.games, games, strict=True), 1):
        last = number == len(games)
        match_won = last and isinstance(final, Match) and final.is_over
        lines += [f" Game {number}", _score_line(record.players, game_record.score)]
        lines += _layout(_cells(game, match_won))
        if game.result is not None:
            lines.append("")
    return "\n".join(lines) + "\n"


def _header(record: MatchRecord, games: tuple[Game, ...]) -> list[str]:
    rules = record.game_rules
    tags: list[tuple[str, str]] = []
    if rules.variant is not Variant.STANDARD:
        tags.append(("Variation", _VARIATIONS[rules.variant]))
    if isinstance(record.rules, MatchRules) and not record.rules.crawford:
        tags.append(("Crawford", "Off"))
    if rules.jacoby:
        tags.append(("Jacoby", "On"))
    if not rules.cube:
        tags.append(("CubeLimit", "1"))
    if isinstance(record.rules, MoneyRules) and record.rules.stake != 1:
        tags.append(("Stake", str(record.rules.stake)))
    if rules.automatic_doubles is not AutoDoubles.OFF:
        tags.append(("AutomaticDoubles", rules.automatic_doubles.value.capitalize()))
    if rules.backgammon_multiplier != 3:
        tags.append(("BackgammonValue", str(rules.backgammon_multiplier)))
    if rules.acey_deucey_doubles_stake:
        tags.append(("AceyDeuceyStake", "Doubles"))
    for number, game in enumerate(games, 1):
        ties = [f"{e.dice[0]}{e.dice[1]}" for e in game.events
                if isinstance(e, OpeningRoll) and e.dice[0] == e.dice[1]]
        if ties:
            tags.append(("OpeningTies", f"{number}: {' '.join(ties)}"))
    lines: list[str] = []
    if record.date is not None:
        lines += [f'; [EventDate "{record.date:%Y.%m.%d}"]', ""]
    block = [f'; [{key} "{value}"]' for key, value in tags]
    block += [f"; {comment}" if comment else ";" for comment in record.comments]
    if block:
        lines += [*block, ""]
    return lines


def _score_line(players: tuple[str, str], score: tuple[int, int]) -> str:
    left = f"{players[0]} : {score[0]}"
    return f" {left:<31}{players[1]} : {score[1]}"


def _point(place: int) -> str:
    return "hand" if place > BAR else str(place)


def _play_text(position: Position, play: Play) -> str:
    """One die at a time, as gnubg writes it: ``24/18 13/10 ``, ``6/1* 6/1``.

    The moves are in gnubg's order, furthest source first, then furthest
    destination (always an order they can be made in: a checker only ever
    moves towards lower points, so a move never needs one from a lower
    point first).

    A move is marked ``*`` when the opponent stood on its point at the start
    of the play and no earlier move of the play went there.  Every move but
    a fourth one is followed by a space.
    """
    opponent = position.layout(position.turn.opponent)
    reached: set[int] = set()
    parts = []
    moves = sorted(play.moves, key=lambda m: (m.source, m.destination), reverse=True)
    for index, move in enumerate(moves):
        hit = (move.destination != OFF and opponent[25 - move.destination] > 0
               and move.destination not in reached)
        reached.add(move.destination)
        parts.append(f"{_point(move.source)}/{move.destination}{'*' if hit else ''}"
                     + (" " if index < 3 else ""))
    return "".join(parts)


def _dice(dice: tuple[int, int]) -> str:
    return f"{max(dice)}{min(dice)}"


def _roll(dice: tuple[int, int]) -> str:
    return f"{_dice(dice)}: "


def _wins(player: Player, points: int, match_won: bool) -> _Cell:
    text = f" Wins {points} point{'s' if points != 1 else ''}"
    return _Cell(player, text + (" and the match" if match_won else ""), _Kind.WINS)


def _cells(game: Game, match_won: bool) -> list[_Cell]:
    """The game's actions in order, each in its player's column."""
    cells: list[_Cell] = []
    pending: tuple[Player, tuple[int, int]] | None = None
    state = Game.new(game.rules)
    for event in game.events:
        before, state = state, state.apply(event)
        match event:
            case OpeningRoll() | Roll() | ChooseDouble() if state.dice is not None:
                pending = (state.turn, state.dice)
            case Move(player=player, play=play):
                cells.append(_Cell(player, _roll(play.dice) + _play_text(before.position, play),
                                   _Kind.PLAY))
                pending = None
            case Double(player=player):
                cells.append(_Cell(player, f" Doubles => {2 * before.cube_value}", _Kind.CUBE))
            case Take(player=player):
                cells.append(_Cell(player, " Takes", _Kind.CUBE))
            case Pass(player=player):
                cells.append(_Cell(player, " Drops", _Kind.DROP))
            case AcceptResignation() if pending is not None:
                cells.append(_rolled(before, *pending))
                pending = None
        if state.result is not None:
            result = state.result
            cells.append(_wins(result.winner, result.points, match_won))
    if pending is not None:
        cells.append(_rolled(state, *pending))
    return cells


def _rolled(game: Game, player: Player, dice: tuple[int, int]) -> _Cell:
    """A roll not (yet) played; one that cannot be played is laid out as the dance it is."""
    kind = _Kind.ROLLED if game.legal_positions() else _Kind.PLAY
    return _Cell(player, _roll(dice), kind)


def _layout(cells: list[_Cell]) -> list[str]:
    """Two columns, one numbered line per exchange, as gnubg lays them out.

    A left action always starts a line; a right action completes the line
    if its right half is free.  The result goes on an unnumbered line of
    its own, except that a right-hand result completes an open line (gnubg's
    quirks of spacing there are kept, so its re-export matches ours).
    """
    rows: list[list[_Cell | None]] = []
    numbered: list[bool] = []
    for cell in cells:
        open_row = bool(rows) and numbered[-1] and rows[-1][0] is not None and rows[-1][1] is None
        if cell.kind is _Kind.WINS:
            if cell.player is Player.ONE and open_row:
                rows[-1][1] = cell
            else:
                rows.append([cell, None] if cell.player is Player.ZERO else [None, cell])
                numbered.append(False)
        elif cell.player is Player.ONE and open_row:
            rows[-1][1] = cell
        else:
            rows.append([cell, None] if cell.player is Player.ZERO else [None, cell])
            numbered.append(True)
    lines = []
    number = 0
    for (left, right), is_numbered in zip(rows, numbered, strict=True):
        if not is_numbered:  # a result: under the left actions' text, or the right ones'
            lines.append(" " * 5 + left.text if left is not None
                         else " " * _RIGHT + (right.text if right is not None else ""))
            continue
        number += 1
        prefix = f"{number:3d}) "
        if right is None:
            assert left is not None
            pad = left.text if left.kind is _Kind.ROLLED else f"{left.text:<{_CELL}} "
            lines.append(prefix + pad)
        elif left is None:
            lines.append(prefix + " " * (_CELL + 1) + right.text)
        elif right.kind is _Kind.WINS and left.kind is _Kind.ROLLED:
            lines.append(prefix + f"{left.text:<{_CELL + 1}}" + right.text.lstrip())
        else:
            tail = " " if right.kind is _Kind.WINS and left.kind is _Kind.DROP else ""
            lines.append(prefix + f"{left.text:<{_CELL}} " + right.text + tail)
    return lines


# -- reading ------------------------------------------------------------------

_MATCH_LINE: Final = re.compile(r"^\s*(\d+)\s*-?\s*points?\s+match\b\s*$", re.IGNORECASE)
_GAME_LINE: Final = re.compile(r"^\s*game\s+(\d+)\b.*$", re.IGNORECASE)
_SCORE_LINE: Final = re.compile(
    r"^\s*(?P<n0>\S(?:.*?\S)?)\s*:\s*(?P<s0>\d+)\s+(?P<n1>\S(?:.*?\S)?)\s*:\s*(?P<s1>\d+)\s*$")
_TAG: Final = re.compile(r'^\[\s*(?P<key>[A-Za-z][\w ]*?)\s+"(?P<value>[^"]*)"\s*\]$')
_NUMBERED: Final = re.compile(r"^\s*(\d+)\)")
_ROLL: Final = re.compile(r"^([1-6])([1-6]):(.*)$")
_KEYWORD: Final = re.compile(
    r"^(doubles?|beavers?|raccoons?|takes?|accepts?|drops?|pass(?:es)?|rejects?|wins?)$",
    re.IGNORECASE)
_WINS: Final = re.compile(r"^wins?\s+(\d+)\s+points?(\s+and\s+the\s+match)?\s*\.?$",
                          re.IGNORECASE)
_DOUBLES: Final = re.compile(r"^doubles?(?:\s*=>\s*(\d+))?$", re.IGNORECASE)
_NO_MOVE: Final = re.compile(r"^(?:\?+|cannot\s+move|can't\s+move)$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class _Where:
    """Where in the file an action stands, for messages."""

    line: int
    game: int
    move: int

    def __str__(self) -> str:
        return f"line {self.line}: game {self.game}, move {self.move}"


@dataclass(frozen=True, slots=True)
class _Header:
    rules: MatchRules | MoneyRules
    date: datetime.date | None
    comments: tuple[str, ...]
    ties: dict[int, tuple[int, ...]]


def parse_mat(text: str) -> MatchRecord:
    """The record a ``.mat`` file describes, every action replayed through the rules.

    Raises :class:`RecordError` naming the line (and the game and move) of
    the first thing it cannot read or the rules do not allow.
    """
    lines = [line.expandtabs(8) for line in text.lstrip("\ufeff").splitlines()]
    header, start = _read_header(lines)
    return _Reader(lines, header).read(start)


def _read_header(lines: list[str]) -> tuple[_Header, int]:
    """The rules, date and comments above the match line, and the index after it."""
    tags: list[tuple[int, str, str]] = []
    comments: list[str] = []
    for index, line in enumerate(lines):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped[0] in ";#":
            body = stripped[1:].strip()
            tag = _TAG.match(body)
            if tag and tag["key"].lower() in _TAG_KEYS:
                tags.append((index + 1, tag["key"].lower(), tag["value"].strip()))
            else:
                comments.append(body)
            continue
        found = _MATCH_LINE.match(line)
        if not found:
            raise RecordError(f"line {index + 1}: expected the match length "
                              f"(' 7 point match') or a comment, found {stripped!r}")
        return _header_from(int(found[1]), tags, comments), index + 1
    raise RecordError("not a .mat file: no ' N point match' line")


_TAG_KEYS: Final = {"eventdate", "variation", "crawford", "jacoby", "cubelimit", "stake",
                    "automaticdoubles", "backgammonvalue", "aceydeuceystake", "openingties"}
_ON_OFF: Final = {"on": True, "off": False, "yes": True, "no": False}


def _header_from(length: int, tags: list[tuple[int, str, str]],
                 comments: list[str]) -> _Header:
    game = GameRules()
    crawford = True
    stake = 1
    date: datetime.date | None = None
    ties: dict[int, tuple[int, ...]] = {}
    for line, key, value in tags:
        low = value.lower()
        try:
            if key == "eventdate":
                date = datetime.datetime.strptime(value, "%Y.%m.%d").date()
            elif key == "variation":
                variant = {v.lower(): k for k, v in _VARIATIONS.items()} | {"dutch": Variant.DUTCH}
                if low not in variant:
                    raise ValueError("bgref plays standard backgammon, Dutch backgammon "
                                     "and Acey-Deucey only")
                game = replace(game, variant=variant[low])
            elif key == "crawford":
                crawford = _ON_OFF[low]
            elif key == "jacoby":
                game = replace(game, jacoby=_ON_OFF[low])
            elif key == "cubelimit":
                game = replace(game, cube=game.cube and value != "1")
            elif key == "stake":
                stake = int(value)
            elif key == "automaticdoubles":
                game = replace(game, automatic_doubles=AutoDoubles(low))
            elif key == "backgammonvalue":
                game = replace(game, backgammon_multiplier=int(value))
            elif key == "aceydeuceystake":
                game = replace(game, acey_deucey_doubles_stake=low == "doubles")
            else:
                number, _, throws = value.partition(":")
                ties[int(number)] = tuple(_tie(throw) for throw in throws.split())
        except (KeyError, ValueError) as exc:
            reason = "On or Off expected" if isinstance(exc, KeyError) else str(exc)
            raise RecordError(f"line {line}: cannot read the header tag {key!r} = {value!r}: "
                              f"{reason}") from exc
    rules: MatchRules | MoneyRules = (MatchRules(length, crawford, game) if length
                                      else MoneyRules(stake, game))
    return _Header(rules, date, tuple(comments), ties)


def _tie(throw: str) -> int:
    if len(throw) != 2 or throw[0] != throw[1] or throw[0] not in "123456":
        raise ValueError(f"{throw!r} is not a tied opening throw like 33")
    return int(throw[0])


class _Reader:
    """Reads the games one line at a time, replaying each action as it goes.

    Mutable while it reads; what it returns is an immutable record.
    """

    def __init__(self, lines: list[str], header: _Header) -> None:
        self.lines = lines
        self.header = header
        self.state: Session = (Match.new(header.rules) if isinstance(header.rules, MatchRules)
                               else MoneySession.new(header.rules))
        self.players: tuple[str, str] | None = None
        self.games: list[GameRecord] = []
        self.events: list[Event] = []
        self.number = 0
        self.move = 0
        self.line = 0
        self.score = (0, 0)
        self.unplayed: tuple[Player, tuple[int, int], _Where] | None = None
        self.finished: Game | None = None
        """The current game once the replay has ended it."""
        self.closed = False
        """The current game's ``Wins`` line has been read."""

    # -- structure ----------------------------------------------------------

    def read(self, start: int) -> MatchRecord:
        index = start
        while index < len(self.lines):
            self.line = index + 1
            line = self.lines[index]
            stripped = line.strip()
            index += 1
            if not stripped:
                continue
            if stripped[0] in ";#":
                if re.match(r"^[;#]\s*set\s+pos", stripped, re.IGNORECASE):
                    raise RecordError(f"line {self.line}: positions set in the middle of a "
                                      "game are not supported")
                continue
            game_line = _GAME_LINE.match(line)
            if game_line:
                self._end_game(last=False)
                index = self._start_game(int(game_line[1]), index)
            elif not self.number:
                raise RecordError(f"line {self.line}: expected 'Game 1', found {stripped!r}")
            else:
                self._read_line(line)
        if self.number:
            self._end_game(last=True)
        return MatchRecord(players=self.players or DEFAULT_PLAYERS, rules=self.header.rules,
                           games=tuple(self.games), date=self.header.date,
                           comments=self.header.comments)

    def _start_game(self, number: int, index: int) -> int:
        if number != self.number + 1:
            raise RecordError(f"line {self.line}: expected game {self.number + 1}, "
                              f"found game {number}")
        if isinstance(self.state, Match) and self.state.is_over:
            raise RecordError(f"line {self.line}: game {number} follows the end of the match")
        self.number, self.move = number, 0
        self.finished, self.closed, self.unplayed = None, False, None
        while index < len(self.lines) and not self.lines[index].strip():
            index += 1
        self.line = index + 1
        if index == len(self.lines):
            raise RecordError(f"line {self.line}: game {number} has no players and scores")
        self._read_score(self.lines[index])
        self.events = []
        for die in self.header.ties.get(number, ()):
            self._apply(OpeningRoll((die, die)), f"the tied opening throw {die}{die}")
        return index + 1

    def _read_score(self, line: str) -> None:
        found = _SCORE_LINE.match(line)
        if not found:
            raise RecordError(f"line {self.line}: expected 'name : score   name : score', "
                              f"found {line.strip()!r}")
        names = (found["n0"], found["n1"])
        if self.players is None:
            self.players = names
        elif names != self.players:
            raise RecordError(f"line {self.line}: game {self.number} is played by "
                              f"{names[0]} and {names[1]}, the match by "
                              f"{self.players[0]} and {self.players[1]}")
        score = (int(found["s0"]), int(found["s1"]))
        expected = scores_before(self.state)
        if score != expected:
            raise RecordError(f"line {self.line}: game {self.number} starts at "
                              f"{score[0]}-{score[1]}, but the games before it make "
                              f"{expected[0]}-{expected[1]}")
        self.score = score

    def _end_game(self, *, last: bool) -> None:
        if not self.number:
            return
        if self.unplayed is not None and not last:
            player, dice, where = self.unplayed
            raise RecordError(f"{where}: {self._name(player)} rolled {_dice(dice)} "
                              "but no play is written")
        if self.finished is None and not last:
            raise RecordError(f"line {self.line}: game {self.number} has no result")
        if not self.events:
            if last:
                return  # a game announced but not begun: nothing to record
            raise RecordError(f"line {self.line}: game {self.number} has no moves")
        self.games.append(GameRecord(score=self.score, events=tuple(self.events)))

    # -- lines and cells ----------------------------------------------------

    def _read_line(self, line: str) -> None:
        numbered = _NUMBERED.match(line)
        if numbered:
            self.move = int(numbered[1])
        begin = numbered.end() if numbered else 0
        cells: list[tuple[int, list[str]]] = []
        for token in re.finditer(r"\S+", line[begin:]):
            column = begin + token.start()
            word = token.group()
            roll = _ROLL.match(word)
            if roll or _KEYWORD.match(word):
                cells.append((column, [f"{roll[1]}{roll[2]}:", roll[3]] if roll else [word]))
            elif cells:
                cells[-1][1].append(word)
            else:
                raise RecordError(f"line {self.line}: cannot read {word!r} in "
                                  f"{line.strip()!r}")
        for column, words in cells:
            player = Player.ZERO if column <= _LEFT_LIMIT else Player.ONE
            self._cell(player, [w for w in words if w])

    def _cell(self, player: Player, words: list[str]) -> None:
        where = _Where(self.line, self.number, self.move)
        text = " ".join(words)
        head = words[0].lower()
        if self.closed or (self.finished is not None and not head.startswith("win")):
            raise RecordError(f"{where}: game {self.number} is over, but {text!r} follows")
        if head.startswith("win"):
            self._wins(player, text, where)
            self.closed = True
            return
        self._settle_unplayed()
        if _ROLL.match(words[0]):
            self._roll(player, int(words[0][0]), int(words[0][1]), " ".join(words[1:]), where)
        elif head.startswith("double"):
            found = _DOUBLES.match(text)
            if not found:
                raise RecordError(f"{where}: cannot read {text!r}")
            value = 2 * self.state.game.cube_value
            if found[1] is not None and int(found[1]) != value:
                raise RecordError(f"{where}: {self._name(player)} doubles to {found[1]}, "
                                  f"but the cube is at {value // 2}")
            self._apply(Double(player), text, where)
        elif head.startswith(("beaver", "raccoon")):
            raise RecordError(f"{where}: {text!r}: beavers and raccoons are not supported")
        elif head.startswith(("take", "accept")) and len(words) == 1:
            self._apply(Take(player), text, where)
        elif head.startswith(("drop", "pass", "reject")) and len(words) == 1:
            self._apply(Pass(player), text, where)
        else:
            raise RecordError(f"{where}: cannot read {text!r}")

    def _roll(self, player: Player, die1: int, die2: int, moves: str, where: _Where) -> None:
        game = self.state.game
        label = f"{die1}{die2}: {moves}".strip()
        if game.phase is Phase.OPENING:
            if die1 == die2:
                raise RecordError(f"{where}: {label}: an opening roll cannot be a double "
                                  "(each player throws one die; ties are thrown again)")
            # The player whose column shows the opening roll threw its higher die.
            high, low = max(die1, die2), min(die1, die2)
            self._apply(OpeningRoll((high, low) if player is Player.ZERO else (low, high)),
                        label, where)
        elif game.phase is Phase.CHOOSE_DOUBLE:
            if die1 != die2:
                raise RecordError(f"{where}: {label}: after an acey-deucey the player "
                                  "names a double")
            self._apply(ChooseDouble(player, die1), label, where)
        else:
            self._apply(Roll(player, (die1, die2)), label, where)
        if _NO_MOVE.match(moves.strip()):
            moves = ""
        game = self.state.game
        if not moves.strip():
            if game.legal_positions():
                self.unplayed = (player, (die1, die2), where)
            else:
                self._apply(Move(player, Play((), (die1, die2))), label, where)
            return
        try:
            play = self._parse_play(game, moves, die1, die2)
        except RulesError as exc:
            raise RecordError(f"{where}: {self._name(player)} {label}: {exc}") from exc
        self._apply(Move(player, play), label, where)

    @staticmethod
    def _parse_play(game: Game, moves: str, die1: int, die2: int) -> Play:
        """The legal play ``moves`` describes, keeping the file's order of single moves.

        The rules engine finds the legal play; when the file wrote it one
        die at a time (as gnubg does) in another valid order, that order is
        kept, so reading and writing a file again gives the same text.
        """
        position = game.position
        if game.rules.variant is Variant.STANDARD:
            play = parse_play(position, moves, die1, die2)
            segments = parse_segments(moves)
        else:
            from controller.rules.variant_moves import (
                parse_variant_play,
                parse_variant_segments,
            )

            play = parse_variant_play(position, moves, die1, die2, game.rules.variant)
            segments = parse_variant_segments(moves)
        if len(segments) != len(play.moves):
            return play
        opponent = position.layout(position.turn.opponent)
        written = []
        for index, (source, destination, _) in enumerate(segments):
            hit = (destination != OFF and opponent[25 - destination] > 0
                   and all(earlier[1] != destination for earlier in segments[:index]))
            written.append(MoveStep(source, destination, hit))
        as_written = Play(tuple(written), play.dice)
        try:
            same = position.result_of(as_written) == position.result_of(play)
        except RulesError:
            same = False
        return as_written if same else play

    def _settle_unplayed(self) -> None:
        """A roll written without a play (not a dance), and another action follows:
        the play if it was forced, as gnubg reads it; any other roll must show its play.

        Followed by the result, the roll was not played (the loser resigned);
        at the end of the file, it waits to be played.  A roll that cannot be
        played is a dance wherever it stands, as gnubg reads it.
        """
        if self.unplayed is None:
            return
        player, dice, where = self.unplayed
        self.unplayed = None
        plays = self.state.game.legal_plays()
        if len(plays) != 1:
            raise RecordError(f"{where}: {self._name(player)} rolled {_dice(dice)} "
                              "but no play is written")
        self._apply(Move(player, plays[0]), f"{_roll(dice)}(forced)", where)

    def _wins(self, player: Player, text: str, where: _Where) -> None:
        found = _WINS.match(text)
        if not found:
            raise RecordError(f"{where}: cannot read {text!r}")
        points = int(found[1])
        if self.finished is None:
            self.unplayed = None
            self._resign(player, points, where)
        assert self.finished is not None and self.finished.result is not None
        result = self.finished.result
        if (result.winner, result.points) != (player, points):
            raise RecordError(f"{where}: the file says {self._name(player)} wins {points}, "
                              f"the game gives {self._name(result.winner)} {result.points}")
        if found[2] and not (isinstance(self.state, Match) and self.state.is_over):
            raise RecordError(f"{where}: {text!r}, but the match is not over")

    def _resign(self, winner: Player, points: int, where: _Where) -> None:
        """The loser resigned at the level the points say (the lowest, if several do)."""
        game = self.state.game
        for level in ResignLevel:
            try:
                ended = game.apply(Resign(winner.opponent, level)).apply(AcceptResignation(winner))
            except RulesError as exc:
                raise RecordError(f"{where}: {self._name(winner.opponent)} cannot resign "
                                  f"here: {exc}") from exc
            if ended.result is not None and ended.result.points == points:
                self._apply(Resign(winner.opponent, level), "resigns", where)
                self._apply(AcceptResignation(winner), "accepts", where)
                return
        raise RecordError(f"{where}: no resignation by {self._name(winner.opponent)} gives "
                          f"{points} points at cube {game.cube_value}")

    # -- replaying ----------------------------------------------------------

    def _apply(self, event: Event, text: str, where: _Where | None = None) -> None:
        before = len(self.state.games)
        try:
            self.state = self.state.apply(event)
        except RulesError as exc:
            place = where or _Where(self.line, self.number, self.move)
            raise RecordError(f"{place}: {text}: {exc}") from exc
        self.events.append(event)
        if len(self.state.games) > before:
            self.finished = self.state.games[-1]

    def _name(self, player: Player) -> str:
        name = self.players[player] if self.players else DEFAULT_PLAYERS[player]
        return f"{name} (player {player.value})"

