"""Safety nets (issue 14): closing a round, crowning, dropping a player and revoking a link ask
first and can be undone until the next step began; a player entered by mistake can be deleted
while never seated. Each undo is in the audit log."""

from __future__ import annotations

import pytest
from django.test import Client
from factories import OrganizerFactory, PlayerFactory, TournamentFactory
from gameplay import make_round, play

from desk import rounds
from tournament import audit, banker_links
from tournament.models import Player, Round, Tournament
from tournament.rounds import bankers, services

pytestmark = pytest.mark.django_db


@pytest.fixture
def closed(django_capture_on_commit_callbacks):
    tournament = TournamentFactory(slug="ka", status=Tournament.Status.RUNNING)
    players = [PlayerFactory(tournament=tournament) for _ in range(4)]
    round_, (table,) = make_round(tournament, 1, [players])
    with django_capture_on_commit_callbacks(execute=True):
        play(table, {p: 2000 + 100 * i for i, p in enumerate(players)})
        rounds.close_round(round_=round_)
    return tournament, round_, table


def test_a_closed_round_reopens_with_a_reason_until_the_next_is_seated(client, closed):
    tournament, round_, _table = closed
    client.force_login(OrganizerFactory(tournaments=[tournament]))
    page = client.get("/manage/ka/desk/").content.decode()
    assert 'data-form="reopen-round"' in page and "data-confirm" in page
    assert client.post("/manage/ka/rounds/1/reopen/", {"reason": ""}).status_code == 400
    assert client.post("/manage/ka/rounds/1/reopen/", {"reason": "Tisch 1 falsch"}).status_code \
        == 302
    round_.refresh_from_db()
    assert round_.status == Round.Status.RUNNING
    assert audit.lines(audit.entries(tournament, what="round.reopen"))[0].reason == "Tisch 1 falsch"
    rounds.close_round(round_=round_)
    Round.objects.create(tournament=tournament, number=2, status=Round.Status.SEATED)
    refused = client.post("/manage/ka/rounds/1/reopen/", {"reason": "zu spät"})
    assert refused.status_code == 409
    round_.refresh_from_db()
    assert round_.status == Round.Status.COMPLETE


def test_the_crowning_is_undone_by_reopening_the_final(closed, django_capture_on_commit_callbacks):
    tournament, _round, _table = closed
    players = list(tournament.players.all())
    final, (table,) = make_round(tournament, 2, [players], kind=Round.Kind.FINAL)
    with django_capture_on_commit_callbacks(execute=True):
        play(table, {p: 5000 - 100 * i for i, p in enumerate(players)})
        rounds.close_round(round_=final)
    tournament.refresh_from_db()
    assert tournament.winner_id is not None and tournament.status == Tournament.Status.FINISHED
    rounds.reopen_round(round_=final, reason="Ergebnis strittig")
    tournament.refresh_from_db()
    assert tournament.winner_id is None and tournament.status == Tournament.Status.RUNNING


def test_a_revoked_link_can_be_restored_until_a_new_one_is_issued(client, closed):
    tournament, round_, table = closed
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.RUNNING)
    link = banker_links.issue_link(table=table)
    services.revoke_link(table=table)
    assert banker_links.resolve(banker_links.make_token(link))[0] is banker_links.LinkState.REVOKED
    client.force_login(OrganizerFactory(tournaments=[tournament]))
    client.post(f"/manage/ka/rounds/1/bankers/{table.number}/restore/")
    assert banker_links.resolve(banker_links.make_token(link))[0] is banker_links.LinkState.LIVE
    actions = {line.action for line in audit.lines(audit.entries(tournament))}
    assert {"link.revoke", "link.restore"} <= actions
    services.revoke_link(table=table)
    newer = banker_links.issue_link(table=table)
    assert bankers.restore_link(table=table) is None  # a newer link is live: nothing to undo
    assert banker_links.live_link(table) == newer


def test_a_player_entered_by_mistake_is_deleted_while_never_seated(client, closed):
    tournament, _round, table = closed
    mistake = PlayerFactory(tournament=tournament, name="Tippfehler Name")
    client.force_login(OrganizerFactory(tournaments=[tournament]))
    edit = client.get(f"/manage/ka/players/{mistake.pk}/edit/").content.decode()
    assert 'data-action="delete-player"' in edit
    client.post(f"/manage/ka/players/{mistake.pk}/delete/")
    assert not Player.objects.filter(pk=mistake.pk).exists()
    seated = table.seats.first().player
    assert client.post(f"/manage/ka/players/{seated.pk}/delete/").status_code == 409
    assert Player.objects.filter(pk=seated.pk).exists()
    assert audit.lines(audit.entries(tournament, what="player.delete"))


def test_bankers_carry_over_to_the_same_table_number_next_round(closed):
    from factories import UserFactory

    tournament, round_, table = closed
    banker = UserFactory(username="bank-eins")
    from tournament.models import Table

    Table.objects.filter(pk=table.pk).update(banker=banker)
    for _ in range(4):
        PlayerFactory(tournament=tournament)
    nxt = services.create_round(tournament=tournament)
    outcome = services.seat_round(round_=nxt, seed=1, min_size=3)
    first = next(t for t in outcome.tables if t.number == 1)
    first.refresh_from_db()
    assert first.banker == banker
    assert banker_links.live_link(first) is not None
    assert all(t.banker_id is None for t in outcome.tables if t.number != 1)


def test_a_carried_over_bankers_card_opens_the_next_round_and_only_changes_print(
    client, closed
):
    """The card printed for round 1 opens round 2's table while the same banker keeps the same
    table number; the "only where something changed" print leaves such tables out; a change of
    banker stops the old card and prints the table anew."""
    from factories import UserFactory

    from printing import data
    from printing import documents as printing
    from tournament.models import Seat, Table

    tournament, round_, table = closed
    one, two = UserFactory(username="bank-eins"), UserFactory(username="bank-zwei")
    Table.objects.filter(pk=table.pk).update(banker=one)
    old_card = banker_links.link_path(banker_links.issue_link(table=table, banker=one))
    for _ in range(4):
        PlayerFactory(tournament=tournament)
    nxt = services.create_round(tournament=tournament)
    tables = services.seat_round(round_=nxt, seed=1, min_size=3).tables
    first = next(t for t in tables if t.number == 1)
    # the old card opens the new round's table 1 (its own round is closed)
    response = client.get(old_card)
    assert response.status_code == 302 and response["Location"].endswith(
        f"/banker/table/{first.pk}/")
    # only table 2 (no banker last round) needs a new card
    assert [card.number for card in data.cards(nxt, changed_only=True)] == [2]
    assert data.count_changed_cards(nxt) == 1
    ctx = printing.context_for("cards-changed", tournament=tournament, round_=nxt)
    assert printing.expected_pages("cards-changed", ctx) == 1
    # table 1 seats one player more than its card says (tables of 4 and 5): printed anew
    seats_before = Seat.objects.filter(table=first).count()
    mover = Seat.objects.filter(table__round=nxt).exclude(table=first).order_by("pk").first()
    Seat.objects.filter(pk=mover.pk).update(table=first, position=seats_before + 1)
    assert [card.number for card in data.cards(nxt, changed_only=True)] == [1, 2]
    assert data.count_changed_cards(nxt) == 2
    Seat.objects.filter(pk=mover.pk).update(table=mover.table, position=mover.position)
    assert data.count_changed_cards(nxt) == 1
    # a new banker at table 1: the old card stops, table 1's card is printed again
    services.assign_banker(table=first, banker=two)
    assert Client().get(old_card).status_code == 403
    assert [card.number for card in data.cards(nxt, changed_only=True)] == [1, 2]


def test_closing_crowning_dropping_and_revoking_ask_first(client, closed):
    """Each of these forms carries the question site.js asks before sending it."""
    import re

    tournament, round_, table = closed
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.RUNNING)
    banker_links.issue_link(table=table)
    client.force_login(OrganizerFactory(tournaments=[tournament]))

    def asks(html: str, action: str) -> bool:
        form = re.search(rf'<form[^>]*action="{re.escape(action)}"[^>]*>', html)
        return bool(form) and "data-confirm=" in form[0]

    desk = client.get("/manage/ka/desk/").content.decode()
    assert asks(desk, "/manage/ka/rounds/1/close/")
    player = tournament.players.first()
    listing = client.get("/manage/ka/players/").content.decode()
    assert asks(listing, f"/manage/ka/players/{player.pk}/drop-out/")
    bankers = client.get("/manage/ka/rounds/1/bankers/").content.decode()
    assert asks(bankers, f"/manage/ka/rounds/1/bankers/{table.number}/revoke/")
    final, (final_table,) = make_round(tournament, 2, [list(tournament.players.all())],
                                       kind=Round.Kind.FINAL)
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.COMPLETE)
    play(final_table, {p: 5000 - 100 * i for i, p in enumerate(tournament.players.all())})
    crown = client.get("/manage/ka/desk/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert asks(crown, "/manage/ka/rounds/2/close/") and "crown the winner?" in crown
