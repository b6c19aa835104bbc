"""Checks of how places score: the points per place and the tie-break chain. Each problem
is reported through ``problem(field, code, message, **params)`` (see
``tournament.tournaments.validate_settings``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from tournament.models import Tournament


def is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_points(points: Any, table_size: int | None, problem) -> None:
    if not isinstance(points, list | tuple) or not points or not all(is_whole(p) for p in points):
        problem(
            "placement_points",
            "points_not_numbers",
            _("Points per place must be whole numbers, e.g. 6,5,4,3,2,1."),
        )
        return
    if any(p < 1 for p in points):
        problem(
            "placement_points",
            "points_not_positive",
            _("Points per place must be positive: %(points)s."),
            points=",".join(map(str, points)),
        )
    if any(later > earlier for earlier, later in zip(points, points[1:], strict=False)):
        problem(
            "placement_points",
            "points_increasing",
            _("A better place cannot earn fewer points: %(points)s must not increase."),
            points=",".join(map(str, points)),
        )
    if table_size and len(points) < table_size:
        problem(
            "placement_points",
            "points_too_few",
            _("Points are given for %(count)s places, but a table seats %(size)s players."),
            count=len(points),
            size=table_size,
        )


def check_tie_breaks(keys: Any, problem) -> None:
    if not isinstance(keys, list | tuple) or not keys:
        problem("tie_breaks", "tie_breaks_missing", _("Choose at least one tie-break."))
        return
    known = set(Tournament.TieBreak.values)
    unknown = [key for key in keys if key not in known]
    if unknown:
        problem(
            "tie_breaks",
            "tie_break_unknown",
            _("There is no tie-break “%(key)s”. Known: %(known)s."),
            key=unknown[0],
            known=", ".join(Tournament.TieBreak.values),
        )
    seen: set[str] = set()
    for key in keys:
        if key in seen:
            problem(
                "tie_breaks",
                "tie_break_duplicate",
                _("The tie-break “%(name)s” is chosen twice; each may appear once."),
                name=Tournament.TieBreak(key).label,
            )
            break
        seen.add(key)
