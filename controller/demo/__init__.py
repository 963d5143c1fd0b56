"""The main job's demo: the whole referee on the embedded defaults.

A self-played match filmed by a synthetic camera, read by the real vision
pipeline, refereed, journalled and shown on mock GPIO lights, the
scoreboard's firmware on a pty and the kiosk page: ``bgref demo``
(:mod:`controller.demo.run`).
"""

from controller.demo.run import DemoError, DemoOptions, DemoResult, run_demo

__all__ = ["DemoError", "DemoOptions", "DemoResult", "run_demo"]
