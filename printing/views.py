"""The organizers' print page: every PDF of a round, as a direct (streamed) download when it is
small, as a background job with a progress bar when it is a large batch (score sheets and table
cards of a big round).

Staff only: the table cards carry the bankers' private links, the score sheets the
confirmation codes. Mounted under ``/manage/`` by ``scoring/print_urls.py``.
"""

from __future__ import annotations

import io
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from config.addresses import public_base_url
from config.queue import enqueue
from printing import documents as printing
from printing import (
    draw,
    jobs,
    player_cards,
    tasks,
)
from printing.base import Context
from tournament import access, selectors
from tournament.access import Action
from tournament.models import Round, Tournament

#: The technical detail shown in the translated "could not be queued" message (as before).
BROKER_DOWN = "the task broker (Redis) is not reachable"

DESCRIPTIONS = {
    "scoresheets": gettext_lazy(
        "One page per table: players, times, deed checklist, count, signatures and a QR code "
        "to the table's public page. Pre-filled once a game has ended."
    ),
    "seating": gettext_lazy("Who sits where, table by table (public names)."),
    "seating-names": gettext_lazy(
        "By last name with table and seat, for the entrance."
    ),
    "seating-names-staff": gettext_lazy(
        "The same list with every full name, for the check-in desk and the organizers."
    ),
    "slips": gettext_lazy(
        "Each table's confirmation code, eight slips to a page. Give each slip to a player of "
        "its table (not the banker): the result is confirmed by a second person."
    ),
    "cards": gettext_lazy(
        "Large table number and a QR code of the banker's private link. Hand each card to its "
        "banker; never hang it up."
    ),
    "cards-changed": gettext_lazy(
        "Only the tables whose card changed: a banker who keeps the same table number keeps "
        "last round's card (it opens the new round's table)."
    ),
    "standings": gettext_lazy("Standings after this round (public names)."),
    "certificates": gettext_lazy("Certificates for the first three places."),
    "player-cards": gettext_lazy(
        "Each checked-in player's personal code with its QR code (their own page: where to "
        "sit, results), eight cards to a page. Cut apart and hand out at check-in."
    ),
}

# What a private document holds, said on the print page: the table cards hold the bankers'
# links; the slips, the staff list and the player cards hold codes, not links.
PRIVATE_NOTES = {
    "seating-names-staff": gettext_lazy(
        "Contains every player's personal code: for the organizers only."
    ),
    "cards": gettext_lazy("Contains the bankers' private links: for the organizers only."),
    "cards-changed": gettext_lazy(
        "Contains the bankers' private links: for the organizers only."
    ),
    "slips": gettext_lazy("Contains the tables' confirmation codes: for the organizers only."),
    "player-cards": gettext_lazy(
        "Contains the players' personal codes: for the organizers only."
    ),
}


def direct_max_pages() -> int:
    """Up to this many pages a document downloads at once; above, it runs as a background job."""
    return int(getattr(settings, "PRINT_DIRECT_MAX_PAGES", 60))


def base_url_for(request: HttpRequest, tournament: Tournament | None = None) -> str:
    """The public address for the QR codes: the tournament's public address, else the
    ``PUBLIC_BASE_URL`` setting, else on the event laptop its LAN address, else the address
    this page was opened with (``config.addresses``)."""
    return public_base_url(request, tournament.public_base_url if tournament else "")


def _lang(request: HttpRequest) -> str:
    """The PDF's language: as asked (``?lang=``), else the reader's (an English page's link
    gives an English PDF)."""
    reader = translation.get_language() or "de"
    lang = request.GET.get("lang") or request.POST.get("lang") or reader.split("-")[0]
    if lang not in printing.LANGUAGES:
        raise Http404("unknown language")
    return lang


def _languages() -> dict[str, Any]:
    """The reader's language for the main links, the other one beside them (with its name)."""
    reader = (translation.get_language() or "de").split("-")[0]
    lang = reader if reader in printing.LANGUAGES else "de"
    other = "de" if lang == "en" else "en"
    names = {"de": gettext_lazy("German"), "en": gettext_lazy("English")}
    return {"print_lang": lang, "other_lang": other, "other_lang_name": names[other]}


def _round(slug: str, number: int) -> Round:
    return get_object_or_404(Round.objects.select_related("tournament"), tournament__slug=slug,
                             number=number)


def _document(key: str, request: HttpRequest | None = None) -> printing.Document:
    """The document; a private one (bankers' links, confirmation codes) needs PRINT_PRIVATE."""
    document = printing.DOCUMENTS.get(key)
    if document is None:
        raise Http404("unknown document")
    if request is not None and document.private:
        access.check(request.user, Action.PRINT_PRIVATE, request.tournament)
    return document


@access.require(Action.PRINT)
@require_GET
def print_index(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's print page: the current round's (or the page listing the rounds)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    current = selectors.current_round(tournament)
    if current is not None:
        return redirect("print:round", slug=slug, number=current.number)
    return render(request, "printing/round.html", {
        "tournament": tournament, "round": None, "rounds": list(tournament.rounds.all()),
        "documents": [], "jobs": [],
    })


@access.require(Action.PRINT)
@require_GET
@never_cache
def print_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = _round(slug, number)
    tournament = round_.tournament
    limit = direct_max_pages()
    rows = []
    # Table cards and code slips only for those who may print them (the desk may not).
    may_private = access.can(request.user, Action.PRINT_PRIVATE, tournament)
    for key, document in printing.DOCUMENTS.items():
        if document.private and not may_private:
            continue
        ctx = printing.context_for(key, tournament=tournament, round_=round_)
        pages = printing.expected_pages(key, ctx)
        rows.append({
            "key": key,
            "title": document.title,
            "description": DESCRIPTIONS.get(key, ""),
            "pages": pages,
            "private": PRIVATE_NOTES.get(key, "") if document.private else "",
            "direct": not document.batch or pages <= limit,
            "background": document.batch,
        })
    return render(request, "printing/round.html", {
        "tournament": tournament,
        "round": round_,
        "rounds": list(tournament.rounds.all()),
        "documents": rows,
        "jobs": jobs.recent(tournament, round_),
        **_languages(),
        "limit": limit,
        "base_url": base_url_for(request, tournament),
        "loopback": printing.is_loopback(base_url_for(request, tournament)),
    })


def _print_context(request: HttpRequest, slug: str, number: int, document: str):
    """The round and the document's context for this request (its language, its address);
    a private document needs the right to print it."""
    round_ = _round(slug, number)
    _document(document, request)
    ctx = printing.context_for(document, tournament=round_.tournament, round_=round_,
                               lang=_lang(request),
                               base_url=base_url_for(request, round_.tournament))
    return round_, ctx


@access.require(Action.PRINT)
@require_GET
def print_download(request: HttpRequest, slug: str, number: int, document: str) -> HttpResponse:
    """The PDF, streamed page by page as it is drawn."""
    round_, ctx = _print_context(request, slug, number, document)
    chunks = printing.stream(document, tournament=round_.tournament, round_=round_,
                             lang=ctx.lang, base_url=ctx.base_url)
    response = StreamingHttpResponse(chunks, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{printing.filename(document, ctx)}"'
    response["Cache-Control"] = "no-store"
    return response


@access.require(Action.PRINT)
@require_POST
def print_start(request: HttpRequest, slug: str, number: int, document: str) -> HttpResponse:
    """Queue a background job for the document; off to its progress page."""
    round_, ctx = _print_context(request, slug, number, document)
    tournament, lang = round_.tournament, ctx.lang
    job_id = jobs.create(
        tournament=tournament, round_=round_, document=document, lang=lang,
        base_url=ctx.base_url, filename=printing.filename(document, ctx),
        total=printing.expected_pages(document, ctx), by=request.user.pk,
    )
    if not enqueue(tasks.print_document, job_id, tournament.pk, round_.number, document, lang,
                   ctx.base_url):
        # No sweep redoes a print job: say so instead of leaving it waiting forever.
        jobs.fail(job_id, BROKER_DOWN)
        messages.error(request, _("The print job could not be queued: %(error)s") % {
            "error": BROKER_DOWN})
    return redirect("print:job", slug=slug, job=job_id)


def _job(slug: str, job: str, request: HttpRequest | None = None) -> dict:
    """The job, if it belongs to this tournament; a private document's job (table cards, code
    slips) needs the right to print private documents, like the document itself."""
    state = jobs.read(job)
    if state is None or state.get("tournament") != slug:
        raise Http404("no such print job (jobs are kept for a day)")
    if request is not None and state.get("document") in printing.DOCUMENTS:
        _document(state["document"], request)
    return state


def _job_context(slug: str, state: dict) -> dict:
    total = max(int(state.get("total") or 0), 1)
    done = min(int(state.get("done") or 0), total)
    error = state.get("error") or ""
    return {
        # A known error in the reader's language (``jobs.ERASED``); any other as it was kept.
        "job": {**state, "error": _(error) if error == jobs.ERASED else error},
        "slug": slug,
        "percent": round(100 * done / total),
        "done": done,
        "total": total,
        "finished": state.get("state") in (jobs.DONE, jobs.FAILED),
        "title": _document(state["document"]).title if state.get("document") in
        printing.DOCUMENTS else state.get("document", ""),
    }


@access.require(Action.PRINT)
@require_GET
@never_cache
def print_job(request: HttpRequest, slug: str, job: str, *, fragment: bool = False) -> HttpResponse:
    """A print job's page; with ``fragment`` (its own URL) only the progress bar, which htmx
    polls every second until the job is done or failed."""
    state = _job(slug, job, request)
    context = {
        **_job_context(slug, state),
        "tournament": request.tournament,
        "round_number": state.get("round"),
    }
    template = "printing/_progress.html" if fragment else "printing/job.html"
    return render(request, template, context)


@access.require(Action.PRINT)
@require_GET
def print_file(request: HttpRequest, slug: str, job: str) -> HttpResponse:
    state = _job(slug, job, request)
    path = jobs.path_for(job)
    if state.get("state") != jobs.DONE or not path.exists():
        raise Http404("the PDF is not ready")
    response = FileResponse(open(path, "rb"),  # noqa: SIM115 - FileResponse closes it
                            content_type="application/pdf", as_attachment=True,
                            filename=state.get("filename") or path.name)
    response["Cache-Control"] = "no-store"
    return response


@access.require(Action.CHECK_IN)
@require_GET
def player_card(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """One player's card (their personal code and its QR code), printed at check-in."""
    tournament = get_object_or_404(Tournament, slug=slug)
    get_object_or_404(tournament.players, pk=pk)
    lang = _lang(request)
    ctx = Context(tournament=tournament, round=None, lang=lang,
                  base_url=base_url_for(request, tournament))
    out = io.BytesIO()
    with translation.override(lang):
        canvas = draw.new_canvas(out, title=_("Player cards"), lang=lang)
        for _page in player_cards.pages(canvas, ctx, player_ids=[pk]):
            pass
        canvas.save()
    response = HttpResponse(out.getvalue(), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{slug}-player-{pk}.pdf"'
    response["Cache-Control"] = "no-store"
    return response
