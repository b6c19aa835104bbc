"""Tournament settings: validation, rulesets and boards from the engine, frozen once running."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import translation
from factories import OrganizerFactory, TournamentFactory, UserFactory, seated_table

from referee import services as referee
from tournament import tournaments
from tournament.models import Tournament

pytestmark = pytest.mark.django_db

S = Tournament.Status
DATE = dt.date(2026, 11, 28)


def _codes(info) -> list[str]:
    return [problem.code for problem in info.value.problems]


def test_choices_come_from_the_rules_engine():
    from referee import rules

    assert [key for key, _ in tournaments.ruleset_choices()] == list(rules.RULESETS)
    assert [key for key, _ in tournaments.board_choices()] == list(rules.BOARD_KEYS)
    assert tournaments.ruleset_defaults("karlsruhe")["time_limit_minutes"] == 90
    assert tournaments.ruleset_defaults("karlsruhe")["auction_stop_minutes"] == 45
    assert tournaments.ruleset_defaults("nope") is None


def test_create_is_a_draft_with_defaults_and_the_rulesets_board():
    tournament = tournaments.create_tournament(
        name="  Stadtmeisterschaft  ", slug="ka-2026", date=DATE, ruleset="classic-dm"
    )
    assert tournament.status == S.DRAFT
    assert tournament.name == "Stadtmeisterschaft"
    assert tournament.board == "classic-de-dm"
    assert tournament.placement_points == [6, 5, 4, 3, 2, 1]
    assert tournament.time_limit_minutes is None
    assert tournaments.effective_times(
        tournaments.create_tournament(name="K", slug="k", date=DATE)
    ) == {"time_limit_minutes": 90, "auction_stop_minutes": 45, "time_limit_mode": "at_once"}


def test_create_with_every_setting():
    tournament = tournaments.create_tournament(
        name="Schweizer Cup",
        slug="swiss",
        date=DATE,
        venue="Basel",
        ruleset="classic",
        board="classic-de",
        table_size=4,
        preliminary_rounds=4,
        format=Tournament.Format.PLACEMENT_POINTS,
        final_decides=False,
        placement_points=[4, 3, 2, 1],
        tie_breaks=["points", "net_worth_sum", "lot"],
        finalists=8,
        time_limit_minutes=60,
        auction_stop_minutes=30,
        time_limit_mode="finish_round",
        results_public_immediately=False,
    )
    tournament.refresh_from_db()
    assert tournament.table_size == 4 and tournament.placement_points == [4, 3, 2, 1]
    assert tournament.tie_breaks == ["points", "net_worth_sum", "lot"]
    assert tournament.finalists == 8  # more than one table is fine when the final does not decide
    assert tournaments.effective_times(tournament)["time_limit_mode"] == "finish_round"


@pytest.mark.parametrize(
    ("points", "code"),
    [
        ([6, 5, 4, 3, 2, 0], "points_not_positive"),
        ([6, 5, -1, 3, 2, 1], "points_not_positive"),
        ([6, 5, 4, 5, 2, 1], "points_increasing"),
        ([1, 2, 3, 4, 5, 6], "points_increasing"),
        ([6, 5, 4], "points_too_few"),
        ([], "points_not_numbers"),
        (["6", "5"], "points_not_numbers"),
        ([6.5, 5, 4, 3, 2, 1], "points_not_numbers"),
        ([True, 1, 1, 1, 1, 1], "points_not_numbers"),
    ],
)
def test_bad_points_lists_are_refused(points, code):
    with pytest.raises(tournaments.SettingsInvalid) as info:
        tournaments.create_tournament(name="T", slug="t", date=DATE, placement_points=points)
    assert code in _codes(info)
    assert info.value.problems[0].field == "placement_points"
    assert not Tournament.objects.exists()


def test_equal_points_and_longer_lists_are_fine():
    tournament = tournaments.create_tournament(
        name="T", slug="t", date=DATE, placement_points=[6, 4, 4, 2, 1, 1, 1]
    )
    assert tournament.placement_points == [6, 4, 4, 2, 1, 1, 1]


@pytest.mark.parametrize(
    ("keys", "code"),
    [
        (["points", "lot", "points"], "tie_break_duplicate"),
        (["points", "coin_toss"], "tie_break_unknown"),
        ([], "tie_breaks_missing"),
    ],
)
def test_bad_tie_break_chains_are_refused(keys, code):
    with pytest.raises(tournaments.SettingsInvalid) as info:
        tournaments.create_tournament(name="T", slug="t", date=DATE, tie_breaks=keys)
    assert _codes(info) == [code]


def test_duplicate_tie_break_message_names_it():
    with pytest.raises(tournaments.SettingsInvalid) as info:
        tournaments.create_tournament(name="T", slug="t", date=DATE, tie_breaks=["lot", "lot"])
    assert "Lot" in info.value.message_in("en")


@pytest.mark.parametrize(
    ("settings", "code"),
    [
        ({"ruleset": "monopoly-deluxe"}, "ruleset_unknown"),
        ({"board": "mars"}, "board_unknown"),
        ({"table_size": 8}, "table_size_ruleset"),  # Karlsruhe seats at most 6
        ({"table_size": 9}, "table_size_invalid"),
        ({"preliminary_rounds": 99}, "preliminary_rounds_invalid"),
        ({"format": "knockout"}, "format_unknown"),
        ({"finalists": 1}, "finalists_invalid"),
        ({"finalists": 7}, "finalists_exceed_table"),
        ({"time_limit_minutes": 0}, "minutes_invalid"),
        ({"auction_stop_minutes": 90}, "auction_stop_after_limit"),
        ({"time_limit_minutes": 40}, "auction_stop_after_limit"),  # the ruleset's stop is 45
        ({"time_limit_mode": "sudden_death"}, "time_limit_mode_unknown"),
        ({"slug": "new"}, "slug_reserved"),
        ({"slug": "mit leerzeichen"}, "slug_invalid"),
        ({"name": "   "}, "name_missing"),
    ],
)
def test_bad_settings_are_refused_with_a_code(settings, code):
    values = {"name": "T", "slug": "t", "date": DATE, **settings}
    with pytest.raises(tournaments.SettingsInvalid) as info:
        tournaments.create_tournament(**values)
    assert code in _codes(info)
    assert info.value.http_status == 400


def test_taken_slug_is_refused():
    TournamentFactory(slug="taken")
    with pytest.raises(tournaments.SettingsInvalid) as info:
        tournaments.create_tournament(name="T", slug="taken", date=DATE)
    assert _codes(info) == ["slug_taken"]


def test_every_problem_is_reported_at_once():
    with pytest.raises(tournaments.SettingsInvalid) as info:
        tournaments.create_tournament(
            name="T", slug="t", date=DATE, placement_points=[1, 2], tie_breaks=["lot", "lot"]
        )
    assert set(_codes(info)) == {"points_increasing", "points_too_few", "tie_break_duplicate"}
    data = info.value.as_dict()
    assert data["code"] == "tournament_settings_invalid"
    assert {error["field"] for error in data["errors"]} == {"placement_points", "tie_breaks"}
    assert all(error["message_de"] and error["message_en"] for error in data["errors"])


def test_unknown_keyword_is_a_programming_error():
    with pytest.raises(TypeError):
        tournaments.create_tournament(name="T", slug="t", date=DATE, status="running")


# --- frozen once running ------------------------------------------------------------------

FROZEN_CHANGES = {
    "ruleset": "classic",
    "board": "classic-de-dm",
    "table_size": 5,
    "format": Tournament.Format.NET_WORTH_SUM,
    "final_decides": False,
    "placement_points": [5, 4, 3, 2, 1, 1],
    "tie_breaks": ["lot"],
}


@pytest.mark.parametrize("status", [S.RUNNING, S.FINISHED])
@pytest.mark.parametrize(("name", "value"), sorted(FROZEN_CHANGES.items()))
def test_seating_and_scoring_settings_are_frozen_once_running(status, name, value):
    tournament = TournamentFactory(status=status)
    with translation.override("en"), pytest.raises(tournaments.SettingsFrozen) as info:
        tournaments.update_tournament(tournament=tournament, **{name: value})
    assert info.value.code == "tournament_settings_frozen"
    assert info.value.http_status == 409
    with translation.override("en"):
        label = str(Tournament._meta.get_field(name).verbose_name)
    assert label in info.value.message_in("en")
    for language in ("de", "en"):  # the state in each language's words, not the asker's
        with translation.override(language):
            state = str(S(status).label)
        assert state in info.value.message_in(language), language
    tournament.refresh_from_db()
    assert getattr(tournament, name) != value


@pytest.mark.parametrize("status", [S.DRAFT, S.REGISTRATION])
def test_everything_may_change_before_the_start(status):
    tournament = TournamentFactory(status=status)
    tournaments.update_tournament(tournament=tournament, **FROZEN_CHANGES)
    tournament.refresh_from_db()
    assert tournament.ruleset == "classic" and tournament.table_size == 5


def test_other_settings_may_change_while_running():
    tournament = TournamentFactory(status=S.RUNNING)
    tournaments.update_tournament(
        tournament=tournament,
        name="Neuer Name",
        venue="Stadthalle",
        preliminary_rounds=4,
        time_limit_minutes=80,
        results_public_immediately=False,
        table_size=tournament.table_size,  # unchanged frozen values are fine
    )
    tournament.refresh_from_db()
    assert (tournament.name, tournament.time_limit_minutes) == ("Neuer Name", 80)


def test_frozen_message_names_every_frozen_setting():
    tournament = TournamentFactory(status=S.RUNNING)
    with pytest.raises(tournaments.SettingsFrozen) as info:
        tournaments.update_tournament(tournament=tournament, ruleset="classic", table_size=5)
    message = info.value.message_in("en")
    assert "ruleset" in message and "table size" in message


# --- the pages --------------------------------------------------------------------------


def _form(**overrides) -> dict:
    data = {
        "name": "Stadtmeisterschaft 2026",
        "slug": "ka-2026",
        "date": "2026-11-28",
        "venue": "Karlsruhe",
        "ruleset": "karlsruhe",
        "board": "classic-de",
        "table_size": "6",
        "preliminary_rounds": "3",
        "format": "placement_points",
        "final_decides": "on",
        "placement_points": "6,5,4,3,2,1",
        "finalists": "6",
        "tie_break_1": "points",
        "tie_break_2": "net_worth_sum",
        "tie_break_3": "lot",
        "tie_break_4": "",
        "tie_break_5": "",
        "time_limit_minutes": "",
        "auction_stop_minutes": "",
        "time_limit_mode": "",
        "results_public_immediately": "on",
    }
    data.update(overrides)
    return data


def test_create_page(client):
    client.force_login(OrganizerFactory())
    page = client.get("/manage/new/")
    assert page.status_code == 200
    assert 'value="karlsruhe"' in page.content.decode()
    response = client.post("/manage/new/", _form())
    assert response.status_code == 302
    tournament = Tournament.objects.get(slug="ka-2026")
    assert response["Location"] == "/manage/ka-2026/"
    assert tournament.status == S.DRAFT
    assert tournament.tie_breaks == ["points", "net_worth_sum", "lot"]
    assert tournament.time_limit_minutes is None and tournament.time_limit_mode == ""


def test_create_page_shows_domain_problems_inline(client):
    client.force_login(OrganizerFactory())
    response = client.post(
        "/manage/new/",
        _form(placement_points="1,2,3,4,5,6", tie_break_2="points", tie_break_3=""),
    )
    assert response.status_code == 200
    form = response.context["form"]
    assert "placement_points" in form.errors and "tie_break_2" in form.errors
    assert not Tournament.objects.exists()


def test_create_page_refuses_points_that_are_not_numbers(client):
    client.force_login(OrganizerFactory())
    response = client.post("/manage/new/", _form(placement_points="sechs, fünf"))
    assert response.status_code == 200
    assert "placement_points" in response.context["form"].errors
    assert not Tournament.objects.exists()


def test_points_accept_dashes_and_spaces(client):
    client.force_login(OrganizerFactory())
    client.post("/manage/new/", _form(placement_points="6-5-4-3-2-1"))
    assert Tournament.objects.get().placement_points == [6, 5, 4, 3, 2, 1]


def test_settings_page_edits(client):
    tournament = TournamentFactory(status=S.REGISTRATION, slug="cup")
    client.force_login(OrganizerFactory())
    assert client.get("/manage/cup/settings/").status_code == 200
    response = client.post(
        "/manage/cup/settings/",
        _form(slug="cup", table_size="5", finalists="5", time_limit_minutes="80"),
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.table_size == 5 and tournament.time_limit_minutes == 80


def test_settings_page_disables_frozen_fields_while_running(client):
    tournament = TournamentFactory(status=S.RUNNING, slug="cup", table_size=6)
    client.force_login(OrganizerFactory())
    page = client.get("/manage/cup/settings/")
    assert page.context["form"].fields["table_size"].disabled
    assert page.context["form"].fields["tie_break_1"].disabled
    assert not page.context["form"].fields["venue"].disabled
    response = client.post(
        "/manage/cup/settings/", _form(slug="cup", table_size="4", venue="Halle 2")
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.table_size == 6  # the disabled field kept its value
    assert tournament.venue == "Halle 2"


def test_settings_pages_are_staff_only(client):
    TournamentFactory(slug="cup")
    for path in ("/manage/new/", "/manage/cup/settings/"):
        assert client.get(path).status_code == 302
    client.force_login(UserFactory())
    assert client.get("/manage/new/").status_code == 403
    assert client.post("/manage/new/", _form()).status_code == 403
    assert not Tournament.objects.filter(slug="ka-2026").exists()


def test_dashboard_links_to_new_tournament(client):
    client.force_login(OrganizerFactory())
    assert "/manage/new/" in client.get("/manage/").content.decode()


def test_tie_break_slots_are_exclusive_in_the_form_and_the_service(client):
    client.force_login(OrganizerFactory(is_superuser=True))
    page = client.get("/manage/new/").content.decode()
    assert page.count('data-exclusive="tie-breaks"') == 5
    response = client.post("/manage/new/", _form(tie_break_3="points"))
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert "tie_break_3" in errors and "tie_break_1" not in errors
    assert not Tournament.objects.exists()


def test_strict_cash_makes_games_keep_a_ledger():
    strict = seated_table(tournament_kwargs={"strict_cash": True})
    loose = seated_table()
    assert referee.ensure_game(table=strict).ledger is True
    assert referee.ensure_game(table=loose).ledger is False


# --- the API ------------------------------------------------------------------------------


API = "/api/v1/tournaments/"


def test_api_create_is_organizer_only(client):
    payload = {"name": "Cup", "slug": "cup", "date": "2026-11-28"}
    assert client.post(API, payload, content_type="application/json").status_code == 403
    client.force_login(UserFactory())
    assert client.post(API, payload, content_type="application/json").status_code == 403
    assert not Tournament.objects.exists()
    client.force_login(OrganizerFactory())
    response = client.post(API, payload, content_type="application/json")
    assert response.status_code == 201
    assert response.json()["status"] == "draft"


def test_api_create_refuses_bad_settings_with_every_problem(client):
    client.force_login(OrganizerFactory())
    response = client.post(
        API,
        {
            "name": "Cup",
            "slug": "cup",
            "date": "2026-11-28",
            "placement_points": [1, 2, 3],
            "tie_breaks": ["points", "points"],
        },
        content_type="application/json",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "tournament_settings_invalid"
    assert {e["code"] for e in body["errors"]} == {
        "points_increasing",
        "points_too_few",
        "tie_break_duplicate",
    }


def test_api_update_and_frozen(client):
    tournament = TournamentFactory(slug="cup", status=S.REGISTRATION)
    client.force_login(OrganizerFactory())
    url = f"{API}cup/"
    response = client.patch(url, {"table_size": 5}, content_type="application/json")
    assert response.status_code == 400  # six finalists cannot sit at one table of five
    assert response.json()["errors"][0]["code"] == "finalists_exceed_table"
    response = client.patch(url, {"table_size": 5, "finalists": 5}, content_type="application/json")
    assert response.status_code == 200 and response.json()["table_size"] == 5
    tournament.status = S.RUNNING
    tournament.save()
    response = client.patch(url, {"table_size": 4}, content_type="application/json")
    assert response.status_code == 409
    assert response.json()["code"] == "tournament_settings_frozen"
    response = client.patch(url, {"venue": "Halle"}, content_type="application/json")
    assert response.status_code == 200


def test_api_update_is_organizer_only(client):
    TournamentFactory(slug="cup")
    client.force_login(UserFactory())
    response = client.patch(f"{API}cup/", {"venue": "x"}, content_type="application/json")
    assert response.status_code == 403


def test_api_drafts_are_visible_to_organizers_only(client):
    TournamentFactory(slug="open")
    TournamentFactory(slug="secret", status=S.DRAFT)
    assert [t["slug"] for t in client.get(API).json()] == ["open"]
    client.force_login(OrganizerFactory())
    assert {t["slug"] for t in client.get(API).json()} == {"open", "secret"}
    assert client.get(f"{API}secret/").status_code == 200
