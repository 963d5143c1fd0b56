"""Test doubles for the scoreboard tests: a clock, in-memory serial ports and
a display that records its pages.  The firmware and link under test are the
real ones."""

from firmware import bgproto


class FakeClock:
    """Milliseconds that move only when the test says so."""

    def __init__(self, start: int = 1_000_000) -> None:
        self.t = start

    def now(self) -> int:
        return self.t

    def __call__(self) -> int:
        return self.t


class FirmwarePort:
    """The firmware's end of an in-memory cable."""

    def __init__(self) -> None:
        self.inbox = bytearray()
        self.sent = bytearray()

    def read(self) -> bytes:
        data, self.inbox = bytes(self.inbox), bytearray()
        return data

    def write(self, data: bytes) -> None:
        self.sent += data

    def frames(self) -> list[bgproto.Frame]:
        """Everything the firmware has sent since the last call, decoded."""
        data, self.sent = bytes(self.sent), bytearray()
        decoder = bgproto.Decoder()
        frames = decoder.feed(data)
        assert decoder.errors == 0, "the firmware sent a damaged frame"
        return frames


class PageDisplay:
    """Records every text the firmware shows."""

    def __init__(self) -> None:
        self.shown: list[str] = []
        self.inits = 0

    def init(self) -> None:
        self.inits += 1

    def show(self, text: str) -> None:
        self.shown.append(text)


class MemorySerial:
    """The host's end of an in-memory cable, shaped like a pyserial port."""

    def __init__(self, port: FirmwarePort) -> None:
        self.port = port
        self.closed = False
        self.fail: Exception | None = None

    def read(self, size: int = 1) -> bytes:
        if self.fail is not None:
            raise self.fail
        data = bytes(self.port.sent[:size])
        del self.port.sent[:size]
        return data

    def write(self, data: bytes) -> int:
        if self.fail is not None:
            raise self.fail
        self.port.inbox += data
        return len(data)

    def close(self) -> None:
        self.closed = True

    def reset_input_buffer(self) -> None:
        self.port.sent.clear()
