"""What the board's lights are doing, read back from the pins as a watcher would see them.

The lights are driven by :class:`~controller.gpio.loop.LightsLoop` on its own
thread; the demo does not ask it what it meant to show, it samples the pins
(gpiozero's mock pins hold the level each LED was given) and tells steady
from blinking the way a person does: by watching for a moment.  A light
that went on or off at least :data:`BLINK_TOGGLES` times within the last
:data:`WINDOW` seconds is blinking (a call light toggles about five times in
that window, the status heartbeat four, the camera-lost blink a dozen); one
that changed once is simply on or off now.

The summary printed is the *settled* one: a new summary must hold for
:data:`SETTLE` seconds before it is shown, so a turn light that is on for a
single frame of a fast film does not fill the terminal.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final, Literal

from controller.gpio.pinmap import CUBE_LIGHTS, LIGHT_NAMES

WINDOW: Final = 1.3
"""Seconds of history a light's mode is judged on (a heartbeat period and a bit)."""
BLINK_TOGGLES: Final = 3
FAST_TOGGLES: Final = 8
"""Toggles in the window that make the status LED's blink the fast one (camera lost)."""
SETTLE: Final = 0.1

Mode = Literal["on", "off", "blinking", "fast"]


@dataclass
class _History:
    level: bool = False
    toggles: deque[float] = field(default_factory=deque)


class LightWatch:
    """Pin samples in, each light's mode out (``on``, ``off``, ``blinking``, ``fast``)."""

    def __init__(self, names: Iterable[str] = LIGHT_NAMES) -> None:
        self._lights = {name: _History() for name in names}
        self._shown: dict[str, Mode] | None = None
        self._candidate: dict[str, Mode] | None = None
        self._candidate_since = 0.0
        self._buzzer = False
        self.beeps = 0
        """Buzzer sounds heard so far (each rising edge of its PWM duty)."""

    def sample(self, now: float, levels: Mapping[str, bool], buzzer: bool = False) -> None:
        """The pins' levels at ``now`` (seconds, increasing)."""
        for name, history in self._lights.items():
            level = bool(levels.get(name, False))
            if level != history.level:
                history.level = level
                history.toggles.append(now)
            while history.toggles and history.toggles[0] < now - WINDOW:
                history.toggles.popleft()
        if buzzer and not self._buzzer:
            self.beeps += 1
        self._buzzer = buzzer

    def modes(self) -> dict[str, Mode]:
        """Every light's mode as of the latest sample."""
        out: dict[str, Mode] = {}
        for name, history in self._lights.items():
            toggles = len(history.toggles)
            if name == "status" and toggles >= FAST_TOGGLES:
                out[name] = "fast"
            elif toggles >= BLINK_TOGGLES:
                out[name] = "blinking"
            else:
                out[name] = "on" if history.level else "off"
        return out

    def settled(self, now: float) -> dict[str, Mode] | None:
        """The modes when they have held for :data:`SETTLE` seconds and differ from
        the last ones returned; None otherwise."""
        modes = self.modes()
        if modes != self._candidate:
            self._candidate, self._candidate_since = modes, now
            return None
        if now - self._candidate_since < SETTLE or modes == self._shown:
            return None
        self._shown = modes
        return dict(modes)


def describe(modes: Mapping[str, Mode]) -> str:
    """The lights in one compact line: ``cube 2 owner top | turn bottom | call top blinking``."""
    def lit(name: str) -> bool:
        return modes.get(name, "off") != "off"

    def state(name: str) -> str:
        mode = modes.get(name, "off")
        return "" if mode == "on" else f" {mode}"

    cube = [str(value) for value in CUBE_LIGHTS if lit(f"cube_{value}")]
    owners = [seat for seat in ("bottom", "centre", "top") if lit(f"owner_{seat}")]
    if cube or owners:
        value = "/".join(cube) if cube else "1"
        parts = [f"cube {value} " + ("owner " + "+".join(owners) if owners else "no owner")]
    else:
        parts = ["cube dark"]
    turns = [seat + state(f"turn_{seat}") for seat in ("bottom", "top") if lit(f"turn_{seat}")]
    parts.append("turn " + ("+".join(turns) if turns else "none"))
    calls = [seat + state(f"call_{seat}") for seat in ("bottom", "top") if lit(f"call_{seat}")]
    parts.append("call " + ("+".join(calls) if calls else "none"))
    status = modes.get("status", "off")
    parts.append("status " + {"blinking": "heartbeat", "fast": "blinking fast (camera lost)",
                              "on": "on", "off": "off"}[status])
    return " | ".join(parts)
