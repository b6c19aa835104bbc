"""The entrance list (seating by name): sorted by last name as Germans file them, umlauts with
their base letter; the staff's copy shows every full name and is private."""

from __future__ import annotations

import pytest
from factories import PlayerFactory, seated_table

from tournament.models import Player

pytestmark = pytest.mark.django_db


def test_entrance_list_sorts_by_last_name():
    from printing import data

    table = seated_table()
    round_ = table.round
    names = ["Zoe Ärger", "Anna Zorn", "Ben Müller", "Ada Mueller", "Carl Öhler", "Dora Ober"]
    for seat, name in zip(table.seats.order_by("position"), names, strict=True):
        Player.objects.filter(pk=seat.player_id).update(name=name, public_name_consent=True)
    PlayerFactory(tournament=round_.tournament, name="Not Seated")
    lines = data.seating_by_name(round_)
    assert [line.name for line in lines] == [
        "Ärger, Zoe", "Mueller, Ada", "Müller, Ben", "Ober, Dora", "Öhler, Carl", "Zorn, Anna",
    ]
    assert [line.letter for line in lines] == ["A", "M", "M", "O", "O", "Z"]


def test_staff_entrance_list_shows_full_names_and_is_private():
    from printing import data
    from printing import documents as printing

    table = seated_table()
    hidden = table.seats.order_by("position").first().player
    Player.objects.filter(pk=hidden.pk).update(name="Geheim Person", public_name_consent=False)
    public = [line.name for line in data.seating_by_name(table.round)]
    staff = [line.name for line in data.seating_by_name(table.round, full_names=True)]
    assert "Person, Geheim" not in public and "Person, Geheim" in staff
    assert printing.DOCUMENTS["seating-names-staff"].private
    assert not printing.DOCUMENTS["seating-names"].private
