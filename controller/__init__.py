"""bgref controller: the rules engine, game and referee logic, and the outputs.

The rules engine (:mod:`controller.rules`) is pure: no I/O, immutable values,
so every other part (referee, kiosk, exports) can share positions freely.
"""

__version__ = "0.1.0"
