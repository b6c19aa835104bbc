"""Issue 28, "Words": the audit page says what happened in the reader's language — German names
for every action (also writes filed under their page, and all of them in the filter), field
names in words, "–" for nothing, people by name, choices by their label, times in local time —
for a result confirmation, an incident and a change of the tournament's settings."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation
from factories import OrganizerFactory, PlayerFactory, TournamentFactory, UserFactory, appoint
from gameplay import make_round, play

from referee import results, rulings, services
from referee.results import revision_of
from tournament import audit, incidents
from tournament.models import StaffRole, Tournament

pytestmark = pytest.mark.django_db

RAW = ("confirmed_by", "confirmed_via", "level", "overrides", "time_limit_minutes", "None",
       "head_referee", "deduction", "{", "True", "False", "Preliminary round", "Confirmed")
UNTRANSLATED = ("Console dispute", "Console count", "Round seat", "Round lock", "Round start",
                "Round create", "Player new code")


def _audit_table(client: Client, slug: str) -> str:
    page = client.get(f"/manage/{slug}/audit/?everything=on").content.decode()
    return page[page.index('data-testid="audit"'):page.index("</table>")]


def test_the_audit_page_in_german_has_no_raw_names_values_or_utc_stamps():
    tournament = TournamentFactory(slug="worte", status=Tournament.Status.RUNNING)
    people = [PlayerFactory(tournament=tournament, name=f"Spieler {n}") for n in range(8)]
    _round, tables = make_round(tournament, 1, [people[:4], people[4:]])
    organizer = OrganizerFactory(username="orga", tournaments=[tournament])
    judge = appoint(UserFactory(username="mrmonopoly", first_name="Max", last_name="Richter"),
                    StaffRole.Role.HEAD_REFEREE, tournament)
    # written from an English page, read in German
    with translation.override("en"):
        # a result confirmed by the head referee
        game = play(tables[0], {p: 1000 * (i + 1) for i, p in enumerate(people[:4])}, confirm=False)
        results.confirm_result(game_id=game.pk, revision=revision_of(game.pk),
                               code=None, by=judge, head_referee=True)
        # an incident: a point deduction
        incidents.record_incident(player=people[0], level="deduction", points=2,
                                  note="Würfel geworfen", by=judge)
        # extra minutes for the other table (the game's overrides)
        other = services.ensure_game(table=tables[1])
        services.post_event(game_id=other.pk, event={"type": "start"}, author=None)
        rulings.extra_time(game_id=other.pk, minutes=5, reason="Stromausfall", by=judge)
        # the tournament's settings
        with audit.action(tournament=tournament, actor=organizer,
                          what="page:organizer:tournament-settings"):
            tournament.time_limit_minutes = 95
            tournament.save()

    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(organizer)
    table = _audit_table(client, "worte")
    text = re.sub(r"<[^>]+>", " ", table)
    for raw in RAW:
        assert raw not in text, (raw, text)
    assert not re.search(r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}", text)  # no stored UTC stamps
    assert "Max Richter" in text  # the confirming head referee by name, not by id
    assert "Punktabzug" in text  # the incident's level by its label
    assert "95" in text and "Einstellungen" in text
    assert ">Was<" not in table  # the column says what the row concerns


def test_every_page_action_has_german_words_and_is_in_the_filter():
    with translation.override("de"):
        for code in ("page:banker:console-dispute", "page:banker:console-count",
                     "page:organizer:round_seat", "page:organizer:round_lock",
                     "page:organizer:round_start", "page:organizer:round_create",
                     "page:organizer:player-new-code"):
            words = audit.label(code)
            assert words not in UNTRANSLATED and words == str(audit.PAGE_ACTIONS[code]), code
        choices = dict(audit.filter_choices())
        for code in ("page:banker:console-dispute", "page:organizer:round_seat",
                     "page:organizer:player-new-code"):
            assert audit.label(code) in choices.values()
    tournament = TournamentFactory(slug="filter")
    organizer = OrganizerFactory(tournaments=[tournament])
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(organizer)
    page = client.get("/manage/filter/audit/").content.decode()
    assert 'value="page:banker:console-dispute"' in page
    assert not any(words in page for words in UNTRANSLATED)


def test_the_filter_finds_an_action_by_its_words_also_where_its_page_filed_it():
    tournament = TournamentFactory(slug="wie")
    organizer = OrganizerFactory(tournaments=[tournament])
    for code in ("player.drop", "page:organizer:player-drop-out", "page:organizer:player-edit"):
        audit.note(tournament=tournament, actor=organizer, what=code)
    found = {line.action for line in audit.lines(audit.entries(tournament, what="player.drop"))}
    assert found == {"player.drop", "page:organizer:player-drop-out"}
