"""The referee's journal on its own: durable settings, round trips, and files it must refuse."""

import hashlib
import random
import sqlite3
from pathlib import Path

import pytest

from controller.referee.journal import (
    MEMORY,
    SCHEMA,
    Journal,
    JournalConflictError,
    JournalCorruptError,
    JournalError,
    JournalVersionError,
    move_aside,
)

ROLL = {"t": 3.5, "button": "double", "player": "light"}
EVENTS = [{"t": 3.5, "event": "double", "player": "light", "cube": 2}]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def filled(path: Path, inputs: int = 3) -> None:
    with Journal.open(path) as journal:
        journal.set_settings({"mode": "strict", "match_length": 5})
        for i in range(inputs):
            events = [{"t": float(i), "event": "warning", "reason": f"look {i}"}] * (i % 3)
            journal.append("replay", float(i), {"t": float(i), "operator": "undo", "n": i},
                           events, after=i)


def test_round_trip_keeps_every_input_event_and_the_settings(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    with Journal.open(path) as journal:
        assert journal.settings() is None and journal.last_seq() == 0
        journal.set_settings({"mode": "players", "match_length": 7})
        assert journal.append("replay", 3.5, ROLL, EVENTS, after=0) == 1
        assert journal.append("operator", 4.0, {"t": 4.0, "operator": "undo"}, [], after=1) == 2
        journal.note({"t": 4.0, "event": "resumed", "expecting": "light to roll"})
    with Journal.open(path, create=False) as journal:
        assert journal.meta("schema") == str(SCHEMA)
        assert journal.settings() == {"mode": "players", "match_length": 7}
        entries = list(journal.entries())
        assert [(e.seq, e.t, e.source) for e in entries] == [(1, 3.5, "replay"),
                                                             (2, 4.0, "operator")]
        assert entries[0].input == ROLL and list(entries[0].events) == EVENTS
        assert entries[1].events == ()
        assert [e.seq for e in journal.entries(after=1)] == [2]
        assert [e["event"] for e in journal.history()] == ["double", "resumed"]
        assert journal.last_seq() == 2
        assert journal.pragma("application_id") == 0x62677266  # "bgrf"


def test_journal_is_wal_with_full_syncs_every_time_it_is_opened(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    for _ in range(2):
        with Journal.open(path) as journal:
            assert journal.pragma("journal_mode") == "wal"
            assert journal.pragma("synchronous") == 2  # FULL
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"  # persistent in the file
    raw.close()


def test_a_second_writer_that_has_not_caught_up_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    with Journal.open(path) as first, Journal.open(path) as second:
        first.append("camera", 1.0, ROLL, EVENTS, after=0)
        with pytest.raises(JournalConflictError, match="another process"):
            second.append("operator", 2.0, {"t": 2.0, "operator": "undo"}, [], after=0)
        assert second.last_seq() == 1
        assert second.append("operator", 2.0, {"t": 2.0, "operator": "undo"}, [], after=1) == 2
        assert [e.source for e in first.entries()] == ["camera", "operator"]


def test_a_failed_append_writes_nothing(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.sqlite") as journal:
        journal.append("replay", 1.0, ROLL, EVENTS, after=0)
        with pytest.raises(ValueError):
            journal.append("replay", 2.0, ROLL, [{"t": float("nan"), "event": "x"}], after=1)
        with pytest.raises(JournalConflictError):
            journal.append("replay", 2.0, ROLL, EVENTS, after=5)
        assert journal.last_seq() == 1
        assert len(list(journal.history())) == 1


def test_settings_are_journalled_once(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.sqlite") as journal:
        journal.set_settings({"mode": "strict"})
        with pytest.raises(JournalError, match="already"):
            journal.set_settings({"mode": "players"})
        assert journal.settings() == {"mode": "strict"}


def test_garbage_is_refused_with_its_path_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "garbage.sqlite"
    path.write_bytes(random.Random(5).randbytes(4096))
    before = digest(path)
    with pytest.raises(JournalCorruptError) as caught:
        Journal.open(path)
    assert str(path) in str(caught.value) and "not a bgref journal" in str(caught.value)
    assert digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["garbage.sqlite"]


def test_another_programs_database_is_refused_and_not_switched_to_wal(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE songs (title TEXT)")
    raw.execute("INSERT INTO songs VALUES ('x')")
    raw.commit()
    raw.close()
    before = digest(path)
    with pytest.raises(JournalCorruptError, match="no meta table") as caught:
        Journal.open(path)
    assert str(path) in str(caught.value)
    assert digest(path) == before


def test_a_database_with_someone_elses_meta_table_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE meta (key TEXT, value TEXT)")
    raw.execute("INSERT INTO meta VALUES ('format', 'recipes')")
    raw.commit()
    raw.close()
    with pytest.raises(JournalCorruptError, match="'recipes'"):
        Journal.open(path)


def test_a_truncated_journal_is_refused_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    with Journal.open(path) as journal:
        journal.set_settings({"mode": "strict"})
        big = {"t": 0.0, "padding": "x" * 3000}
        for i in range(40):
            journal.append("replay", float(i), big, [big], after=i)
    data = path.read_bytes()
    assert len(data) > 100_000 and not (tmp_path / "j.sqlite-wal").exists()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(JournalCorruptError) as caught:
        Journal.open(path)
    assert str(path) in str(caught.value)
    assert path.read_bytes() == data[: len(data) // 2]


def test_a_journal_from_a_newer_bgref_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    filled(path)
    raw = sqlite3.connect(path)
    raw.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA + 1),))
    raw.commit()
    raw.close()
    with pytest.raises(JournalVersionError, match=rf"newer bgref \(journal schema {SCHEMA + 1}"):
        Journal.open(path)


def test_an_edited_row_is_reported_not_believed(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    filled(path)
    raw = sqlite3.connect(path)
    raw.execute("UPDATE inputs SET body = '{broken' WHERE seq = 2")
    raw.commit()
    raw.close()
    with Journal.open(path) as journal, pytest.raises(JournalCorruptError, match="input 2"):
        list(journal.entries())


def test_an_empty_file_becomes_a_journal(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    path.touch()
    with Journal.open(path) as journal:
        journal.append("replay", 1.0, ROLL, EVENTS, after=0)
    with Journal.open(path) as journal:
        assert journal.meta("format") == "bgref referee journal"
        assert journal.last_seq() == 1


def test_missing_files_and_folders(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match="no such journal"):
        Journal.open(tmp_path / "none.sqlite", create=False)
    with pytest.raises(JournalError, match="does not exist"):
        Journal.open(tmp_path / "nowhere" / "j.sqlite")
    with pytest.raises(JournalCorruptError, match="not a file"):
        Journal.open(tmp_path)


def test_move_aside_keeps_the_file_and_its_companions(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    path.write_bytes(b"garbage" * 10)
    (tmp_path / "j.sqlite-wal").write_bytes(b"wal data")
    moved = move_aside(path)
    assert not path.exists() and not (tmp_path / "j.sqlite-wal").exists()
    assert moved.read_bytes() == b"garbage" * 10
    assert moved.with_name(moved.name + "-wal").read_bytes() == b"wal data"
    assert moved.name.startswith("j.sqlite.bad-")
    with Journal.open(path) as journal:  # the name is free for a new journal
        assert journal.last_seq() == 0


def test_an_in_memory_journal_works_like_a_file(tmp_path: Path) -> None:
    with Journal.open(MEMORY) as journal:
        journal.set_settings({"mode": "players"})
        journal.append("replay", 1.0, ROLL, EVENTS, after=0)
        assert [e.input for e in journal.entries()] == [ROLL]
    assert list(tmp_path.iterdir()) == []
