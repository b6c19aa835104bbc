"""Issue 30's demo: ``demo-open`` has its sign-up open, every place taken and a short waiting
list; with the file backend a sign-up's mail lands in EMAIL_FILE_PATH and its link confirms."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from tournament.models import Signup, Tournament
from tournament.signup import selectors

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def test_the_demo_open_tournament_and_a_sign_up_mail_as_a_file(
        client, settings, tmp_path, capsys, django_capture_on_commit_callbacks):
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path)
    call_command("demo", "--no-serve")
    out = capsys.readouterr().out
    assert "/t/demo-open/signup/" in out and str(tmp_path) in out
    cup = Tournament.objects.get(slug="demo-open")
    state = selectors.state(cup)
    assert (state.open, state.capacity, state.places_left, state.waiting) == (True, 24, 0, 3)
    assert list(tmp_path.iterdir()) == []  # the demo's own rows sent nothing

    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post("/t/demo-open/signup/", {
            "name": "Neu Ling", "email": "neu@example.org", "website": ""})
    assert answer.status_code == 302
    (message,) = tmp_path.iterdir()
    text = message.read_text()
    assert "To: neu@example.org" in text
    confirm = re.search(r"http://testserver(/t/demo-open/signup/[^/\s]+/confirm/)", text)[1]
    with django_capture_on_commit_callbacks(execute=True):
        client.post(confirm, {})
    signup = Signup.objects.get(email="neu@example.org")
    assert signup.status == Signup.Status.WAITING and selectors.position(signup) == 4

    call_command("demo", "--no-serve")  # again: nothing duplicated, the sign-up kept
    assert Signup.objects.filter(tournament=cup).count() == 24 - 4 + 3 + 1


def test_email_file_path_and_the_smtp_settings_come_from_the_environment(tmp_path):
    code = ("from django.conf import settings as s; "
            "print(s.EMAIL_BACKEND, s.EMAIL_FILE_PATH, s.EMAIL_HOST, s.EMAIL_PORT)")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings",
           "EMAIL_FILE_PATH": str(tmp_path)}
    env.pop("EMAIL_HOST", None)
    files = subprocess.run([sys.executable, "-c", f"import django; django.setup(); {code}"],
                           cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert files.stdout.split()[:2] == ["django.core.mail.backends.filebased.EmailBackend",
                                        str(tmp_path)]
    env.update(EMAIL_HOST="smtp.example.org", EMAIL_PORT="465")
    smtp = subprocess.run([sys.executable, "-c", f"import django; django.setup(); {code}"],
                          cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    backend, _path, host, port = smtp.stdout.split()
    assert (backend, host, port) == ("django.core.mail.backends.smtp.EmailBackend",
                                     "smtp.example.org", "465")
