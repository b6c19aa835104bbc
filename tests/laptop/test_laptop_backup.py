"""Online copies of the laptop's database: complete, private, rotated, checked; restore puts a
copy back and keeps the database as it was."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from laptop import backup, server

ROOT = Path(__file__).resolve().parents[2]


def count(path: Path, table: str = "auth_user") -> int:
    with sqlite3.connect(path) as conn:
        return conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def test_a_copy_is_complete_private_and_in_one_file(database, tmp_path):
    (tmp_path / "usb").mkdir()
    copy = backup.backup_now(database=database, folder=tmp_path / "usb", keep=5)
    assert copy.parent == tmp_path / "usb" and copy.name.endswith("-periodic.sqlite3")
    assert oct(copy.stat().st_mode & 0o777) == "0o600"
    backup.check(copy)
    with sqlite3.connect(copy) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert not list((tmp_path / "usb").glob(".*partial"))


def test_only_the_newest_copies_are_kept(database, tmp_path):
    made = [backup.backup_now(database=database, folder=tmp_path, keep=3) for _ in range(5)]
    assert backup.backups(tmp_path) == made[-3:]


@pytest.mark.parametrize("content", [b"", b"not a database at all" * 100])
def test_a_file_that_is_not_a_backup_is_refused(tmp_path, content):
    bad = tmp_path / "championship-x.sqlite3"
    bad.write_bytes(content)
    with pytest.raises(backup.BackupError):
        backup.check(bad)


def test_another_sqlite_database_is_refused(tmp_path):
    other = tmp_path / "other.sqlite3"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    with pytest.raises(backup.BackupError, match="not a database of this"):
        backup.check(other)


def test_restore_puts_the_copy_back_and_keeps_the_database_as_it_was(database, tmp_path):
    live = tmp_path / "live.sqlite3"
    backup.copy_database(database, live)
    (tmp_path / "b").mkdir()
    copy = backup.backup_now(database=live, folder=tmp_path / "b", keep=5)
    with sqlite3.connect(live) as conn:
        conn.execute("INSERT INTO auth_user (password, is_superuser, username, first_name, "
                     "last_name, email, is_staff, is_active, date_joined) VALUES "
                     "('!', 0, 'late', '', '', '', 0, 1, '2026-11-28')")
    assert count(live) == count(copy) + 1
    before = backup.restore(backup=copy, database=live, folder=tmp_path / "b")
    assert count(live) == count(copy)
    assert before is not None and "before-restore" in before.name and count(before) == count(
        copy) + 1
    # copies taken before a restore are never rotated away
    for _ in range(3):
        backup.backup_now(database=live, folder=tmp_path / "b", keep=1)
    assert before in backup.backups(tmp_path / "b")


def test_restore_is_refused_while_the_server_runs(database, tmp_path):
    env = {**os.environ, "LAPTOP_DATA_DIR": str(database.parent)}
    copy = backup.backup_now(database=database, folder=tmp_path, keep=5)
    with server.data_lock(database.parent):
        out = subprocess.run([sys.executable, "-m", "laptop", "restore", str(copy)], cwd=ROOT,
                             env=env, capture_output=True, text=True, check=False)
    assert out.returncode != 0 and "stop it first" in out.stderr
    assert out.stderr.strip().count("\n") == 0  # one line


def test_serve_refuses_debug(database):
    env = {**os.environ, "LAPTOP_DATA_DIR": str(database.parent), "DEBUG": "1"}
    out = subprocess.run([sys.executable, "-m", "laptop", "serve", "--port", "1"], cwd=ROOT,
                         env=env, capture_output=True, text=True, check=False, timeout=60)
    assert out.returncode != 0 and "DEBUG is on" in out.stderr
