"""What every light should show at a moment, from a panel state alone.

Kept apart from the pins so the rules of the lights (which LED means what,
how a call blinks, what the heartbeat looks like) are plain functions of
``(PanelState, time)``: the same state at the same time always gives the
same lights, whatever was shown before.  Blinks are phases of the clock, not
timers, for the same reason.
"""

from dataclasses import dataclass

from controller.gpio.pinmap import CUBE_LIGHTS, LIGHT_NAMES
from controller.panel import PanelState


@dataclass(frozen=True, slots=True)
class LightTiming:
    """Blink and beep timings, in seconds."""

    blink_period: float = 0.5
    """A blinking call light: on for the first half of each period."""
    heartbeat_period: float = 1.2
    """The status LED's heartbeat: two short flashes, then a rest."""
    heartbeat_flash: float = 0.1
    heartbeat_gap: float = 0.15
    lost_period: float = 0.2
    """Fast blink of the status LED while the camera is lost."""
    beep: float = 0.12
    """One short beep."""
    beep_gap: float = 0.12
    """Silence between beeps when several are due at once."""

    def __post_init__(self) -> None:
        for name in ("blink_period", "heartbeat_period", "heartbeat_flash",
                     "heartbeat_gap", "lost_period", "beep", "beep_gap"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive")
        if 2 * self.heartbeat_flash + self.heartbeat_gap >= self.heartbeat_period:
            raise ValueError("the heartbeat's two flashes and gap must fit in its period")


def _first_half(now: float, period: float) -> bool:
    return (now % period) < period / 2


def heartbeat(now: float, timing: LightTiming) -> bool:
    """The status LED while all is well: flash, gap, flash, rest."""
    phase = now % timing.heartbeat_period
    second = timing.heartbeat_flash + timing.heartbeat_gap
    return phase < timing.heartbeat_flash or second <= phase < second + timing.heartbeat_flash


def light_levels(panel: PanelState, now: float, timing: LightTiming) -> dict[str, bool]:
    """Every light (by pin map name) on or off at ``now``.

    The cube lights are all dark while the cube is out of play, so "centre
    lit, no value lit" (cube at 1, centred) is never confused with "no cube".
    Seat lights need to know who sits where: until ``panel.bottom`` is
    known, owner, turn and call lights stay dark rather than guess.
    """
    levels = dict.fromkeys(LIGHT_NAMES, False)
    if panel.cube_in_play:
        for value in CUBE_LIGHTS:
            levels[f"cube_{value}"] = panel.cube_value == value
        if panel.cube_owner is None:
            levels["owner_centre"] = True
        else:
            seat = panel.seat_of(panel.cube_owner)
            if seat is not None:
                levels[f"owner_{seat}"] = True
    if panel.turn is not None:
        seat = panel.seat_of(panel.turn)
        if seat is not None:
            levels[f"turn_{seat}"] = True
    blink_on = _first_half(now, timing.blink_period)
    for colour in ("light", "dark"):
        seat = panel.seat_of(colour)
        if seat is None:
            continue
        if colour in panel.call_blink:
            levels[f"call_{seat}"] = blink_on
        elif colour in panel.call_steady:
            levels[f"call_{seat}"] = True
    if panel.camera_ok:
        levels["status"] = heartbeat(now, timing)
    else:
        levels["status"] = _first_half(now, timing.lost_period)
    return levels


class BeepSchedule:
    """Turns the panel's beep counter into buzzer on/off times.

    The first counter seen is taken as it stands (a restarted referee must
    not beep for calls made before it stopped); each later increase of n
    queues n beeps, one after the other.  A counter that goes down means a
    new session: it becomes the new baseline, without a beep.
    """

    def __init__(self, timing: LightTiming) -> None:
        self._timing = timing
        self._seen: int | None = None
        self._beeps: list[float] = []
        """Start times of beeps not yet finished."""

    def on(self, beeps: int, now: float) -> bool:
        """Whether the buzzer sounds at ``now``, given the counter's value then."""
        timing = self._timing
        if self._seen is not None and beeps > self._seen:
            start = now
            if self._beeps:
                start = max(now, self._beeps[-1] + timing.beep + timing.beep_gap)
            for _ in range(beeps - self._seen):
                self._beeps.append(start)
                start += timing.beep + timing.beep_gap
        self._seen = beeps
        self._beeps = [s for s in self._beeps if now < s + timing.beep]
        return any(s <= now for s in self._beeps)
