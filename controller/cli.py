"""The ``bgref`` command line.

Subcommands print for people by default and for programs with ``--json``;
formats named in the issues are contracts other tools rely on.
"""

import json
import sys
from typing import TextIO

import click

from controller import __version__
from controller.rules import Player, Position, RulesError


class InputError(click.ClickException):
    """Bad input on the command line: exit status 2, like a usage error,
    so it is never mistaken for a verdict (``bgref judge`` exits 1 for an
    illegal play)."""

    exit_code = 2


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="bgref")
def main() -> None:
    """bgref: an automated backgammon referee for real boards."""


def _mover_ids(position: Position, die1: int, die2: int) -> list[str]:
    """Resulting Position IDs, still from the point of view of the mover."""
    mover = position.turn
    return sorted(p.with_turn(mover).position_id() for p in position.legal_positions(die1, die2))


def _batch(stream: TextIO, out: TextIO) -> None:
    for line in stream:
        text = line.strip()
        if not text:
            continue
        try:
            fields = text.split()
            if len(fields) != 3:
                raise ValueError(f"expected 'POSITION_ID D1 D2', got {text!r}")
            try:
                die1, die2 = int(fields[1]), int(fields[2])
            except ValueError:
                raise ValueError(
                    f"dice must be numbers 1-6, got {fields[1]!r} {fields[2]!r}"
                ) from None
            position = Position.from_position_id(fields[0], Player.ZERO)
            reply: dict[str, object] = {"positions": _mover_ids(position, die1, die2)}
        except (RulesError, ValueError) as exc:
            reply = {"error": str(exc)}
        out.write(json.dumps(reply) + "\n")
        out.flush()


@main.command()
@click.argument("position_id", required=False)
@click.argument("die1", type=int, required=False)
@click.argument("die2", type=int, required=False)
@click.option("--json", "as_json", is_flag=True,
              help="Print {\"moves\": [...], \"positions\": [...]}.")
@click.option("--batch", is_flag=True,
              help="Read 'POSITION_ID D1 D2' lines on stdin; write one JSON line each.")
def moves(position_id: str | None, die1: int | None, die2: int | None,
          as_json: bool, batch: bool) -> None:
    """List the legal plays of a roll in a position.

    POSITION_ID is a GNU Backgammon Position ID with the player on roll
    second (as gnubg writes it).  Resulting positions are given from the
    point of view of the player who moved.  A roll that cannot be played
    prints no plays.
    """
    if batch:
        if position_id is not None:
            raise click.UsageError("--batch reads its queries from standard input")
        _batch(sys.stdin, sys.stdout)
        return
    if position_id is None or die1 is None or die2 is None:
        raise click.UsageError("give POSITION_ID D1 D2, or --batch")
    try:
        position = Position.from_position_id(position_id, Player.ZERO)
        plays = [str(p) for p in position.legal_plays(die1, die2) if p.moves]
        ids = _mover_ids(position, die1, die2)
    except RulesError as exc:
        raise InputError(str(exc)) from exc
    plays.sort()
    if as_json:
        click.echo(json.dumps({"moves": plays, "positions": ids}))
        return
    if not plays:
        click.echo(f"no legal play: the {die1}-{die2} is forfeited", err=True)
    for text in plays:
        click.echo(text)


@main.command("judge")
@click.argument("before_id")
@click.argument("after_id")
@click.argument("die1", type=int)
@click.argument("die2", type=int)
@click.option("--json", "as_json", is_flag=True,
              help='Print {"legal", "play", "reasons", "kinds", "closest"} as JSON.')
def judge_command(before_id: str, after_id: str, die1: int, die2: int, as_json: bool) -> None:
    """Judge a play from the boards before and after it.

    Both Position IDs are from the point of view of the player who moves
    (that player second, as `bgref moves` prints resulting positions).
    Exit status 0 for a legal play, 1 for an illegal one.
    """
    from controller.rules import judge

    try:
        before = Position.from_position_id(before_id, Player.ZERO)
        after = Position.from_position_id(after_id, Player.ZERO)
        verdict = judge(before, after, die1, die2)
    except RulesError as exc:
        raise InputError(str(exc)) from exc
    play = None if verdict.play is None else str(verdict.play)
    closest = [str(p) for p in verdict.closest]
    if as_json:
        click.echo(json.dumps({
            "legal": verdict.legal,
            "play": play,
            "reasons": list(verdict.reasons),
            "kinds": [kind.name.lower() for kind in verdict.kinds],
            "closest": closest,
        }))
    elif verdict.legal:
        click.echo(f"legal: {play or '(no legal play: nothing moves)'}")
    else:
        click.echo("illegal: " + "; ".join(verdict.reasons))
        if closest:
            click.echo("closest legal plays: " + ", ".join(closest))
    if not verdict.legal:
        sys.exit(1)


@main.command()
@click.option("--seed", type=int, required=True, help="Seed: the same seed plays the same match.")
@click.option("--match-to", "length", type=click.IntRange(1, 99), required=True,
              help="Match length in points.")
@click.option("--variant", type=click.Choice(["standard", "dutch", "acey-deucey"]),
              default="standard", show_default=True)
@click.option("--export", "export", type=click.Path(dir_okay=False, writable=True),
              help="Write the match file (GNU Backgammon's .mat format) here.")
@click.option("--automatic-doubles", type=click.Choice(["off", "once", "unlimited"]),
              default="off", show_default=True, help="Opening ties double the stake.")
@click.option("--backgammon", "backgammon", type=click.Choice(["3", "2"]), default="3",
              show_default=True, help="What a backgammon counts, times the cube.")
@click.option("--crawford/--no-crawford", default=True, show_default=True,
              help="The Crawford rule.")
@click.option("--acey-deucey-doubles-stake", is_flag=True,
              help="Acey-Deucey: the stake doubles at every acey-deucey.")
@click.option("--verbose", "-v", is_flag=True, help="Print every event.")
def selfplay(
    seed: int, length: int, variant: str, export: str | None, automatic_doubles: str,
    backgammon: str, crawford: bool, acey_deucey_doubles_stake: bool, verbose: bool,
) -> None:
    """Play a whole match between two random-but-legal players.

    The players also double, take, pass and resign now and then.  Prints
    each game's result and the final score; deterministic for a seed.
    """
    from controller.commands.selfplay import play_and_report

    play_and_report(
        seed=seed, length=length, variant=variant, export=export,
        automatic_doubles=automatic_doubles, backgammon=int(backgammon), crawford=crawford,
        acey_deucey_doubles_stake=acey_deucey_doubles_stake, verbose=verbose, echo=click.echo,
    )


@main.command("read-image")
@click.argument("image", type=click.Path(dir_okay=False))
@click.option("--corners", help='The field\'s corners in pixels: "x,y x,y x,y x,y" '
              "(top-left, top-right, bottom-right, bottom-left).")
@click.option("--calibration", "calibration", type=click.Path(dir_okay=False),
              help="A saved calibration (bgref calibrate --save) instead of finding the field.")
@click.option("--config", "config", type=click.Path(dir_okay=False),
              help="Vision settings (JSON); defaults otherwise.")
def read_image_command(image: str, corners: str | None, calibration: str | None,
                       config: str | None) -> None:
    """Read checkers, bar, dice, cube and hands in one image; print schema-1 JSON.

    Without --corners or --calibration the field is found by its markers,
    else automatically; "board_found": false when it cannot be.
    """
    from controller.commands.vision_cmds import read_image

    read_image(image, corners, config, calibration)


@main.command("read-dice")
@click.argument("image", type=click.Path(dir_okay=False))
def read_dice(image: str) -> None:
    """Find and read every die in any photo (no board needed); print JSON."""
    from controller.commands.vision_cmds import read_dice_command

    read_dice_command(image)


@main.command("watch")
@click.option("--camera", "camera", default="synthetic", show_default=True,
              help="picamera2[:N], a USB index, /dev/videoN, rtsp://..., file:VIDEO, "
                   "dir:FRAMES, image:FILE or synthetic[:seed=S].")
@click.option("--corners", help='The field\'s corners in pixels: "x,y x,y x,y x,y".')
@click.option("--calibration", "calibration", type=click.Path(dir_okay=False),
              help="A saved calibration file.")
@click.option("--config", "config", type=click.Path(dir_okay=False), help="Vision settings.")
@click.option("--max-frames", type=click.IntRange(min=1), help="Stop after this many frames.")
@click.option("--every-frame", is_flag=True,
              help="Print every frame's observation, not only stable states.")
def watch_command(camera: str, corners: str | None, calibration: str | None,
                  config: str | None, max_frames: int | None, every_frame: bool) -> None:
    """Print stabilised board observations as JSON lines (status on stderr)."""
    from controller.commands.vision_cmds import watch

    watch(camera, corners, calibration, config, max_frames, every_frame)


@main.command("markers")
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False),
              help="FILE.pdf or FILE.svg")
def markers_command(out: str) -> None:
    """Write the printable ArUco marker sheet for calibrating a board."""
    from controller.commands.vision_cmds import markers

    markers(out)


@main.command("calibrate")
@click.argument("image", type=click.Path(dir_okay=False))
@click.option("--corners", help='The field\'s corners in pixels: "x,y x,y x,y x,y".')
@click.option("--save", type=click.Path(dir_okay=False), help="Save the calibration here.")
@click.option("--config", "config", type=click.Path(dir_okay=False), help="Vision settings.")
def calibrate_cmd(image: str, corners: str | None, save: str | None, config: str | None) -> None:
    """Find the playing field in an image (markers, else automatic); exit 1 if not found."""
    from controller.commands.vision_cmds import calibrate_command

    calibrate_command(image, corners, save, config)


@main.command()
@click.option("--seed", type=int, default=None, help="Seed for a repeatable match (default: "
              "a random one, printed).")
@click.option("--fast", is_flag=True, help="Frames as fast as they render (tests, CI), not in "
              "real time.")
@click.option("--match-length", type=click.IntRange(0, 25), default=3, show_default=True,
              help="Points to win; 0 plays one money game.")
@click.option("--max-turns", type=click.IntRange(min=1), default=None,
              help="Short games: after N turns the player on roll resigns.")
@click.option("--mode", type=click.Choice(["players", "strict"]), default="players",
              show_default=True, help="How illegal plays are called.")
@click.option("--no-kiosk", is_flag=True, help="Do not serve the kiosk page.")
@click.option("--port", type=click.IntRange(0, 65535), default=8080, show_default=True,
              help="The kiosk page's port on 127.0.0.1 (0: any free port).")
@click.option("--json", "json_lines", is_flag=True, help="One JSON object a line.")
@click.option("--journal", type=click.Path(dir_okay=False), default=None,
              help="Keep the journal in this new file (default: a temporary directory).")
def demo(seed: int | None, fast: bool, match_length: int, max_turns: int | None, mode: str,
         no_kiosk: bool, port: int, json_lines: bool, journal: str | None) -> None:
    """The whole referee on a synthetic table: camera, vision, referee, lights, scoreboard,
    kiosk page."""
    from controller.demo import DemoOptions
    from controller.demo.command import random_seed, run

    run(DemoOptions(seed=random_seed() if seed is None else seed, fast=fast,
                    match_length=match_length, max_turns=max_turns,
                    mode="strict" if mode == "strict" else "players", kiosk=not no_kiosk,
                    port=port, json_lines=json_lines, journal=journal))


@main.command("referee")
@click.option("--replay", "replay", metavar="FILE.jsonl",
              help="Replay JSON lines (observations, button presses, corrections; - for "
                   "stdin) and print one JSON line per referee event.")
@click.option("--camera", "camera", metavar="SPEC",
              help="Referee live from a camera (the specs of `bgref watch`).")
@click.option("--config", "config", type=click.Path(dir_okay=False),
              help="Referee settings (JSON); a resumed match keeps its journalled ones.")
@click.option("--journal", "journal", type=click.Path(dir_okay=False),
              help="The SQLite journal; default: in memory for --replay, else "
                   "$STATE_DIRECTORY/journal.sqlite or ~/.local/state/bgref/journal.sqlite.")
@click.option("--move-aside", is_flag=True,
              help="Rename a journal that is not usable (kept as FILE.bad-TIME) and start anew.")
@click.option("--history", is_flag=True, help="Print the journalled events as JSON lines.")
@click.option("--export", "export", type=click.Path(dir_okay=False),
              help="Write the match so far as a .mat file.")
@click.option("--undo", is_flag=True, help="Operator: undo the last play (journalled).")
@click.option("--set-position", "set_position", metavar="XGID",
              help="Operator: set the position by hand (journalled).")
@click.option("--set-score", "set_score", type=(int, int), metavar="LIGHT DARK",
              help="Operator: set the score (journalled).")
@click.option("--corners", help='Camera: the field\'s corners "x,y x,y x,y x,y".')
@click.option("--calibration", type=click.Path(dir_okay=False), help="Camera: a calibration.")
@click.option("--vision-config", type=click.Path(dir_okay=False), help="Camera: vision settings.")
@click.option("--max-frames", type=click.IntRange(min=1), help="Camera: stop after N frames.")
@click.option("--gpio", default="none", envvar="BGREF_GPIO", show_envvar=True,
              metavar="lgpio|mock|none",
              help="Camera: the board's lights and buttons on the Pi's pins (lgpio), on "
                   "gpiozero's mock pins, or none (default).")
@click.option("--pins", type=click.Path(dir_okay=False),
              help="Camera: the pin map (default: $BGREF_PINS, else hardware/pins.toml).")
@click.option("--scoreboard", default="none", envvar="BGREF_SCOREBOARD", show_envvar=True,
              metavar="PORT|none",
              help="Camera: the scoreboard's serial port, e.g. /dev/scoreboard (default none).")
@click.option("--kiosk", default="none", envvar="BGREF_KIOSK", show_envvar=True,
              metavar="[HOST:]PORT|none",
              help="Camera: serve the kiosk page on 127.0.0.1:PORT (the Pi's: 8080; default "
                   "none).")
def referee_command(replay: str | None, camera: str | None, config: str | None,
                    journal: str | None, move_aside: bool, history: bool, export: str | None,
                    undo: bool, set_position: str | None, set_score: tuple[int, int] | None,
                    corners: str | None, calibration: str | None, vision_config: str | None,
                    max_frames: int | None, gpio: str, pins: str | None, scoreboard: str,
                    kiosk: str) -> None:
    """The live referee: observations and buttons in, referee events out (JSON lines).

    Every step is journalled before it is shown; started again on the same
    journal, it resumes where it was.  See docs/referee-journal.md.
    """
    from controller.commands.referee import RefereeOptions, run

    run(RefereeOptions(
        replay=replay, camera=camera, config=config, journal=journal, move_aside=move_aside,
        history=history, export=export, undo=undo, set_position=set_position,
        set_score=set_score, corners=corners, calibration=calibration,
        vision_config=vision_config, max_frames=max_frames, gpio=gpio, pins=pins,
        scoreboard=scoreboard, kiosk=kiosk))


@main.command("scoreboard")
@click.option("--simulate", is_flag=True,
              help="Run the scoreboard's firmware on a pty here and draw its display.")
@click.option("--port", "port", metavar="DEVICE",
              help="A real scoreboard (e.g. /dev/scoreboard): send a test state, report the link.")
@click.option("--link", "link", metavar="PATH",
              help="--simulate: also make PATH a symlink to the pty (like /dev/scoreboard).")
@click.option("--demo", "feed_demo", is_flag=True,
              help="--simulate: feed the board a cycle of sample states from a link here.")
@click.option("--duration", type=click.FloatRange(min=0), metavar="SECONDS",
              help="--simulate: stop after this long (default: until Ctrl-C).")
@click.option("--message", default="TEST", show_default=True,
              help="--port: the message shown with the test state (at most 16 ASCII).")
@click.option("--timeout", type=click.FloatRange(min=0), default=5.0, show_default=True,
              help="--port: seconds to wait for the board's acknowledgement.")
@click.option("--hold", type=click.FloatRange(min=0), default=0.0, show_default=True,
              help="--port: keep the link up this many seconds after the test.")
def scoreboard_command(simulate: bool, port: str | None, link: str | None, feed_demo: bool,
                       duration: float | None, message: str, timeout: float,
                       hold: float) -> None:
    """The serial scoreboard: simulate it (--simulate) or check a real one (--port)."""
    from controller.commands import scoreboard

    if simulate == (port is not None):
        raise click.UsageError("give either --simulate or --port DEVICE")
    if simulate:
        scoreboard.simulate(link, duration, feed_demo)
    else:
        assert port is not None
        scoreboard.check_port(port, message, timeout, hold)


@main.command("install")
@click.option("--dry-run", is_flag=True, help="Print what would be done; change nothing.")
@click.option("--root", "root", default="/", show_default=True,
              type=click.Path(file_okay=False),
              help="Install into this directory instead of / (a staging tree).")
@click.option("--no-kiosk", is_flag=True, help="Leave out the kiosk screen unit.")
@click.option("--bgref", "bgref", type=click.Path(dir_okay=False),
              help="The bgref command the service runs (default: this venv's).")
def install_command(dry_run: bool, root: str, no_kiosk: bool, bgref: str | None) -> None:
    """Install the systemd units, udev rule, accounts and config on a Pi; enable the units."""
    from controller.commands.install import install

    install(root, dry_run, not no_kiosk, bgref, click.echo)


@main.command("gpio")
@click.option("--mock", is_flag=True,
              help="Use gpiozero's mock pins and a simulated clock; print what the pins do.")
@click.option("--pins", "pins", type=click.Path(dir_okay=False),
              help="A pin map (default: BGREF_PINS, else hardware/pins.toml).")
@click.option("--seconds", type=click.FloatRange(min=0),
              help="On the Pi: stop listening to the buttons after this long.")
def gpio_command(mock: bool, pins: str | None, seconds: float | None) -> None:
    """The board's lights and buttons: a demo on mock pins, or a test of the real ones."""
    from controller.commands import gpio

    if mock:
        gpio.run_mock(pins, click.echo)
    else:
        gpio.run_pi(pins, seconds, click.echo)


@main.command("wiring")
@click.option("--out", "out", type=click.Path(dir_okay=False), help="Write the SVG here.")
@click.option("--check", "check", type=click.Path(dir_okay=False),
              help="Exit 1 unless this SVG is what the pin map draws.")
@click.option("--pins", "pins", type=click.Path(dir_okay=False),
              help="A pin map (default: BGREF_PINS, else hardware/pins.toml).")
def wiring_command(out: str | None, check: str | None, pins: str | None) -> None:
    """Draw the wiring diagram (SVG) from the pin map."""
    from controller.commands.wiring import wiring

    if (out is None) == (check is None):
        raise click.UsageError("give either --out FILE or --check FILE")
    wiring(out, check, pins)


if __name__ == "__main__":
    main()
