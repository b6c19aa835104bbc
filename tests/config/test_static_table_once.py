"""The suite's shortcut for WhiteNoise (tests/conftest.py, ``_static_files_read_once_per_content``):
a new test client's middleware reuses the table of static files instead of reading every file
again, and the table is still what WhiteNoise would build: a file added or rewritten is served
as it is now, and a change of STATIC_ROOT reads the new folder."""

from __future__ import annotations

from django.test import override_settings
from whitenoise.base import WhiteNoise
from whitenoise.middleware import WhiteNoiseMiddleware


def _table(static_root) -> dict:
    with override_settings(STATIC_ROOT=str(static_root)):
        middleware = WhiteNoiseMiddleware(get_response=lambda request: None)
    return middleware.files


def _length(table: dict, url: str) -> str:
    """The Content-Length the table's response for ``url`` sends."""
    response = table[url].get_response("GET", {})
    response.file.close()
    return dict(response.headers)["Content-Length"]


def test_a_new_middleware_reuses_the_table_and_sees_every_change(tmp_path, monkeypatch):
    static_root = tmp_path / "static"
    (static_root / "css").mkdir(parents=True)
    (static_root / "css" / "site.css").write_text("body{}")
    read = []
    get_static_file = WhiteNoise.get_static_file

    def counting(self, path, url, stat_cache=None):
        read.append(url)
        return get_static_file(self, path, url, stat_cache=stat_cache)

    monkeypatch.setattr(WhiteNoise, "get_static_file", counting)

    with override_settings(STATIC_ROOT=str(static_root)):
        first = WhiteNoiseMiddleware(get_response=lambda request: None).files
        second = WhiteNoiseMiddleware(get_response=lambda request: None).files
        assert read == ["/static/css/site.css"]  # read once, not once per middleware
        assert second == first and _length(second, "/static/css/site.css") == "6"

        (static_root / "css" / "site.css").write_text("body{color:red}")
        (static_root / "app.js").write_text("1")
        third = WhiteNoiseMiddleware(get_response=lambda request: None).files
        assert sorted(third) == ["/static/app.js", "/static/css/site.css"]
        assert _length(third, "/static/css/site.css") == "15"

    other = tmp_path / "other"
    other.mkdir()
    (other / "only.txt").write_text("x")
    assert sorted(_table(other)) == ["/static/only.txt"]
