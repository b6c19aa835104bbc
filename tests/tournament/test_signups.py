"""Issue 30: players sign themselves up — the rules of the sign-up, the waiting list and its
e-mails, through the services and the public pages."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import time_machine
from django.core import mail
from django.utils import timezone
from factories import OrganizerFactory, PlayerFactory, TournamentFactory

from tournament import privacy
from tournament.errors import SignupClosed, SignupFull, SignupLinkInvalid
from tournament.models import (
    Player,
    Signup,
    SignupMail,
    SignupSettings,
    Tournament,
)
from tournament.players import services as players
from tournament.signup import outbox, selectors, services

pytestmark = pytest.mark.django_db


@pytest.fixture
def commits(django_capture_on_commit_callbacks):
    """Run what the services queue after their commit (the mails), as a real request would."""

    def run(function, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return function(*args, **kwargs)

    return run


def open_tournament(*, capacity: int | None = 2, waiting_list: bool = True, **kwargs) -> Tournament:
    tournament = TournamentFactory(status=Tournament.Status.REGISTRATION, **kwargs)
    SignupSettings.objects.create(tournament=tournament, is_open=True, capacity=capacity,
                                  waiting_list=waiting_list, entry_fee="10 €")
    return tournament


def sign_up(commits, tournament, name, email=None, *, language="de", confirm=True) -> Signup:
    email = email or f"{name.split()[0].lower()}@example.org"
    signup = commits(services.sign_up, tournament=tournament, name=name, email=email,
                     language=language, base_url="http://testserver/")
    if confirm:
        signup = commits(services.confirm, token=signup.token)
    return signup


def links_in(message) -> list[str]:
    return re.findall(r"https?://\S+", message.body)


# --- Double opt-in ---------------------------------------------------------------------------


def test_a_sign_up_is_pending_until_the_link_in_its_mail_is_followed(commits):
    tournament = open_tournament()
    signup = sign_up(commits, tournament, "Anna Weiß", confirm=False)
    assert signup.status == Signup.Status.PENDING
    assert not Player.objects.filter(tournament=tournament).exists()
    assert len(mail.outbox) == 1
    confirm_link = next(link for link in links_in(mail.outbox[0]) if "/confirm/" in link)
    assert signup.token in confirm_link
    signup = commits(services.confirm, token=signup.token)
    assert signup.status == Signup.Status.REGISTERED
    player = signup.player
    assert player.tournament == tournament and player.name == "Anna Weiß"
    assert player.email == "anna@example.org" and not player.checked_in
    registered = mail.outbox[-1]
    assert f"/p/{player.pass_code}/" in registered.body  # the player card's link
    assert SignupMail.objects.filter(signup=signup, status="sent").count() == 2


def test_confirming_twice_changes_nothing(commits):
    tournament = open_tournament()
    signup = sign_up(commits, tournament, "Anna Weiß")
    again = commits(services.confirm, token=signup.token)
    assert again.player_id == signup.player_id
    assert Player.objects.filter(tournament=tournament).count() == 1
    assert len(mail.outbox) == 2


def test_an_unconfirmed_sign_up_expires_after_48_hours(commits):
    tournament = open_tournament()
    with time_machine.travel(timezone.now(), tick=False) as clock:
        signup = sign_up(commits, tournament, "Anna Weiß", confirm=False)
        clock.shift(dt.timedelta(hours=47, minutes=59))
        assert services.expire_pending() == 0
        clock.shift(dt.timedelta(minutes=1))
        with pytest.raises(SignupLinkInvalid):
            services.confirm(token=signup.token)
        assert services.sweep()["expired"] == 1
    assert not Signup.objects.filter(pk=signup.pk).exists()
    assert not SignupMail.objects.filter(to="anna@example.org").exists()


# --- Capacity and the waiting list -------------------------------------------------------------


def test_once_the_places_are_taken_confirmed_sign_ups_wait_in_order(commits):
    tournament = open_tournament(capacity=2)
    first, second = (sign_up(commits, tournament, name) for name in ("Anna A", "Bert B"))
    third, fourth = (sign_up(commits, tournament, name) for name in ("Carl C", "Dora D"))
    assert [first.status, second.status] == ["registered", "registered"]
    assert [third.status, fourth.status] == ["waiting", "waiting"]
    assert [selectors.position(third), selectors.position(fourth)] == [1, 2]
    assert third.player is None
    waiting_mail = SignupMail.objects.get(signup=third, kind="waiting")
    assert "Platz 1" in waiting_mail.body and waiting_mail.status == "sent"
    state = selectors.state(tournament)
    assert (state.places_left, state.waiting, state.open) == (0, 2, True)


def test_players_the_desk_entered_take_places_too(commits):
    tournament = open_tournament(capacity=2)
    PlayerFactory(tournament=tournament)
    PlayerFactory(tournament=tournament)
    assert sign_up(commits, tournament, "Anna A").status == Signup.Status.WAITING


def test_full_without_a_waiting_list_the_sign_up_is_closed(commits):
    tournament = open_tournament(capacity=2, waiting_list=False)
    pending = sign_up(commits, tournament, "Late L", confirm=False)
    sign_up(commits, tournament, "Anna A")
    sign_up(commits, tournament, "Bert B")
    with pytest.raises(SignupFull):
        commits(services.sign_up, tournament=tournament, name="Carl C", email="c@example.org")
    with pytest.raises(SignupFull):  # confirmed too late: no place, no list
        services.confirm(token=pending.token)


def test_withdrawing_moves_the_first_waiting_up_and_mails_them(commits):
    tournament = open_tournament(capacity=1)
    first = sign_up(commits, tournament, "Anna A")
    second = sign_up(commits, tournament, "Bert B", language="en")
    third = sign_up(commits, tournament, "Carl C")
    mail.outbox.clear()
    commits(services.withdraw, token=first.token)
    first.refresh_from_db(), second.refresh_from_db(), third.refresh_from_db()
    assert first.status == Signup.Status.WITHDRAWN and first.player is None
    assert not Player.objects.filter(name="Anna A").exists()
    assert second.status == Signup.Status.REGISTERED and second.player.name == "Bert B"
    assert third.status == Signup.Status.WAITING and selectors.position(third) == 1
    to_second = [m for m in mail.outbox if m.to == ["bert@example.org"]]
    assert len(to_second) == 1
    assert "moved up" in to_second[0].body  # English, as Bert signed up and f"/p/{second.player.pass_code}/" in to_second[0].body
    assert SignupMail.objects.get(signup=second, kind="moved_up").status == "sent"


def test_the_organizer_deleting_a_player_before_the_start_moves_the_list_up(commits):
    tournament = open_tournament(capacity=1)
    first = sign_up(commits, tournament, "Anna A")
    second = sign_up(commits, tournament, "Bert B")
    commits(players.delete_player, player=first.player)
    second.refresh_from_db(), first.refresh_from_db()
    assert second.status == Signup.Status.REGISTERED
    assert first.status == Signup.Status.WITHDRAWN


def test_a_drop_out_before_the_start_moves_the_list_up_but_not_once_it_runs(commits):
    tournament = open_tournament(capacity=2)
    first = sign_up(commits, tournament, "Anna A")
    second = sign_up(commits, tournament, "Bert B")
    third = sign_up(commits, tournament, "Carl C")
    fourth = sign_up(commits, tournament, "Dora D")
    commits(players.drop_out, player=first.player)
    third.refresh_from_db()
    assert third.status == Signup.Status.REGISTERED
    assert SignupMail.objects.filter(signup=third, kind="moved_up", status="sent").exists()
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    commits(players.drop_out, player=Signup.objects.get(pk=second.pk).player)
    assert Signup.objects.get(pk=fourth.pk).status == Signup.Status.WAITING
    assert Signup.objects.get(pk=second.pk).status == Signup.Status.REGISTERED


def test_the_organizer_moves_someone_up_by_hand_with_a_reason(commits):
    from tournament import audit

    tournament = open_tournament(capacity=1)
    sign_up(commits, tournament, "Anna A")
    second = sign_up(commits, tournament, "Bert B")
    third = sign_up(commits, tournament, "Carl C")
    organizer = OrganizerFactory(tournaments=[tournament])
    commits(services.move_up, signup=third, actor=organizer, reason="Vorjahressieger")
    third.refresh_from_db()
    assert third.status == Signup.Status.REGISTERED
    assert selectors.position(Signup.objects.get(pk=second.pk)) == 1
    entries = audit.entries(tournament, what="signup.move_up")
    assert entries.exists()
    assert all(e.additional_data.get("reason") == "Vorjahressieger" for e in entries)


# --- One sign-up per address; names as the desk ---------------------------------------------


def test_the_same_address_twice_is_one_sign_up(commits):
    tournament = open_tournament()
    first = sign_up(commits, tournament, "Anna Weiß", "Anna@Example.org")
    again = commits(services.sign_up, tournament=tournament, name="Anna Weiss",
                    email="  anna@EXAMPLE.org ")
    assert again.pk == first.pk and Signup.objects.filter(tournament=tournament).count() == 1
    assert Player.objects.filter(tournament=tournament).count() == 1
    assert SignupMail.objects.filter(signup=first).latest("pk").kind == "status"


def test_a_pending_address_again_gets_a_fresh_link(commits):
    tournament = open_tournament()
    with time_machine.travel(timezone.now(), tick=False) as clock:
        first = sign_up(commits, tournament, "Anna A", confirm=False)
        clock.shift(dt.timedelta(hours=40))
        sign_up(commits, tournament, "Anna A", confirm=False)
        clock.shift(dt.timedelta(hours=20))
        assert commits(services.confirm, token=first.token).status == "registered"


def test_a_name_taken_in_the_tournament_is_refused_as_at_the_desk(commits):
    tournament = open_tournament()
    PlayerFactory(tournament=tournament, name="Anna Müller")
    with pytest.raises(players.PlayerNameTaken):
        commits(services.sign_up, tournament=tournament, name="anna  MÜLLER", email="a@x.org")
    with pytest.raises(players.PlayerInvalid):
        commits(services.sign_up, tournament=tournament, name="   ", email="b@x.org")


def test_closed_or_not_yet_open_refuses(commits):
    tournament = open_tournament()
    settings = tournament.signup_settings
    settings.opens_at = timezone.now() + dt.timedelta(days=1)
    settings.save()
    with pytest.raises(SignupClosed):
        services.sign_up(tournament=tournament, name="A", email="a@x.org")
    services.close_early(tournament=tournament, actor=None)
    assert selectors.state(Tournament.objects.get(pk=tournament.pk)).reason == "closed"


# --- E-mail: the registrant's language, the outbox --------------------------------------------


def test_mails_are_in_the_registrants_language(commits):
    tournament = open_tournament()
    sign_up(commits, tournament, "Anna A", language="de", confirm=False)
    sign_up(commits, tournament, "Bert B", language="en", confirm=False)
    german, english = mail.outbox
    assert "bestätigen" in german.subject.lower() and "Hallo Anna A" in german.body
    assert "confirm" in english.subject.lower() and "Hello Bert B" in english.body


def test_a_failed_mail_is_recorded_and_sent_again(commits, settings):
    tournament = open_tournament()
    settings.EMAIL_BACKEND = "tests_signup_backend.Broken"
    signup = sign_up(commits, tournament, "Anna A", confirm=False)
    row = SignupMail.objects.get(signup=signup)
    assert (row.status, row.attempts) == ("failed", 1) and "refused" in row.error
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert services.retry_outbox() == 1
    row.refresh_from_db()
    assert (row.status, row.attempts) == ("sent", 2)
    assert outbox.deliver(mail_id=row.pk) == "sent"  # idempotent: not sent twice
    assert len(mail.outbox) == 1


def test_the_reminder_goes_the_day_before_once(commits):
    tomorrow = timezone.localdate() + dt.timedelta(days=1)
    tournament = open_tournament(date=tomorrow, venue="Rathaus")
    signup = sign_up(commits, tournament, "Anna A")
    mail.outbox.clear()
    assert commits(services.send_reminders) == 1
    assert commits(services.send_reminders) == 0
    assert "Rathaus" in mail.outbox[0].body and signup.player.pass_code in mail.outbox[0].body


# --- Erasure -----------------------------------------------------------------------------------


def test_erasing_a_player_removes_their_sign_up_and_its_mails(commits):
    tournament = open_tournament()
    signup = sign_up(commits, tournament, "Anna A")
    assert SignupMail.objects.filter(signup=signup).exists()
    privacy.erase_player(player=signup.player, actor=None)
    assert not Signup.objects.filter(pk=signup.pk).exists()
    assert not SignupMail.objects.filter(to="anna@example.org").exists()
