"""Issue 18: the "official tournament" format preset, tables of 4 and 5, alternates."""

from __future__ import annotations

import datetime as dt

import pytest
from auditlog.models import LogEntry
from factories import OrganizerFactory, PlayerFactory, checked_in_players

from tournament import errors, tournaments
from tournament.models import Player, Round, Tournament
from tournament.players import alternates
from tournament.players import errors as player_errors
from tournament.rounds import services

pytestmark = pytest.mark.django_db


def official(slug: str = "offiziell") -> Tournament:
    tournament = tournaments.create_tournament(
        name="Offizielles Turnier", slug=slug, date=dt.date(2026, 5, 1), preset="official"
    )
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.REGISTRATION)
    tournament.refresh_from_db()
    return tournament


def test_the_preset_sets_the_official_rules():
    tournament = official()
    assert tournament.ruleset == "time-limit"
    assert tournament.time_limit_mode == Tournament.TimeLimitMode.FINISH_ROUND
    assert tournament.time_limit_minutes == 90
    assert (tournament.table_size, tournament.larger_tables) == (4, True)
    assert tournament.format == Tournament.Format.PLACEMENT_POINTS
    assert tournament.placement_points == [5, 4, 3, 2, 1]
    assert tournament.tie_breaks[:2] == ["points", "net_worth_sum"]
    assert (tournament.preliminary_rounds, tournament.finalists) == (3, 4)
    assert tournament.final_decides


def test_the_preset_wins_over_other_settings_and_an_unknown_one_is_refused():
    tournament = tournaments.create_tournament(
        name="X", slug="x", date=dt.date(2026, 5, 1), preset="official", table_size=6
    )
    assert tournament.table_size == 4
    with pytest.raises(tournaments.SettingsInvalid) as info:
        tournaments.create_tournament(
            name="Y", slug="y", date=dt.date(2026, 5, 1), preset="hasbro-2099"
        )
    assert info.value.problems[0].code == "preset_unknown"


def test_larger_tables_need_points_for_the_fifth_place():
    with pytest.raises(tournaments.SettingsInvalid) as info:
        tournaments.create_tournament(
            name="Z", slug="z", date=dt.date(2026, 5, 1), ruleset="time-limit",
            table_size=4, larger_tables=True, placement_points=[4, 3, 2, 1], finalists=4,
        )
    assert [p.code for p in info.value.problems] == ["points_too_few"]


def test_22_players_are_seated_at_two_tables_of_5_and_three_of_4():
    tournament = official()
    checked_in_players(tournament, 22)
    round_ = services.create_round(tournament=tournament)
    outcome = services.seat_round(round_=round_, seed=1, seconds=1)
    sizes = sorted(table.seats.count() for table in outcome.tables)
    assert sizes == [4, 4, 4, 5, 5]


def test_the_create_form_offers_the_preset(client):
    organizer = OrganizerFactory()
    client.force_login(organizer)
    page = client.get("/manage/new/")
    assert 'name="preset"' in page.content.decode()
    answer = client.post("/manage/new/", {
        "name": "Hasbro-Regeln", "slug": "hasbro", "date": "2026-05-01", "venue": "",
        "preset": "official", "ruleset": "karlsruhe", "board": "classic-de", "table_size": "6",
        "preliminary_rounds": "3", "format": "placement_points", "final_decides": "on",
        "placement_points": "6,5,4,3,2,1", "finalists": "6", "tie_break_1": "points",
        "time_limit_mode": "",
    })
    assert answer.status_code == 302, answer.content.decode()[:2000]
    tournament = Tournament.objects.get(slug="hasbro")
    assert (tournament.table_size, tournament.larger_tables, tournament.ruleset) == (
        4, True, "time-limit")


def _seated_round(tournament: Tournament, players: int) -> Round:
    checked_in_players(tournament, players)
    round_ = services.create_round(tournament=tournament)
    services.seat_round(round_=round_, seed=1, seconds=0.5)
    round_.refresh_from_db()
    return round_


def test_alternates_are_ranked_and_not_seated():
    tournament = official()
    first = PlayerFactory(tournament=tournament, name="Erste Reserve", checked_in=True)
    second = PlayerFactory(tournament=tournament, name="Zweite Reserve", checked_in=True)
    alternates.set_rank(player=second, rank=1)
    alternates.set_rank(player=first, rank=1)  # goes before the other
    assert [p.name for p in alternates.ranked(tournament)] == ["Erste Reserve", "Zweite Reserve"]
    round_ = _seated_round(tournament, 16)
    assert not round_.seats.filter(player__in=[first, second]).exists()
    assert round_.seats.count() == 16
    alternates.set_rank(player=first, rank=None)
    assert [p.name for p in alternates.ranked(tournament)] == ["Zweite Reserve"]
    assert Player.objects.get(pk=second.pk).alternate_rank == 1


def test_a_no_show_is_replaced_by_the_best_ranked_alternate_and_it_is_audited():
    tournament = official()
    organizer = OrganizerFactory()
    standby = PlayerFactory(tournament=tournament, name="Reserve Eins")
    later = PlayerFactory(tournament=tournament, name="Reserve Zwei")
    alternates.set_rank(player=standby, rank=1)
    alternates.set_rank(player=later, rank=2)
    round_ = _seated_round(tournament, 16)
    seat = round_.seats.order_by("table__number", "position").first()
    absent = seat.player
    version = round_.version
    replaced = alternates.replace_no_show(round_=round_, absent=absent.pk, actor=organizer)
    assert replaced.player == standby
    assert replaced.table_id == seat.table_id and replaced.position == seat.position
    absent.refresh_from_db()
    standby.refresh_from_db()
    later.refresh_from_db()
    assert absent.dropped_out and standby.checked_in and standby.alternate_rank is None
    assert later.alternate_rank == 1  # moves up
    round_.refresh_from_db()
    assert round_.version == version + 1
    entries = LogEntry.objects.filter(additional_data__action="alternate.replace")
    assert entries.exists()
    assert any(entry.actor_id == organizer.pk for entry in entries)


def test_no_replacement_once_the_round_runs():
    tournament = official()
    standby = PlayerFactory(tournament=tournament, name="Reserve")
    alternates.set_rank(player=standby, rank=1)
    round_ = _seated_round(tournament, 8)
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.RUNNING)
    absent = round_.seats.first().player
    with pytest.raises(errors.RoundNotEditable):
        alternates.replace_no_show(round_=round_, absent=absent.pk)
    assert round_.seats.filter(player=absent).exists()


def test_a_seated_player_cannot_become_an_alternate_and_none_left_is_refused():
    tournament = official()
    round_ = _seated_round(tournament, 8)
    seated = round_.seats.first().player
    with pytest.raises(player_errors.AlternateRefused):
        alternates.set_rank(player=seated, rank=1)
    with pytest.raises(player_errors.AlternateRefused):
        alternates.replace_no_show(round_=round_, absent=seated.pk)


def test_the_alternates_page_replaces_a_no_show(client):
    tournament = official()
    organizer = OrganizerFactory()
    from factories import appoint

    appoint(organizer, "organizer", tournament)
    standby = PlayerFactory(tournament=tournament, name="Reserve Eins")
    alternates.set_rank(player=standby, rank=1)
    round_ = _seated_round(tournament, 8)
    absent = round_.seats.first().player
    client.force_login(organizer)
    page = client.get(f"/manage/{tournament.slug}/alternates/")
    assert "Reserve Eins" in page.content.decode()
    answer = client.post(
        f"/manage/{tournament.slug}/rounds/1/replace/", {"absent": absent.pk}
    )
    assert answer.status_code == 302
    assert round_.seats.filter(player=standby).exists()


def test_the_alternates_page_offers_who_can_step_in_by_name(client):
    """Issue 28: "Add as alternate" offers only players not seated in the coming round (the
    service refuses them), and both lists are in name order (DIN 5007: Äpfel with A), the
    not checked-in seats first, not in seat order."""
    import re

    from factories import appoint

    tournament = official()
    organizer = appoint(OrganizerFactory(), "organizer", tournament)
    round_ = _seated_round(tournament, 8)
    late = PlayerFactory(tournament=tournament, name="Zora Spät")
    early = PlayerFactory(tournament=tournament, name="Älfte Früh")
    missing = round_.seats.order_by("-table__number", "-position").first().player
    Player.objects.filter(pk=missing.pk).update(checked_in=False)
    client.force_login(organizer)
    page = client.get(f"/manage/{tournament.slug}/alternates/").content.decode()

    def options(name: str) -> list[str]:
        select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', page, re.S).group(1)
        return [re.sub(r"\s+", " ", text).strip()
                for text in re.findall(r"<option[^>]*>(.*?)</option>", select, re.S)]

    assert options("player") == [early.name, late.name]
    assert alternates.candidates(tournament) == [early, late]
    standby = alternates.set_rank(player=late, rank=1)
    page = client.get(f"/manage/{tournament.slug}/alternates/").content.decode()
    absent = options("absent")
    assert absent[0].startswith(f"⚠ {missing.name} ·")
    seated = [name.split(" · ")[0] for name in absent[1:]]
    assert seated == sorted(seated, key=str.casefold) and len(seated) == 7
    assert options("alternate") == [f"1. {standby.name}"]
