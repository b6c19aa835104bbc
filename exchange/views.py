"""The organizers' export download and import upload under ``/manage/`` (URL names in the
round desk's namespace: ``round_desk:export``, ``round_desk:import``)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from config.errors import DomainError
from exchange import jobs, tasks
from exchange import services as exchange
from tournament import access, staff
from tournament.access import Action
from tournament.models import Tournament


@access.require(Action.EXPORT)
@require_GET
@never_cache
def export_download(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    response = HttpResponse(exchange.export_json(tournament), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{export_filename(tournament)}"'
    return response


def export_filename(tournament: Tournament) -> str:
    return f"{tournament.slug}-{timezone.localdate():%Y-%m-%d}.json"


class ImportForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("Export file (JSON)"))
    slug = forms.SlugField(
        label=gettext_lazy("New short name"),
        required=False,
        max_length=60,
        help_text=gettext_lazy("Empty: the short name in the file (it must not be taken here)."),
    )


@access.require_login(access.may_create_tournaments)
@require_http_methods(["GET", "POST"])
def import_upload(request: HttpRequest) -> HttpResponse:
    form = ImportForm(request.POST or None, request.FILES or None)
    error = None
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            if upload.size > exchange.MAX_BYTES:
                raise exchange.ImportRefused(
                    exchange.TOO_BIG, params={"megabytes": exchange.MAX_BYTES // (1024 * 1024)}
                )
            if upload.size > jobs.INLINE_BYTES:  # a big one runs as a job: progress page
                job_id = tasks.start_import(data=upload.read(),
                                            slug=form.cleaned_data["slug"] or None,
                                            user=request.user)
                return redirect(reverse("round_desk:import-job", args=[job_id]))
            outcome = exchange.import_document(
                upload.read(), slug=form.cleaned_data["slug"] or None
            )
        except DomainError as refusal:
            error = refusal
        else:
            tournament = outcome.tournament
            staff.ensure_role(tournament=tournament, user=request.user, role=staff.Role.ORGANIZER)
            for warning in outcome.warnings:
                messages.warning(request, warning)
            messages.success(
                request,
                _("“%(name)s” was imported with %(players)s players and %(rounds)s rounds.")
                % {
                    "name": tournament.name,
                    "players": tournament.players.count(),
                    "rounds": tournament.rounds.count(),
                },
            )
            return redirect(reverse("organizer:tournament", args=[tournament.slug]))
    status = 400 if request.method == "POST" else 200
    return render(
        request, "exchange/import.html", {"form": form, "error": error}, status=status
    )


def _own_job(request: HttpRequest, job_id: str) -> dict:
    """The job, if this person started it (a job id is no secret to rely on)."""
    job = jobs.read(job_id)
    if not access.owns_job(request.user, job):
        raise Http404("no such import job")
    return job


def _job_context(request: HttpRequest, job: dict) -> dict:
    total = job.get("total") or 0
    done = job.get("done") or 0
    return {"job": job, "total": total or 1, "percent": (100 * done // total) if total else 0,
            "finished": job.get("state") in (jobs.DONE, jobs.FAILED),
            "lang": (request.LANGUAGE_CODE or "de")[:2]}


@access.require_login(access.may_create_tournaments)
@require_GET
@never_cache
def import_job(request: HttpRequest, job_id: str, *, fragment: bool = False) -> HttpResponse:
    """A big import's progress page; with ``fragment`` (its own URL) only the progress, which
    the page polls until the job is finished."""
    template = "exchange/_import_progress.html" if fragment else "exchange/import_job.html"
    return render(request, template, _job_context(request, _own_job(request, job_id)))
