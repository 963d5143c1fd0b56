"""The same staged sessions seen by a perfect reader: the referee's part alone, cheaply.

Rendering and reading cost about a minute of CPU a game, and on rendered
streams almost every problem starts with a die the vision misread, after
which the referee is out of step.  To know how the referee and the
stabiliser do on their own, the director's moments are turned straight into
the observations a perfect reader would report: the exact counts, each die
on the field with its value, flat or cocked, on a checker or not, its half and
its centre projected through the scene's camera (a die off the field in
``dice_off_field``, as the vision reports it), the cube, and
"occluded" while a hand is over the field.  The timeline is the same as the
rendered stream's, frame for frame, with the same button presses, so
hands, tumbling dice, held checkers, early throws and corrections all come
as they would; only the vision's errors are gone.  No rendering: hundreds of
games take minutes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from controller.simulation.table import Table
from controller.simulation.timeline import Moment, Press, Shot
from vision.observation import Corners, Cube, Die, Observation
from vision.synth.camera import Camera
from vision.synth.geometry import BoardGeometry
from vision.synth.render import DEFAULT_SIZE


class PerfectReader:
    """Observations of shots as a reader without errors would make them."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.geo = BoardGeometry.of(table.base)
        _, oy0, _, oy1 = self.geo.outer
        self.camera = Camera.build(table.base.camera, (self.geo.width, self.geo.height),
                                   oy1 - oy0, DEFAULT_SIZE)
        field = np.array([[0.0, 0.0, 0.0], [self.geo.width, 0.0, 0.0],
                          [self.geo.width, self.geo.height, 0.0], [0.0, self.geo.height, 0.0]])
        self.corners = Corners.from_list(self.camera.project(field).tolist())
        self._seen: dict[Shot, dict[str, Any]] = {}

    def _pixel(self, u: float, v: float, height: float) -> tuple[float, float]:
        x, y = self.geo.world(u, v)
        p = self.camera.project(np.array([[x, y, -height]]))[0]
        return float(p[0]), float(p[1])

    def observe(self, shot: Shot) -> dict[str, Any]:
        """The schema-1 object (without ``t``) of a shot."""
        if shot in self._seen:
            return self._seen[shot]
        profile = self.table.base.profile
        dice = []
        off_field = []
        for d in shot.dice:
            inside = 0.0 <= d.u <= 1.0 and 0.0 <= d.v <= 1.0
            lift = self.geo.checker_thickness if d.on_checker else 0.0
            centre = self._pixel(d.u, d.v, lift + self.geo.die / 2.0)
            if inside:
                dice.append(Die(d.value, centre, d.flat, d.on_checker, profile.half(d.u)))
            else:  # as the vision reports a die off the field (vision/dice/off_field.py)
                off_field.append(Die(d.value, centre))
        cube = None
        if shot.cube is not None:
            c = shot.cube
            cube = Cube(c.shown, self._pixel(c.u, c.v, self.geo.cube / 2.0), c.position)
        occluded = any(-0.02 <= h.v <= 1.02 and -0.02 <= h.u <= 1.02 for h in shot.hands)
        board = shot.board
        observation = Observation(board_found=True, corners=self.corners, points=board.points,
                                  bar=board.bar, off=board.off if profile.tray else None,
                                  dice=tuple(dice), cube=cube, occluded=occluded,
                                  dice_off_field=tuple(off_field))
        out = observation.to_json()
        self._seen[shot] = out
        return out


def perfect_lines(table: Table, moments: list[Moment], presses: list[Press],
                  fps: float) -> Iterator[dict[str, Any]]:
    """The replay lines a perfect reader gives for the session, frame by frame."""
    reader = PerfectReader(table)
    pending = sorted(presses, key=lambda p: p.t)
    index = 0
    frame_no = 0
    for moment in moments:
        seen = reader.observe(moment.shot)
        for _ in range(max(1, round(moment.duration * fps))):
            t = round(frame_no / fps, 4)
            while index < len(pending) and pending[index].t <= t + 1e-9:
                yield pending[index].to_json()
                index += 1
            yield {**seen, "t": t}
            frame_no += 1
    while index < len(pending):
        yield pending[index].to_json()
        index += 1
