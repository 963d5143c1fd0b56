"""The referee's journal: every input that mattered, and what it caused, in SQLite.

The referee is a pure machine, so its whole state is a function of the inputs
it was given.  The journal keeps exactly those inputs (the ones that changed
the state or produced events), each with the events it produced, and the
session writes both in one transaction *before* it shows the events.  After a
crash or a power cut the session rebuilds the referee by giving the
journalled inputs to a fresh machine again, and checks that the events come
out the same: a match is never lost, and a journal that no longer agrees with
the code is noticed instead of silently believed.

Durability: the database runs in WAL mode with ``synchronous=FULL``, so a
committed transaction survives a power cut (WAL alone with ``NORMAL`` may lose
the last commits).  Several processes may use one journal: the live referee
and an operator's ``bgref referee --undo`` append through :meth:`Journal.append`,
which refuses (:class:`JournalConflictError`) when someone else appended since the
caller last looked, so no correction is ever applied to a stale referee.

A file that is not a journal (another program's database, garbage, a
truncated copy) is never written to: opening it raises
:class:`JournalCorruptError` naming the path.  Nothing is moved or deleted
unless the user asks, with :func:`move_aside`, which renames the file and its
``-wal``/``-shm`` companions together so that whatever they hold is kept.
A journal written by a newer bgref (a higher schema number) is refused too.

Stored values are JSON objects (inputs as :func:`input_to_json` writes them,
events as :meth:`RefereeEvent.to_json` does), so the journal does not depend on
the machine's Python classes and stays readable with the ``sqlite3`` tool.
"""

from __future__ import annotations

import datetime
import json
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

FORMAT: Final = "bgref referee journal"
"""The ``meta`` table's ``format`` value: what marks a file as a journal."""
SCHEMA: Final = 1
"""Version of the tables below; bump it (and teach :func:`_open_existing` to
upgrade) whenever they change."""
APPLICATION_ID: Final = 0x62677266
"""``PRAGMA application_id`` ("bgrf"), so ``file(1)`` and people can tell the
file apart from other SQLite databases."""
MEMORY: Final = ":memory:"
"""The path of a journal that lives only as long as the process (replays)."""
SQLITE_MAGIC: Final = b"SQLite format 3\x00"
BUSY_TIMEOUT_MS: Final = 10_000
"""How long a writer waits for another process's transaction to end."""

_TABLES: Final = """
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE inputs (
    seq INTEGER PRIMARY KEY,
    t REAL NOT NULL,
    source TEXT NOT NULL,
    body TEXT NOT NULL,
    recorded TEXT NOT NULL
);
CREATE TABLE events (
    id INTEGER PRIMARY KEY,
    input_seq INTEGER REFERENCES inputs(seq),
    body TEXT NOT NULL
);
CREATE INDEX events_by_input ON events(input_seq);
"""
"""``inputs``: what the referee consumed, in order (``source`` says where it came
from: ``replay``, ``camera``, ``operator``).  ``events``: what each input
produced, in order; rows with no ``input_seq`` are the session's own notes
(``resumed``, a lost camera) that no input of the machine explains."""


class JournalError(Exception):
    """The journal cannot be used; the message names the file and what to do."""


class JournalCorruptError(JournalError):
    """The file is not a readable journal (garbage, damaged, another program's)."""


class JournalVersionError(JournalError):
    """The journal was written by a newer bgref, with a schema this one does not know."""


class JournalConflictError(JournalError):
    """Another process appended to the journal since the caller last read it."""


@dataclass(frozen=True, slots=True)
class JournalEntry:
    """One journalled input with the events it produced."""

    seq: int
    """1, 2, 3, ... in the order the referee consumed the inputs."""
    t: float
    source: str
    input: Mapping[str, Any]
    events: tuple[Mapping[str, Any], ...]
    recorded: str
    """Wall-clock time of the commit (UTC, ISO 8601): for audits, never for replay."""


class Journal:
    """An open journal.  Use :meth:`open`; close it (or use ``with``) when done."""

    def __init__(self, connection: sqlite3.Connection, path: str) -> None:
        self._db = connection
        self._path = path

    # -- opening ------------------------------------------------------------

    @classmethod
    def open(cls, path: str | Path, *, create: bool = True) -> Journal:
        """Open the journal at ``path`` (:data:`MEMORY` for one in memory).

        A missing file is created when ``create`` is true; an existing one is
        checked before anything is written to it.
        """
        where = str(path)
        if where == MEMORY:
            db = _connect(MEMORY, "rwc")
            _initialise(db)
            return cls(db, where)
        file = Path(where)
        if file.exists():
            _check_file(file)
            db = _connect(where, "rw")
            try:
                _open_existing(db, where)
            except BaseException:
                db.close()
                raise
            return cls(db, where)
        if not create:
            raise JournalError(f"{where}: no such journal")
        if not file.parent.is_dir():
            raise JournalError(f"{where}: the folder {file.parent} does not exist")
        db = _connect(where, "rwc")
        try:
            _durable(db, where)
            _initialise(db)
        except BaseException:
            db.close()
            raise
        return cls(db, where)

    @property
    def path(self) -> str:
        return self._path

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def pragma(self, name: str) -> object:
        """A PRAGMA's current value (the tests check the durability settings)."""
        if not name.isidentifier():
            raise ValueError(f"not a pragma name: {name!r}")
        row = self._db.execute(f"PRAGMA {name}").fetchone()
        return None if row is None else row[0]

    # -- meta ---------------------------------------------------------------

    def meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def settings(self) -> Mapping[str, Any] | None:
        """The settings the match is played under, as journalled when it began."""
        text = self.meta("settings")
        if text is None:
            return None
        value = _decode(text, self._path, "meta settings")
        if not isinstance(value, dict):
            raise JournalCorruptError(f"{self._path}: the journalled settings are not an object")
        return value

    def set_settings(self, settings: Mapping[str, Any]) -> None:
        """Journal the settings once, before the first input; they never change after."""
        with self._transaction():
            if self._db.execute("SELECT 1 FROM meta WHERE key = 'settings'").fetchone():
                raise JournalError(f"{self._path}: the settings are journalled already")
            self._db.execute("INSERT INTO meta(key, value) VALUES ('settings', ?)",
                             (_encode(settings),))

    # -- writing ------------------------------------------------------------

    def last_seq(self) -> int:
        """The sequence number of the latest input (0 for none)."""
        row = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM inputs").fetchone()
        return int(row[0])

    def append(self, source: str, t: float, inp: Mapping[str, Any],
               events: Sequence[Mapping[str, Any]], *, after: int) -> int:
        """Journal an input and its events in one durable transaction; returns its seq.

        ``after`` is the seq of the latest input the caller's referee has
        seen; if the journal has moved on since, nothing is written and
        :class:`JournalConflictError` is raised, so the caller catches up first.
        """
        body = _encode(inp)
        bodies = [_encode(e) for e in events]
        with self._transaction():
            last = self.last_seq()
            if last != after:
                raise JournalConflictError(
                    f"{self._path}: input {last} was journalled by another process "
                    f"(this one had seen up to {after})")
            seq = last + 1
            self._db.execute(
                "INSERT INTO inputs(seq, t, source, body, recorded) VALUES (?, ?, ?, ?, ?)",
                (seq, float(t), source, body, _now()))
            self._db.executemany("INSERT INTO events(input_seq, body) VALUES (?, ?)",
                                 [(seq, b) for b in bodies])
        return seq

    def note(self, event: Mapping[str, Any]) -> None:
        """Journal an event of the session's own (``resumed``, a lost camera)."""
        body = _encode(event)
        with self._transaction():
            self._db.execute("INSERT INTO events(input_seq, body) VALUES (NULL, ?)", (body,))

    # -- reading ------------------------------------------------------------

    def entries(self, after: int = 0) -> Iterator[JournalEntry]:
        """The journalled inputs after seq ``after``, in order, each with its events."""
        rows = self._db.execute(
            "SELECT seq, t, source, body, recorded FROM inputs WHERE seq > ? ORDER BY seq",
            (after,)).fetchall()
        for seq, t, source, body, recorded in rows:
            inp = _decode(body, self._path, f"input {seq}")
            if not isinstance(inp, dict):
                raise JournalCorruptError(f"{self._path}: input {seq} is not a JSON object")
            events = tuple(self._events(seq))
            yield JournalEntry(int(seq), float(t), str(source), inp, events, str(recorded))

    def history(self) -> Iterator[Mapping[str, Any]]:
        """Every journalled event, the session's notes included, in the order written."""
        for ident, input_seq, body in self._db.execute(
                "SELECT id, input_seq, body FROM events ORDER BY id").fetchall():
            what = f"event {ident}" + ("" if input_seq is None else f" (input {input_seq})")
            event = _decode(body, self._path, what)
            if not isinstance(event, dict):
                raise JournalCorruptError(f"{self._path}: {what} is not a JSON object")
            yield event

    def _events(self, seq: int) -> Iterator[Mapping[str, Any]]:
        for ident, body in self._db.execute(
                "SELECT id, body FROM events WHERE input_seq = ? ORDER BY id", (seq,)):
            event = _decode(body, self._path, f"event {ident} (input {seq})")
            if not isinstance(event, dict):
                raise JournalCorruptError(f"{self._path}: event {ident} is not a JSON object")
            yield event

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db, self._path)


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any error.

    Immediate, so the write lock is taken before the conflict check reads
    the latest seq: two writers cannot both pass it.
    """

    def __init__(self, db: sqlite3.Connection, path: str) -> None:
        self._db = db
        self._path = path

    def __enter__(self) -> None:
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise JournalError(f"{self._path}: cannot write: {exc}") from exc

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        if kind is not None:
            self._db.execute("ROLLBACK")
            return
        try:
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            self._db.execute("ROLLBACK")
            raise JournalError(f"{self._path}: cannot write: {exc}") from exc


def move_aside(path: str | Path) -> Path:
    """Rename a journal that cannot be opened, with its WAL companions; returns the new name.

    Only on the user's request: the data in a damaged file may still be
    recoverable by hand, so it is kept, never deleted.
    """
    file = Path(path)
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")
    target = file.with_name(f"{file.name}.bad-{stamp}")
    number = 1
    while target.exists():
        number += 1
        target = file.with_name(f"{file.name}.bad-{stamp}-{number}")
    for suffix in ("-wal", "-shm"):
        companion = file.with_name(file.name + suffix)
        if companion.exists():
            companion.rename(target.with_name(target.name + suffix))
    file.rename(target)
    return target


# -- helpers ------------------------------------------------------------------


def _connect(where: str, mode: str) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are explicit)."""
    if where == MEMORY:
        uri = "file::memory:"
    else:
        quoted = Path(where).resolve().as_posix().replace("%", "%25").replace(
            "?", "%3f").replace("#", "%23")
        uri = f"file:{quoted}?mode={mode}"
    try:
        db = sqlite3.connect(uri, uri=True, isolation_level=None,
                             timeout=BUSY_TIMEOUT_MS / 1000)
    except sqlite3.Error as exc:
        raise JournalError(f"{where}: cannot open: {exc}") from exc
    return db


def _check_file(file: Path) -> None:
    """Refuse a file that is plainly no SQLite database, before SQLite touches it."""
    if not file.is_file():
        raise JournalCorruptError(f"{file}: not a file, so not a journal")
    try:
        with file.open("rb") as handle:
            head = handle.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise JournalError(f"{file}: cannot read: {exc}") from exc
    if head and head != SQLITE_MAGIC[:len(head)]:
        raise JournalCorruptError(
            f"{file}: not a bgref journal (not an SQLite database: garbage or another "
            "program's file); it was left untouched: move it away or choose another "
            "--journal (or give --move-aside to have it renamed)")


def _open_existing(db: sqlite3.Connection, where: str) -> None:
    """Check an existing file is a journal this bgref can use, then make it durable.

    Only reads until the file has been recognised: a foreign database must
    not even have its journal mode changed.
    """
    advice = ("it was left untouched: move it away or choose another --journal "
              "(or give --move-aside to have it renamed)")
    try:
        check = db.execute("PRAGMA quick_check").fetchall()
        if [tuple(r) for r in check] != [("ok",)]:
            problems = "; ".join(str(r[0]) for r in check[:3])
            raise JournalCorruptError(f"{where}: the journal is damaged ({problems}); {advice}")
        tables = {str(r[0]) for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables:
            # An empty database (a file created but never written): nothing to lose.
            _durable(db, where)
            _initialise(db)
            return
        if "meta" not in tables:
            raise JournalCorruptError(f"{where}: not a bgref journal (no meta table); {advice}")
        meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
    except sqlite3.DatabaseError as exc:
        raise JournalCorruptError(f"{where}: not a readable journal ({exc}); {advice}") from exc
    if meta.get("format") != FORMAT:
        raise JournalCorruptError(f"{where}: not a bgref journal (meta format is "
                                  f"{meta.get('format')!r}); {advice}")
    try:
        schema = int(meta.get("schema", ""))
    except ValueError:
        raise JournalCorruptError(f"{where}: the journal's schema number "
                                  f"{meta.get('schema')!r} is unreadable; {advice}") from None
    if schema > SCHEMA:
        raise JournalVersionError(
            f"{where}: written by a newer bgref (journal schema {schema}, this bgref reads "
            f"up to {SCHEMA}); upgrade bgref to continue this match")
    if schema < SCHEMA or not {"inputs", "events"} <= tables:
        raise JournalCorruptError(f"{where}: journal schema {schema} is incomplete or "
                                  f"unknown; {advice}")
    _durable(db, where)


def _durable(db: sqlite3.Connection, where: str) -> None:
    """WAL with full syncs: a committed input survives a power cut."""
    try:
        mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        db.execute("PRAGMA synchronous = FULL")
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        db.execute("PRAGMA foreign_keys = ON")
    except sqlite3.Error as exc:
        raise JournalError(f"{where}: cannot set up the journal: {exc}") from exc
    if str(mode).lower() != "wal":
        raise JournalError(f"{where}: the file system does not allow WAL mode ({mode}); "
                           "keep the journal on a local disk")


def _initialise(db: sqlite3.Connection) -> None:
    from controller import __version__

    db.execute("BEGIN IMMEDIATE")
    try:
        for statement in _TABLES.split(";"):
            if statement.strip():
                db.execute(statement)
        db.executemany("INSERT INTO meta(key, value) VALUES (?, ?)", [
            ("format", FORMAT), ("schema", str(SCHEMA)), ("created", _now()),
            ("bgref", __version__)])
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def _encode(value: Mapping[str, Any]) -> str:
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


def _decode(text: object, path: str, what: str) -> Any:
    try:
        return json.loads(str(text))
    except json.JSONDecodeError as exc:
        raise JournalCorruptError(f"{path}: {what} is not valid JSON ({exc})") from exc


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="milliseconds")
