"""The first organizer of an empty installation: asked for, or a one-time link."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from laptop import organizer

pytestmark = pytest.mark.django_db


def test_without_a_terminal_a_passwordless_organizer_gets_a_one_time_link(client):
    made = organizer.ensure_organizer(username="orga", interactive=False)
    user = User.objects.get(username="orga")
    assert made.created and made.link_path.startswith("/password/set/")
    assert user.is_staff and user.is_superuser and not user.has_usable_password()
    # started again before the password was set: a new link for the same account
    again = organizer.ensure_organizer(username="orga", interactive=False)
    assert again.link_path and not again.created

    page = client.get(made.link_path, follow=True)
    assert page.status_code == 200 and b"new_password1" in page.content
    form_url = page.redirect_chain[-1][0]
    short = client.post(form_url, {"new_password1": "abc", "new_password2": "abc"})
    assert short.status_code == 200 and not User.objects.get(pk=user.pk).has_usable_password()
    done = client.post(form_url, {"new_password1": "Schlossallee-4000",
                                  "new_password2": "Schlossallee-4000"})
    assert done.status_code == 302 and done["Location"] == "/start/"  # lands where they work
    assert client.get("/manage/").status_code == 200  # logged in as the organizer
    assert User.objects.get(pk=user.pk).check_password("Schlossallee-4000")
    assert organizer.ensure_organizer(username="orga", interactive=False) is None

    client.logout()
    used = client.get(made.link_path, follow=True)
    assert b"new_password1" not in used.content  # the link worked once


def test_at_a_terminal_the_password_is_asked_for_twice_and_checked():
    answers = iter(["Bahnhofstr-77", "other", "123", "123", "Bahnhofstr-77", "Bahnhofstr-77"])
    said = []
    made = organizer.ensure_organizer(username="organizer", interactive=True,
                                      ask=lambda prompt: "", ask_secret=lambda p: next(answers),
                                      say=said.append)
    assert made.username == "organizer" and made.link_path is None
    assert User.objects.get(username="organizer").check_password("Bahnhofstr-77")
    assert len(said) == 2  # the mismatch, then the too-short/numeric password


def test_an_existing_organizer_is_left_alone():
    User.objects.create_user("chef", password="x", is_staff=True)
    assert organizer.ensure_organizer(username="organizer", interactive=False) is None
    assert not User.objects.filter(username="organizer").exists()


def test_the_link_is_printed_at_the_first_start_only_and_on_request(tmp_path, settings):
    """Issue 26 (13): ``make serve`` printed the set-password link at every start, beside the
    QR codes meant for the hall."""
    import io

    from django.core.management import call_command

    made = organizer.ensure_organizer(username="orga", interactive=False)
    assert organizer.link_to_print(made, data_dir=tmp_path) == made.link_path
    again = organizer.ensure_organizer(username="orga", interactive=False)
    assert again.link_path and organizer.link_to_print(again, data_dir=tmp_path) is None
    settings.DATA_DIR = tmp_path
    out = io.StringIO()
    call_command("organizer_link", "orga", stdout=out)
    assert "/password/set/" in out.getvalue() and "'orga'" in out.getvalue()
