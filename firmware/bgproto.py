"""The scoreboard link: frames, checksums, sequence numbers and the state message.

One file, run unchanged by the host (CPython, as ``firmware.bgproto``) and by
the Pico (MicroPython, copied next to ``main.py``), so the two ends cannot
drift apart.  That rules out what MicroPython lacks: ``typing`` at run time,
dataclasses, enums, ``binascii.crc_hqx``, ``str.isascii``, ``str.rjust``.
Type names are imported for the checker only and written as strings.

A frame on the wire is COBS-encoded and ends with a 0x00 byte, so a receiver
that joins mid-stream or sees garbage resynchronises at the next zero.  Decoded,
it is ``type (1) | sequence (2, big-endian) | payload | CRC-16 (2)``, the CRC
being CRC-16/CCITT-FALSE over everything before it.  The protocol's version
travels in the hello exchange only.  firmware/README.md describes the
exchange as a whole.
"""

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

VERSION = 1
"""Bumped whenever a frame's meaning changes; both ends refuse a mismatch."""

HELLO = 0x01
"""Host -> board: version (1) and session (2); the board answers with a HELLO
carrying its own version, the same session, an epoch (2) and the host hello's
sequence.  The epoch is the board's: new at every session it takes up, and
carried by every STATE and TEXT after, so a frame from any earlier session,
however it comes back, cannot be taken for a current one."""
ACK = 0x02
"""Board -> host: the sequence number being acknowledged, no payload."""
STATE = 0x03
"""Host -> board: epoch (2), then everything the scoreboard shows
(see :func:`encode_state`)."""
HEARTBEAT = 0x04
"""Both ways, once a second when nothing else is sent; the board's carries the
session it knows (0 before any hello), so the host notices a rebooted board."""
TEXT = 0x05
"""Host -> board: epoch (2), then an extra page of up to 16 ASCII characters
(empty: none)."""

RELIABLE = (HELLO, STATE, TEXT)
"""Types the host repeats until acknowledged."""

MAX_PAYLOAD = 32
MAX_FRAME = 1 + 2 + MAX_PAYLOAD + 2
MAX_WIRE = MAX_FRAME + MAX_FRAME // 254 + 2
"""Longest COBS-encoded frame with its delimiter; longer runs are garbage."""
MESSAGE_LENGTH = 16

HEARTBEAT_MS = 1000
LINK_TIMEOUT_MS = 3000
"""Without a valid frame for this long, the other end counts as gone."""
RETRY_MS = 250
MAX_RETRIES = 6
"""After this many unanswered repeats the link is reset with a new hello."""

NOBODY = 0
LIGHT = 1
DARK = 2
CUBE_VALUES = (1, 2, 4, 8, 16, 32, 64)


class ProtocolError(ValueError):
    """A frame or payload that must not be acted upon."""


def _crc_table() -> "list[int]":
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_TABLE = _crc_table()


def crc16(data: "bytes | bytearray | memoryview", crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor)."""
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _TABLE[((crc >> 8) ^ byte) & 0xFF]
    return crc


def cobs_encode(data: "bytes | bytearray") -> bytes:
    """Consistent Overhead Byte Stuffing: the result holds no 0x00 byte."""
    out = bytearray(b"\x00")
    code_at = 0
    code = 1
    last = len(data) - 1
    for index, byte in enumerate(data):
        if byte == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
            continue
        out.append(byte)
        code += 1
        if code == 0xFF and index < last:
            # a full block: the next starts without an implied zero, and only
            # if more data follows (so 254 bytes encode as FF + 254 bytes)
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data: "bytes | bytearray") -> bytes:
    """The inverse of :func:`cobs_encode`; raises ProtocolError on a malformed block."""
    out = bytearray()
    index = 0
    length = len(data)
    while index < length:
        code = data[index]
        if code == 0:
            raise ProtocolError("zero byte inside a COBS block")
        end = index + code
        if end > length:
            raise ProtocolError("COBS block runs past the end of the frame")
        for position in range(index + 1, end):
            if data[position] == 0:
                raise ProtocolError("zero byte inside a COBS block")
        out.extend(data[index + 1:end])
        index = end
        if code != 0xFF and index < length:
            out.append(0)
    return bytes(out)


def encode_frame(kind: int, seq: int, payload: "bytes | bytearray" = b"") -> bytes:
    """A complete frame, ready to write: COBS-encoded, with its 0x00 delimiter."""
    if not 0 <= kind <= 0xFF:
        raise ProtocolError("frame type out of range")
    if len(payload) > MAX_PAYLOAD:
        raise ProtocolError("payload too long")
    body = bytearray((kind, (seq >> 8) & 0xFF, seq & 0xFF))
    body.extend(payload)
    crc = crc16(body)
    body.append(crc >> 8)
    body.append(crc & 0xFF)
    return cobs_encode(body) + b"\x00"


class Frame:
    """One received frame whose CRC was right."""

    __slots__ = ("kind", "payload", "seq")

    def __init__(self, kind: int, seq: int, payload: bytes) -> None:
        self.kind = kind
        self.seq = seq
        self.payload = payload

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Frame) and self.kind == other.kind
                and self.seq == other.seq and self.payload == other.payload)

    def __hash__(self) -> int:
        return hash((self.kind, self.seq, self.payload))

    def __repr__(self) -> str:
        return f"Frame({self.kind}, {self.seq}, {self.payload!r})"


def decode_frame(block: "bytes | bytearray") -> Frame:
    """One COBS block (without its delimiter) to a frame; ProtocolError if damaged."""
    body = cobs_decode(block)
    if len(body) < 5:
        raise ProtocolError("frame too short")
    if len(body) > MAX_FRAME:
        raise ProtocolError("frame too long")
    if crc16(body[:-2]) != (body[-2] << 8) | body[-1]:
        raise ProtocolError("CRC mismatch")
    return Frame(body[0], (body[1] << 8) | body[2], bytes(body[3:-2]))


class Decoder:
    """Cuts a byte stream into frames; damaged frames are counted and dropped."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._overflow = False
        self.errors = 0
        """Frames dropped so far: overlong, bad COBS, too short, bad CRC."""

    def feed(self, data: "bytes | bytearray") -> "list[Frame]":
        frames = []
        for byte in data:
            if byte != 0:
                if len(self._buffer) < MAX_WIRE:
                    self._buffer.append(byte)
                else:
                    self._overflow = True
                continue
            if self._overflow:
                self.errors += 1
            elif self._buffer:
                try:
                    frames.append(decode_frame(self._buffer))
                except ProtocolError:
                    self.errors += 1
            self._buffer = bytearray()
            self._overflow = False
        return frames


def seq_newer(seq: int, than: int) -> bool:
    """Serial-number order on 16 bits (RFC 1982): survives the wrap at 65535."""
    return 0 < ((seq - than) & 0xFFFF) < 0x8000


def is_ascii_text(text: str) -> bool:
    return all(" " <= char <= "~" for char in text)


class Board:
    """What the scoreboard shows, as the link carries it (``STATE``'s payload).

    Colours are numbers (:data:`NOBODY`, :data:`LIGHT`, :data:`DARK`);
    the host turns :class:`controller.panel.PanelState` into this.
    """

    __slots__ = ("camera_ok", "crawford", "cube_in_play", "cube_owner", "cube_value",
                 "match_length", "message", "score_dark", "score_light", "turn")

    def __init__(self, match_length: int = 0, score_light: int = 0, score_dark: int = 0,
                 crawford: bool = False, cube_value: int = 1, cube_owner: int = NOBODY,
                 cube_in_play: bool = True, turn: int = NOBODY, camera_ok: bool = True,
                 message: str = "") -> None:
        self.match_length = match_length
        self.score_light = score_light
        self.score_dark = score_dark
        self.crawford = crawford
        self.cube_value = cube_value
        self.cube_owner = cube_owner
        self.cube_in_play = cube_in_play
        self.turn = turn
        self.camera_ok = camera_ok
        self.message = message
        self.check()

    def check(self) -> None:
        """Refuse what the display could not show truthfully."""
        for number in (self.match_length, self.score_light, self.score_dark):
            if not 0 <= number <= 0xFFFF:
                raise ProtocolError("a score or match length is out of range")
        if self.cube_value not in CUBE_VALUES:
            raise ProtocolError("cube value must be one of 1, 2, 4, ... 64")
        if self.cube_owner not in (NOBODY, LIGHT, DARK) or self.turn not in (NOBODY, LIGHT, DARK):
            raise ProtocolError("a colour must be 0 (nobody), 1 (light) or 2 (dark)")
        if len(self.message) > MESSAGE_LENGTH or not is_ascii_text(self.message):
            raise ProtocolError("message must be at most 16 printable ASCII characters")

    def key(self) -> "tuple[object, ...]":
        return (self.match_length, self.score_light, self.score_dark, self.crawford,
                self.cube_value, self.cube_owner, self.cube_in_play, self.turn,
                self.camera_ok, self.message)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return "Board" + repr(self.key())


def _u16(value: int) -> bytes:
    return bytes(((value >> 8) & 0xFF, value & 0xFF))


def encode_state(board: Board) -> bytes:
    """``match (2) | light (2) | dark (2) | flags (1) | cube log2 (1) |
    cube owner (1) | turn (1) | message length (1) | message``."""
    board.check()
    flags = ((1 if board.crawford else 0) | (2 if board.cube_in_play else 0)
             | (4 if board.camera_ok else 0))
    exponent = CUBE_VALUES.index(board.cube_value)
    text = board.message.encode()
    return (_u16(board.match_length) + _u16(board.score_light) + _u16(board.score_dark)
            + bytes((flags, exponent, board.cube_owner, board.turn, len(text))) + text)


def decode_state(payload: "bytes | bytearray") -> Board:
    """The inverse of :func:`encode_state`; ProtocolError on anything out of range."""
    if len(payload) < 11:
        raise ProtocolError("state payload too short")
    size = payload[10]
    if len(payload) != 11 + size:
        raise ProtocolError("state payload length does not match its message")
    flags = payload[6]
    if flags & 0xF8:
        raise ProtocolError("unknown state flags")
    if payload[7] >= len(CUBE_VALUES):
        raise ProtocolError("cube exponent out of range")
    try:
        message = bytes(payload[11:]).decode()
    except UnicodeError:
        raise ProtocolError("message is not ASCII") from None
    return Board(
        match_length=(payload[0] << 8) | payload[1],
        score_light=(payload[2] << 8) | payload[3],
        score_dark=(payload[4] << 8) | payload[5],
        crawford=bool(flags & 1), cube_in_play=bool(flags & 2), camera_ok=bool(flags & 4),
        cube_value=CUBE_VALUES[payload[7]], cube_owner=payload[8], turn=payload[9],
        message=message,
    )


def encode_hello(version: int, session: int, epoch: "int | None" = None) -> bytes:
    """The host's hello has no epoch; the board's answer has one."""
    data = bytes((version & 0xFF,)) + _u16(session)
    return data if epoch is None else data + _u16(epoch)


def decode_hello(payload: "bytes | bytearray") -> "tuple[int, int]":
    """(version, session).  Only the first three bytes are read, so a later
    version may append to the hello and still be told apart."""
    if len(payload) < 3:
        raise ProtocolError("hello payload too short")
    return payload[0], (payload[1] << 8) | payload[2]


def hello_epoch(payload: "bytes | bytearray") -> int:
    """The epoch in the board's answer to a hello."""
    if len(payload) < 5:
        raise ProtocolError("the answer to a hello has no epoch")
    return (payload[3] << 8) | payload[4]


def scoped(epoch: int, payload: "bytes | bytearray") -> bytes:
    """A STATE or TEXT payload: the epoch first."""
    return _u16(epoch) + bytes(payload)


def unscope(payload: "bytes | bytearray") -> "tuple[int, bytes]":
    """(epoch, the rest) of a STATE or TEXT payload."""
    if len(payload) < 2:
        raise ProtocolError("payload has no epoch")
    return (payload[0] << 8) | payload[1], bytes(payload[2:])


def decode_text(payload: "bytes | bytearray") -> str:
    try:
        text = bytes(payload).decode()
    except UnicodeError:
        raise ProtocolError("text is not ASCII") from None
    if len(text) > MESSAGE_LENGTH or not is_ascii_text(text):
        raise ProtocolError("text must be at most 16 printable ASCII characters")
    return text


class Sender:
    """The host's half of acknowledgement and retransmission: one reliable
    frame in flight at a time (stop-and-wait), repeated every
    :data:`RETRY_MS` until acknowledged.

    Sending a newer frame abandons the one in flight: the scoreboard is
    level-triggered, so only the latest state matters.
    """

    def __init__(self, write: "Callable[[bytes], object]", seq: int = 0) -> None:
        self._write = write
        self.seq = seq & 0xFFFF
        self.pending: bytes | None = None
        self.pending_seq = -1
        self.pending_kind = -1
        self.retries = 0
        self.repeats = 0
        """Frames sent again, over the sender's life."""
        self._sent_at = 0
        self.last_sent = 0

    def next_seq(self) -> int:
        self.seq = (self.seq + 1) & 0xFFFF
        return self.seq

    def send(self, kind: int, payload: "bytes | bytearray", now: int) -> int:
        """Send a frame; reliable kinds are kept for repeating.  Returns its sequence."""
        seq = self.next_seq()
        wire = encode_frame(kind, seq, payload)
        if kind in RELIABLE:
            self.pending = wire
            self.pending_seq = seq
            self.pending_kind = kind
            self.retries = 0
            self._sent_at = now
        self._write(wire)
        self.last_sent = now
        return seq

    def acknowledged(self, seq: int) -> bool:
        """Clears the frame in flight if ``seq`` is its; True if it was."""
        if self.pending is not None and seq == self.pending_seq:
            self.pending = None
            return True
        return False

    def poll(self, now: int) -> bool:
        """Repeats an unanswered frame when due; False once the retries are used up."""
        if self.pending is None or now - self._sent_at < RETRY_MS:
            return True
        if self.retries >= MAX_RETRIES:
            self.pending = None
            return False
        self.retries += 1
        self.repeats += 1
        self._sent_at = now
        self._write(self.pending)
        self.last_sent = now
        return True

    def clear(self) -> None:
        self.pending = None
