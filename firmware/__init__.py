"""The scoreboard's MicroPython firmware, importable on the host too.

The host imports the protocol (:mod:`firmware.bgproto`) from here, and runs
the whole firmware under CPython for ``bgref scoreboard --simulate`` and the
tests.  On the Pico the same files sit in a ``firmware`` folder beside the
root ``main.py`` (a copy of :mod:`firmware.main`), so ``from firmware import
...`` works unchanged on both sides.  See README.md for flashing.
"""

PICO_FILES = ("__init__.py", "bgproto.py", "max7219.py", "layout.py")
"""What goes into the Pico's ``firmware/`` folder; ``main.py`` goes to its root."""
