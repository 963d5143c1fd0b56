"""Realistic observation streams of whole games, for the referee's benchmarks and tests.

:mod:`controller.simulation` stages a self-played session as moments a camera
would see (with faults planted and labelled; it is in the package because
``bgref demo`` films the same matches), ``camera`` renders and reads them with the real
vision pipeline, ``store`` caches the streams, ``referee`` runs them through
``bgref referee --replay``, ``scoring`` compares the events with the truth and
``evaluate`` ties it together for ``bench/referee_accuracy.py``,
``bench/referee_stream_latency.py`` and ``tests/test_referee_streams.py``.
"""
