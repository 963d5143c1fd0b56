"""The main job's demo until the camera, lights and scoreboard arrive:
one game of random legal plays, printed turn by turn from the rules engine."""

import random
from collections.abc import Callable

from controller.rules import Player, Position


def run_demo(seed: int | None, echo: Callable[[str], None]) -> Player:
    """Play a game to the end; return the winner."""
    rng = random.Random(seed)
    position = Position.initial(Player.ZERO)
    while True:
        first, second = rng.randint(1, 6), rng.randint(1, 6)
        if first != second:
            break
        echo(f"opening roll {first}-{second}: tie, roll again")
    position = position.with_turn(Player.ZERO if first > second else Player.ONE)
    dice = (first, second)
    turn = 1
    while True:
        play = rng.choice(position.legal_plays(*dice))
        mover = position.turn
        text = str(play) or "(no legal play)"
        position = position.result_of(play)
        echo(f"{turn:3d}. player {mover.value} rolls {dice[0]}-{dice[1]}: {text:28s} "
             f"{position.position_id()}")
        winner = position.winner()
        if winner is not None:
            echo(f"player {winner.value} wins after {turn} turns")
            return winner
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        turn += 1
