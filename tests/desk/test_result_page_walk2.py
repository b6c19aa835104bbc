"""The head referee's result page after the second browser walk (/work/notes/walk2): a stale
page's refusal names the write that made it stale; refusals come back on the page with what
was typed; each note is named by what it is; the history is the game's across its results;
whoever amended the figures does not confirm them."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from factories import PlayerFactory, TournamentFactory, UserFactory, appoint
from gameplay import T0, make_round, play

from referee import paper, results, rulings, services
from referee.models import GameResult
from referee.results import revision_of
from scoring.verify import verify_tournament
from tournament.models import StaffRole, Tournament

pytestmark = pytest.mark.django_db


def _verified(tournament) -> None:
    report = verify_tournament(tournament=tournament)
    assert report.ok, report


def _table(slug):
    """A running tournament's table of four, seated."""
    tournament = TournamentFactory(slug=slug, status=Tournament.Status.RUNNING)
    people = [PlayerFactory(tournament=tournament) for _ in range(4)]
    _round, [table] = make_round(tournament, 1, [people])
    return tournament, table, people


def _counted(slug):
    """A counted game at a table of four; Max is the head referee."""
    tournament, table, people = _table(slug)
    judge = appoint(UserFactory(username="mrmonopoly", first_name="Max"),
                    StaffRole.Role.HEAD_REFEREE, tournament)
    game = play(table, {p: 2000 - 100 * i for i, p in enumerate(people)}, confirm=False)
    return tournament, game, judge


def _disputed(slug="walk2"):
    """A counted game disputed by the banker (banker4); Max is the head referee."""
    tournament = TournamentFactory(slug=slug, status=Tournament.Status.RUNNING)
    people = [PlayerFactory(tournament=tournament, name=f"Spieler {n}") for n in range(4)]
    _round, [table] = make_round(tournament, 1, [people])
    judge = appoint(UserFactory(username="mrmonopoly", first_name="Max"),
                    StaffRole.Role.HEAD_REFEREE, tournament)
    banker = UserFactory(username="banker4")
    game = play(table, {p: 2000 - 100 * i for i, p in enumerate(people)}, confirm=False)
    results.dispute_result(game_id=game.pk, note="Miete falsch", by=banker,
                           revision=revision_of(game.pk))
    return tournament, game, judge


def _figures(game, plus=10):
    result = GameResult.objects.get(game=game)
    return {p.player_id: {"place": "", "net_worth": p.net_worth + (plus if p.place == 2 else 0)}
            for p in result.placements.all()}


def _page(client, tournament, game, language="de"):
    return client.get(f"/manage/{tournament.slug}/results/{game.pk}/",
                      HTTP_ACCEPT_LANGUAGE=language)


@pytest.mark.parametrize("language", ["de", "en"])
def test_a_stale_page_is_refused_naming_the_amendment_and_its_author(client, language):
    tournament, game, judge = _disputed()
    stale = revision_of(game.pk)  # the page as the first tab shows it
    other = appoint(UserFactory(username="zweiter", first_name="Zora"),
                    StaffRole.Role.HEAD_REFEREE, tournament)
    rulings.amend_result(game_id=game.pk, figures=_figures(game), reason="Addiert",
                         by=other, revision=revision_of(game.pk))  # the second tab
    client.force_login(judge)
    response = client.post(f"/manage/{tournament.slug}/results/{game.pk}/resolve/",
                           {"note": "Miete stimmt", "revision": stale},
                           HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 409
    html = response.content.decode()
    amended = {"de": "Zählung korrigiert", "en": "Counted figures amended"}[language]
    assert amended in html and "Zora" in html
    assert "banker4" not in html and "angefochten" not in html.lower()
    _verified(tournament)


def _form(html: str, name: str) -> str:
    return re.search(rf'<form[^>]*data-form="{name}".*?</form>', html, re.S).group(0)


def test_a_stale_amendment_comes_back_on_the_page_with_its_reason(client):
    tournament, game, judge = _disputed()
    stale = revision_of(game.pk)
    other = appoint(UserFactory(username="zweiter", first_name="Zora"),
                    StaffRole.Role.HEAD_REFEREE, tournament)
    rulings.amend_result(game_id=game.pk, figures=_figures(game, plus=70), reason="Addiert",
                         by=other, revision=revision_of(game.pk))
    now = {p.player_id: p.net_worth for p in GameResult.objects.get(game=game).placements.all()}
    client.force_login(judge)
    form = {f"net_worth-{pid}": str(worth + 5) for pid, worth in now.items()}
    form.update(reason="Mein Grund", revision=str(stale))
    response = client.post(f"/manage/{tournament.slug}/results/{game.pk}/", form,
                           HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 409
    amend = _form(response.content.decode(), "amend")
    assert 'data-form-error="amend"' in amend and "Counted figures amended, by Zora" in amend
    assert ">Mein Grund</textarea>" in amend
    for pid, worth in now.items():  # the figures as they are now, to check
        assert f'name="net_worth-{pid}" id="net_worth-{pid}" value="{worth}"' in amend
    assert f'name="revision" value="{revision_of(game.pk)}"' in amend  # decided anew
    _verified(tournament)


@pytest.mark.parametrize("language", ["de", "en"])
def test_a_ruling_without_its_note_comes_back_beside_the_ruling(client, language):
    tournament, game, judge = _disputed()
    client.force_login(judge)
    page = _page(client, tournament, game, language).content.decode()
    assert re.search(r'<textarea id="ruling" name="note" maxlength="2000" required',
                     _form(page, "resolve"))
    response = client.post(f"/manage/{tournament.slug}/results/{game.pk}/resolve/",
                           {"note": "  ", "revision": revision_of(game.pk), "page": "result"},
                           HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    resolve = _form(response.content.decode(), "resolve")
    assert 'data-form-error="resolve"' in resolve and 'data-code="ruling_required"' in resolve
    assert GameResult.objects.get(game=game).status == GameResult.Status.DISPUTED


def _second_judge(tournament):
    return appoint(UserFactory(username="zweiter", first_name="Zora"),
                   StaffRole.Role.HEAD_REFEREE, tournament)


def test_a_stale_ruling_comes_back_with_its_note(client):
    tournament, game, judge = _disputed()
    stale = revision_of(game.pk)
    rulings.amend_result(game_id=game.pk, figures=_figures(game), reason="Addiert",
                         by=_second_judge(tournament), revision=revision_of(game.pk))
    client.force_login(judge)
    response = client.post(f"/manage/{tournament.slug}/results/{game.pk}/resolve/",
                           {"note": "Miete stimmt", "revision": stale, "page": "result"})
    assert response.status_code == 409
    resolve = _form(response.content.decode(), "resolve")
    assert ">Miete stimmt</textarea>" in resolve and 'data-code="result_changed"' in resolve
    assert GameResult.objects.get(game=game).status == GameResult.Status.DISPUTED


def test_a_stale_reopening_whose_form_is_gone_stands_above_with_its_reason(client):
    tournament, game, judge = _disputed()
    rulings.resolve_dispute(game_id=game.pk, note="Miete stimmt", by=judge,
                            revision=revision_of(game.pk))
    stale = revision_of(game.pk)
    rulings.reopen_result(game_id=game.pk, reason="Nachzählen", by=judge,
                          revision=revision_of(game.pk))  # another tab
    client.force_login(judge)
    response = client.post(f"/manage/{tournament.slug}/results/{game.pk}/reopen/",
                           {"reason": "Zweiter Blick", "revision": stale})
    assert response.status_code == 409
    html = response.content.decode()
    assert 'data-form-error="above"' in html and "Zweiter Blick" in html
    assert 'data-form="amend"' in html  # the result page as it is now


WORDS = {
    "de": {"ruling": "Entscheidung", "paper": "Notiz zum Papierbogen",
           "amended": "Grund der Korrektur", "ruled": "Entscheidung über die Anfechtung",
           "by_head": "Ergebnis vom Oberschiedsrichter bestätigt",
           "dispute_ruled": "Streitfall entschieden"},
    "en": {"ruling": "Ruling", "paper": "Note on the paper sheet",
           "amended": "Reason of the amendment", "ruled": "Ruling on the dispute",
           "by_head": "Result confirmed by the head referee",
           "dispute_ruled": "Dispute ruled"},
}


def _header(html: str) -> str:
    return re.search(r"<p data-result-status.*?</p>", html, re.S).group(0)


def _history(html: str) -> str:
    return re.search(r"<ul data-history>(.*?)</ul>", html, re.S).group(1)


@pytest.mark.parametrize("language", ["de", "en"])
def test_a_paper_note_is_named_as_the_papers_on_the_page_and_the_desk(client, language):
    tournament, table, people = _table("papier")
    organizer = appoint(UserFactory(username="orga"), StaffRole.Role.HEAD_REFEREE, tournament)
    result = paper.enter_paper_result(
        table=table, end_reason="time_limit", ended_at=None, by=organizer,
        note="Bogen nachgereicht",
        lines=[paper.PaperLine(player_id=p.pk, net_worth=4000 - 500 * i)
               for i, p in enumerate(people)])
    client.force_login(organizer)
    words = WORDS[language]
    header = _header(_page(client, tournament, result.game, language).content.decode())
    assert f"{words['paper']}:</span> Bogen nachgereicht" in header
    assert f"{words['ruling']}:" not in header
    desk = client.get(f"/manage/{tournament.slug}/desk/",
                      HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f"<strong>{words['paper']}:</strong> Bogen nachgereicht" in desk
    _verified(tournament)


@pytest.mark.parametrize("language", ["de", "en"])
def test_an_amendment_reason_on_a_disputed_result_is_no_ruling(client, language):
    tournament, game, judge = _disputed()
    rulings.amend_result(game_id=game.pk, figures=_figures(game), reason="Addiert",
                         by=_second_judge(tournament), revision=revision_of(game.pk))
    client.force_login(judge)
    words = WORDS[language]
    html = _page(client, tournament, game, language).content.decode()
    header = _header(html)
    assert f"{words['amended']}:</span> Addiert" in header
    assert f"{words['ruling']}:" not in header
    assert f"{words['ruling']}:" not in _history(html)
    rulings.resolve_dispute(game_id=game.pk, note="Miete stimmt", by=judge,
                            revision=revision_of(game.pk))
    html = _page(client, tournament, game, language).content.decode()
    assert f"{words['ruled']}:</span> Miete stimmt" in _header(html)
    assert words["dispute_ruled"] in _history(html)
    _verified(tournament)


@pytest.mark.parametrize("language", ["de", "en"])
def test_a_head_referees_confirmation_of_an_undisputed_result_is_no_ruling(client, language):
    tournament, game, judge = _counted("bestaetigt")
    rulings.resolve_dispute(game_id=game.pk, note="", by=judge, revision=revision_of(game.pk))
    client.force_login(judge)
    lines = _history(_page(client, tournament, game, language).content.decode())
    words = WORDS[language]
    assert words["by_head"] in lines and words["dispute_ruled"] not in lines
    _verified(tournament)


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_history_keeps_the_games_earlier_results(client, language):
    """Confirmed, reopened by the head referee ("Nachzählen"), the count taken back at the
    console and counted anew: the result row is a new one, the history still the game's."""
    tournament, game, judge = _counted("nachzaehlen")
    rulings.resolve_dispute(game_id=game.pk, note="", by=judge, revision=revision_of(game.pk))
    rulings.reopen_result(game_id=game.pk, reason="Nachzählen", by=judge,
                          revision=revision_of(game.pk))
    first = GameResult.objects.get(game=game).pk
    results.reopen_count(game_id=game.pk, by=judge, revision=revision_of(game.pk),
                         reason="Hausbank falsch")
    services.post_event(game_id=game.pk, author=None, now=T0 + dt.timedelta(minutes=95),
                        event={"type": "cash", "player": game.players[3], "amount": 9000})
    results.count_result(game_id=game.pk, author=None, revision=revision_of(game.pk))
    assert GameResult.objects.get(game=game).pk != first  # a new row
    client.force_login(judge)
    lines = _history(_page(client, tournament, game, language).content.decode())
    words = {"de": ("bestätigt von Max", "Ergebnis wieder geöffnet"),
             "en": ("confirmed by Max", "Result reopened")}[language]
    assert words[0] in lines and words[1] in lines, lines
    assert "Nachzählen" in lines and "Hausbank falsch" in lines
    # the count taken back names no field "going": its reason is the reopening's, once
    assert "Nachzählen → –" not in lines and lines.count("Nachzählen") == 1, lines
    _verified(tournament)


def _amended_by_judge():
    """A counted game whose figures the head referee Max amended; Zora is a second one."""
    tournament, game, judge = _counted("vier-augen")
    other = appoint(UserFactory(username="zweiter", first_name="Zora"),
                    StaffRole.Role.HEAD_REFEREE, tournament)
    rulings.amend_result(game_id=game.pk, figures=_figures(game), reason="Addiert",
                         by=judge, revision=revision_of(game.pk))
    return tournament, game, judge, other


def test_whoever_amended_does_not_confirm_as_head_referee_nor_with_the_code(client):
    from referee import errors

    tournament, game, judge, other = _amended_by_judge()
    with pytest.raises(errors.SecondPersonRequired):
        rulings.resolve_dispute(game_id=game.pk, note="", by=judge,
                                revision=revision_of(game.pk))
    client.force_login(judge)
    response = client.post(f"/manage/{tournament.slug}/results/{game.pk}/code/",
                           {"code": game.confirmation_code, "revision": revision_of(game.pk)})
    assert response.status_code == 403
    assert GameResult.objects.get(game=game).status == GameResult.Status.COUNTED
    rulings.resolve_dispute(game_id=game.pk, note="", by=other, revision=revision_of(game.pk))
    assert GameResult.objects.get(game=game).status == GameResult.Status.CONFIRMED
    _verified(tournament)


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_page_offers_no_confirmation_to_whoever_would_be_refused(client, language):
    tournament, game, judge, other = _amended_by_judge()
    client.force_login(judge)
    html = _page(client, tournament, game, language).content.decode()
    assert 'data-form="resolve"' not in html and 'data-form="confirm-code"' not in html
    assert 'data-second-person="second_person"' in html
    assert {"de": "zweite Person", "en": "second person"}[language] in html
    client.force_login(other)
    html = _page(client, tournament, game, language).content.decode()
    assert 'data-form="resolve"' in html and 'data-form="confirm-code"' in html
    assert "data-second-person" not in html


def test_the_page_offers_no_confirmation_to_whoever_entered_the_paper_sheet(client):
    tournament, table, people = _table("bogen")
    organizer = appoint(UserFactory(username="orga"), StaffRole.Role.ORGANIZER, tournament)
    result = paper.enter_paper_result(
        table=table, end_reason="time_limit", ended_at=None, by=organizer,
        lines=[paper.PaperLine(player_id=p.pk, net_worth=4000 - 500 * i)
               for i, p in enumerate(people)])
    client.force_login(organizer)
    html = _page(client, tournament, result.game).content.decode()
    assert 'data-form="resolve"' not in html and 'data-form="confirm-code"' not in html
    assert "data-second-person" in html
