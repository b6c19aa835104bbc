"""Every page of the site, found by walking the URL conf (the CSP test and the axe walk): each
GET route whose parameters the fuzz world (tests/dress_rehearsal/_fuzz_world.py) can fill, plus
what the walk cannot reach. A page added later is visited without touching the tests."""

from __future__ import annotations

import re

from routes import url_routes

#: Route prefixes not walked: Django admin (superusers only, Django's own templates), JSON and
#: file answers, redirects and one-time links.
SKIPPED = ("admin/", "api/v1/", "api/schema/", "healthz", "favicon.ico", "logout/", "i18n/",
           "password/set/", "b/", "banker/sw.js")
#: Pages the walk cannot fill in (a second table, the seated tournament), or that matter most.
EXTRA_PAGES = ["/t/fuzz/tables/2/", "/t/fuzz-open/", "/manage/fuzz-open/rounds/1/",
               "/api/docs/", "/login/"]


def walked_pages(world) -> list[str]:
    """Every GET route the world can fill in, plus :data:`EXTRA_PAGES`. A new route whose
    parameter is missing here is skipped: add its value below."""
    from scoring.screens import add_screen

    table = world.tables[0]
    player = world.players[0]
    screen = add_screen(tournament=world.running, name="Eingang")
    values = {"slug": "fuzz", "number": "1", "table_number": "1", "table_id": str(table.pk),
              "player_id": str(player.pk), "pk": str(player.pk),
              "game_id": str(world.counted.pk), "code": player.pass_code, "key": screen.key,
              "screen_id": str(screen.pk)}
    pages = []
    for route, *_ in url_routes():
        if route.startswith(SKIPPED) or route.startswith("^") or "(?P" in route:
            continue
        names = re.findall(r"<(?:\w+:)?(\w+)>", route)
        if any(name not in values for name in names):
            continue  # print jobs, documents, staff roles: no page of their own to show
        pages.append("/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: values[m.group(1)], route))
    # The console in the count's states (issue 28: a violation around the count): table 2's
    # result counted, awaiting its code (the walk's table_id is table 1, still playing).
    consoles = [f"/banker/table/{world.tables[1].pk}/"]
    return [*dict.fromkeys(pages + EXTRA_PAGES + consoles)]


def signup_pages(world) -> list[str]:
    """The sign-up's pages with content: the open form, a registrant's page and its asks."""
    from tournament.models import (
        Signup,
        SignupMail,
        SignupSettings,
        Tournament,
    )

    cup = Tournament.objects.get(slug="fuzz-open")
    SignupSettings.objects.create(tournament=cup, is_open=True, capacity=40, entry_fee="10 €")
    signup = Signup.objects.create(tournament=cup, name="Neu Ling", email="neu@example.org",
                                   email_key="neu@example.org")
    SignupMail.objects.create(tournament=cup, signup=signup, kind="confirm", to=signup.email,
                              subject="Bitte bestätigen", body="…", status="failed",
                              error="refused")
    base = f"/t/{cup.slug}/signup/{signup.token}/"
    return ["/t/fuzz-open/signup/", base, f"{base}confirm/", f"{base}withdraw/",
            "/manage/fuzz-open/signups/", "/manage/fuzz-open/outbox/"]
