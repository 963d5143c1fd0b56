"""The vision subcommands: ``read-image``, ``read-dice``, ``watch``,
``markers`` and ``calibrate``.  Output formats are contracts other tools use."""

import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from vision.errors import EndOfStreamError, VisionError

if TYPE_CHECKING:
    from vision.config import VisionConfig


class VisionInputError(click.ClickException):
    """Unusable input (image, corners, config, calibration file): exit status 2."""

    exit_code = 2


def _config(path: str | None) -> "VisionConfig":
    from vision.config import load_vision_config

    try:
        return load_vision_config(path)
    except VisionError as exc:
        raise VisionInputError(str(exc)) from exc


def read_image(image: str, corners: str | None, config_path: str | None,
               calibration_path: str | None) -> None:
    """Print the schema-1 observation of one image."""
    from vision.calibration import calibrate, load_calibration
    from vision.image_io import load_image
    from vision.pipeline import BoardReader

    config = _config(config_path)
    try:
        frame = load_image(image)
        calibration = None
        if corners is not None:
            calibration = calibrate(frame, config.calibration, corners)
        elif calibration_path is not None:
            calibration = load_calibration(calibration_path)
        observation = BoardReader(config, calibration).read(frame)
    except VisionError as exc:
        raise VisionInputError(str(exc)) from exc
    click.echo(json.dumps(observation.to_json()))


def read_dice_command(image: str) -> None:
    """Print every die in a photo: ``{"dice": [{"value", "center", "box", "flat"}]}``."""
    from vision.dice.reader import read_dice

    try:
        dice = read_dice(image)
    except VisionError as exc:
        raise VisionInputError(str(exc)) from exc
    out = []
    for die in dice:
        box = die.box or (die.center[0], die.center[1], 0.0, 0.0)
        out.append({"value": die.value,
                    "center": [round(die.center[0], 1), round(die.center[1], 1)],
                    "box": [round(v, 1) for v in box], "flat": die.flat})
    click.echo(json.dumps({"dice": out}))


def markers(out: str) -> None:
    """Write the printable marker sheet (PDF or SVG by the file's suffix)."""
    from vision.calibration import write_marker_sheet

    try:
        path = write_marker_sheet(out)
    except (VisionError, OSError) as exc:
        raise VisionInputError(str(exc)) from exc
    click.echo(f"marker sheet written to {path}")


def calibrate_command(image: str, corners: str | None, save: str | None,
                      config_path: str | None) -> None:
    """Find the field in one image; print the corners and the method; save them."""
    from vision.calibration import calibrate, save_calibration
    from vision.errors import BoardNotFoundError
    from vision.image_io import load_image

    config = _config(config_path)
    try:
        frame = load_image(image)
        calibration = calibrate(frame, config.calibration, corners)
    except BoardNotFoundError as exc:
        click.echo(str(exc), err=True)
        sys.exit(1)
    except VisionError as exc:
        raise VisionInputError(str(exc)) from exc
    click.echo(json.dumps({"method": calibration.method,
                           "corners": calibration.corners.to_json()}))
    if save is not None:
        try:
            save_calibration(calibration, save)
        except (VisionError, OSError) as exc:
            raise VisionInputError(f"cannot save to {save}: {exc}") from exc
        click.echo(f"calibration saved to {save}", err=True)


def watch(camera_spec: str, corners: str | None, calibration_path: str | None,
          config_path: str | None, max_frames: int | None, every_frame: bool,
          echo: Callable[[str], None] = click.echo) -> None:
    """Print stabilised observations as JSON lines while the camera runs.

    Status changes (camera lost, hands over the board, settling) go to
    standard error, one line each, so standard output stays pure JSON.
    """
    from vision.calibration import calibrate, load_calibration
    from vision.camera.factory import build_camera
    from vision.camera.supervisor import CameraStatus, CameraSupervisor
    from vision.pipeline import BoardReader
    from vision.stabiliser import Stabiliser, StableState, StatusChange
    from vision.stills import DiceStills

    config = _config(config_path)
    try:
        camera = build_camera(camera_spec, config.camera)
        calibration = load_calibration(calibration_path) if calibration_path else None
    except VisionError as exc:
        raise VisionInputError(str(exc)) from exc

    closing = False

    def report(status: CameraStatus) -> None:
        if closing:
            return
        reason = f": {status.reason}" if status.reason else ""
        click.echo(f"camera {status.camera} {status.state}{reason}", err=True)

    supervisor = CameraSupervisor(camera, on_change=report)
    reader = BoardReader(config, calibration, stream=True)
    stills = DiceStills(reader, supervisor.capture_high_res, config.stills)
    stabiliser = Stabiliser(config.stabiliser)
    frames = 0
    try:
        while max_frames is None or frames < max_frames:
            try:
                frame = supervisor.read()
            except EndOfStreamError:
                break
            if frame is None:
                continue
            frames += 1
            if corners is not None and reader.calibration is None:
                try:
                    reader.calibration = calibrate(frame.image, config.calibration, corners)
                except VisionError as exc:
                    raise VisionInputError(str(exc)) from exc
            observation = stills.read(frame.image, t=frame.t)
            if every_frame:
                echo(json.dumps(observation.to_json()))
                continue
            for event in stabiliser.push(observation):
                if isinstance(event, StableState):
                    echo(json.dumps(event.observation.to_json()))
                elif isinstance(event, StatusChange):
                    click.echo(f"board {event.condition} since {event.since:.2f}", err=True)
            sys.stdout.flush()
    except KeyboardInterrupt:
        pass
    finally:
        closing = True
        supervisor.close()


