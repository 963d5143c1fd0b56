"""The referee at work: observations in, the pure machine stepped, every step journalled.

:class:`Session` owns the I/O the pure :class:`~controller.referee.machine.Referee`
must not do.  Frames go through the vision stabiliser, whose stable states and
status changes become referee inputs; buttons and operator corrections go to
the machine directly.  An input that changed the referee or produced events is
written to the journal, with those events, in one durable transaction, and
only then are the events handed on (printed, shown on the panel): a crash
between two steps loses nothing that anyone was told.

Opening a session on a journal that already holds a match *resumes* it: the
referee is rebuilt by giving the journalled inputs to ``Referee.new(settings)``
again, and every replayed step must produce exactly the journalled events.  A
journal that does not replay (a different bgref wrote it, or it was edited) is
reported with the first input that disagrees and left as it is; nothing is
appended to it.  The settings are journalled once, when the match begins, and
a resume with different settings is refused, naming the settings that differ.

Inputs are normalised through their JSON form before the machine sees them,
so the machine steps on exactly what the journal will hold (an observation's
time, for one, is written to 0.1 ms) and a rebuild cannot drift from the
original run by a rounding.

Several processes may share a journal (the live referee, and an operator's
``bgref referee --undo`` in another terminal): :meth:`Session.catch_up` applies
what others appended, and a step that finds the journal moved on catches up
and steps again, so a correction is never lost or applied to a stale state.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import logging
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

from controller.panel import PanelState
from controller.referee.events import RefereeEvent
from controller.referee.inputs import (
    RefereeInput,
    RefereeInputError,
    StableInput,
    StatusInput,
    input_from_json,
    input_to_json,
)
from controller.referee.journal import (
    Journal,
    JournalConflictError,
    JournalCorruptError,
    JournalEntry,
)
from controller.referee.machine import Referee
from controller.referee.settings import (
    RefereeSettings,
    RefereeSettingsError,
    settings_from_json,
)
from vision.observation import Observation
from vision.stabiliser import Stabiliser, StabiliserConfig, StableState, StatusChange

log = logging.getLogger(__name__)

REPLAY: Final = "replay"
CAMERA: Final = "camera"
OPERATOR: Final = "operator"
"""The ``source`` of a journalled input: where it came from, for audits."""

EventSink = Callable[[RefereeEvent], None]
PanelOutput = Callable[[PanelState], None]
StepWatcher = Callable[[Referee, tuple[RefereeEvent, ...]], None]
"""Told the referee after every shown step, with that step's events (the kiosk page,
which draws far more than the panel holds: the board, the dice, the log)."""


class SessionError(Exception):
    """The session cannot start or go on; the message says why and what to do."""


class SettingsMismatchError(SessionError):
    """The journal's match was begun under other settings than the ones given."""


class ReplayMismatchError(SessionError):
    """The journalled inputs no longer produce the journalled events."""


def settings_to_json(settings: RefereeSettings) -> dict[str, Any]:
    """The settings as the JSON object :func:`settings_from_json` reads back equal."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(settings):
        value = getattr(settings, f.name)
        out[f.name] = value.value if isinstance(value, enum.Enum) else value
    return out


def stabiliser_config(settings: RefereeSettings) -> StabiliserConfig:
    """The stabiliser's thresholds the referee settings choose."""
    return StabiliserConfig(hold=settings.hold, dice_hold=settings.dice_hold)


def _plain(value: Mapping[str, Any]) -> Any:
    """What a value becomes once written as JSON and read back (tuples become lists)."""
    return json.loads(json.dumps(value, allow_nan=False))


class Session:
    """One referee, its journal and its outputs.  Feed it; it journals and tells."""

    def __init__(self, journal: Journal, settings: RefereeSettings | None = None, *,
                 source: str = REPLAY, emit: EventSink | None = None,
                 outputs: Sequence[PanelOutput] = (), skip_journalled: bool = False,
                 announce: bool = True) -> None:
        """Open (or begin) the journal's match.

        ``settings`` None means: the journalled ones for a match under way,
        the defaults for a new one.  ``skip_journalled`` is for a replay file
        given again after a crash: the inputs it yields up to the journal's
        last one were consumed before and are passed over (see
        :meth:`step`).  ``announce`` emits (and journals) a ``resumed`` event
        when the journal already held a match.
        """
        self._journal = journal
        self._source = source
        self._emit = emit or (lambda event: None)
        self._outputs = list(outputs)
        self._watchers: list[StepWatcher] = []
        self._camera_ok = True
        self._last_panel: PanelState | None = None
        self._settings, self._was_begun = self._agree_settings(settings)
        self._referee = Referee.new(self._settings)
        self._seq = 0
        self._last_t = 0.0
        self._last_input: Mapping[str, Any] | None = None
        self._replayed = 0
        self._apply(journal.entries(), show=False)
        self._replayed = self._seq
        self._skip = skip_journalled and self._last_input is not None
        self.stabiliser = Stabiliser(stabiliser_config(self._settings))
        if self._resumed and announce:
            event = RefereeEvent(self._last_t, "resumed",
                                 data={"expecting": self._referee.expecting()})
            journal.note(event.to_json())
            self._emit(event)
        self._publish()

    # -- what it holds --------------------------------------------------------

    @property
    def referee(self) -> Referee:
        return self._referee

    @property
    def settings(self) -> RefereeSettings:
        return self._settings

    @property
    def journal(self) -> Journal:
        return self._journal

    @property
    def last_t(self) -> float:
        """Time of the latest journalled input (0 before any): the referee's clock so far."""
        return self._last_t

    @property
    def replayed(self) -> int:
        """How many journalled inputs the referee was rebuilt from when the session opened."""
        return self._replayed

    def add_output(self, output: PanelOutput) -> None:
        """Hand every future panel state to ``output`` too (lights, scoreboard, kiosk);
        it is given the current one at once."""
        self._outputs.append(output)
        self._tell(output, self._panel())

    def add_watcher(self, watcher: StepWatcher) -> None:
        """Hand the referee and the events of every future shown step to ``watcher``
        too, on the thread that steps the session; it is given the current referee
        at once, with no events.  Like a panel output, a failing watcher is reported
        and never stops the referee."""
        self._watchers.append(watcher)
        self._watch(watcher, ())

    # -- feeding --------------------------------------------------------------

    def observe(self, observation: Observation) -> tuple[RefereeEvent, ...]:
        """One frame's observation (with its ``t``) through the stabiliser to the referee."""
        if observation.t is None:
            raise SessionError("an observation needs its time t")
        out: list[RefereeEvent] = []
        for change in self.stabiliser.push(observation):
            if isinstance(change, StableState):
                stable = change.observation
                out += self.step(StableInput(stable.t if stable.t is not None
                                             else observation.t, stable))
            elif isinstance(change, StatusChange):
                out += self.step(StatusInput(observation.t, change.condition))
        return tuple(out)

    def step(self, inp: RefereeInput, source: str | None = None) -> tuple[RefereeEvent, ...]:
        """Give the referee one input; journal it if it mattered; emit its events.

        When resuming a replay (``skip_journalled``), inputs up to the
        journal's last one are passed over: those earlier than it, and those
        at its time until one equal to it has gone by.
        """
        body = _plain(input_to_json(inp))
        inp = input_from_json(body)
        if self._skip and self._passed_over(inp, body):
            return ()
        while True:
            try:
                referee, events = self._referee.step(inp)
            except Exception as exc:  # the machine promises not to; never lose the match over it
                log.exception("the referee failed on an input")
                return self._notice(inp.t, "internal_error",
                                    f"the referee could not take the input {json.dumps(body)}: "
                                    f"{exc}; it was not journalled")
            if referee == self._referee and not events:
                return ()
            try:
                seq = self._journal.append(source or self._source, inp.t, body,
                                           [e.to_json() for e in events], after=self._seq)
            except JournalConflictError:
                self.catch_up()
                continue
            break
        self._referee, self._seq = referee, seq
        self._last_t, self._last_input = inp.t, body
        self._show(events)
        return events

    def catch_up(self) -> tuple[RefereeEvent, ...]:
        """Apply what other processes journalled since this one last looked (an
        operator's correction); their events are emitted here too."""
        return self._apply(self._journal.entries(after=self._seq), show=True)

    def camera_lost(self, t: float, reason: str) -> tuple[RefereeEvent, ...]:
        """The camera is gone: warn, tell the referee the board cannot be seen, show it.

        The stabiliser starts afresh, so the first frames after the camera is
        back report the board's condition (and state) to the referee again.
        """
        self._camera_ok = False
        self.stabiliser.reset()
        events = self._notice(t, "camera_lost", reason)
        return events + self.step(StatusInput(max(t, self._last_t), "no_board"))

    def camera_back(self) -> None:
        """The camera works again; the referee hears of the board from the stabiliser
        as it settles (until then it still counts the board as unseen)."""
        self._camera_ok = True
        self._publish()

    # -- inside ---------------------------------------------------------------

    @property
    def _resumed(self) -> bool:
        return self._seq > 0 or self._was_begun

    def _agree_settings(self, given: RefereeSettings | None) -> tuple[RefereeSettings, bool]:
        """The settings to play under, and whether the journal had begun the match."""
        journalled = self._journal.settings()
        if journalled is None:
            settings = given or RefereeSettings()
            self._journal.set_settings(settings_to_json(settings))
            return settings, False
        try:
            recorded = settings_from_json(journalled)
        except RefereeSettingsError as exc:
            raise JournalCorruptError(f"{self._journal.path}: the journalled settings "
                                      f"cannot be read: {exc}") from exc
        if given is not None and given != recorded:
            theirs, ours = settings_to_json(recorded), settings_to_json(given)
            changed = [f"{key} {theirs[key]!r} (journal) vs {ours[key]!r} (given)"
                       for key in theirs if theirs[key] != ours.get(key)]
            raise SettingsMismatchError(
                f"{self._journal.path}: this match was begun with other settings: "
                f"{'; '.join(changed)}. Resume without --config to keep the journal's "
                "settings, or start a new journal for the new ones")
        return recorded, True

    def _apply(self, entries: Iterable[JournalEntry], *, show: bool
               ) -> tuple[RefereeEvent, ...]:
        shown: list[RefereeEvent] = []
        for entry in entries:
            try:
                inp = input_from_json(entry.input)
            except RefereeInputError as exc:
                raise JournalCorruptError(f"{self._journal.path}: journalled input "
                                          f"{entry.seq} cannot be read: {exc}") from exc
            try:
                referee, events = self._referee.step(inp)
            except Exception as exc:
                raise ReplayMismatchError(self._mismatch(entry, f"the referee failed: {exc}")
                                          ) from exc
            produced = [_plain(e.to_json()) for e in events]
            if produced != [_plain(e) for e in entry.events]:
                raise ReplayMismatchError(self._mismatch(
                    entry, f"it now produces {json.dumps(produced)}, "
                           f"the journal says {json.dumps(list(entry.events))}"))
            self._referee, self._seq = referee, entry.seq
            self._last_t, self._last_input = entry.t, _plain(entry.input)
            if show:
                self._show(events)
                shown += events
        return tuple(shown)

    def _mismatch(self, entry: JournalEntry, what: str) -> str:
        return (f"{self._journal.path}: the journal does not replay: input {entry.seq} "
                f"(t={entry.t}, {entry.source}): {what}. The journal was left unchanged; "
                "it may have been written by another version of bgref. Export it with "
                "--history and start a new journal")

    def _passed_over(self, inp: RefereeInput, body: Mapping[str, Any]) -> bool:
        if inp.t < self._last_t:
            return True
        if inp.t == self._last_t:
            if body == self._last_input:
                self._skip = False
            return True
        self._skip = False
        return False

    def _notice(self, t: float, reason: str, detail: str) -> tuple[RefereeEvent, ...]:
        """A warning of the session's own: journalled as a note, then shown."""
        event = RefereeEvent(t, "warning", data={"reason": reason, "detail": detail})
        self._journal.note(event.to_json())
        self._show((event,))
        return (event,)

    def _show(self, events: Sequence[RefereeEvent]) -> None:
        for event in events:
            self._emit(event)
        self._publish()
        for watcher in self._watchers:
            self._watch(watcher, tuple(events))

    def _watch(self, watcher: StepWatcher, events: tuple[RefereeEvent, ...]) -> None:
        try:
            watcher(self._referee, events)
        except Exception as exc:  # like a panel output: never stop the referee
            print(f"bgref referee: a step watcher failed: {exc}", file=sys.stderr)

    def _panel(self) -> PanelState:
        panel = self._referee.panel()
        if not self._camera_ok:
            panel = dataclasses.replace(panel, camera_ok=False)
        return panel

    def _publish(self) -> None:
        panel = self._panel()
        if panel == self._last_panel:
            return
        self._last_panel = panel
        for output in self._outputs:
            self._tell(output, panel)

    @staticmethod
    def _tell(output: PanelOutput, panel: PanelState) -> None:
        try:
            output(panel)
        except Exception as exc:  # an unplugged scoreboard must not stop the referee
            print(f"bgref referee: a panel output failed: {exc}", file=sys.stderr)
