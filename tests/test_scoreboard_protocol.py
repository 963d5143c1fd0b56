"""The link protocol (firmware/bgproto.py) under CPython: the same file also
runs under MicroPython in test_scoreboard_micropython.py."""

import binascii

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware import bgproto
from firmware.bgproto import (
    Board,
    Decoder,
    Frame,
    ProtocolError,
    Sender,
    cobs_decode,
    cobs_encode,
    crc16,
    decode_frame,
    decode_state,
    encode_frame,
    encode_state,
    seq_newer,
)

# CRC-16/CCITT-FALSE from the CRC catalogue (reveng): check value 0x29B1.
CRC_VECTORS = [
    (b"123456789", 0x29B1),
    (b"", 0xFFFF),
    (b"A", 0xB915),
    (b"\x00", 0xE1F0),
    (b"\xff\xff", 0x0000),
]


@pytest.mark.parametrize(("data", "crc"), CRC_VECTORS)
def test_crc16_ccitt_false_catalogue_values(data: bytes, crc: int) -> None:
    assert crc16(data) == crc


@settings(derandomize=True, max_examples=200)
@given(st.binary(max_size=300))
def test_crc16_agrees_with_cpythons_crc_hqx(data: bytes) -> None:
    # binascii.crc_hqx is CRC-CCITT with a chosen start value: with 0xFFFF it
    # is CCITT-FALSE.  MicroPython lacks it, hence bgproto's own.
    assert crc16(data) == binascii.crc_hqx(data, 0xFFFF)


def test_crc16_can_be_computed_in_pieces() -> None:
    assert crc16(b"56789", crc16(b"1234")) == 0x29B1


def _seq(first: int, last: int) -> bytes:
    return bytes(range(first, last + 1))


# The worked examples of COBS (Cheshire and Baker's paper, and the usual
# table of them): data -> encoding without the trailing delimiter.
COBS_VECTORS = [
    (b"", b"\x01"),
    (b"\x00", b"\x01\x01"),
    (b"\x00\x00", b"\x01\x01\x01"),
    (b"\x00\x11\x00", b"\x01\x02\x11\x01"),
    (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
    (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
    (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
    (_seq(1, 254), b"\xff" + _seq(1, 254)),
    (b"\x00" + _seq(1, 254), b"\x01\xff" + _seq(1, 254)),
    (_seq(1, 255), b"\xff" + _seq(1, 254) + b"\x02\xff"),
    (_seq(2, 255) + b"\x00", b"\xff" + _seq(2, 255) + b"\x01\x01"),
    (_seq(3, 255) + b"\x00\x01", b"\xfe" + _seq(3, 255) + b"\x02\x01"),
]


@pytest.mark.parametrize(("data", "encoded"), COBS_VECTORS)
def test_cobs_known_encodings(data: bytes, encoded: bytes) -> None:
    assert cobs_encode(data) == encoded
    assert cobs_decode(encoded) == data


@pytest.mark.parametrize("size", [0, 1, 253, 254, 255, 256, 508, 509, 600])
@pytest.mark.parametrize("fill", [0x00, 0x01, 0xFF])
def test_cobs_round_trip_runs(size: int, fill: int) -> None:
    data = bytes([fill]) * size
    encoded = cobs_encode(data)
    assert 0 not in encoded
    assert cobs_decode(encoded) == data


@settings(derandomize=True, max_examples=300)
@given(st.binary(max_size=700))
def test_cobs_round_trip_any_bytes(data: bytes) -> None:
    encoded = cobs_encode(data)
    assert 0 not in encoded
    assert len(encoded) <= len(data) + len(data) // 254 + 1
    assert cobs_decode(encoded) == data


@pytest.mark.parametrize("bad", [b"\x05\x11\x22", b"\x03\x11\x00", b"\x00", b"\x02\x11\x09"])
def test_cobs_refuses_malformed_blocks(bad: bytes) -> None:
    with pytest.raises(ProtocolError):
        cobs_decode(bad)


def test_frame_layout_on_the_wire() -> None:
    wire = encode_frame(bgproto.ACK, 0x1234)
    assert wire.endswith(b"\x00") and wire.count(0) == 1
    body = cobs_decode(wire[:-1])
    crc = crc16(b"\x02\x12\x34")
    assert body == bytes([0x02, 0x12, 0x34, crc >> 8, crc & 0xFF])
    assert decode_frame(wire[:-1]) == Frame(bgproto.ACK, 0x1234, b"")


def test_decoder_drops_damaged_frames_and_resynchronises() -> None:
    good = encode_frame(bgproto.HEARTBEAT, 7, b"\x00\x09")
    flipped = bytearray(good)
    flipped[2] ^= 0x10
    decoder = Decoder()
    frames = decoder.feed(b"\x13\x37garbage" + bytes(flipped) + good[:4])
    frames += decoder.feed(good[4:] + b"\xff" * 500 + b"\x00" + good)
    assert frames == [Frame(bgproto.HEARTBEAT, 7, b"\x00\x09")] * 2
    # the garbage runs into the flipped frame (no zero between them): one block
    assert decoder.errors == 2  # that block and the overlong run


def test_state_round_trip_and_exact_payload() -> None:
    board = Board(match_length=7, score_light=3, score_dark=300, crawford=True, cube_value=64,
                  cube_owner=bgproto.DARK, cube_in_play=False, turn=bgproto.LIGHT,
                  camera_ok=False, message="ROLL AGAIN")
    payload = encode_state(board)
    assert payload == (b"\x00\x07\x00\x03\x01\x2c" + bytes([0b001, 6, 2, 1, 10]) + b"ROLL AGAIN")
    assert decode_state(payload) == board


@pytest.mark.parametrize("payload", [
    b"",
    b"\x00\x07\x00\x03\x00\x05\x02\x00\x00\x00",             # one byte short
    b"\x00\x07\x00\x03\x00\x05\x02\x07\x00\x00\x00",         # cube exponent 7 = 128
    b"\x00\x07\x00\x03\x00\x05\x02\x00\x03\x00\x00",         # owner 3
    b"\x00\x07\x00\x03\x00\x05\x02\x00\x00\x03\x00",         # turn 3
    b"\x00\x07\x00\x03\x00\x05\x0a\x00\x00\x00\x00",         # unknown flag
    b"\x00\x07\x00\x03\x00\x05\x02\x00\x00\x00\x02A",        # message shorter than said
    b"\x00\x07\x00\x03\x00\x05\x02\x00\x00\x00\x01\x07",     # control character
    b"\x00\x07\x00\x03\x00\x05\x02\x00\x00\x00\x01\xc3",     # not ASCII
    b"\x00\x07\x00\x03\x00\x05\x02\x00\x00\x00\x11" + b"A" * 17,  # 17 characters
])
def test_state_refuses_what_cannot_be_shown(payload: bytes) -> None:
    with pytest.raises(ProtocolError):
        decode_state(payload)


@pytest.mark.parametrize(("seq", "than", "newer"), [
    (1, 0, True), (0, 1, False), (5, 5, False), (0, 0xFFFF, True), (0xFFFF, 0, False),
    (0x7FFF, 0, True), (0x8000, 0, False), (10, 0xFFF0, True),
])
def test_sequence_order_survives_the_wrap(seq: int, than: int, newer: bool) -> None:
    assert seq_newer(seq, than) is newer


def test_sender_repeats_until_acknowledged_then_gives_up() -> None:
    sent: list[bytes] = []
    sender = Sender(sent.append, seq=0xFFFE)
    seq = sender.send(bgproto.STATE, b"x", now=0)
    assert seq == 0xFFFF
    assert sender.poll(bgproto.RETRY_MS - 1) and len(sent) == 1
    for attempt in range(1, bgproto.MAX_RETRIES + 1):
        assert sender.poll(attempt * bgproto.RETRY_MS)
        assert len(sent) == 1 + attempt and sent[-1] == sent[0]
    assert not sender.poll((bgproto.MAX_RETRIES + 1) * bgproto.RETRY_MS)
    assert sender.pending is None

    again = sender.send(bgproto.STATE, b"y", now=10_000)
    assert again == 0  # wrapped
    assert not sender.acknowledged(0xFFFF)  # a late answer to the abandoned frame
    assert sender.acknowledged(0)
    assert sender.poll(20_000) and len(sent) == 1 + bgproto.MAX_RETRIES + 1


def test_heartbeats_are_not_repeated() -> None:
    sent: list[bytes] = []
    sender = Sender(sent.append)
    sender.send(bgproto.HEARTBEAT, b"\x00\x00", now=0)
    sender.poll(10_000)
    assert len(sent) == 1
