"""`bgref selfplay`: deterministic for a seed, and its match file reads back."""

import subprocess
import sys
from pathlib import Path

import pytest

from controller.records.matfile import parse_mat


def bgref(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller", *args], check=False,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("variant", ["standard", "dutch", "acey-deucey"])
def test_same_seed_same_match_and_the_file_replays(variant: str, tmp_path: Path) -> None:
    first = bgref("selfplay", "--seed", "11", "--match-to", "3", "--variant", variant,
                  "--export", str(tmp_path / "a.mat"))
    second = bgref("selfplay", "--seed", "11", "--match-to", "3", "--variant", variant,
                   "--export", str(tmp_path / "b.mat"))
    assert first.returncode == 0, first.stderr
    assert first.stdout.replace("a.mat", "b.mat") == second.stdout
    assert (tmp_path / "a.mat").read_text() == (tmp_path / "b.mat").read_text()
    final = first.stdout.strip().splitlines()[-2]
    assert f"3-point {variant} match" in final
    match = parse_mat((tmp_path / "a.mat").read_text()).replay()
    winner = match.winner
    assert winner is not None
    assert f"{match.score[winner]}-{match.score[winner.opponent]}" in final


def test_different_seeds_play_different_matches() -> None:
    a = bgref("selfplay", "--seed", "1", "--match-to", "5")
    b = bgref("selfplay", "--seed", "2", "--match-to", "5")
    assert a.returncode == b.returncode == 0
    assert a.stdout != b.stdout


def test_bad_arguments_are_refused() -> None:
    result = bgref("selfplay", "--seed", "1", "--match-to", "0")
    assert result.returncode == 2
    assert "match-to" in result.stderr
    result = bgref("selfplay", "--seed", "1", "--match-to", "3", "--export", "/nonexistent/x.mat")
    assert result.returncode != 0
    assert "cannot write" in result.stderr
