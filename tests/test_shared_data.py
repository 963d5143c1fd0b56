"""CI detection: only a CI that says so turns missing tools into failures."""

import pytest

from tests.shared_data import under_ci


@pytest.mark.parametrize(("value", "expected"), [
    ("true", True), ("1", True), ("yes", True), ("TRUE", True),
    ("", False), ("false", False), ("0", False), ("no", False), (" False ", False),
])
def test_ci_is_on_only_when_the_variable_says_so(monkeypatch: pytest.MonkeyPatch,
                                                 value: str, expected: bool) -> None:
    monkeypatch.setenv("CI", value)
    assert under_ci() is expected


def test_no_ci_variable_is_not_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    assert under_ci() is False
