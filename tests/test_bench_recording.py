"""bench/recording.py: filmed streams packed into one archive and back into a cache."""

import gzip
import io
import json
import tarfile
from pathlib import Path

import pytest

from bench.recording import RecordingError, pack, unpack

VERSION = "0123456789ab"


def _film(cache: Path, folder: str, seed: int, partial: bool = False) -> None:
    base = cache / f"{VERSION}-{folder}"
    base.mkdir(parents=True, exist_ok=True)
    lines = "".join(json.dumps({"t": k / 10, "seed": seed}) + "\n" for k in range(50))
    (base / f"{seed}.jsonl.gz").write_bytes(gzip.compress(lines.encode()))
    if partial:
        return
    (base / f"{seed}.moments.json.gz").write_bytes(gzip.compress(b'[{"label": "x"}]'))
    (base / f"{seed}.truth.json").write_text(json.dumps({"seed": seed}))


def _content(path: Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if path.suffix == ".gz" else data


def test_pack_then_unpack_gives_the_same_streams(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _film(cache, "aaaaaaaa", 0)
    _film(cache, "aaaaaaaa", 12)
    _film(cache, "bbbbbbbb", 3)
    _film(cache, "bbbbbbbb", 5, partial=True)  # still being filmed: left out
    (cache / "ffffffffffff-aaaaaaaa").mkdir()  # another version: left out
    _film(cache, "cccccccc", 7)
    (cache / f"{VERSION}-cccccccc" / "7.truth.json").rename(
        cache / "ffffffffffff-aaaaaaaa" / "7.truth.json")
    out = tmp_path / "rec.tar.xz"
    assert pack(VERSION, out, cache) == 3
    fresh = tmp_path / "fresh"
    written, kept = unpack(out, fresh)
    assert (written, kept) == (9, 0)
    for path in sorted(fresh.rglob("*")):
        if path.is_file():
            assert _content(path) == _content(cache / path.relative_to(fresh))
    assert not (fresh / f"{VERSION}-bbbbbbbb" / "5.jsonl.gz").exists()
    assert unpack(out, fresh) == (0, 9)


def test_no_streams_of_the_version(tmp_path: Path) -> None:
    with pytest.raises(RecordingError, match="no streams of version"):
        pack(VERSION, tmp_path / "x.tar.xz", tmp_path)


def test_a_file_that_differs_is_not_overwritten(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _film(cache, "aaaaaaaa", 0)
    out = tmp_path / "rec.tar.xz"
    pack(VERSION, out, cache)
    truth = cache / f"{VERSION}-aaaaaaaa" / "0.truth.json"
    truth.write_text('{"seed": 99}')
    with pytest.raises(RecordingError, match="differs"):
        unpack(out, cache)
    assert truth.read_text() == '{"seed": 99}'


def test_not_an_archive_and_foreign_members(tmp_path: Path) -> None:
    bad = tmp_path / "bad.tar.xz"
    bad.write_bytes(b"not xz at all")
    with pytest.raises(RecordingError, match="not a recording"):
        unpack(bad, tmp_path / "cache")
    evil = tmp_path / "evil.tar.xz"
    with tarfile.open(evil, "w:xz") as archive:
        info = tarfile.TarInfo(f"../{VERSION}-aaaaaaaa/0.jsonl")
        info.size = 2
        archive.addfile(info, io.BytesIO(b"{}"))
    with pytest.raises(RecordingError, match="unexpected member"):
        unpack(evil, tmp_path / "cache")
    assert not (tmp_path / f"{VERSION}-aaaaaaaa").exists()


def test_an_archive_cut_short(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    for seed in range(6):
        _film(cache, "aaaaaaaa", seed)
    out = tmp_path / "rec.tar.xz"
    pack(VERSION, out, cache)
    cut = tmp_path / "cut.tar.xz"
    cut.write_bytes(out.read_bytes()[: out.stat().st_size // 2])
    with pytest.raises(RecordingError, match="cut short"):
        unpack(cut, tmp_path / "fresh")


def test_a_corrupt_cached_stream_is_reported(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _film(cache, "aaaaaaaa", 0)
    out = tmp_path / "rec.tar.xz"
    pack(VERSION, out, cache)
    (cache / f"{VERSION}-aaaaaaaa" / "0.jsonl.gz").write_bytes(b"garbage")
    with pytest.raises(RecordingError, match="not gzip"):
        unpack(out, cache)
