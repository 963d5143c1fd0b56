"""Camera sources, the factory's specs, and the supervisor's reconnection.

picamera2 runs against ``tests/fake_picamera2.py`` put into ``sys.modules``;
OpenCV against small files written here and against stand-in captures where a
real device would be needed (a hanging read, a frozen driver).  Time is a
fake clock everywhere except the hanging-read test, which waits 50 ms.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import cv2
import numpy as np
import pytest

from tests import fake_picamera2
from vision.camera import (
    BackoffConfig,
    Camera,
    CameraConfig,
    CameraSpec,
    CameraStatus,
    CameraSupervisor,
    EndOfStreamError,
    FolderReplay,
    Frame,
    ImageRepeat,
    OpenCVCamera,
    Picamera2Camera,
    ReplayConfig,
    Still,
    SyntheticCamera,
    VideoReplay,
    build_camera,
    parse_spec,
)
from vision.camera.base import Image, Region
from vision.camera.picamera2_backend import full_view_mode
from vision.camera.synthetic import RendererProducer
from vision.errors import CameraError, CameraLostError, ConfigError

ROOT = Path(__file__).resolve().parent.parent


class FakeClock:
    """A clock that only moves when told to (or when something sleeps on it)."""

    def __init__(self, start: float = 100.0) -> None:
        self.now = start
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(round(seconds, 6))
        self.now += seconds

    def advance(self, seconds: float) -> None:
        self.now += seconds


# -- picamera2 -----------------------------------------------------------------


@pytest.fixture
def fake_pi(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    fake_picamera2.attach(fake_picamera2.Sensor(pixel_array=(1536, 864)))
    monkeypatch.setitem(sys.modules, "picamera2", fake_picamera2)
    yield fake_picamera2
    fake_picamera2.attach()


SMALL = CameraConfig(size=(320, 180))


def red_box(image: Image) -> tuple[int, int, int, int]:
    """x0, y0, x1, y1 of the pixels that are red in BGR order."""
    mask = (image[:, :, 2] > 120) & (image[:, :, 0] < 60) & (image[:, :, 1] < 60)
    ys, xs = np.nonzero(mask)
    assert xs.size, "no red pixels"
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


def region_mean(frame: Frame) -> tuple[float, ...]:
    x0, y0, x1, y1 = red_box(frame.image)
    patch = frame.image[y0 + 2:y1 - 2, x0 + 2:x1 - 2].reshape(-1, 3)
    return tuple(float(v) for v in patch.mean(axis=0))


def test_importing_the_cameras_does_not_import_picamera2() -> None:
    code = ("import sys, vision.camera, vision.camera.factory\n"
            "assert 'picamera2' not in sys.modules, 'imported too early'\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_picamera2_missing_is_a_clear_camera_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # makes the import fail
    with pytest.raises(CameraError, match="picamera2 is not installed"):
        Picamera2Camera(0, SMALL).open()


def test_picamera2_frames_are_bgr_at_the_configured_size(fake_pi: ModuleType) -> None:
    with Picamera2Camera(0, SMALL) as camera:
        frame = camera.read()
        assert camera.model == "imx708"
    assert frame.image.shape == (180, 320, 3)
    assert frame.image.dtype == np.uint8
    # The red square (RED_SQUARE in the fake) seen in OpenCV's BGR order.
    b, g, r = frame.image[90, 80]
    assert r > 150 and b < 60 and g < 60
    config = fake_pi.SENSORS[0].instances[0].camera_config
    assert config["main"] == {"format": "RGB888", "size": (320, 180)}


@pytest.mark.parametrize("new_style", [False, True])
def test_picamera2_locks_exposure_and_white_balance_once_settled(
        fake_pi: ModuleType, new_style: bool) -> None:
    fake_pi.SENSORS[0].new_style_ae = new_style
    with Picamera2Camera(0, SMALL) as camera:
        locked = camera.locked_controls
        means = [region_mean(camera.read()) for _ in range(12)]
    assert locked["AwbEnable"] is False
    assert locked["ColourGains"] == pytest.approx(fake_picamera2.TARGET_GAINS, rel=0.02)
    assert locked["AnalogueGain"] == pytest.approx(fake_picamera2.TARGET_GAIN, rel=0.05)
    assert locked["ExposureTime"] == pytest.approx(fake_picamera2.TARGET_EXPOSURE, rel=0.06)
    if new_style:
        assert locked["ExposureTimeMode"] == 1 and locked["AnalogueGainMode"] == 1
        assert "AeEnable" not in locked
    else:
        assert locked["AeEnable"] is False
    assert len(set(means)) == 1, "colours drifted after locking"


def test_picamera2_without_locking_the_colours_drift(fake_pi: ModuleType) -> None:
    """The control experiment: the fake's light flickers, so unlocked frames differ."""
    config = CameraConfig(size=(320, 180), lock_exposure=False, lock_white_balance=False)
    with Picamera2Camera(0, config) as camera:
        means = [region_mean(camera.read()) for _ in range(12)]
    assert len(set(means)) > 1


def test_picamera2_waits_for_the_auto_algorithms_to_converge(fake_pi: ModuleType) -> None:
    fake_pi.SENSORS[0].settle_frames = 30
    with Picamera2Camera(0, SMALL) as camera:
        instance = fake_pi.SENSORS[0].instances[0]
        assert camera.is_open
    # Locked only after the AGC said so, plus settle_frames converged frames.
    assert instance.frames >= 30 + SMALL.settle_frames - 1


def test_picamera2_settle_time_is_bounded(fake_pi: ModuleType) -> None:
    """AE never converging (a dim room) still opens, locking what it reached."""
    fake_pi.SENSORS[0].settle_frames = 10**9
    clock = FakeClock()

    def ticking() -> float:
        clock.advance(0.1)
        return clock.now

    with Picamera2Camera(0, SMALL, clock=ticking) as camera:
        assert camera.locked_controls["AeEnable"] is False
    assert fake_pi.SENSORS[0].instances[0].frames < 60


def test_picamera2_autofocus_once_then_manual(fake_pi: ModuleType) -> None:
    with Picamera2Camera(0, SMALL) as camera:
        locked = camera.locked_controls
    assert locked["AfMode"] == 0
    assert locked["LensPosition"] == pytest.approx(2.5)


def test_picamera2_without_autofocus_leaves_the_lens_alone(fake_pi: ModuleType) -> None:
    fake_pi.attach(fake_picamera2.Sensor(model="imx477", pixel_array=(2028, 1520),
                                         autofocus=False))
    with Picamera2Camera(0, SMALL) as camera:
        camera.read()
        assert "AfMode" not in camera.locked_controls
    log = fake_pi.SENSORS[0].instances[0].control_log
    assert all("AfMode" not in entry for entry in log)


@pytest.mark.parametrize("pixel_array", [(1536, 864), (1640, 1232)])
def test_picamera2_still_maps_back_onto_the_video_frame(
        fake_pi: ModuleType, pixel_array: tuple[int, int]) -> None:
    """16:9 and 4:3 sensors: a region of the video frame is the same area in the still."""
    fake_pi.SENSORS[0].pixel_array = pixel_array
    with Picamera2Camera(0, SMALL) as camera:
        frame = camera.read()
        before = region_mean(frame)
        x0, y0, x1, y1 = red_box(frame.image)
        region: Region = (x0 - 8.5, y0 - 8.5, x1 - x0 + 16, y1 - y0 + 16)
        still = camera.capture_high_res(region)
        after = region_mean(camera.read())
        instance = fake_pi.SENSORS[0].instances[0]
    assert isinstance(still, Still)
    sx, sy = still.scale
    assert sx > 3 and sy > 3
    assert still.region == (x0 - 9, y0 - 9, x1 - x0 + 17, y1 - y0 + 17)  # rounded outwards
    # The red square found in the still, mapped back to video pixels.
    bx0, by0, bx1, by1 = red_box(still.image)
    rx, ry = still.region[0], still.region[1]
    assert rx + bx0 / sx == pytest.approx(x0, abs=1.0)
    assert ry + by0 / sy == pytest.approx(y0, abs=1.0)
    assert rx + bx1 / sx == pytest.approx(x1, abs=1.0)
    assert ry + by1 / sy == pytest.approx(y1, abs=1.0)
    # Switching modes did not unlock exposure: the colours after equal those before.
    assert after == before
    assert instance.control_log[-1] == camera.locked_controls


def test_picamera2_whole_view_still(fake_pi: ModuleType) -> None:
    config = CameraConfig(size=(320, 180), still_size=(960, 540))
    with Picamera2Camera(0, config) as camera:
        camera.read()
        still = camera.capture_high_res()
    assert still is not None
    assert still.image.shape == (540, 960, 3)
    assert still.region == (0, 0, 320, 180)
    assert still.scale == (3.0, 3.0)


def test_picamera2_unplugged_is_lost_and_comes_back(fake_pi: ModuleType) -> None:
    camera = Picamera2Camera(0, SMALL)
    camera.open()
    assert camera.read().seq == 0
    fake_pi.unplug()
    with pytest.raises(CameraLostError, match="no frame for 2 s"):
        camera.read()
    camera.close()
    with pytest.raises(CameraError, match="no such camera"):
        camera.open()
    fake_pi.replug()
    camera.open()
    assert camera.read().seq == 0
    camera.close()
    assert fake_pi.SENSORS[0].opened == 2


def test_picamera2_crash_is_lost(fake_pi: ModuleType) -> None:
    with Picamera2Camera(0, SMALL) as camera:
        camera.read()
        fake_pi.crash()
        with pytest.raises(CameraLostError, match="capture failed"):
            camera.read()
        with pytest.raises(CameraLostError):
            camera.capture_high_res()


def test_picamera2_frozen_stream_is_lost(fake_pi: ModuleType) -> None:
    clock = FakeClock()
    with Picamera2Camera(0, SMALL, clock=clock) as camera:
        camera.read()
        fake_pi.SENSORS[0].frozen = True
        for _ in range(2):
            clock.advance(2.0)
            camera.read()  # the same picture for 2, then 4 s: still tolerated
        clock.advance(2.0)
        with pytest.raises(CameraLostError, match="frozen"):
            camera.read()


def test_picamera2_close_does_not_hang_on_a_dead_pipeline(fake_pi: ModuleType) -> None:
    camera = Picamera2Camera(0, CameraConfig(size=(320, 180), read_timeout=0.05))
    camera.open()
    gate = threading.Event()
    fake_pi.SENSORS[0].stop_blocks = gate
    started = time.monotonic()
    camera.close()
    assert time.monotonic() - started < 1.0
    assert not camera.is_open
    instance = fake_pi.SENSORS[0].instances[0]
    assert not instance.closed                    # still stuck in stop()
    gate.set()
    for _ in range(200):
        if instance.closed:
            break
        time.sleep(0.01)
    assert instance.closed, "the camera was never closed once stop() returned"


def test_picamera2_missing_camera_number(fake_pi: ModuleType) -> None:
    with pytest.raises(CameraError, match=r"picamera2:1: no such camera .*imx708"):
        Picamera2Camera(1, SMALL).open()


def test_picamera2_busy_camera_is_a_camera_error(fake_pi: ModuleType) -> None:
    with Picamera2Camera(0, SMALL), pytest.raises(CameraError, match="busy"):
        Picamera2Camera(0, SMALL).open()


# Sensor modes as picamera2 lists them on a Pi (size, fps, crop_limits), from the
# modes libcamera reports for each module: Camera Module 2 (imx219), Camera
# Module 3 (imx708) and the HQ camera (imx477).
IMX219_MODES = [
    {"size": (640, 480), "fps": 206.0, "crop_limits": (1000, 752, 1280, 960), "bit_depth": 10},
    {"size": (1640, 1232), "fps": 41.0, "crop_limits": (0, 0, 3280, 2464), "bit_depth": 10},
    {"size": (1920, 1080), "fps": 47.0, "crop_limits": (680, 692, 1920, 1080), "bit_depth": 10},
    {"size": (3280, 2464), "fps": 21.0, "crop_limits": (0, 0, 3280, 2464), "bit_depth": 10},
]
IMX708_MODES = [
    {"size": (1536, 864), "fps": 120.0, "crop_limits": (768, 432, 3072, 1728), "bit_depth": 10},
    {"size": (2304, 1296), "fps": 56.0, "crop_limits": (0, 0, 4608, 2592), "bit_depth": 10},
    {"size": (4608, 2592), "fps": 14.0, "crop_limits": (0, 0, 4608, 2592), "bit_depth": 10},
]
IMX477_MODES = [
    {"size": (1332, 990), "fps": 120.0, "crop_limits": (696, 528, 2664, 1980), "bit_depth": 10},
    {"size": (2028, 1080), "fps": 50.0, "crop_limits": (0, 440, 4056, 2160), "bit_depth": 12},
    {"size": (2028, 1520), "fps": 40.0, "crop_limits": (0, 0, 4056, 3040), "bit_depth": 12},
    {"size": (4056, 3040), "fps": 10.0, "crop_limits": (0, 0, 4056, 3040), "bit_depth": 12},
]


@pytest.mark.parametrize(("modes", "pixels", "expected"), [
    (IMX219_MODES, (3280, 2464), (1640, 1232)),
    (IMX708_MODES, (4608, 2592), (2304, 1296)),
    (IMX477_MODES, (4056, 3040), (2028, 1080)),
])
def test_the_video_runs_in_a_binned_mode_over_the_whole_sensor_width(
        modes: list[dict[str, Any]], pixels: tuple[int, int], expected: tuple[int, int]) -> None:
    mode = full_view_mode(modes, pixels, (1280, 720), 30.0)
    assert mode is not None
    assert tuple(mode["size"]) == expected


def test_no_full_width_mode_fast_enough_leaves_the_choice_to_libcamera() -> None:
    assert full_view_mode(IMX708_MODES, (4608, 2592), (1280, 720), 60.0) is None
    assert full_view_mode(IMX708_MODES, None, (1280, 720), 30.0) is None
    # Nothing covers the size: the largest full-width mode fast enough.
    mode = full_view_mode(IMX219_MODES, (3280, 2464), (3000, 2000), 30.0)
    assert mode is not None and tuple(mode["size"]) == (1640, 1232)


def test_picamera2_video_sees_the_whole_sensor_width(fake_pi: ModuleType) -> None:
    # The fake, like libcamera, would pick the small mode cropped from the
    # middle of the sensor; the backend asks for the binned full-width one.
    with Picamera2Camera(0, SMALL) as camera:
        camera.read()
        assert camera.sensor_mode == (768, 432)
    cam = fake_pi.SENSORS[0].instances[0]
    assert cam.camera_config["sensor"] == {"output_size": (768, 432), "bit_depth": 10}
    x, _, width, _ = cam.crop
    assert (x, width) == (0, 1536)


def test_picamera2_without_a_full_width_mode_still_runs(fake_pi: ModuleType,
                                                        caplog: pytest.LogCaptureFixture) -> None:
    fake_pi.SENSORS[0].modes = [
        {"size": (512, 288), "fps": 120.0, "crop_limits": (256, 144, 1024, 576), "bit_depth": 10}]
    with caplog.at_level("WARNING"), Picamera2Camera(0, SMALL) as camera:
        frame = camera.read()
        assert camera.sensor_mode is None
    assert frame.image.shape == (180, 320, 3)
    assert "field of view may be cropped" in caplog.text


def test_picamera2_read_before_open() -> None:
    with pytest.raises(CameraError, match="not open"):
        Picamera2Camera(0).read()


# -- OpenCV ----------------------------------------------------------------------


COLOURS = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (200, 200, 200), (30, 30, 30)]


def write_video(path: Path, fps: float = 10.0) -> Path:
    """Five 64x48 frames of plain BGR colours, MJPG in AVI (works without a display)."""
    fourcc = cv2.VideoWriter.fourcc(*"MJPG")
    writer = cv2.VideoWriter(str(path), fourcc, fps, (64, 48))
    assert writer.isOpened(), "MJPG/AVI writer unavailable"
    for colour in COLOURS:
        writer.write(np.full((48, 64, 3), colour, dtype=np.uint8))
    writer.release()
    return path


def dominant(image: Image) -> int:
    """Index of the strongest BGR channel at the centre."""
    return int(np.argmax(image[24, 32].astype(int)))


def test_opencv_camera_reads_a_video_file(tmp_path: Path) -> None:
    video = write_video(tmp_path / "clip.avi")
    clock = FakeClock()
    with OpenCVCamera(str(video), clock=clock) as camera:
        frames = []
        for _ in COLOURS:
            clock.advance(0.1)
            frames.append(camera.read())
        # A live camera that stops delivering is lost (the file has ended).
        with pytest.raises(CameraLostError, match="3 reads failed"):
            camera.read()
    assert [f.seq for f in frames] == [0, 1, 2, 3, 4]
    assert [f.t for f in frames] == pytest.approx([100.1, 100.2, 100.3, 100.4, 100.5])
    assert [dominant(f.image) for f in frames[:3]] == [0, 1, 2]
    assert frames[0].image.shape == (48, 64, 3)


@pytest.mark.parametrize("source", ["/dev/video99", 99])
def test_opencv_missing_device_is_a_camera_error(source: int | str) -> None:
    camera = OpenCVCamera(source)
    with pytest.raises(CameraError, match="cannot open"):
        camera.open()
    assert not camera.is_open
    camera.close()  # harmless


class StandInCapture:
    """A cv2.VideoCapture stand-in: ``frames`` are returned in turn (None = a failed read)."""

    def __init__(self, frames: list[Image | None], block: threading.Event | None = None,
                 repeat_last: bool = False) -> None:
        self.frames = list(frames)
        self.block = block
        self.repeat_last = repeat_last
        self.props: dict[int, float] = {}
        self.released = threading.Event()

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return True

    def read(self) -> tuple[bool, Any]:
        if self.block is not None:
            self.block.wait(5)
        if not self.frames:
            return False, None
        frame = self.frames[0] if self.repeat_last and len(self.frames) == 1 else (
            self.frames.pop(0))
        return frame is not None, frame

    def set(self, prop: int, value: float) -> bool:
        self.props[prop] = value
        return True

    def get(self, prop: int) -> float:
        return self.props.get(prop, 0.0)

    def release(self) -> None:
        self.released.set()


def stand_in(capture: StandInCapture) -> Any:
    return lambda source, config: capture


def grey(value: int) -> Image:
    return np.full((48, 64), value, dtype=np.uint8)


def test_opencv_requests_the_size_and_a_short_buffer() -> None:
    capture = StandInCapture([grey(1)])
    with OpenCVCamera(0, SMALL, capture_factory=stand_in(capture)):
        pass
    assert capture.props[cv2.CAP_PROP_FRAME_WIDTH] == 320
    assert capture.props[cv2.CAP_PROP_FRAME_HEIGHT] == 180
    assert capture.props[cv2.CAP_PROP_BUFFERSIZE] == 1
    assert capture.released.is_set()


def test_opencv_grey_frames_become_bgr() -> None:
    capture = StandInCapture([grey(77)])
    with OpenCVCamera(0, capture_factory=stand_in(capture)) as camera:
        image = camera.read().image
    assert image.shape == (48, 64, 3)
    assert (image == 77).all()


def test_opencv_tolerates_a_failed_read_then_gives_up() -> None:
    capture = StandInCapture([None, grey(1), None, None, None])
    with OpenCVCamera(0, capture_factory=stand_in(capture)) as camera:
        assert camera.read().seq == 0
        with pytest.raises(CameraLostError, match="3 reads failed in a row"):
            camera.read()


def test_opencv_hanging_read_is_lost_within_the_timeout() -> None:
    gate = threading.Event()
    capture = StandInCapture([grey(1)], block=gate)
    camera = OpenCVCamera(0, CameraConfig(read_timeout=0.05),
                          capture_factory=stand_in(capture))
    camera.open()
    started = time.monotonic()
    with pytest.raises(CameraLostError, match=r"no frame for 0\.05 s"):
        camera.read()
    assert time.monotonic() - started < 1.0
    assert not camera.is_open
    assert not capture.released.is_set()  # still stuck in the driver
    gate.set()
    assert capture.released.wait(2), "the abandoned capture was never released"


def test_opencv_frozen_stream_is_lost() -> None:
    clock = FakeClock()
    capture = StandInCapture([grey(5)], repeat_last=True)
    with OpenCVCamera(0, CameraConfig(frozen_after=1.0), clock=clock,
                      capture_factory=stand_in(capture)) as camera:
        camera.read()
        clock.advance(0.9)
        camera.read()
        clock.advance(0.2)
        with pytest.raises(CameraLostError, match="frozen"):
            camera.read()


def test_opencv_hides_stream_passwords() -> None:
    camera = OpenCVCamera("rtsp://admin:secret@10.0.0.5:554/stream1")
    assert camera.name == "rtsp://admin:***@10.0.0.5:554/stream1"
    assert "secret" not in repr(camera)


# -- replays -----------------------------------------------------------------------


def write_folder(folder: Path) -> Path:
    folder.mkdir()
    for name, value in (("frame10.png", 30), ("frame2.png", 20), ("frame1.png", 10)):
        assert cv2.imwrite(str(folder / name), np.full((12, 16, 3), value, dtype=np.uint8))
    (folder / "notes.txt").write_text("not an image")
    return folder


def test_folder_replay_fast_in_natural_order(tmp_path: Path) -> None:
    clock = FakeClock()
    replay = FolderReplay(write_folder(tmp_path / "frames"), ReplayConfig(pace="fast"),
                          clock=clock, sleep=clock.sleep)
    with replay:
        frames = [replay.read() for _ in range(3)]
        with pytest.raises(EndOfStreamError, match="after 3 frames"):
            replay.read()
    assert [int(f.image[0, 0, 0]) for f in frames] == [10, 20, 30]
    assert [f.t for f in frames] == pytest.approx([0.0, 0.1, 0.2])
    assert clock.sleeps == []
    assert [p.name for p in replay.files] == ["frame1.png", "frame2.png", "frame10.png"]


def test_folder_replay_real_time_waits_for_each_frame(tmp_path: Path) -> None:
    clock = FakeClock()
    replay = FolderReplay(write_folder(tmp_path / "frames"), ReplayConfig(fps=5.0),
                          clock=clock, sleep=clock.sleep)
    with replay:
        replay.read()           # t 0: anchors the timeline, no wait
        clock.advance(0.05)     # the consumer took 50 ms
        replay.read()           # t 0.2 is due 150 ms later
        clock.advance(0.5)      # a slow consumer
        late = replay.read()    # t 0.4 is overdue: no wait, no skipping
    assert clock.sleeps == [pytest.approx(0.15)]
    assert late.t == pytest.approx(0.4)
    assert int(late.image[0, 0, 0]) == 30


def test_folder_replay_loops_with_a_continuing_timeline(tmp_path: Path) -> None:
    replay = FolderReplay(write_folder(tmp_path / "frames"),
                          ReplayConfig(pace="fast", loop=True))
    with replay:
        frames = [replay.read() for _ in range(7)]
    assert [int(f.image[0, 0, 0]) for f in frames] == [10, 20, 30, 10, 20, 30, 10]
    assert [f.t for f in frames] == pytest.approx([0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
    assert [f.seq for f in frames] == list(range(7))


def test_video_replay_uses_the_file_frame_rate(tmp_path: Path) -> None:
    video = write_video(tmp_path / "clip.avi", fps=25.0)
    replay = VideoReplay(video, ReplayConfig(pace="fast", loop=True))
    with replay:
        frames = [replay.read() for _ in range(7)]
    assert replay.fps == pytest.approx(25.0)
    assert [f.t for f in frames] == pytest.approx([i * 0.04 for i in range(7)])
    coloured = [frames[i] for i in (0, 1, 2, 5, 6)]  # frames 5 and 6: the loop's start
    assert [dominant(f.image) for f in coloured] == [0, 1, 2, 0, 1]


def test_video_replay_ends(tmp_path: Path) -> None:
    clock = FakeClock()
    replay = VideoReplay(write_video(tmp_path / "clip.avi"), clock=clock, sleep=clock.sleep)
    with replay:
        for _ in COLOURS:
            replay.read()
        with pytest.raises(EndOfStreamError):
            replay.read()
    assert clock.sleeps == [pytest.approx(0.1)] * 4


def test_image_repeat(tmp_path: Path) -> None:
    path = tmp_path / "board.png"
    cv2.imwrite(str(path), np.full((12, 16, 3), 99, dtype=np.uint8))
    with ImageRepeat(path, ReplayConfig(pace="fast", fps=4.0)) as camera:
        first = camera.read()
        first.image[:] = 0  # a stage drawing on its frame must not change the next one
        frames = [camera.read() for _ in range(3)]
    assert all((f.image == 99).all() for f in frames)
    assert [f.t for f in frames] == pytest.approx([0.25, 0.5, 0.75])


@pytest.mark.parametrize(("make", "message"), [
    (lambda p: VideoReplay(p / "none.mp4"), "no such video file"),
    (lambda p: FolderReplay(p / "none"), "no such folder"),
    (FolderReplay, "no images"),
    (lambda p: ImageRepeat(p / "none.png"), "no such image file"),
])
def test_replay_sources_that_are_not_there(tmp_path: Path, make: Any, message: str) -> None:
    with pytest.raises(CameraError, match=message):
        make(tmp_path).open()


def test_unreadable_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"not a png")
    with pytest.raises(CameraError, match=r"cannot read image bad\.png"):
        ImageRepeat(bad).open()
    video = tmp_path / "bad.mp4"
    video.write_bytes(b"not a video")
    with pytest.raises(CameraError, match="cannot decode"):
        VideoReplay(video).open()


def test_replay_config_checks() -> None:
    with pytest.raises(ConfigError, match="pace"):
        ReplayConfig(pace="slow")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="fps"):
        ReplayConfig(fps=0)


# -- synthetic -----------------------------------------------------------------------


def counter_frames(seq: int, t: float) -> Image:
    return np.full((6, 8, 3), seq % 256, dtype=np.uint8)


def test_synthetic_camera_with_any_producer() -> None:
    clock = FakeClock()
    camera = SyntheticCamera(counter_frames, fps=20.0, pace="realtime", clock=clock,
                             sleep=clock.sleep)
    with pytest.raises(CameraError, match="not open"):
        camera.read()
    with camera:
        frames = [camera.read() for _ in range(3)]
    assert [int(f.image[0, 0, 0]) for f in frames] == [0, 1, 2]
    assert [f.t for f in frames] == pytest.approx([0.0, 0.05, 0.1])
    assert clock.sleeps == [pytest.approx(0.05)] * 2


def test_synthetic_producer_can_play_an_unplugged_camera() -> None:
    def flaky(seq: int, t: float) -> Image:
        if seq == 2:
            raise CameraLostError("synthetic: unplugged")
        return counter_frames(seq, t)

    with SyntheticCamera(flaky) as camera:
        camera.read()
        camera.read()
        with pytest.raises(CameraLostError, match="unplugged"):
            camera.read()


def test_synthetic_spec_uses_the_renderer_when_present() -> None:
    camera_config = CameraConfig(size=(320, 240))
    try:
        synth = importlib.import_module("vision.synth")
    except ImportError:
        synth = None
    if synth is None or not hasattr(synth, "render") or not hasattr(synth, "random_scene"):
        with pytest.raises(CameraError, match=r"vision\.synth"):
            build_camera("synthetic:seed=3", camera_config)
        return
    spec = "synthetic:seed=3,scene=0.2"
    with build_camera(spec, camera_config, ReplayConfig(pace="fast")) as camera:
        assert isinstance(camera, SyntheticCamera)
        producer = camera.producer
        assert isinstance(producer, RendererProducer)
        frames = [camera.read() for _ in range(3)]
        truth = producer.truth  # of the latest frame
    with build_camera(spec, camera_config, ReplayConfig(pace="fast")) as again:
        repeat = again.read()
    assert frames[0].image.shape == (240, 320, 3)
    assert np.array_equal(frames[0].image, frames[1].image)     # one scene for 0.2 s
    assert not np.array_equal(frames[1].image, frames[2].image)  # then the next
    assert np.array_equal(frames[0].image, repeat.image)         # the seed decides
    assert truth is not None and truth.observation.board_found


# -- factory -------------------------------------------------------------------------


@pytest.mark.parametrize(("spec", "expected"), [
    ("picamera2", CameraSpec("picamera2", 0)),
    ("picamera2:1", CameraSpec("picamera2", 1)),
    (" 0 ", CameraSpec("opencv", 0)),
    ("12", CameraSpec("opencv", 12)),
    ("/dev/video0", CameraSpec("opencv", "/dev/video0")),
    ("rtsp://cam.local:554/live", CameraSpec("opencv", "rtsp://cam.local:554/live")),
    ("https://cam.local/mjpg", CameraSpec("opencv", "https://cam.local/mjpg")),
    ("file:video.mp4", CameraSpec("video", "video.mp4")),
    ("file:/games/with:colon.mkv", CameraSpec("video", "/games/with:colon.mkv")),
    ("dir:frames/", CameraSpec("folder", "frames/")),
    ("image:board.jpg", CameraSpec("image", "board.jpg")),
    ("synthetic", CameraSpec("synthetic")),
    ("synthetic:seed=3", CameraSpec("synthetic", seed=3)),
    ("synthetic:seed=3, fps=15, scene=0.5", CameraSpec("synthetic", None, 3, 15.0, 0.5)),
])
def test_parse_good_specs(spec: str, expected: CameraSpec) -> None:
    assert parse_spec(spec) == expected


@pytest.mark.parametrize(("spec", "message"), [
    ("", "empty camera spec"),
    ("webcam", "unknown camera spec 'webcam': use picamera2"),
    ("video.mp4", "unknown camera spec"),
    ("-1", "0 or more"),
    ("picamera2:x", "picamera2 takes a camera number"),
    ("picamera2:", "picamera2 takes a camera number"),
    ("ftp://host/file", "unsupported URL scheme"),
    ("rtsp://", "no host"),
    ("file:", "a path is needed after 'file:'"),
    ("dir:", "a path is needed"),
    ("synthetic:seed=abc", "seed is a whole number"),
    ("synthetic:colour=red", "synthetic options are seed=..., fps=..., scene=..."),
    ("synthetic:seed", "synthetic options"),
    ("synthetic:seed=1,seed=2", "seed given twice"),
    ("synthetic:fps=0", "fps between 0 and 1000"),
    ("synthetic:scene=-1", "scene is a positive number"),
])
def test_parse_bad_specs(spec: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_spec(spec)


@pytest.mark.parametrize(("spec", "kind", "name"), [
    ("picamera2:1", Picamera2Camera, "picamera2:1"),
    ("0", OpenCVCamera, "opencv:0"),
    ("/dev/video2", OpenCVCamera, "/dev/video2"),
    ("rtsp://u:p@h/s", OpenCVCamera, "rtsp://u:***@h/s"),
    ("file:a.mp4", VideoReplay, "file:a.mp4"),
    ("dir:frames", FolderReplay, "dir:frames"),
    ("image:b.jpg", ImageRepeat, "image:b.jpg"),
])
def test_build_camera_does_not_open(spec: str, kind: type[Camera], name: str) -> None:
    camera = build_camera(spec)
    assert isinstance(camera, kind)
    assert camera.name == name
    assert not camera.is_open
    if kind is not Picamera2Camera:
        assert camera.capture_high_res() is None


def test_build_camera_replays(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "frames")
    with build_camera(f"dir:{folder}", replay=ReplayConfig(pace="fast", fps=2)) as camera:
        assert camera.read().t == 0.0
        assert camera.read().t == 0.5


def test_camera_config_checks() -> None:
    with pytest.raises(ConfigError, match="size"):
        CameraConfig(size=(0, 720))
    with pytest.raises(ConfigError, match="read_timeout"):
        CameraConfig(read_timeout=0)
    with pytest.raises(ConfigError, match="settle_frames"):
        CameraConfig(settle_frames=0)


# -- supervisor -------------------------------------------------------------------------


class FlakyCamera(Camera):
    """A camera that can be unplugged (open fails) or broken (reads fail) at will."""

    def __init__(self) -> None:
        self.present = True
        self.broken = False
        self.opened = False
        self.opens = 0
        self.seq = 0
        self.end = False
        self.still: Still | None = None

    @property
    def name(self) -> str:
        return "flaky"

    @property
    def is_open(self) -> bool:
        return self.opened

    def open(self) -> None:
        if not self.present:
            raise CameraError("flaky: no such device")
        self.opens += 1
        self.opened = True
        self.seq = 0

    def read(self) -> Frame:
        if not self.opened:
            raise CameraError("flaky: not open")
        if self.end:
            raise EndOfStreamError("flaky: the end")
        if self.broken:
            raise CameraLostError("flaky: read failed")
        self.seq += 1
        return Frame(np.zeros((2, 2, 3), np.uint8), float(self.seq), self.seq - 1)

    def capture_high_res(self, region: Region | None = None) -> Still | None:
        if self.broken:
            raise CameraLostError("flaky: still failed")
        return self.still

    def close(self) -> None:
        self.opened = False


def supervised(camera: Camera, **backoff: float) -> tuple[CameraSupervisor, FakeClock,
                                                          list[CameraStatus]]:
    clock = FakeClock()
    changes: list[CameraStatus] = []
    config = BackoffConfig(**{"base": 1.0, "factor": 2.0, "cap": 5.0, "max_block": 60.0,
                              **backoff})
    return (CameraSupervisor(camera, config, clock=clock, sleep=clock.sleep,
                             on_change=changes.append), clock, changes)


def test_supervisor_backs_off_and_recovers() -> None:
    camera = FlakyCamera()
    sup, clock, changes = supervised(camera)
    assert sup.status.state == "reconnecting"
    assert sup.read() is not None
    assert sup.status.ok and sup.status.since == 100.0
    clock.advance(10)
    camera.broken, camera.present = True, False        # unplugged
    assert sup.read() is None
    lost = sup.status
    assert (lost.state, lost.since, lost.next_attempt) == ("lost", 110.0, 111.0)
    assert lost.reason == "flaky: read failed"
    assert not camera.is_open
    for _ in range(5):
        assert sup.read() is None
    assert clock.sleeps == [1.0, 2.0, 4.0, 5.0, 5.0]    # base, x2, x2, capped
    assert sup.status.attempts == 5
    assert sup.status.since == 110.0                   # lost since, kept while retrying
    assert sup.status.reason == "flaky: no such device"
    camera.broken, camera.present = False, True        # plugged back in
    frame = sup.read()
    assert frame is not None and frame.seq == 0
    assert sup.status.ok and sup.status.since == clock.now
    assert camera.opens == 2
    states = [c.state for c in changes]
    assert states[:4] == ["ok", "lost", "reconnecting", "lost"]
    assert states[-2:] == ["reconnecting", "ok"]


def test_supervisor_never_blocks_longer_than_max_block() -> None:
    camera = FlakyCamera()
    sup, clock, _ = supervised(camera, base=2.0, max_block=0.5)
    sup.read()
    camera.broken = True
    sup.read()
    assert sup.read() is None and sup.read() is None
    assert clock.sleeps == [0.5, 0.5]
    assert camera.opens == 1                            # not yet time to try
    camera.broken = False
    assert sup.read() is None                           # 1.5 s: still not due
    assert sup.read() is not None                       # 2.0 s: reconnected
    assert clock.sleeps == [0.5] * 4


def test_supervisor_survives_a_camera_absent_at_start() -> None:
    camera = FlakyCamera()
    camera.present = False
    sup, clock, _ = supervised(camera)
    assert sup.read() is None
    assert sup.status.state == "lost"
    assert sup.status.reason == "flaky: no such device"
    assert sup.status.next_attempt == clock.now + 2.0
    assert "lost for 0 s (flaky: no such device), next attempt in 2 s" in (
        sup.status.describe(clock.now))


def test_supervisor_lets_the_end_of_a_replay_through() -> None:
    camera = FlakyCamera()
    sup, _, _ = supervised(camera)
    sup.read()
    camera.end = True
    with pytest.raises(EndOfStreamError):
        sup.read()


def test_supervisor_stills() -> None:
    camera = FlakyCamera()
    sup, _, _ = supervised(camera)
    assert sup.capture_high_res() is None               # not open yet
    sup.read()
    camera.still = Still(np.zeros((4, 4, 3), np.uint8), (0, 0, 2, 2), (2.0, 2.0), 1.0)
    assert sup.capture_high_res() is camera.still
    camera.broken = True
    assert sup.capture_high_res() is None
    assert sup.status.state == "lost"


def test_supervisor_reconnects_a_picamera2(fake_pi: ModuleType) -> None:
    sup, _, _ = supervised(Picamera2Camera(0, SMALL), base=0.5)
    assert sup.read() is not None
    fake_pi.unplug()
    assert sup.read() is None
    assert "no frame" in (sup.status.reason or "")
    assert sup.read() is None                           # still unplugged
    assert "no such camera" in (sup.status.reason or "")
    fake_pi.replug()
    frame = sup.read()
    assert frame is not None and frame.image.shape == (180, 320, 3)
    assert sup.status.ok
    sup.close()
    assert all(instance.closed for instance in fake_pi.SENSORS[0].instances)


def test_backoff_config_checks() -> None:
    assert BackoffConfig().delay(0) == 0.5
    assert BackoffConfig().delay(100) == 30.0
    with pytest.raises(ConfigError, match="cap"):
        BackoffConfig(base=2.0, cap=1.0)
    with pytest.raises(ConfigError, match="factor"):
        BackoffConfig(factor=0.5)
