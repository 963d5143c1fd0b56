"""The live referee: stabilised observations and button presses in, referee events out.

The pure state machine (:mod:`controller.referee.machine`) holds every
decision; the modules around it say what it consumes (:mod:`.inputs`), what
it announces (:mod:`.events`) and how a club configures it (:mod:`.settings`).
The session and journal wrap it with I/O.  ``docs/referee.md`` describes the
states and the choices made where the rule texts are silent.
"""
