"""bgproto's known answers, run under MicroPython (and CPython): the module
must give the same bytes on the Pico as on the host."""

from firmware import bgproto

passed: "list[str]" = []


def check(condition: bool, what: str) -> None:
    if not condition:
        raise AssertionError(what)
    passed.append(what)


# CRC-16/CCITT-FALSE, from the CRC catalogue
for data, crc in ((b"123456789", 0x29B1), (b"", 0xFFFF), (b"A", 0xB915), (b"\x00", 0xE1F0)):
    check(bgproto.crc16(data) == crc, f"crc16 of {data!r}")

run254 = bytes(range(1, 255))
cobs = (
    (b"", b"\x01"),
    (b"\x00", b"\x01\x01"),
    (b"\x00\x00", b"\x01\x01\x01"),
    (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
    (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
    (run254, b"\xff" + run254),
    (b"\x00" + run254, b"\x01\xff" + run254),
    (bytes(range(1, 256)), b"\xff" + run254 + b"\x02\xff"),
)
for data, encoded in cobs:
    check(bgproto.cobs_encode(data) == encoded, f"cobs_encode of {len(data)} bytes")
    check(bgproto.cobs_decode(encoded) == data, f"cobs_decode of {len(data)} bytes")
for size in (0, 1, 253, 254, 255, 256, 509, 600):
    for fill in (0, 1, 255):
        data = bytes([fill]) * size
        check(bgproto.cobs_decode(bgproto.cobs_encode(data)) == data, "cobs round trip")
for bad in (b"\x05\x11\x22", b"\x03\x11\x00", b"\x00"):
    try:
        bgproto.cobs_decode(bad)
    except bgproto.ProtocolError:
        check(True, "")
    else:
        check(False, f"malformed COBS accepted: {bad!r}")

wire = bgproto.encode_frame(bgproto.ACK, 0x1234)
crc = bgproto.crc16(b"\x02\x12\x34")
check(bgproto.cobs_decode(wire[:-1]) == bytes([2, 0x12, 0x34, crc >> 8, crc & 0xFF]),
      "ACK frame layout")

board = bgproto.Board(match_length=7, score_light=3, score_dark=300, crawford=True,
                      cube_value=64, cube_owner=bgproto.DARK, cube_in_play=False,
                      turn=bgproto.LIGHT, camera_ok=False, message="ROLL AGAIN")
payload = bgproto.encode_state(board)
check(payload == b"\x00\x07\x00\x03\x01\x2c" + bytes([1, 6, 2, 1, 10]) + b"ROLL AGAIN",
      "state payload")
check(bgproto.decode_state(payload) == board, "state round trip")
for bad in (b"", payload[:-1], payload[:7] + b"\x07" + payload[8:]):
    try:
        bgproto.decode_state(bad)
    except bgproto.ProtocolError:
        check(True, "")
    else:
        check(False, "bad state accepted")

good = bgproto.encode_frame(bgproto.HEARTBEAT, 7, b"\x00\x09")
flipped = bytearray(good)
flipped[2] ^= 0x10
decoder = bgproto.Decoder()
frames = decoder.feed(b"junk" + bytes(flipped) + good[:4])
frames += decoder.feed(good[4:] + b"\xff" * 500 + b"\x00" + good)
check(frames == [bgproto.Frame(bgproto.HEARTBEAT, 7, b"\x00\x09")] * 2, "decoder resync")
check(decoder.errors == 2, "decoder error count")

for seq, than, newer in ((1, 0, True), (0, 1, False), (0, 0xFFFF, True), (0x8000, 0, False)):
    check(bgproto.seq_newer(seq, than) is newer, f"seq_newer({seq}, {than})")

sent: "list[bytes]" = []
sender = bgproto.Sender(sent.append, seq=0xFFFE)
check(sender.send(bgproto.STATE, b"x", 0) == 0xFFFF, "sender sequence")
for attempt in range(1, bgproto.MAX_RETRIES + 1):
    sender.poll(attempt * bgproto.RETRY_MS)
check(len(sent) == 1 + bgproto.MAX_RETRIES, "retransmissions")
check(not sender.poll((bgproto.MAX_RETRIES + 1) * bgproto.RETRY_MS), "retries bounded")

print(f"OK {len(passed)} checks")
