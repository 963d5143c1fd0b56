"""bgref vision: camera frames in, board observations out.

This package never imports :mod:`controller`; the controller consumes the
observations it produces (built in issue 4).
"""
