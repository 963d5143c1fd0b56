"""The vision commands' contracts: read-image, read-dice, markers, calibrate, watch."""

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

from tests.shared_data import shared_file
from vision.synth import random_scene, render

KEYS = ["schema", "board_found", "corners", "points", "bar", "off", "dice", "cube", "occluded"]


def bgref(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller", *args], check=False,
                          capture_output=True, text=True, timeout=300)


def corners_text(label: dict[str, dict[str, list[float]]]) -> str:
    c = label["corners"]
    return " ".join(f"{c[k][0]},{c[k][1]}" for k in ("top_left", "top_right", "bottom_right",
                                                      "bottom_left"))


def test_read_image_on_a_real_frame_matches_its_labels() -> None:
    image = shared_file("data", "real-boards", "test8.jpg")
    label = json.loads(shared_file("data", "real-boards", "test8.json").read_text())
    result = bgref("read-image", str(image), "--corners", corners_text(label))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert list(data) == KEYS
    assert data["schema"] == 1 and data["board_found"] is True
    assert data["points"] == [{"light": p["light"], "dark": p["dark"]} for p in label["points"]]
    assert data["bar"] == label["bar"]
    assert data["occluded"] is False
    assert sorted(d["value"] for d in data["dice"]) == sorted(d["value"] for d in label["dice"])
    assert {d["side"] for d in data["dice"]} == {d["side"] for d in label["dice"]}
    assert data["corners"]["top_left"] == label["corners"]["top_left"]


def test_read_image_finds_the_real_board_by_itself() -> None:
    image = shared_file("data", "real-boards", "test9.jpg")
    label = json.loads(shared_file("data", "real-boards", "test9.json").read_text())
    data = json.loads(bgref("read-image", str(image)).stdout)
    assert data["board_found"] is True
    for name, (x, y) in label["corners"].items():
        fx, fy = data["corners"][name]
        assert abs(fx - x) <= 15 and abs(fy - y) <= 15, name


def test_read_image_on_a_photo_without_a_board() -> None:
    photo = next(p for p in sorted(shared_file("data", "dice-photos", "valid").glob("*.jpg")))
    data = json.loads(bgref("read-image", str(photo)).stdout)
    assert data["board_found"] is False
    assert data["corners"] is None and data["dice"] == []


def test_read_image_on_a_render_with_given_corners(tmp_path: Path) -> None:
    scene = random_scene(np.random.default_rng(0), hands=0, dice=0, moves=0)
    frame, truth = render(scene)
    path = tmp_path / "start.png"
    cv2.imwrite(str(path), frame)
    corners = " ".join(f"{x:.1f},{y:.1f}" for x, y in truth.observation.corners.as_list())
    data = json.loads(bgref("read-image", str(path), "--corners", corners).stdout)
    assert data["points"] == [p.to_json() for p in truth.observation.points]


def test_bad_input_exits_2_with_a_reason(tmp_path: Path) -> None:
    junk = tmp_path / "junk.jpg"
    junk.write_bytes(b"not an image")
    result = bgref("read-image", str(junk))
    assert result.returncode == 2 and "not an image" in result.stderr
    image = shared_file("data", "real-boards", "test8.jpg")
    result = bgref("read-image", str(image), "--corners", "1,2 3,4")
    assert result.returncode == 2 and "corner" in result.stderr.lower()
    config = tmp_path / "vision.json"
    config.write_text('{"checkers": {"detect": {"accumulator": "high"}}}')
    result = bgref("read-image", str(image), "--config", str(config))
    assert result.returncode == 2 and "accumulator" in result.stderr


def test_read_dice_prints_exactly_the_contract() -> None:
    photo = shared_file("data", "dice-photos", "train", "dice_1.jpg")
    labels = shared_file("data", "dice-photos", "train", "dice_1.txt").read_text().split("\n")
    values = sorted(int(line.split()[0]) + 1 for line in labels if line.strip())
    data = json.loads(bgref("read-dice", str(photo)).stdout)
    assert list(data) == ["dice"]
    assert all(list(d) == ["value", "center", "box", "flat"] for d in data["dice"])
    assert sorted(d["value"] for d in data["dice"]) == values


def test_markers_writes_svg_and_pdf(tmp_path: Path) -> None:
    for name in ("sheet.svg", "sheet.pdf"):
        result = bgref("markers", "--out", str(tmp_path / name))
        assert result.returncode == 0, result.stderr
        assert (tmp_path / name).stat().st_size > 500
    assert (tmp_path / "sheet.pdf").read_bytes().startswith(b"%PDF")
    assert bgref("markers", "--out", str(tmp_path / "sheet.png")).returncode == 2


def test_watch_emits_one_stable_state_per_still_board(tmp_path: Path) -> None:
    image = shared_file("data", "real-boards", "test8.jpg")
    label = json.loads(shared_file("data", "real-boards", "test8.json").read_text())
    result = bgref("watch", "--camera", f"image:{image}", "--corners", corners_text(label),
                   "--max-frames", "12")
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == 1
    assert lines[0]["points"] == [{"light": p["light"], "dark": p["dark"]}
                                  for p in label["points"]]
    assert "t" in lines[0]
    assert "stable" in result.stderr
