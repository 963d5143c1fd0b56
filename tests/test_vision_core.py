"""The observation contract (schema 1) and the board geometry."""

import json

import numpy as np
import pytest

from vision.errors import ConfigError, ObservationError
from vision.observation import Corners, Counts, Cube, Die, Observation
from vision.profile import TOURNAMENT, BoardProfile, TrayProfile


def sample() -> Observation:
    points = [Counts() for _ in range(24)]
    points[0] = Counts(light=2)
    points[23] = Counts(dark=5)
    return Observation(
        board_found=True,
        corners=Corners((210, 31), (891, 25), (871, 648), (237, 661)),
        points=tuple(points),
        bar=Counts(dark=1),
        off=Counts(light=3),
        dice=(Die(3, (593.0, 89.0), True, False, "right"),
              Die(None, (612.0, 189.0), False, True, "right")),
        cube=Cube(64, (936.0, 352.0), "centre"),
        occluded=False,
    )


def test_schema_1_has_exactly_the_contract_keys() -> None:
    data = sample().to_json()
    assert list(data) == ["schema", "board_found", "corners", "points", "bar", "off", "dice",
                          "cube", "occluded"]
    assert data["schema"] == 1
    assert data["corners"]["top_left"] == [210, 31]
    assert data["points"][0] == {"light": 2, "dark": 0}
    assert data["dice"][1] == {"value": None, "center": [612.0, 189.0], "flat": False,
                               "on_checker": True, "side": "right"}
    assert data["cube"] == {"value": 64, "center": [936.0, 352.0], "position": "centre"}


def test_observation_round_trips_through_json_text() -> None:
    original = sample()
    assert Observation.from_json(json.loads(json.dumps(original.to_json()))) == original
    timed = Observation(board_found=False, t=12.5)
    assert Observation.from_json(timed.to_json()) == timed


@pytest.mark.parametrize(("change", "message"), [
    ({"schema": 2}, "schema 1"),
    ({"points": []}, "24"),
    ({"board_found": "yes"}, "board_found"),
    ({"dice": [{"value": 7, "center": [1, 2]}]}, "value"),
    ({"dice": [{"value": 3, "center": [1]}]}, "center"),
    ({"bar": {"light": -1, "dark": 0}}, "bar.light"),
    ({"cube": {"value": 3, "center": [0, 0], "position": "centre"}}, "cube.value"),
    ({"t": "soon"}, "t"),
])
def test_malformed_observations_say_what_is_wrong(change: dict[str, object], message: str) -> None:
    data = sample().to_json() | change
    with pytest.raises(ObservationError, match=message):
        Observation.from_json(data)


def test_physical_point_order_matches_the_contract() -> None:
    """0 bottom-right, 0-11 right to left, 12 top-left, 12-23 left to right;
    5 just right of the bar, 6 just left of it."""
    left_end, right_start = TOURNAMENT.bar_span
    assert TOURNAMENT.point_u(0) > TOURNAMENT.point_u(1) > TOURNAMENT.point_u(5) > right_start
    assert left_end > TOURNAMENT.point_u(6) > TOURNAMENT.point_u(11)
    assert TOURNAMENT.point_u(12) < TOURNAMENT.point_u(17) < left_end
    assert right_start < TOURNAMENT.point_u(18) < TOURNAMENT.point_u(23)
    assert TOURNAMENT.point_u(11) == pytest.approx(TOURNAMENT.point_u(12))
    for index in range(24):
        v = 0.1 if index >= 12 else 0.9
        assert TOURNAMENT.point_at(TOURNAMENT.point_u(index), v) == index
    assert TOURNAMENT.point_at(0.5, 0.5) is None  # the bar
    assert TOURNAMENT.half(0.2) == "left" and TOURNAMENT.half(0.8) == "right"


def test_profiles_round_trip_and_reject_nonsense() -> None:
    profile = BoardProfile(name="club", field_aspect=1.2, tray=TrayProfile("right"))
    assert BoardProfile.from_json(profile.to_json()) == profile
    with pytest.raises(ConfigError, match="field_aspect"):
        BoardProfile(field_aspect=5.0)
    with pytest.raises(ConfigError, match="unknown"):
        BoardProfile.from_json({"colour": "red"})


def test_field_map_sends_corners_to_the_unit_square_and_back() -> None:
    from vision.errors import CalibrationError
    from vision.rectify import FieldMap

    corners = Corners((210, 31), (891, 25), (871, 648), (237, 661))
    field = FieldMap.from_corners(corners)
    for (u, v), pixel in zip([(0, 0), (1, 0), (1, 1), (0, 1)], corners.as_list(), strict=True):
        assert field.field_point(pixel) == pytest.approx((u, v), abs=1e-9)
        assert field.image_point(u, v) == pytest.approx(pixel, abs=1e-6)
    with pytest.raises(CalibrationError, match="convex"):
        FieldMap.from_corners(Corners((891, 25), (210, 31), (871, 648), (237, 661)))
    with pytest.raises(CalibrationError, match="square pixels"):
        FieldMap.from_corners(Corners((0, 0), (1, 0), (1, 1), (0, 1)))


def test_checker_mask_covers_each_checker_in_camera_pixels() -> None:
    from vision.checkers.count import CheckerCount, Placed
    from vision.checkers.detect import Circle
    from vision.pipeline import checker_mask
    from vision.rectify import FieldMap

    corners = Corners((210, 31), (891, 25), (871, 648), (237, 661))
    field = FieldMap.from_corners(corners)
    size = TOURNAMENT.rectified_size(640)
    circle = Circle(100.0, 550.0, 24.0)
    count = CheckerCount(tuple(Counts() for _ in range(24)), Counts(),
                         (Placed(circle, True, 11),), size)
    mask = checker_mask(count, field, (720, 1280, 3))
    cx, cy = field.image_point(100.0 / size[0], 550.0 / size[1])
    ex, ey = field.image_point(100.0 / size[0], (550.0 + 40.0) / size[1])
    assert mask[round(cy), round(cx)] == 255
    assert mask[round(ey), round(ex)] == 0
    assert 0 < np.count_nonzero(mask) < 4000
