"""One gate for the API (issue 27): ``tournament.access.ApiRule`` decides every ruled operation
itself, from the view's declarations, so no view can forget to ask. This walks every API view
of the URL conf: an operation that writes must have a rule, a view with rules must go through
the gate, and the gate must be able to find what each rule is decided on (the tournament, or
the table); a rule naming no operation is a typo that would leave one open."""

from __future__ import annotations

from rest_framework import viewsets
from rest_framework.permissions import SAFE_METHODS
from rest_framework.views import APIView
from routes import url_routes

from tournament import access
from tournament.access import Action, TableRule


def operations(callback) -> list[tuple[str, str | None]]:
    """(HTTP method, DRF action name) of one route: the router's mapping for a ViewSet, the
    handler methods of an APIView (whose action is ``None``)."""
    actions = getattr(callback, "actions", None)
    if actions:
        return [(method.upper(), name) for method, name in actions.items()]
    cls = callback.cls
    return [(method.upper(), None) for method in cls.http_method_names
            if method != "options" and hasattr(cls, method)]


def api_views() -> dict[type, list[tuple[str, str | None]]]:
    """Every DRF view class under /api/ with the operations its routes offer."""
    views: dict[type, list] = {}
    for route in url_routes():
        callback = route.entry.callback
        cls = getattr(callback, "cls", None)
        if route.path.startswith("api/") and cls is not None and issubclass(cls, APIView):
            views.setdefault(cls, []).extend(operations(callback))
    return views


def problems(cls: type, ops: list[tuple[str, str | None]]) -> list[str]:
    """What keeps the gate from deciding this view's operations (empty: nothing)."""
    name = f"{cls.__module__}.{cls.__qualname__}"
    rules = getattr(cls, "access_rules", {})
    gated = any(issubclass(permission, access.ApiRule) for permission in cls.permission_classes)
    found = []
    if rules and not gated:
        found.append(f"{name}: access_rules without access.ApiRule in permission_classes")
    for method, action in ops:
        rule = rules.get(action)
        if rule is None:
            if method not in SAFE_METHODS:
                found.append(f"{name}: {method} {action or ''} writes without a rule")
            continue
        if not gated:
            continue
        if isinstance(rule, TableRule):
            if not callable(getattr(cls, "get_access_table", None)):
                found.append(f"{name}: {action!r} is {rule!r} but no get_access_table()")
        elif not isinstance(rule, Action):
            found.append(f"{name}: {action!r} has {rule!r}, neither an Action nor a TableRule")
        elif rule not in access.ANYWHERE and not callable(
            getattr(cls, "get_access_tournament", None)
        ):
            found.append(f"{name}: {action!r} needs a tournament but no get_access_tournament()")
    offered = {action for _method, action in ops}
    found += [f"{name}: a rule for {action!r}, which no route offers"
              for action in rules if action not in offered]
    return found


def test_the_walk_finds_the_api_views():
    names = {cls.__name__ for cls in api_views()}
    assert {"TournamentViewSet", "PlayerViewSet", "RoundViewSet", "TableViewSet", "ExportView",
            "ImportView", "ImportJobView", "TableEventsView", "TableStateView"} <= names


def test_every_api_view_declares_what_the_gate_needs():
    found = [problem for cls, ops in api_views().items() for problem in problems(cls, ops)]
    assert found == [], "\n".join(found)


def test_a_view_missing_a_declaration_is_caught():
    """The check itself: each way of leaving the gate nothing to go on is reported."""

    class Forgot(viewsets.GenericViewSet):
        permission_classes = [access.ApiRule]
        access_rules = {"seat": Action.ROUNDS, "lnik": Action.BANKERS}

    class Unruled(APIView):
        def post(self, request): ...

    class Ungated(APIView):
        access_rules = {None: Action.EXPORT}

        def get(self, request): ...

    class NoTable(APIView):
        permission_classes = [access.ApiRule]
        access_rules = {None: TableRule.RUN}

        def post(self, request): ...

    class Anywhere(APIView):  # a new tournament: decided without one
        permission_classes = [access.ApiRule]
        access_rules = {None: Action.CREATE}

        def post(self, request): ...

    assert [problem.split(": ", 1)[1] for problem in problems(Forgot, [("POST", "seat")])] == [
        "'seat' needs a tournament but no get_access_tournament()",
        "a rule for 'lnik', which no route offers",
    ]
    assert "writes without a rule" in " ".join(problems(Unruled, [("POST", None)]))
    assert "without access.ApiRule" in " ".join(problems(Ungated, [("GET", None)]))
    assert "no get_access_table()" in " ".join(problems(NoTable, [("POST", None)]))
    assert problems(Anywhere, [("POST", None)]) == []
