"""The staff pages' controls look like the site's (walk of the demo): no button in the browser's
default style (on the public pages neither), and the staff page's "create a new account" box sits
beside its label."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from factories import TournamentFactory, UserFactory, appoint

from tournament.models import StaffRole

TEMPLATES = Path(settings.BASE_DIR) / "templates"


def _staff_templates() -> list[Path]:
    """Every template of the staff's pages: those built on tournament/base.html."""
    return [path for path in sorted(TEMPLATES.rglob("*.html"))
            if '{% extends "tournament/base.html" %}' in path.read_text()]


def _bare_buttons(paths: list[Path], classes: str) -> list[str]:
    """The ``<button>`` tags of ``paths`` with none of ``classes`` (a regex alternation)."""
    return [f"{path.relative_to(TEMPLATES)}: {tag[:80]}"
            for path in paths
            for tag in re.findall(r"<button\b[^>]*>", path.read_text())
            if not re.search(rf'class="[^"]*\b({classes})\b', tag)]


def test_every_button_of_the_staff_pages_has_a_class_of_the_site():
    assert not _bare_buttons(_staff_templates(), "primary|secondary|link")


def test_every_button_of_the_public_pages_has_a_class_of_the_site():
    """The public pages too (the walk: "Öffnen" on the player-card page and "Suchen" on the
    standings in the browser's grey): a site's button class, public.css's ``danger`` of the
    withdrawal form, or the projector's own full-screen control."""
    public = sorted((TEMPLATES / "public").rglob("*.html"))
    assert len(public) > 20 and not set(public) & set(_staff_templates())
    assert not _bare_buttons(public, "primary|secondary|link|danger|screen-fullscreen")


def _organizers_page(client, page: str) -> str:
    """A tournament's page ``/manage/cup/<page>/`` as its organizer sees it."""
    tournament = TournamentFactory(slug="cup")
    client.force_login(appoint(UserFactory(username="orga"), StaffRole.Role.ORGANIZER, tournament))
    return client.get(f"/manage/{tournament.slug}/{page}/").content.decode()


@pytest.mark.django_db
def test_the_staff_page_sets_its_checkbox_beside_its_label_and_styles_remove(client):
    html = _organizers_page(client, "staff")
    box = re.search(r'<div class="field check">\s*<input type="checkbox" name="create"[^>]*>\s*'
                    r'<label for="id_create">', html)
    assert box, "the checkbox and its label share one .field.check row"
    form = re.search(r'<form[^>]*data-form="appoint"[^>]*>', html).group(0)
    assert "form-grid" in form
    remove = re.search(r'<button[^>]*aria-label="Entfernen[^>]*>', html).group(0)
    assert re.search(r'class="[^"]*\bsecondary\b', remove)


@pytest.mark.django_db
def test_the_sign_up_settings_set_each_checkbox_beside_its_label(client):
    html = _organizers_page(client, "signups")
    form = re.search(r'<form[^>]*data-form="signup-settings".*?</form>', html, re.S).group(0)
    boxes = re.findall(r'<input type="checkbox" name="(\w+)"', form)
    assert boxes
    for name in boxes:
        assert re.search(rf'<div class="field check">\s*<input type="checkbox" name="{name}"[^>]*>'
                         rf'\s*<label for="id_{name}">', form), name
