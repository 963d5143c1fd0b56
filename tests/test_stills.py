"""The dice of a settled throw read from one high-resolution still (vision/stills.py).

The camera here is the synthetic one with the board renderer behind it; the
still is the same scene drawn at twice the size, or, to prove whose reading
is reported, a scene whose dice show other faces in the same places.
"""

from dataclasses import replace

import numpy as np
import pytest

from vision.calibration import Calibration
from vision.camera.base import Still
from vision.camera.synthetic import SyntheticCamera
from vision.config import VisionConfig
from vision.errors import CameraError, CameraLostError, ConfigError
from vision.motion import MotionConfig
from vision.observation import Observation
from vision.pipeline import BoardReader
from vision.stills import DiceStills, StillConfig
from vision.synth.generate import random_scene
from vision.synth.render import render
from vision.synth.scene import Scene

SIZE = (1280, 720)


def _scene(seed: int) -> Scene:
    """Seeds whose dice the reader reads right (a test of the stills, not of the reader)."""
    scene = random_scene(np.random.default_rng(seed), dice=2, cocked=False, on_checker=False,
                         hands=0, cube=False)
    assert len(scene.dice) == 2
    return scene


def _other_faces(scene: Scene) -> Scene:
    """The same dice in the same places, each showing another face."""
    return replace(scene, dice=tuple(replace(d, value=d.value % 6 + 1) for d in scene.dice))


class Film:
    """Frames of ``scenes`` in turn (each from its frame number on); stills show
    ``still_scene`` while the first scene is on, else the scene on screen."""

    def __init__(self, *scenes: tuple[int, Scene], still_scene: Scene | None = None) -> None:
        self.scenes = sorted(scenes, key=lambda s: s[0])
        self.frames = {id(scene): render(scene, SIZE)[0] for _, scene in scenes}
        self.still_scene = still_scene
        self.shown = self.scenes[0][1]
        self.stills = 0

    def __call__(self, seq: int, t: float) -> np.ndarray:
        self.shown = [scene for start, scene in self.scenes if start <= seq][-1]
        return self.frames[id(self.shown)].copy()

    def still(self, scale: float) -> np.ndarray:
        self.stills += 1
        first = self.scenes[0][1]
        scene = self.still_scene if self.still_scene is not None and self.shown is first \
            else self.shown
        size = (round(SIZE[0] * scale), round(SIZE[1] * scale))
        return render(scene, size)[0]


def _reader(scene: Scene, motion: MotionConfig | None = None) -> BoardReader:
    _, truth = render(scene, SIZE)
    corners = truth.observation.corners
    assert corners is not None
    config = VisionConfig(motion=motion or MotionConfig())
    calibration = Calibration(corners, "manual", SIZE, profile=scene.profile)
    return BoardReader(config, calibration, stream=True)


def _run(film: Film, stills: DiceStills, camera: SyntheticCamera, n: int) -> list[Observation]:
    out = []
    for _ in range(n):
        frame = camera.read()
        out.append(stills.read(frame.image, t=frame.t))
        # Whichever reading stands (the frame's, the still's carried over), it is this
        # frame's observation at this frame's time: a stale time runs the stream backwards.
        assert out[-1].t == frame.t
    return out


def _values(observation: Observation) -> list[int | None]:
    return sorted(d.value or 0 for d in observation.dice)


def test_the_still_is_taken_once_the_dice_settled_and_its_reading_stands() -> None:
    scene = _scene(2)
    film = Film((0, scene), still_scene=_other_faces(scene))
    camera = SyntheticCamera(film, fps=10)
    camera.open()
    stills = DiceStills(_reader(scene), camera.capture_high_res, StillConfig(settle_frames=2))
    seen = _run(film, stills, camera, 8)
    frame_values = sorted(d.value for d in scene.dice)
    still_values = sorted(d.value for d in _other_faces(scene).dice)
    assert _values(seen[0]) == frame_values  # read from the frame before any still
    assert film.stills == 1 and stills.stills == 1
    # Frame 0 is read in full, frames 1 and 2 are unchanged: the still comes with frame 2.
    assert _values(seen[1]) == frame_values
    assert [_values(o) for o in seen[2:]] == [still_values] * 6


def test_a_forced_re_read_of_the_same_dice_keeps_the_still_reading() -> None:
    scene = _scene(12)
    film = Film((0, scene), still_scene=_other_faces(scene))
    camera = SyntheticCamera(film, fps=10)
    camera.open()
    reader = _reader(scene, MotionConfig(max_skipped=3))
    stills = DiceStills(reader, camera.capture_high_res, StillConfig(settle_frames=1))
    seen = _run(film, stills, camera, 12)
    still_values = sorted(d.value for d in _other_faces(scene).dice)
    assert [_values(o) for o in seen[1:]] == [still_values] * 11
    assert film.stills == 1  # the gate's periodic full reads found the same dice


def test_new_dice_get_a_new_still() -> None:
    scene = _scene(9)
    later = _other_faces(scene)  # picked up, then thrown again into the same places
    film = Film((0, scene), (4, replace(scene, dice=())), (6, later))
    camera = SyntheticCamera(film, fps=10)
    camera.open()
    stills = DiceStills(_reader(scene), camera.capture_high_res, StillConfig(settle_frames=2))
    seen = _run(film, stills, camera, 12)
    assert film.stills == 2
    assert _values(seen[-1]) == sorted(d.value for d in later.dice)


def test_without_stills_the_frame_reading_stands() -> None:
    scene = _scene(1)
    frame = render(scene, SIZE)[0]
    camera = SyntheticCamera(lambda seq, t: frame.copy(), fps=10)
    camera.open()
    plain, wrapped = _reader(scene), _reader(scene)
    stills = DiceStills(wrapped, camera.capture_high_res)
    for _ in range(5):
        f = camera.read()
        assert stills.read(f.image, t=f.t) == plain.read(f.image, t=f.t)
    assert stills.stills == 0


def test_a_failing_still_leaves_the_frame_reading_and_says_why() -> None:
    scene = _scene(13)
    frame = render(scene, SIZE)[0]

    def broken() -> Still | None:
        raise CameraLostError("still capture failed: cable")

    stills = DiceStills(_reader(scene), broken, StillConfig(settle_frames=1))
    seen = [stills.read(frame.copy(), t=i / 10) for i in range(4)]
    assert [_values(o) for o in seen] == [sorted(d.value for d in scene.dice)] * 4
    assert stills.last_error is not None and "cable" in stills.last_error


def test_stills_need_a_stream_reader_and_sane_settings() -> None:
    with pytest.raises(ConfigError, match="stream"):
        DiceStills(BoardReader(), lambda: None)
    with pytest.raises(ConfigError, match="settle_frames"):
        StillConfig(settle_frames=0)


def test_synthetic_camera_stills_are_the_scene_at_the_still_scale() -> None:
    scene = _scene(3)
    film = Film((0, scene))
    camera = SyntheticCamera(film, fps=10, still_scale=2.0)
    with pytest.raises(CameraError, match="not open"):
        camera.capture_high_res()
    camera.open()
    assert camera.capture_high_res() is None  # no frame yet: nothing to draw again
    camera.read()
    still = camera.capture_high_res((100.5, 50, 200, 100))
    assert still is not None
    assert still.region == (100, 50, 201, 100)
    assert still.scale == (2.0, 2.0)
    assert still.image.shape == (200, 402, 3)
    whole = camera.capture_high_res()
    assert whole is not None and whole.image.shape == (1440, 2560, 3)
    # The crop is the same pixels as the whole still's region.
    assert np.array_equal(whole.image[100:300, 200:602], still.image)
    plain = SyntheticCamera(lambda seq, t: np.zeros((720, 1280, 3), np.uint8))
    plain.open()
    plain.read()
    assert plain.capture_high_res() is None


def test_the_gate_tells_motion_from_its_periodic_full_read() -> None:
    from vision.motion import MotionGate

    frame = render(_scene(1), SIZE)[0]
    gate = MotionGate(MotionConfig(max_skipped=2))
    seen = [(gate.changed(frame), gate.moved) for _ in range(4)]
    assert seen == [(True, True), (False, False), (False, False), (True, False)]
    moved = frame.copy()
    moved[300:340, 600:640] = 255 - moved[300:340, 600:640]
    assert (gate.changed(moved), gate.moved) == (True, True)


def test_motion_away_from_the_dice_keeps_the_still_reading() -> None:
    """Checkers moved while the dice lie: the same dice read the same, no new still."""
    scene = _scene(2)

    class Elsewhere(Film):
        def __call__(self, seq: int, t: float) -> np.ndarray:
            image = super().__call__(seq, t)
            if seq >= 5:  # something changes far from the dice (a checker moved)
                image[0:48, 0:48] = 255 - image[0:48, 0:48]
            return image

    film = Elsewhere((0, scene), still_scene=_other_faces(scene))
    camera = SyntheticCamera(film, fps=10)
    camera.open()
    reader = _reader(scene)
    stills = DiceStills(reader, camera.capture_high_res, StillConfig(settle_frames=2))
    seen = _run(film, stills, camera, 9)
    assert reader.moved is False and film.stills == 1
    still_values = sorted(d.value for d in _other_faces(scene).dice)
    assert [_values(o) for o in seen[2:]] == [still_values] * 7


class FrameMissesDice(BoardReader):
    """A stream reader whose full reads of frames find no dice (as when the frame's
    reading misses both: small dice, red translucent ones); the still is read as usual."""

    def read(self, frame: np.ndarray, *, t: float | None = None,
             still: Still | None = None) -> Observation:
        observation = super().read(frame, t=t, still=still)
        if self.fresh:
            observation = replace(observation, dice=(), dice_off_field=())
            self._last = observation
        return observation


def _blind_reader(scene: Scene) -> BoardReader:
    seeing = _reader(scene)
    return FrameMissesDice(seeing.config, seeing.calibration, stream=True)


def test_a_throw_the_frame_misses_entirely_is_read_from_a_still() -> None:
    # Once the scene settles a still is taken although the frame read no die, and the
    # still's dice are reported; when the scene moves (the dice picked up) the still's
    # reading ends, and the bare board that settles gets a still of its own.
    scene = _scene(2)
    film = Film((0, scene), (6, replace(scene, dice=())))
    camera = SyntheticCamera(film, fps=10)
    camera.open()
    stills = DiceStills(_blind_reader(scene), camera.capture_high_res,
                        StillConfig(settle_frames=2))
    seen = _run(film, stills, camera, 12)
    assert [_values(o) for o in seen[:2]] == [[], []]
    assert [_values(o) for o in seen[2:6]] == [sorted(d.value for d in scene.dice)] * 4
    assert [_values(o) for o in seen[6:]] == [[]] * 6
    assert film.stills == 2


def test_stills_without_dice_can_be_turned_off() -> None:
    scene = _scene(2)
    film = Film((0, scene))
    camera = SyntheticCamera(film, fps=10)
    camera.open()
    stills = DiceStills(_blind_reader(scene), camera.capture_high_res,
                        StillConfig(settle_frames=2, without_dice=False))
    seen = _run(film, stills, camera, 6)
    assert film.stills == 0
    assert all(_values(o) == [] for o in seen)


class HandLingers(FrameMissesDice):
    """As :class:`FrameMissesDice`, and the frames numbered in ``occluded`` are reported
    occluded (the occlusion stage still calling the frame after a throw a hand)."""

    def __init__(self, *args: object, occluded: set[int], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.occluded_frames = occluded
        self.seq = -1

    def read(self, frame: np.ndarray, *, t: float | None = None,
             still: Still | None = None) -> Observation:
        self.seq += 1
        observation = super().read(frame, t=t, still=still)
        if self.seq in self.occluded_frames:
            observation = replace(observation, occluded=True)
        return observation


def test_a_throw_made_under_a_hand_ends_a_bare_boards_still() -> None:
    # The bare board settles and gets a still (no die). The dice land while the frame is
    # called occluded; the next frame is the same picture, so the gate sees no motion in
    # any unoccluded frame. The throw must still get a still of its own, and its dice be
    # reported.
    scene = _scene(2)
    bare = replace(scene, dice=())
    film = Film((0, bare), (6, scene))
    camera = SyntheticCamera(film, fps=10)
    camera.open()
    seeing = _reader(scene)
    reader = HandLingers(seeing.config, seeing.calibration, stream=True, occluded={6})
    stills = DiceStills(reader, camera.capture_high_res, StillConfig(settle_frames=2))
    seen = _run(film, stills, camera, 12)
    assert [_values(o) for o in seen[:6]] == [[]] * 6
    assert seen[6].occluded
    assert film.stills == 2
    assert _values(seen[-1]) == sorted(d.value for d in scene.dice)
