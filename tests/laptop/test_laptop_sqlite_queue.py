"""The laptop's SQLite backend: a writer waits in the queue while another holds a transaction,
and the queue is free again after a commit, a rollback or an error (no stuck lock)."""

from __future__ import annotations

import threading
import time

import pytest
from django.db.utils import ConnectionHandler


@pytest.fixture
def handler(tmp_path, django_db_blocker):
    settings = {"default": {"ENGINE": "config.sqlite_queue", "NAME": str(tmp_path / "q.sqlite3"),
                            "OPTIONS": {"init_command": "PRAGMA journal_mode=WAL;",
                                        "timeout": 20, "transaction_mode": "IMMEDIATE"}}}
    made = []

    def connect():
        handler = ConnectionHandler(settings)
        made.append(handler)
        connection = handler["default"]
        connection.ensure_connection()
        return connection

    with django_db_blocker.unblock():
        first = connect()
        with first.cursor() as cursor:
            cursor.execute("CREATE TABLE t (v TEXT)")
        yield connect
        for each in made:
            each.close_all()


def insert(connection, value: str) -> None:
    connection.set_autocommit(True)
    connection._start_transaction_under_autocommit()
    try:
        with connection.cursor() as cursor:
            cursor.execute("INSERT INTO t VALUES (%s)", [value])
    except Exception:
        connection._rollback()
        raise
    connection._commit()


def test_a_second_writer_waits_for_the_first_and_then_goes_in(handler):
    one = handler()
    one._start_transaction_under_autocommit()
    with one.cursor() as cursor:
        cursor.execute("INSERT INTO t VALUES ('first')")
    done = threading.Event()

    def second() -> None:  # a connection belongs to its thread
        two = handler()
        insert(two, "second")
        done.set()
        two.close()

    thread = threading.Thread(target=second)
    thread.start()
    time.sleep(0.3)
    assert not done.is_set()  # queued behind the open transaction
    one._commit()
    thread.join(5)
    assert done.is_set()
    with one.cursor() as cursor:
        cursor.execute("SELECT v FROM t ORDER BY rowid")
        assert [row[0] for row in cursor.fetchall()] == ["first", "second"]


def test_a_rollback_or_a_failed_statement_frees_the_queue(handler):
    one = handler()
    one._start_transaction_under_autocommit()
    one._rollback()
    with pytest.raises(Exception, match="no such table"):
        one._start_transaction_under_autocommit()
        try:
            with one.cursor() as cursor:
                cursor.execute("INSERT INTO missing VALUES (1)")
        except Exception:
            one._rollback()
            raise
    done = threading.Event()

    def after() -> None:  # would wait forever on a lock never released
        two = handler()
        insert(two, "after")
        done.set()
        two.close()

    thread = threading.Thread(target=after, daemon=True)
    thread.start()
    thread.join(5)
    assert done.is_set()


def test_the_laptop_settings_use_it(tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {**os.environ, "LAPTOP_DATA_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-m", "laptop", "shell", "-c",
                          "from django.db import connections; print(type(connections['default']).__module__)"],
                         cwd=Path(__file__).resolve().parents[2], env=env, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "config.sqlite_queue.base"
