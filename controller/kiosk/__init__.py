"""The kiosk page: what the referee knows, on the Pi's own screen.

A small web server on the standard library (:mod:`controller.kiosk.server`)
serves one plain page (``static/``: HTML, CSS and JavaScript, no framework,
nothing fetched from elsewhere) and keeps it up to date with Server-Sent
Events.  The session hands the server its referee and panel through
:class:`~controller.kiosk.feed.KioskFeed`; what the page receives is the
snapshot of :mod:`controller.kiosk.snapshot`, documented in ``docs/kiosk.md``.
"""
