"""The organizers' print page: every PDF of a round, as a direct (streamed) download when it is
small, as a background job with a progress bar when it is a large batch (score sheets and table
cards of a big round).

Staff only: the table cards carry the bankers' private links, the score sheets the
confirmation codes. Mounted under ``/manage/`` by ``scoring/print_urls.py``.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from config.queue import enqueue
from tournament import selectors
from tournament.models import Round, Tournament

from . import printing, tasks
from .printing import jobs

#: The technical detail shown in the translated "could not be queued" message (as before).
BROKER_DOWN = "the task broker (Redis) is not reachable"

DESCRIPTIONS = {
    "scoresheets": gettext_lazy(
        "One page per table: players, times, deed checklist, count, signatures, confirmation "
        "code and a QR code to the table's public page. Pre-filled once a game has ended."
    ),
    "seating": gettext_lazy("Who sits where, table by table (public names)."),
    "seating-names": gettext_lazy("Alphabetical by name with table and seat, for the entrance."),
    "cards": gettext_lazy(
        "Large table number and a QR code of the banker's private link. Hand each card to its "
        "banker; never hang it up."
    ),
    "standings": gettext_lazy("Standings after this round (public names)."),
    "certificates": gettext_lazy("Certificates for the first three places."),
}


def direct_max_pages() -> int:
    """Up to this many pages a document downloads at once; above, it runs as a background job."""
    return int(getattr(settings, "PRINT_DIRECT_MAX_PAGES", 60))


def base_url_for(request: HttpRequest) -> str:
    """The public address for the QR codes: the ``PUBLIC_BASE_URL`` setting, else this site."""
    configured = getattr(settings, "PUBLIC_BASE_URL", None)
    return (configured or request.build_absolute_uri("/")).rstrip("/")


def _lang(request: HttpRequest) -> str:
    lang = request.GET.get("lang") or request.POST.get("lang") or "de"
    if lang not in printing.LANGUAGES:
        raise Http404("unknown language")
    return lang


def _round(slug: str, number: int) -> Round:
    return get_object_or_404(Round.objects.select_related("tournament"), tournament__slug=slug,
                             number=number)


def _document(key: str) -> printing.Document:
    document = printing.DOCUMENTS.get(key)
    if document is None:
        raise Http404("unknown document")
    return document


@staff_member_required
@require_GET
def print_index(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's print page: the current round's (or the page listing the rounds)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    current = selectors.current_round(tournament)
    if current is not None:
        return redirect("print:round", slug=slug, number=current.number)
    return render(request, "scoring/print/round.html", {
        "tournament": tournament, "round": None, "rounds": list(tournament.rounds.all()),
        "documents": [], "jobs": [],
    })


@staff_member_required
@require_GET
@never_cache
def print_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = _round(slug, number)
    tournament = round_.tournament
    limit = direct_max_pages()
    rows = []
    for key, document in printing.DOCUMENTS.items():
        ctx = printing.context_for(key, tournament=tournament, round_=round_)
        pages = printing.expected_pages(key, ctx)
        rows.append({
            "key": key,
            "title": document.title(),
            "description": DESCRIPTIONS.get(key, ""),
            "pages": pages,
            "private": document.private,
            "direct": not document.batch or pages <= limit,
            "background": document.batch,
        })
    return render(request, "scoring/print/round.html", {
        "tournament": tournament,
        "round": round_,
        "rounds": list(tournament.rounds.all()),
        "documents": rows,
        "jobs": jobs.recent(tournament, round_),
        "limit": limit,
        "base_url": base_url_for(request),
    })


@staff_member_required
@require_GET
def print_download(request: HttpRequest, slug: str, number: int, document: str) -> HttpResponse:
    """The PDF, streamed page by page as it is drawn."""
    round_ = _round(slug, number)
    _document(document)
    lang = _lang(request)
    ctx = printing.context_for(document, tournament=round_.tournament, round_=round_, lang=lang,
                               base_url=base_url_for(request))
    chunks = printing.stream(document, tournament=round_.tournament, round_=round_, lang=lang,
                             base_url=ctx.base_url)
    response = StreamingHttpResponse(chunks, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{printing.filename(document, ctx)}"'
    response["Cache-Control"] = "no-store"
    return response


@staff_member_required
@require_POST
def print_start(request: HttpRequest, slug: str, number: int, document: str) -> HttpResponse:
    """Queue a background job for the document; off to its progress page."""
    round_ = _round(slug, number)
    _document(document)
    lang = _lang(request)
    tournament = round_.tournament
    ctx = printing.context_for(document, tournament=tournament, round_=round_, lang=lang,
                               base_url=base_url_for(request))
    job_id = jobs.create(
        tournament=tournament, round_=round_, document=document, lang=lang,
        base_url=ctx.base_url, filename=printing.filename(document, ctx),
        total=printing.expected_pages(document, ctx),
    )
    if not enqueue(tasks.print_document, job_id, tournament.pk, round_.number, document, lang,
                   ctx.base_url):
        # No sweep redoes a print job: say so instead of leaving it waiting forever.
        jobs.fail(job_id, BROKER_DOWN)
        messages.error(request, _("The print job could not be queued: %(error)s") % {
            "error": BROKER_DOWN})
    return redirect("print:job", slug=slug, job=job_id)


def _job(slug: str, job: str) -> dict:
    state = jobs.read(job)
    if state is None or state.get("tournament") != slug:
        raise Http404("no such print job (jobs are kept for a day)")
    return state


def _job_context(slug: str, state: dict) -> dict:
    total = max(int(state.get("total") or 0), 1)
    done = min(int(state.get("done") or 0), total)
    return {
        "job": state,
        "slug": slug,
        "percent": round(100 * done / total),
        "done": done,
        "total": total,
        "finished": state.get("state") in (jobs.DONE, jobs.FAILED),
        "title": _document(state["document"]).title() if state.get("document") in
        printing.DOCUMENTS else state.get("document", ""),
    }


@staff_member_required
@require_GET
@never_cache
def print_job(request: HttpRequest, slug: str, job: str) -> HttpResponse:
    state = _job(slug, job)
    tournament = get_object_or_404(Tournament, slug=slug)
    context = _job_context(slug, state)
    context["tournament"] = tournament
    context["round_number"] = state.get("round")
    return render(request, "scoring/print/job.html", context)


@staff_member_required
@require_GET
@never_cache
def print_progress(request: HttpRequest, slug: str, job: str) -> HttpResponse:
    """The progress bar (htmx polls it every second until the job is done or failed)."""
    return render(request, "scoring/print/_progress.html", _job_context(slug, _job(slug, job)))


@staff_member_required
@require_GET
def print_file(request: HttpRequest, slug: str, job: str) -> HttpResponse:
    state = _job(slug, job)
    path = jobs.path_for(job)
    if state.get("state") != jobs.DONE or not path.exists():
        raise Http404("the PDF is not ready")
    response = FileResponse(open(path, "rb"),  # noqa: SIM115 - FileResponse closes it
                            content_type="application/pdf", as_attachment=True,
                            filename=state.get("filename") or path.name)
    response["Cache-Control"] = "no-store"
    return response
