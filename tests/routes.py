"""The URL conf walked: every route of the site, in the order Django tries them. The tests that
visit every page, check every route's gate or fuzz every form walk it the same way."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from django.urls import URLPattern, URLResolver, get_resolver


class Route(NamedTuple):
    path: str  # the route as written, prefixes joined: "manage/<slug:slug>/players/"
    entry: URLPattern | URLResolver  # a resolver only where it stands whole (see ``whole``)
    name: str  # with its namespaces: "organizer:players"


def url_routes(*, whole: tuple[str, ...] = (), patterns=None, prefix: str = "",
               namespace: str = "") -> Iterator[Route]:
    """Every route of the URL conf (the project's unless ``patterns``). An included conf whose
    route is in ``whole`` (``"admin/"``: Django admin's pages) stands as one route, not walked."""
    if patterns is None:
        patterns = get_resolver().url_patterns
    for entry in patterns:
        if isinstance(entry, URLResolver):
            path = prefix + str(entry.pattern)
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            if path in whole:
                yield Route(path, entry, inner.rstrip(":"))
                continue
            yield from url_routes(whole=whole, patterns=entry.url_patterns, prefix=path,
                                  namespace=inner)
        elif isinstance(entry, URLPattern):
            yield Route(prefix + str(entry.pattern), entry, f"{namespace}{entry.name}")
