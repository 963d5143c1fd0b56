"""A throw seen in part (one die of two), then the opponent's dice: never a wrong-half call.

Seen on rendered streams (``bench/referee_accuracy.py``, streams 960b5e2b053c):
the player on turn throws and the camera reads one die only; they play, and
the opponent throws early while that die still lies in the thrower's half.
The three dice looked like a split throw of the player on turn, and the
referee called ``wrong_half`` on them (six false calls in 65 sessions).  And
a throw seen in part and picked up with nothing moved (a dance), then the
opponent's throw, was called ``wrong_half`` too.  The dice in the opponent's
half are the opponent's: the play is inferred from the die seen, and the
throw is early when a die of the mover still lies there.
"""

import pytest

from controller.referee.machine import Referee, Stage
from controller.referee.settings import RefereeSettings
from controller.rules.notation import parse_play
from controller.rules.physical import Seating
from controller.rules.position import Position
from tests.referee_streams import DARK, LIGHT, SEATINGS, Script, die, half_of, names, run, throw
from tests.test_referee_vision_doubts import _calls, _to_roll


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
@pytest.mark.parametrize("mode", ["strict", "players"])
def test_the_opponents_early_throw_beside_a_lone_die_of_the_movers_is_early_not_wrong_half(
        seating: Seating, mode: str) -> None:
    script, dark = _to_roll(seating)
    # Dark throws 6-2; the camera sees the 6 only.
    six = die(6, half_of(seating, DARK), 1)
    script.stable(dark, (six,))
    play = parse_play(dark, "24/18 13/11", 6, 2)
    after = dark.result_of(play)
    script.stable(after, (six,))
    # Light throws before dark has picked up: the 6 still lies there.
    early = throw((4, 3), half_of(seating, LIGHT), 2)
    script.stable(after, (six, *early))
    referee, events = run(Referee.new(RefereeSettings(mode=mode)), script.inputs)  # type: ignore[arg-type]
    assert [(c["event"], c["player"], c["reason"]) for c in _calls(events)] == [
        ("reroll", "light", "early")]
    rolls = [e for e in events if e.event == "roll"]
    assert rolls[-1].player == "dark" and rolls[-1].data == {"dice": [6, 2], "inferred": True}
    last_play = [e for e in events if e.event == "play"][-1]
    assert last_play.data["legal"] is True and last_play.data["move"] == str(play)
    assert referee.stage is Stage.ROLL and referee.game.turn == LIGHT
    # The dice are picked up and light throws again: a good throw.
    script.stable(after)
    script.throw(after.with_turn(LIGHT), LIGHT, (5, 1), spot=0)
    referee, events = run(Referee.new(RefereeSettings(mode=mode)), script.inputs)  # type: ignore[arg-type]
    assert names(events)[-1] == "roll" and events[-1].player == "light"
    assert events[-1].data == {"dice": [5, 1]}
    assert len(_calls(events)) == 1


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_lone_die_and_the_opponents_throw_with_nothing_moved_is_no_call(
        seating: Seating) -> None:
    script, dark = _to_roll(seating)
    six = die(6, half_of(seating, DARK), 1)
    script.stable(dark, (six,))
    script.stable(dark, (six, *throw((4, 3), half_of(seating, LIGHT), 2)))
    referee, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert not _calls(events)
    assert names(events)[-1] == "warning:dice"
    assert referee.stage is Stage.ROLL and referee.game.turn == DARK


def _on_the_bar() -> Position:
    """Dark on the bar; light holds only its 6-point in its home board: with a 6
    seen, 6-6 is the one roll that dances."""
    light_rows = [0] * 26
    dark_rows = [0] * 26
    light_rows[6], light_rows[8], light_rows[13], light_rows[24] = 5, 3, 5, 2
    dark_rows[25], dark_rows[6], dark_rows[8], dark_rows[13], dark_rows[24] = 1, 5, 3, 4, 2
    return Position(light_rows, dark_rows, DARK)


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_throw_seen_in_part_picked_up_then_the_opponents_throw_is_a_dance(
        seating: Seating) -> None:
    script = Script(seating).setup()
    script.opening(5, 2)
    start = Position.initial().with_turn(LIGHT)
    script.play(start, parse_play(start, "13/8 13/11", 5, 2),
                (die(5, "right", 0), die(2, "left", 1)))
    barred = _on_the_bar()
    dances = [(6, v) for v in range(1, 7) if not barred.legal_positions(6, v)]
    assert dances == [(6, 6)]
    script.operator("set_position", position_id=barred.position_id(), turn="dark")
    script.stable(barred)
    script.stable(barred, (die(6, half_of(seating, DARK), 1),))  # the other 6 missed
    script.stable(barred)  # a dance: picked up with nothing moved
    script.throw(barred.with_turn(LIGHT), LIGHT, (3, 1), spot=2)
    referee, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert not _calls(events)
    assert [(e.event, e.player, e.data.get("dice")) for e in events
            if e.event in ("roll", "play")][-3:] == [
        ("roll", "dark", [6, 6]), ("play", "dark", [6, 6]), ("roll", "light", [3, 1])]
    assert referee.stage is Stage.PLAY and referee.game.turn == LIGHT


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_last_play_that_fits_several_rolls_still_ends_the_game(seating: Seating) -> None:
    script = Script(seating).setup()
    script.opening(5, 2)
    start = Position.initial().with_turn(LIGHT)
    script.play(start, parse_play(start, "13/8 13/11", 5, 2),
                (die(5, "right", 0), die(2, "left", 1)))
    light_rows = [0] * 26
    dark_rows = [0] * 26
    light_rows[19] = 15
    dark_rows[1] = 1
    dark_rows[0] = 14  # borne off
    last = Position(light_rows, dark_rows, DARK)
    script.operator("set_position", position_id=last.position_id(), turn="dark")
    script.stable(last)
    script.stable(last, (die(2, half_of(seating, DARK), 1),))  # the other die missed
    done = last.result_of(parse_play(last, "1/off", 2, 1))
    script.stable(done, (die(2, half_of(seating, DARK), 1),))
    script.stable(done)
    referee, events = run(Referee.new(), script.inputs)
    assert not _calls(events)
    over = [e for e in events if e.event == "game_over"]
    assert len(over) == 1 and over[0].data["winner"] == "dark"
    assert referee.stage is Stage.SETUP


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_throw_seen_in_part_picked_up_then_dice_in_the_other_half_is_a_resync(
        seating: Seating) -> None:
    script, dark = _to_roll(seating)
    # A die of dark's seen in dark's half (its value perhaps misread, the other die
    # missed), picked up with nothing moved, though no roll with it dances.
    script.stable(dark, (die(6, half_of(seating, DARK), 1),))
    script.stable(dark)
    # Dice in light's half: light's throw, or dark's rethrow into the wrong half?
    # Not a call on a guess: the dice say whose throw it is (rendered seed 82).
    script.stable(dark, throw((4, 3), half_of(seating, LIGHT), 2))
    referee, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert not _calls(events)
    assert [e for e in events if e.event == "warning"][-1].data.get("resync") is True
    assert referee.game.turn == LIGHT
    # They were dark's, thrown into the wrong half: picked up, and dark throws again.
    script.stable(dark)
    script.throw(dark, DARK, (5, 3), spot=3)
    referee, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert not _calls(events)
    assert names(events)[-1] == "roll" and events[-1].player == "dark"
    assert events[-1].data == {"dice": [5, 3]}


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_dice_in_both_halves_after_a_play_the_camera_missed_are_no_wrong_half_call(
        seating: Seating) -> None:
    from tests.referee_streams import shifted

    script, dark = _to_roll(seating)
    # Dark's throw missed entirely and played: the board parts from the record.
    played = shifted(shifted(dark, "24/18").with_turn(DARK), "13/11")
    script.stable(played)
    # Then one of dark's dice shows where it lay, and one of light's early throw (the
    # other die of each missed): taken for a split throw before (rendered seed 83).
    script.stable(played, (die(6, half_of(seating, DARK), 1),
                           die(4, half_of(seating, LIGHT), 2)))
    _, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert not _calls(events)
    assert names(events)[-1] == "warning:look"


def _near_race() -> Position:
    """Light to play with one checker on its 8-point, the rest home; dark all home:
    contact is broken, and any play of light's makes a bear-off race."""
    light_rows = [0] * 26
    dark_rows = [0] * 26
    light_rows[1:5] = [3, 3, 3, 3]
    light_rows[5], light_rows[8] = 2, 1
    dark_rows[1:6] = [3, 3, 3, 3, 3]
    return Position(light_rows, dark_rows, LIGHT)


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_an_early_throw_in_a_race_read_with_the_opponents_checkers_elsewhere_is_a_look(
        seating: Seating) -> None:
    from tests.referee_streams import observe
    from tests.test_referee_etiquette import _set

    before = _near_race()
    script = _set(seating, before)
    script.stable(before)
    dice = script.throw(before, LIGHT, (5, 2))
    play = parse_play(before, "8/3 5/3", 5, 2)
    after = before.result_of(play)
    # Dark's early throw comes while light's dice are down; one of dark's checkers
    # is read on an empty point outside its home board (rendered seed 70): the
    # board shows contact the record cannot have.
    misread_rows = list(after.layout(DARK))
    misread_rows[5] -= 1
    misread_rows[14] += 1
    misread = Position(list(after.layout(LIGHT)), misread_rows, DARK)
    early = throw((4, 1), half_of(seating, DARK), 2)
    script.observation(observe(misread, seating, (*dice, *early)))
    referee, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert not _calls(events)
    assert names(events)[-1] == "warning:look"
    # Light picks up: the play is final; dark's throw was set aside (neither void nor
    # a roll).  Dark plays it, and light's next throw shows the play: it is inferred.
    script.stable(after, early)
    referee, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert not _calls(events)
    assert [(e.event, e.player) for e in events][-1:] == [("play", "light")]
    assert referee.stage is Stage.ROLL and referee.game.turn == DARK
    dark_turn = after.with_turn(DARK)
    dark_play = parse_play(dark_turn, "5/1 5/4", 4, 1)
    played = dark_turn.result_of(dark_play)
    script.stable(played, early)
    script.stable(played)
    script.throw(played, LIGHT, (6, 5), spot=0)
    referee, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert not _calls(events)
    assert [(e.event, e.player, e.data.get("dice")) for e in events
            if e.event in ("roll", "play")][-3:] == [
        ("roll", "dark", [4, 1]), ("play", "dark", [4, 1]), ("roll", "light", [6, 5])]
    assert referee.stage is Stage.PLAY and referee.game.turn == LIGHT


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_an_early_throw_after_a_hit_is_still_void(seating: Seating) -> None:
    script, dark = _to_roll(seating)
    dice = script.throw(dark, DARK, (6, 4), spot=1)
    after = dark.result_of(parse_play(dark, "24/14*", 6, 4))
    script.stable(after, dice)
    script.stable(after, (*dice, *throw((3, 1), half_of(seating, LIGHT), 2)))
    _, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert [(c["event"], c["player"], c["reason"]) for c in _calls(events)] == [
        ("reroll", "light", "early")]


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
@pytest.mark.parametrize("mode", ["strict", "players"])
def test_a_board_that_parts_from_the_record_for_a_moment_and_returns_leaves_no_lenience(
        seating: Seating, mode: str) -> None:
    from tests.referee_streams import shifted

    script, dark = _to_roll(seating)
    # Between plays, two of dark's checkers are missed for a moment (a hand over the
    # cube), then the board is read as the record has it again.
    script.stable(shifted(dark, "8/7"))
    script.stable(dark)
    dice = script.throw(dark, DARK, (6, 2), spot=1)
    wrong = shifted(shifted(dark, "13/6").with_turn(DARK), "13/11")  # the 6 played as 7
    script.stable(wrong, dice)
    script.stable(wrong)
    _, events = run(Referee.new(RefereeSettings(mode=mode)), script.inputs)  # type: ignore[arg-type]
    verdicts = [e for e in events if e.event == "play"]
    assert verdicts[-1].player == "dark" and verdicts[-1].data["legal"] is False
    if mode == "strict":
        assert [(c["event"], c["player"]) for c in _calls(events)] == [
            ("illegal_play", "dark")]
    assert not [e for e in events if e.event == "warning" and e.data.get("resync")]


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_an_early_throw_on_a_board_that_cannot_tell_is_set_aside_and_the_rethrow_taken(
        seating: Seating) -> None:
    from tests.referee_streams import observe

    script, dark = _to_roll(seating)
    dice = script.throw(dark, DARK, (6, 2), spot=1)
    after = dark.result_of(parse_play(dark, "24/18 13/11", 6, 2))
    # Light throws early; the board is read with a light checker moved (misread).
    rows = list(after.layout(LIGHT))
    rows[8] -= 1
    rows[9] += 1
    misread = Position(rows, list(after.layout(DARK)), DARK)
    early = throw((4, 3), half_of(seating, LIGHT), 2)
    script.observation(observe(misread, seating, (*dice, *early)))
    script.stable(after, early)  # dark picks up
    script.stable(after)  # light picks up the early throw
    script.throw(after.with_turn(LIGHT), LIGHT, (5, 1), spot=0)  # and throws again
    referee, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert not _calls(events)
    assert [(e.event, e.player, e.data.get("dice")) for e in events
            if e.event in ("roll", "play")][-3:] == [
        ("roll", "dark", [6, 2]), ("play", "dark", [6, 2]), ("roll", "light", [5, 1])]
    assert referee.stage is Stage.PLAY and referee.game.turn == LIGHT


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_checker_seen_borne_off_then_read_back_on_the_board_is_no_call(
        seating: Seating) -> None:
    from tests.referee_streams import shifted
    from tests.test_referee_etiquette import RACE, _set

    script = _set(seating, RACE)
    dice = script.throw(RACE, LIGHT, (2, 1))
    play = parse_play(RACE, "2/off 1/off", 2, 1)
    after = RACE.result_of(play)
    script.stable(after, dice)  # the tray shows both checkers borne off
    # At the pick-up the tray is read a checker short and the 1-point one too many
    # (rendered seed 93): the board of a die left unplayed, but a misreading.
    script.stable(shifted(RACE, "2/off"))
    _, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert not _calls(events)
    assert names(events)[-1] == "warning:look"
    # Dark throws: the board one checker off the one legal play is that play.
    script.throw(after.with_turn(DARK), DARK, (4, 3), spot=2)
    referee, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert not _calls(events)
    assert [(e.event, e.player) for e in events if e.event in ("roll", "play")][-2:] == [
        ("play", "light"), ("roll", "dark")]
    assert [e for e in events if e.event == "play"][-1].data["move"] == str(play)
    assert referee.stage is Stage.PLAY and referee.game.turn == DARK


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_die_left_unplayed_in_a_bear_off_is_still_called(seating: Seating) -> None:
    from tests.referee_streams import shifted
    from tests.test_referee_etiquette import RACE, _set

    script = _set(seating, RACE)
    dice = script.throw(RACE, LIGHT, (2, 1))
    wrong = shifted(RACE, "2/off")
    script.stable(wrong, dice)
    script.stable(wrong)
    _, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert [(c["event"], c["player"]) for c in _calls(events)] == [("illegal_play", "light")]


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_the_next_games_set_up_and_opening_throw_after_an_unseen_end_are_no_call(
        seating: Seating) -> None:
    script, _ = _to_roll(seating)
    # The game's end was missed; the board is set up again and the opening dice thrown.
    script.stable(Position.initial())
    script.stable(Position.initial(), (die(3, "left", 1), die(1, "right", 0)))
    _, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert not _calls(events)
    assert names(events)[-1] == "warning:look"


@pytest.mark.parametrize("seating", SEATINGS, ids=str)
def test_a_lone_die_of_the_movers_and_one_of_the_opponents_are_no_split_throw(
        seating: Seating) -> None:
    script, dark = _to_roll(seating)
    six = die(6, half_of(seating, DARK), 1)
    script.stable(dark, (six,))
    after = dark.result_of(parse_play(dark, "24/18 13/11", 6, 2))
    script.stable(after, (six,))
    script.stable(after, (six, die(3, half_of(seating, LIGHT), 2)))
    _, events = run(Referee.new(RefereeSettings(mode="strict")), script.inputs)
    assert not _calls(events)
