"""Hostile input to the search and query fields (the check-in desk, the player list, the round
preview, the console's panel, the public search): a search never reflects a script unescaped in
its answer; invalid UTF-8 and NUL bytes in query strings and paths are never a server error.
"""

from __future__ import annotations

import pytest

from ._form_catalogue import GET_FORMS, _organizer
from ._form_checks import _fuzz

pytestmark = pytest.mark.usefixtures("fast_password_hashing")


@pytest.mark.parametrize("name", sorted(GET_FORMS))
def test_search_and_query_fields_survive_malformed_input(world, name):
    _fuzz(world, GET_FORMS[name], subnet=30, with_files=False)


RAW_QUERIES = [
    "q=%FF%FE&show=%ED%A0%80&player=%C3%28&lang=%FF&feed=%00&action=%FF",
    "q=%00&show=%00&player=%00&version=%00&a=%00&b=%00&lang=%00",
    "q=" + "%E2%80%AE" * 2000,
    "&&&=&=%=%%%&q",
]


def test_invalid_utf8_and_nul_in_query_strings_and_paths(world):
    """Bytes no form produces, in the query string of every search and page, and in paths."""
    client = _organizer(world)
    failures = []
    paths = [form.path(world) for form in GET_FORMS.values()] + ["/", "/t/fuzz/tables/"]
    for path in paths:
        for query in RAW_QUERIES:
            answer = client.get(path, QUERY_STRING=query)
            if answer.status_code >= 500:
                failures.append(f"{path}?{query[:40]}: {answer.status_code}")
    huge = "9" * 25
    for path in ["/t/%FF/", "/t/fuzz/players/%FF/", "/b/%FF%00/", "/b/" + "x" * 5000 + "/",
                 "/manage/%00/", "/banker/table/%FF/", "/%ED%A0%80/",
                 f"/t/fuzz/players/{huge}/", f"/t/fuzz/tables/{huge}/",
                 f"/t/fuzz/live/tables/{huge}", f"/banker/table/{huge}/main/",
                 f"/manage/fuzz/players/{huge}/edit/", f"/manage/fuzz/rounds/{huge}/",
                 f"/manage/fuzz/rounds/1/bankers/{huge}/assign/", f"/manage/fuzz/print/{huge}/",
                 f"/manage/fuzz/results/{huge}/resolve/"]:
        answer = client.post(path) if "/resolve/" in path or "/assign/" in path else client.get(path)
        if answer.status_code >= 500:
            failures.append(f"{path[:40]}: {answer.status_code}")
    assert failures == []


