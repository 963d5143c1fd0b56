"""Keep filmed referee streams with the project, so the referee can be measured on them later.

    .venv/bin/python bench/recording.py pack VERSION [--out bench/recordings/VERSION.tar.xz]
    .venv/bin/python bench/recording.py unpack bench/recordings/VERSION.tar.xz

Filming the 200 games of issue 5 (``bench/referee_accuracy.py``) renders and reads
about 300,000 frames: two hours of both cores.  Refereeing the streams again takes
minutes.  The cache (``.cache/referee-streams``, or ``BGREF_STREAM_CACHE``) does
not survive a new machine, so a film worth keeping is packed into one archive:
``pack`` takes every stream of one stream version (all its directions), unzips the
per-file gzip and packs the lot with xz, which finds what the sessions have in
common (about a third of the gzip files' size).  ``unpack`` puts them back into
the cache exactly as the film wrote them, after which

    BGREF_STREAM_VERSION=VERSION .venv/bin/python bench/referee_accuracy.py \\
        --games 200 --cached-only

referees them with the code of the day (the streams stay those of the vision
that filmed them).  A file is unpacked only when the archive's member is a
stream file of that version (no paths outside the cache), and an existing file
is left as it is unless it differs, which is an error.
"""

from __future__ import annotations

import argparse
import gzip
import io
import lzma
import re
import sys
import tarfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.streams.store import CACHE

RECORDINGS = Path(__file__).resolve().parent / "recordings"
_MEMBER = re.compile(r"^(?P<folder>[0-9a-f]{12}-[0-9a-f]{8})/"
                     r"(?P<name>\d+\.(?:jsonl|moments\.json|truth\.json))$")


class RecordingError(Exception):
    """An archive or a cache that cannot be packed or unpacked as asked."""


def pack(version: str, out: Path, cache: Path = CACHE) -> int:
    """Every stream of ``version`` in ``cache`` into ``out``; the number of sessions."""
    folders = sorted(p for p in cache.glob(f"{version}-*") if p.is_dir())
    if not folders:
        raise RecordingError(f"no streams of version {version} in {cache}")
    sessions = 0
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp")
    with tarfile.open(tmp, "w:xz", preset=9) as archive:
        for folder in folders:
            for lines in sorted(folder.glob("*.jsonl.gz"), key=lambda p: int(p.name.split(".")[0])):
                seed = lines.name.split(".")[0]
                moments, truth = folder / f"{seed}.moments.json.gz", folder / f"{seed}.truth.json"
                if not (moments.exists() and truth.exists()):
                    continue  # a stream still being filmed
                for path, data in ((f"{seed}.jsonl", gzip.decompress(lines.read_bytes())),
                                   (f"{seed}.moments.json", gzip.decompress(moments.read_bytes())),
                                   (f"{seed}.truth.json", truth.read_bytes())):
                    info = tarfile.TarInfo(f"{folder.name}/{path}")
                    info.size = len(data)
                    info.mtime = 0
                    archive.addfile(info, io.BytesIO(data))
                sessions += 1
    tmp.replace(out)
    return sessions


def _unpack_member(archive: tarfile.TarFile, member: tarfile.TarInfo, archive_path: Path,
                   cache: Path) -> tuple[int, int]:
    match = _MEMBER.match(member.name)
    if not member.isfile() or match is None:
        raise RecordingError(f"{archive_path}: unexpected member {member.name!r}")
    handle = archive.extractfile(member)
    assert handle is not None
    data = handle.read()
    name = match["name"]
    target = cache / match["folder"] / (name if name.endswith("truth.json") else name + ".gz")
    if target.exists():
        have = target.read_bytes()
        if target.suffix == ".gz":
            try:
                have = gzip.decompress(have)
            except (OSError, EOFError) as exc:
                raise RecordingError(f"{target} exists and is not gzip ({exc}): move it "
                                     "away to unpack the recording's") from exc
        if have != data:
            raise RecordingError(f"{target} exists and differs from the recording")
        return 0, 1
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(target.suffix + ".unpacking")
    tmp.write_bytes(gzip.compress(data, compresslevel=5, mtime=0)
                    if target.suffix == ".gz" else data)
    tmp.replace(target)
    return 1, 0


def unpack(archive_path: Path, cache: Path = CACHE) -> tuple[int, int]:
    """The archive's streams into ``cache``; (files written, files already there)."""
    written = kept = 0
    try:
        with tarfile.open(archive_path, "r:xz") as archive:
            for member in archive:
                w, k = _unpack_member(archive, member, archive_path, cache)
                written, kept = written + w, kept + k
    except (OSError, EOFError, lzma.LZMAError, tarfile.TarError) as exc:
        raise RecordingError(f"{archive_path}: not a recording, or cut short ({exc}); "
                             f"{written} files written before it") from exc
    return written, kept


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("pack", help="one stream version's streams into an archive")
    p.add_argument("version")
    p.add_argument("--out", type=Path, default=None)
    u = sub.add_parser("unpack", help="an archive's streams into the cache")
    u.add_argument("archive", type=Path)
    args = parser.parse_args()
    try:
        if args.command == "pack":
            out = args.out or RECORDINGS / f"{args.version}.tar.xz"
            sessions = pack(args.version, out)
            print(f"{sessions} sessions of {args.version} -> {out} "
                  f"({out.stat().st_size / 1e6:.1f} MB)")
        else:
            written, kept = unpack(args.archive)
            print(f"{written} files written to {CACHE}, {kept} already there")
    except RecordingError as exc:
        print(f"bench/recording.py: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
